// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QFrame>
#include <QList>
#include <QStringList>

#include "document/baseline.h"
#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"
#include "views/floors/headlinefigures.h"

class QGridLayout;
class QLabel;

namespace ridgeline::views {

/**
 * The numbers panel's comparison mode, shown in its place while a scenario is pinned: every headline
 * figure (views::headlineFigures) of each pinned scenario and of the live one, one column each, and
 * each one's ratio to the reference, the first pinned scenario (the lowest letter; the one the report's
 * ratios divide by too): green where it is better, red where it is worse. Object name "comparisonTable".
 *
 * With A alone pinned (the A/B comparison) the table is A / B / B ÷ A on one line per figure, cells
 * "<key>A", "<key>B", "<key>Ratio" (e.g. "step_msRatio"). With several pinned, a line of values (one
 * column per pinned scenario, then the live one) and under it a line of ratios to the reference; cells
 * "<key><letter>" of each pinned scenario ("step_msC"), "<key>Live" of the live one, "<key>Ratio<letter>"
 * of each pinned one but the reference and "<key>Ratio" of the live one.
 */
class ComparisonTable final : public QFrame {
    Q_OBJECT

public:
    explicit ComparisonTable(QWidget* parent = nullptr);

    /** Sets baseline A alone (once per pin): the one-item case of setPinned(). */
    void setBaseline(const model::Scenario& scenario, const model::Evaluation& evaluation);
    /** Sets the pinned scenarios (once per pin, unpin or clear): their figures are computed here, once. */
    void setPinned(const document::PinnedScenarios& pinned);

    /** Rewrites the live column and the ratios from the live evaluated pair. */
    void refresh(const model::Scenario& scenario, const model::Evaluation& evaluation);

    /** The cell @p column ("A" to "F", "B" / "Live" for the live one, "Ratio" or "Ratio<letter>") of figure @p key, or nullptr. */
    QLabel* cell(const QString& key, const QString& column) const;
    /** The column headings, left to right ("A", "B", "B ÷ A"; or "A", "C", "live"). */
    QStringList headings() const;
    /** The name of the live column's cells: "B" beside A alone, else "Live". */
    QString liveColumn() const;

private:
    /** One pinned scenario's column: its letter, name and headline figures. */
    struct Column {
        int slot = 0;
        QString letter;
        QString name;
        std::vector<HeadlineFigure> figures;
    };
    /** One figure's cells. */
    struct Row {
        QLabel* name = nullptr;
        QList<QLabel*> pinned;       ///< one per column
        QLabel* live = nullptr;
        QList<QLabel*> pinnedRatios; ///< one per column but the reference (index 0 is nullptr)
        QLabel* liveRatio = nullptr;
    };

    void rebuildGrid(int rowCount);
    bool twoWay() const { return m_columns.size() == 1; }

    QLabel* m_heading = nullptr;
    QGridLayout* m_grid = nullptr;
    QWidget* m_content = nullptr;
    std::vector<Column> m_columns; ///< the pinned scenarios, in slot order; the first is the reference
    QList<QLabel*> m_headers;
    std::vector<Row> m_rows;
    bool m_gridStale = true; ///< the pinned set changed: rebuild the cells on the next refresh
};

} // namespace ridgeline::views
