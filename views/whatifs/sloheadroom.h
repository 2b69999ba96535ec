// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QFrame>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QDoubleSpinBox;
class QLabel;
class QVBoxLayout;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * SLO headroom: one line per ITL SLO against the batch-1 decode floor ("40 ms SLO = 3.1x the
 * 13.0 ms floor", evaluation.slo.itlHeadroom) and TTFT = queue wait + prefill against the TTFT SLO
 * (evaluation.slo.ttftMs, ttftHeadroom), formulas on hover. The queue wait (ms,
 * workload.queue_wait_ms) is an input that edits the ScenarioDocument.
 *
 * Object names: sloHeadroomTitle, queueWaitSpinBox, itlHeadroomLabel<i> (i from 0, in SLO order),
 * ttftHeadroomLabel.
 */
class SloHeadroomPanel final : public QFrame {
    Q_OBJECT

public:
    explicit SloHeadroomPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    void syncFromScenario();
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    QDoubleSpinBox* queueWaitSpinBox() const { return m_queueWait; }
    /** The ITL lines in use (one per SLO), in SLO order. */
    std::vector<QLabel*> itlLabels() const;
    QLabel* ttftLabel() const { return m_ttft; }

private:
    QLabel* ensureItlLabel(size_t index);

    ScenarioDocument* m_document = nullptr;
    QLabel* m_title = nullptr;
    QDoubleSpinBox* m_queueWait = nullptr;
    QVBoxLayout* m_itlLayout = nullptr;
    std::vector<QLabel*> m_itl;
    size_t m_itlUsed = 0;
    QLabel* m_ttft = nullptr;
};

} // namespace ridgeline::views
