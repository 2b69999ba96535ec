// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QHash>
#include <QString>

#include "model/costmodel.h"
#include "model/scenario.h"

class QGridLayout;
class QLabel;

namespace ridgeline::views {

/**
 * The numbers panel: every headline figure of the evaluation with its unit, its formula on
 * hover. Each value is a QLabel named "<key>Number" (e.g. "stepNumber"); keys:
 * weights, kvPerToken, floor, step, read, kvShare, perUser, total, affine, ridge, decodeIntensity,
 * computeBoundBatch, sloBatches, prefillFlop, prefillTime, crossover, computeBoundPrompt,
 * attentionShare, kvWritten, kvBudget, fits, maxSequences.
 */
class NumbersPanel final : public QFrame {
    Q_OBJECT

public:
    explicit NumbersPanel(QWidget* parent = nullptr);

    /** Rewrites every value from @p evaluation of @p scenario (the document's evaluated pair). */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    /** The value label for @p key, or nullptr. */
    QLabel* valueLabel(const QString& key) const { return m_values.value(key, nullptr); }

private:
    void addSection(const QString& title);
    void addRow(const QString& key, const QString& label, const QString& formula);
    void setValue(const QString& key, const QString& text);

    QGridLayout* m_grid = nullptr;
    int m_row = 0;
    QHash<QString, QLabel*> m_values;
};

} // namespace ridgeline::views
