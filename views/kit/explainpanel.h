// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include "views/floors/floorplot.h"

class QTextBrowser;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * "What this shows": a side panel (View > Explain plots) with every floor plot's explanation
 * (FloorPlot::explanation(), in the order of the plots given), redrawn from
 * the document's evaluation while visible (stale while hidden, redrawn when shown: no cost on the live
 * path), and the same text as the tooltip of each plot's title, built when the tooltip opens.
 * Object name "explainPanel"; the text is in explainBrowser().
 */
class ExplainPanel final : public QWidget {
    Q_OBJECT

public:
    ExplainPanel(ScenarioDocument* document, const QList<FloorPlot*>& plots, QWidget* parent = nullptr);

    QTextBrowser* explainBrowser() const { return m_browser; }

    /** The title tooltip of plot @p index (of the plots given) as it would show now (plain text). */
    QString toolTipText(int index) const;

public slots:
    /** Rewrites the text if visible; otherwise marks it stale. */
    void refresh();

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    ScenarioDocument* m_document;
    QList<FloorPlot*> m_plots;
    QTextBrowser* m_browser = nullptr;
    bool m_stale = true;
};

} // namespace ridgeline::views
