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
class QScrollArea;

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
 *
 * Stacked when those columns do not fit the width (issue 14, G: at a 1280 px window the cell scrolled sideways and cut
 * off the figure names and the first columns): each figure's name, then one line per scenario (its letter, its value,
 * its ratio), three narrow columns under one header ("B ÷ A", or "÷ A" beside several); the same cells by the same
 * names. Back to columns when the width allows them again (stacked()).
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
    /** True while the figures are stacked (one line per scenario) because the columns do not fit the width. */
    bool stacked() const { return m_stacked; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

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
    /** Writes the live figures @p b of the scenario named @p liveName into the cells (rebuilding them when stale). */
    void showLive(const std::vector<HeadlineFigure>& b, const QString& liveName);
    /** Stacks the figures when the columns need more than the view's width, unstacks them when it has room again. */
    void fitToWidth();
    bool twoWay() const { return m_columns.size() == 1; }

    QLabel* m_heading = nullptr;
    QGridLayout* m_grid = nullptr;
    QWidget* m_content = nullptr;
    std::vector<Column> m_columns; ///< the pinned scenarios, in slot order; the first is the reference
    QList<QLabel*> m_headers;
    std::vector<Row> m_rows;
    bool m_gridStale = true; ///< the pinned set changed: rebuild the cells on the next refresh
    QScrollArea* m_scroll = nullptr;
    bool m_stacked = false;
    int m_columnsWidth = 0;  ///< the width the columns needed when last laid out side by side (px; 0: unknown)
    bool m_fitting = false;  ///< inside fitToWidth(): no re-entry
    std::vector<HeadlineFigure> m_live; ///< the live figures last shown
    QString m_liveName;
};

} // namespace ridgeline::views
