// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QSpinBox;
class QValueAxis;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * Workload shape: presets chat (2,000 in / 300 out), classification (1,000 / 20), RAG
 * (8,000 / 200) and custom, with prompt and output spin boxes (tokens) that set
 * workload.prompt_tokens / output_tokens, above a Qt Charts horizontal stacked bar of one
 * request's GPU time in prefill and in decode at the current batch, in ms
 * (workload.prefillSecondsPerRequest, decodeSecondsPerRequest; bar kAsIs), and the same request
 * with the prefix cache's expected saving taken off its prefill (prefixCache.savedSecondsPerRequest;
 * bar kWithPrefixCache). The bar sets hold two values each, replaced in place. The title names the
 * phase that owns the request's GPU time.
 *
 * Object names: workloadTitle, workloadPresetCombo, workloadPromptSpinBox, workloadOutputSpinBox,
 * workloadChart, workloadDetail.
 */
class WorkloadPanel final : public QFrame {
    Q_OBJECT

public:
    /** The preset rows of the combo, in order; Custom is last. */
    enum Preset { Chat, Classification, Rag, Custom };
    /** Bar indices in each set (a horizontal bar chart draws index 0 at the bottom). */
    static constexpr int kWithPrefixCache = 0;
    static constexpr int kAsIs = 1;

    explicit WorkloadPanel(ScenarioDocument* document, QWidget* parent = nullptr);

    void syncFromScenario();
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    QComboBox* presetCombo() const { return m_preset; }
    QSpinBox* promptSpinBox() const { return m_prompt; }
    QSpinBox* outputSpinBox() const { return m_output; }
    QChartView* chartView() const { return m_chartView; }
    /** Prefill GPU time per request (ms), at kAsIs and kWithPrefixCache. */
    QBarSet* prefillBarSet() const { return m_prefillSet; }
    /** Decode GPU time per request (ms), at kAsIs and kWithPrefixCache. */
    QBarSet* decodeBarSet() const { return m_decodeSet; }
    /** The takeaway, plain text. */
    QString takeaway() const { return m_takeaway; }

    /** The preset matching (prompt, output), or Custom. */
    static Preset presetFor(int promptTokens, int outputTokens);

private:
    ScenarioDocument* m_document = nullptr;
    QLabel* m_title = nullptr;
    QComboBox* m_preset = nullptr;
    QSpinBox* m_prompt = nullptr;
    QSpinBox* m_output = nullptr;
    QChartView* m_chartView = nullptr;
    QChart* m_chart = nullptr;
    QBarSet* m_prefillSet = nullptr;
    QBarSet* m_decodeSet = nullptr;
    QValueAxis* m_timeAxis = nullptr;
    QLabel* m_detail = nullptr;
    QString m_takeaway;
};

} // namespace ridgeline::views
