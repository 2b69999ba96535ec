// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

class QTextBrowser;

namespace ridgeline::views {

class PlotPanel;
class ScenarioDocument;

/** What one plot shows, for a class to follow the derivation: a sentence and the formulas with the
 *  live values filled in ("t_mem = R / (BW · η_bw) = 16.3 GB / (3.35 TB/s · 1) = 4.87 ms"). */
struct Explanation {
    QString title;
    QString summary;     ///< one or two sentences: what the plot shows and how to read it
    QStringList steps;   ///< formula = values = result, one per line
};

/** The explanation of plot @p index (0 decode floor, 1 roofline, 2 KV share, 3 prefill, 4 SLO)
 *  at @p evaluation of @p scenario. */
Explanation explainPlot(int index, const model::Scenario& scenario, const model::Evaluation& evaluation);

/**
 * "What this shows": a side panel (View > Explain plots) with every plot's explanation, redrawn from
 * the document's evaluation while visible (stale while hidden, redrawn when shown: no cost on the live
 * path), and the same text as the tooltip of each plot's title, built when the tooltip opens.
 * Object name "explainPanel"; the text is in explainBrowser().
 */
class ExplainPanel final : public QWidget {
    Q_OBJECT

public:
    ExplainPanel(ScenarioDocument* document, const QList<PlotPanel*>& panels, QWidget* parent = nullptr);

    QTextBrowser* explainBrowser() const { return m_browser; }

    /** The title tooltip of plot @p index as it would show now (plain text). */
    QString toolTipText(int index) const;

public slots:
    /** Rewrites the text if visible; otherwise marks it stale. */
    void refresh();

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ScenarioDocument* m_document;
    QList<PlotPanel*> m_panels;
    QTextBrowser* m_browser = nullptr;
    bool m_stale = true;
};

} // namespace ridgeline::views
