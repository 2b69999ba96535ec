// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QHash>
#include <QSet>
#include <QString>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QGridLayout;
class QTimer;
class QLabel;

namespace ridgeline::views {

class DocumentLabel;

/**
 * The numbers panel: every headline figure of the evaluation with its unit, its formula on
 * hover. Each value is a QLabel named "<key>Number" (e.g. "stepNumber"); keys:
 * params, residentWeights, weights (read per step per GPU), kvPerToken, kvPerTokenPerGpu, experts,
 * floor, allExpertsFloor, step, comm, read, kvShare, perUser, total, affine, ridge, computePeak,
 * decodeIntensity, computeBoundBatch, sloBatches, prefillFlop, prefillTime, crossover,
 * computeBoundPrompt, attentionShare, kvWritten, kvBudget, fits, maxSequences; the economics (views::economicsTexts): at
 * the operating point (B, S), as t_step, price, costOutputAtPoint, joulesPerTokenAtPoint, tokensPerMegawattAtPoint ("does
 * not fit" where the cache at (B, S) does not); per request of P in and O out, costOutput (the decode share, labelled so), costOutputAllIn (every GPU-second charged to
 * output, as --report's cost_per_million_output_tokens_all_in), costInput, joulesPerToken, tokensPerMegawatt ("\u2013" where
 * the price or the power is unknown, the tool tip saying what to set).
 *
 * Rows that do not apply are hidden (rowVisible()): kvPerTokenPerGpu and comm at T = 1, experts and
 * allExpertsFloor for a dense model. With T > 1 bytes read and capacity are labelled per GPU.
 *
 * Each value label sits in a LabelBox in the grid, so a slider step that changes a value but not its
 * height repaints that label without re-laying out the panel; refresh() sets only texts that changed.
 * The boxes are grow-only while refreshes follow each other (a drag): a value that wraps to fewer
 * lines keeps its height, so the rows below do not jump and the grid is not laid out again on every
 * rewrap; 600 ms after the last refresh the boxes give back what they no longer need (issue 16, h16k).
 */
class NumbersPanel final : public QFrame {
    Q_OBJECT

public:
    explicit NumbersPanel(QWidget* parent = nullptr);

    /** Rewrites every value from @p evaluation of @p scenario (the document's evaluated pair). */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    /** The value label for @p key, or nullptr. */
    QLabel* valueLabel(const QString& key) const;

    /** The value boxes give back the height they hold beyond what their values need now (run 600 ms after the
     *  last refresh(); see the class comment). */
    void relaxHeights();

    /** The wait after the last refresh() before relaxHeights() runs (600 ms; the benchmark stretches it under valgrind,
     *  where a step takes seconds of wall time). */
    void setRelaxDelay(int ms);

    /** False when the row for @p key is hidden because it does not apply to the scenario. */
    bool rowVisible(const QString& key) const { return !m_hidden.contains(key); }

private:
    /** "Numbers" and the hint, in pt sizes scaled by the theme's fontScale (presentation mode). */
    static QString headingHtml();
    void addSection(const QString& title);
    void addRow(const QString& key, const QString& label, const QString& formula);
    /** Replaces the tool tip (and accessible description) of row @p key's name and value. */
    void setFormula(const QString& key, const QString& formula);
    void setValue(const QString& key, const QString& text);
    void setRowVisible(const QString& key, bool visible);

    QGridLayout* m_grid = nullptr;
    QTimer* m_relax = nullptr; ///< single shot, restarted by refresh(): the value boxes give back unneeded height
    QLabel* m_heading = nullptr; ///< "numbersTitle"
    int m_row = 0;
    QHash<QString, DocumentLabel*> m_values;
    QHash<QString, QLabel*> m_names;
    QSet<QString> m_hidden;
};

} // namespace ridgeline::views
