// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * Prefix caching: shared prefix tokens (serving.prefix_tokens) and hit rate (%, stored as the
 * fraction serving.prefix_hit_rate) as inputs; the prefill work (TFLOP) and TTFT (ms) saved per
 * request and the relative change in GPU cost per output token as figures (evaluation.prefixCache),
 * seed 001's worked example on hover.
 *
 * Object names: prefixCacheTitle, prefixTokensSpinBox, prefixHitRateSpinBox; values
 * prefixSharedValue, prefixPerTokenValue, prefixWorkValue, prefixTtftValue, prefixCostValue.
 */
class PrefixCachePanel final : public QFrame {
    Q_OBJECT

public:
    explicit PrefixCachePanel(ScenarioDocument* document, QWidget* parent = nullptr);

    void syncFromScenario();
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    QSpinBox* prefixTokensSpinBox() const { return m_tokens; }
    QDoubleSpinBox* hitRateSpinBox() const { return m_hitRate; }
    QLabel* ttftSavedLabel() const { return m_ttft; }
    QLabel* costChangeLabel() const { return m_cost; }

private:
    ScenarioDocument* m_document = nullptr;
    QLabel* m_title = nullptr;
    QSpinBox* m_tokens = nullptr;
    QDoubleSpinBox* m_hitRate = nullptr;
    QLabel* m_shared = nullptr;
    QLabel* m_perToken = nullptr;
    QLabel* m_work = nullptr;
    QLabel* m_ttft = nullptr;
    QLabel* m_cost = nullptr;
};

} // namespace ridgeline::views
