// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include "views/kit/plotpanel.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;

namespace ridgeline::views {

class NoFitRegion;

/**
 * "Concurrent sequences against advertised max context": how many sequences the KV budget holds
 * (per GPU) when each reserves the advertised max context S_max contiguously
 * (sweeps.sequencesContiguous) against paging by the tokens each sequence actually holds,
 * min(S, S_max) in blocks (sweeps.sequencesPaged); x = S_max from 2k to 1M tokens (log), y =
 * sequences (linear, so zero is drawn). The current S_max is marked on both curves, and the range
 * where contiguous reservation fits no sequence at all is shaded.
 */
class CapacityPlot final : public PlotPanel {
    Q_OBJECT

public:
    explicit CapacityPlot(QWidget* parent = nullptr);
    ~CapacityPlot() override;

    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;

    /** (S_max tokens, sequences) on the sweep grid: equals sweeps.maxContext / sequencesContiguous. */
    QCPGraph* contiguousGraph() const { return m_contiguous; }
    /** (S_max tokens, sequences): equals sweeps.maxContext / sequencesPaged. */
    QCPGraph* pagedGraph() const { return m_paged; }
    /** One point each at the current S_max. */
    QCPGraph* contiguousMarker() const { return m_contiguousMarker; }
    QCPGraph* pagedMarker() const { return m_pagedMarker; }
    /** The shaded range where one contiguous reservation no longer fits. */
    NoFitRegion* noFitRegion() const { return m_noFit.get(); }

private:
    QCPGraph* m_contiguous = nullptr;
    QCPGraph* m_paged = nullptr;
    QCPGraph* m_contiguousMarker = nullptr;
    QCPGraph* m_pagedMarker = nullptr;
    QCPItemStraightLine* m_currentLine = nullptr;
    QCPItemText* m_contiguousLabel = nullptr;
    QCPItemText* m_pagedLabel = nullptr;
    std::unique_ptr<NoFitRegion> m_noFit;
};

} // namespace ridgeline::views
