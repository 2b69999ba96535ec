// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "views/kit/plotpanel.h"

class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ridgeline::views {

class ScenarioDocument;
class ValueSlider;

/**
 * Speculative decoding: inputs acceptance alpha and verification cost c_v (sliders), drafted
 * tokens k and draft cost c_d (spin boxes), which edit scenario.speculative; figures expected
 * tokens per step, speedup and discarded fraction (evaluation.speculative); and a plot of the
 * speedup against c_v in [0, 1] (sweeps.verifyCost, speculativeSpeedup) with the 1.0 line, the
 * break-even c_v ("slowdown beyond c_v = 0.39"), the c_v the cost model implies at the current
 * (B, S) (speculative.modelVerifyCost) and the current c_v marked.
 *
 * Object names: speculativeTitle / speculativePlot; acceptanceSlider / acceptanceSpinBox,
 * verifyCostSlider / verifyCostSpinBox, draftTokensSpinBox, draftCostSpinBox; values
 * speculativeTokensValue, speculativeSpeedupValue, speculativeDiscardedValue.
 */
class SpeculativePlot final : public PlotPanel {
    Q_OBJECT

public:
    explicit SpeculativePlot(ScenarioDocument* document, QWidget* parent = nullptr);

    void syncFromScenario();
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation) override;

    ValueSlider* acceptanceSlider() const { return m_acceptance; }
    ValueSlider* verifyCostSlider() const { return m_verifyCost; }
    QSpinBox* draftTokensSpinBox() const { return m_draftTokens; }
    QDoubleSpinBox* draftCostSpinBox() const { return m_draftCost; }
    /** "2.31x": the speedup at the scenario's c_v. */
    QLabel* speedupLabel() const { return m_speedup; }
    QLabel* tokensLabel() const { return m_tokens; }
    QLabel* discardedLabel() const { return m_discarded; }

    /** (c_v, speedup) on the sweep grid. */
    QCPGraph* speedupGraph() const { return m_curve; }
    /** One point: (scenario c_v, speedup). */
    QCPGraph* currentMarker() const { return m_current; }
    /** Vertical line at the break-even c_v (hidden when it lies outside [0, 1]). */
    QCPItemStraightLine* breakEvenLine() const { return m_breakEvenLine; }
    /** Vertical line at the cost model's implied c_v at (B, S). */
    QCPItemStraightLine* modelLine() const { return m_modelLine; }

private:
    ScenarioDocument* m_document = nullptr;
    ValueSlider* m_acceptance = nullptr;
    ValueSlider* m_verifyCost = nullptr;
    QSpinBox* m_draftTokens = nullptr;
    QDoubleSpinBox* m_draftCost = nullptr;
    QLabel* m_tokens = nullptr;
    QLabel* m_speedup = nullptr;
    QLabel* m_discarded = nullptr;

    QCPGraph* m_curve = nullptr;
    QCPGraph* m_current = nullptr;
    QCPItemStraightLine* m_oneLine = nullptr;
    QCPItemStraightLine* m_breakEvenLine = nullptr;
    QCPItemStraightLine* m_modelLine = nullptr;
    QCPItemText* m_oneLabel = nullptr;
    QCPItemText* m_breakEvenLabel = nullptr;
    QCPItemText* m_modelLabel = nullptr;
};

} // namespace ridgeline::views
