// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QFrame>
#include <QList>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"
#include "views/floors/headlinefigures.h"

class QGridLayout;
class QLabel;

namespace ridgeline::views {

/**
 * The numbers panel's compact A / B mode, shown in its place while a baseline is pinned: every
 * headline figure (views::headlineFigures) of baseline A, of the live scenario B, and B ÷ A,
 * the ratio green where B is better and red where it is worse. Object name "comparisonTable";
 * cells "<key>A", "<key>B", "<key>Ratio" (e.g. "step_msRatio").
 */
class ComparisonTable final : public QFrame {
    Q_OBJECT

public:
    explicit ComparisonTable(QWidget* parent = nullptr);

    /** Sets baseline A (once per pin). */
    void setBaseline(const model::Scenario& scenario, const model::Evaluation& evaluation);

    /** Rewrites the B and ratio columns from the live evaluated pair. */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    /** The cell @p column ("A", "B" or "Ratio") of figure @p key, or nullptr. */
    QLabel* cell(const QString& key, const QString& column) const;

private:
    void rebuildRows(int count);

    QLabel* m_heading = nullptr;
    QGridLayout* m_grid = nullptr;
    model::Scenario m_baseline;
    std::vector<HeadlineFigure> m_baselineFigures; ///< A's, computed once per pin
    QList<QLabel*> m_names, m_a, m_b, m_ratio;
};

} // namespace ridgeline::views
