// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/plotpanel.h"

#include <QLabel>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "views/palette.h"
#include "views/plotkit.h"

namespace ridgeline::views {

PlotPanel::PlotPanel(const QString& heading, const QString& stem, const QString& formulaToolTip, QWidget* parent)
    : QFrame(parent)
    , m_heading(heading)
{
    setObjectName(stem + QStringLiteral("Panel"));
    setFrameShape(QFrame::NoFrame);
    setStyleSheet(QStringLiteral("QFrame#%1 { background: %2; border: 1px solid %3; border-radius: 6px; }")
                      .arg(objectName(), palette::css(palette::card()), palette::css(palette::cardBorder())));

    m_title = new QLabel(this);
    m_title->setObjectName(stem + QStringLiteral("Title"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setToolTip(formulaToolTip);
    m_title->setStyleSheet(QStringLiteral("QLabel { color: %1; background: transparent; border: none; }")
                               .arg(palette::css(palette::text())));
    m_title->setAccessibleName(heading);

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(stem + QStringLiteral("Plot"));
    m_plot->setToolTip(formulaToolTip);
    m_plot->setAccessibleName(heading + tr(" plot"));
    plotkit::setupPlot(m_plot);
    // Legend rows follow the width; labels flip to stay inside once the layout is final.
    connect(m_plot, &QCustomPlot::beforeReplot, this, [this] { plotkit::fitLegend(m_plot); });
    connect(m_plot, &QCustomPlot::afterLayout, this, [this] { plotkit::fitLabels(m_plot); });

    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(10, 8, 10, 6);
    m_layout->setSpacing(4);
    m_layout->addWidget(m_title);
    m_layout->addWidget(m_plot, 1);

    setTakeaway(QString());
}

void PlotPanel::setTakeaway(const QString& text)
{
    m_takeaway = text;
    const QString html = QStringLiteral("<span style=\"font-size:10.5pt; font-weight:600;\">%1</span>"
                                        "<br><span style=\"font-size:9pt;\">%2</span>")
                             .arg(m_heading.toHtmlEscaped(), text.toHtmlEscaped());
    if (m_title->text() != html)
        m_title->setText(html);
    m_title->setAccessibleDescription(text);
}

} // namespace ridgeline::views
