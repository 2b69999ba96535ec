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
class ValueSlider;

/**
 * The capacity inputs and their figures, per GPU: HBM capacity (GB, hardware.memory_bytes),
 * memory utilisation (fraction, serving.memory_utilization), activation reserve (GB,
 * serving.activation_reserve_bytes), advertised max context (tokens, serving.max_context_tokens,
 * log slider) and paged-KV block size (tokens, serving.block_tokens). Below them: the KV budget,
 * KV per token per GPU, the KV one P-token request writes (GiB), whether the cache fits at (B, S)
 * and the longest context that fits at B.
 *
 * Every input edits the ScenarioDocument; syncFromScenario() re-reads them with signals blocked.
 * Object names: hbmSpinBox, memoryUtilizationSpinBox, activationReserveSpinBox, maxContextSlider /
 * maxContextSpinBox, blockSpinBox, capacityControlsTitle; values kvBudgetValue, kvPerTokenValue,
 * requestKvValue, fitsValue, maxContextAtBatchValue.
 */
class CapacityControls final : public QFrame {
    Q_OBJECT

public:
    explicit CapacityControls(ScenarioDocument* document, QWidget* parent = nullptr);

    /** Re-reads every input from the document's scenario, signals blocked. */
    void syncFromScenario();
    /** Rewrites the figures from the document's evaluated pair. */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    QDoubleSpinBox* hbmSpinBox() const { return m_hbm; }
    QDoubleSpinBox* memoryUtilizationSpinBox() const { return m_utilization; }
    QDoubleSpinBox* activationReserveSpinBox() const { return m_reserve; }
    ValueSlider* maxContextSlider() const { return m_maxContext; }
    QSpinBox* blockSpinBox() const { return m_block; }
    /** "KV of one P-token request": capacity.requestKvBytes in GiB. */
    QLabel* requestKvLabel() const { return m_requestKv; }

private:
    ScenarioDocument* m_document = nullptr;
    QLabel* m_title = nullptr;
    QDoubleSpinBox* m_hbm = nullptr;
    QDoubleSpinBox* m_utilization = nullptr;
    QDoubleSpinBox* m_reserve = nullptr;
    ValueSlider* m_maxContext = nullptr;
    QSpinBox* m_block = nullptr;
    QLabel* m_kvBudget = nullptr;
    QLabel* m_kvPerToken = nullptr;
    QLabel* m_requestKv = nullptr;
    QLabel* m_fits = nullptr;
    QLabel* m_maxContextAtBatch = nullptr;
    int m_fitsShown = -1; ///< the colour m_fits was last styled for (1 fits, 0 not, -1 never)
};

} // namespace ridgeline::views
