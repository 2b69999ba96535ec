// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/explainpanel.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QScrollBar>
#include <QTextBrowser>
#include <QToolTip>
#include <QVBoxLayout>

#include "views/kit/palette.h"
#include "document/scenariodocument.h"

namespace ridgeline::views {

ExplainPanel::ExplainPanel(ScenarioDocument* document, const QList<FloorPlot*>& plots, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_plots(plots)
{
    setObjectName(QStringLiteral("explainPanel"));
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("explainBrowser"));
    m_browser->setOpenLinks(false);
    m_browser->setAccessibleName(tr("What each plot shows, with the live values"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_browser);
    for (FloorPlot* plot : m_plots)
        plot->titleLabel()->installEventFilter(this);
    connect(m_document, &ScenarioDocument::evaluated, this, &ExplainPanel::refresh);
}

QString ExplainPanel::toolTipText(int index) const
{
    const Explanation x = m_plots.value(index) ? m_plots[index]->explanation(m_document->evaluatedScenario(), m_document->evaluation())
                                               : explainPlot(index, m_document->evaluatedScenario(), m_document->evaluation());
    return x.title + QStringLiteral("\n") + x.summary + QStringLiteral("\n\n") + x.steps.join(QLatin1Char('\n'));
}

void ExplainPanel::refresh()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    const double scale = currentTheme().fontScale;
    QString html = QStringLiteral("<div style=\"font-size:%1pt;\">").arg(9.0 * scale, 0, 'f', 1);
    for (const FloorPlot* plot : m_plots) {
        const Explanation x = plot->explanation(m_document->evaluatedScenario(), m_document->evaluation());
        html += QStringLiteral("<p style=\"margin-top:6px\"><b style=\"font-size:%1pt\">%2</b><br>%3</p><p style=\"margin-left:6px\">")
                    .arg(10.0 * scale, 0, 'f', 1)
                    .arg(x.title.toHtmlEscaped(), x.summary.toHtmlEscaped());
        QStringList lines;
        for (const QString& step : x.steps)
            lines << QStringLiteral("<span style=\"color:%1\">%2</span>").arg(palette::css(palette::text()), step.toHtmlEscaped());
        html += lines.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    }
    html += QStringLiteral("</div>");
    const int scroll = m_browser->verticalScrollBar() ? m_browser->verticalScrollBar()->value() : 0;
    m_browser->setHtml(html);
    if (m_browser->verticalScrollBar())
        m_browser->verticalScrollBar()->setValue(scroll);
}

void ExplainPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

bool ExplainPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        for (int i = 0; i < m_plots.size(); ++i) {
            if (watched == m_plots[i]->titleLabel()) {
                QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), toolTipText(i), m_plots[i]->titleLabel());
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace ridgeline::views
