// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/plotpanel.h"

#include <algorithm>

#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "views/palette.h"
#include "views/plotkit.h"

namespace ridgeline::views {

LabelBox::LabelBox(QLabel* label, bool growOnly, QWidget* parent)
    : QWidget(parent)
    , m_label(label)
    , m_growOnly(growOnly)
{
    label->setParent(this);
    setSizePolicy(label->sizePolicy());
}

QSize LabelBox::sizeHint() const
{
    return m_label->isHidden() ? QSize(0, 0) : m_label->sizeHint();
}

QSize LabelBox::minimumSizeHint() const
{
    return m_label->isHidden() ? QSize(0, 0) : m_label->minimumSizeHint();
}

bool LabelBox::hasHeightForWidth() const
{
    return m_label->hasHeightForWidth();
}

int LabelBox::heightForWidth(int width) const
{
    const int needed = m_label->isHidden() ? 0 : m_label->heightForWidth(width);
    return m_growOnly && width == m_fittedWidth ? std::max(needed, m_fittedHeight) : needed;
}

bool LabelBox::event(QEvent* event)
{
    // Posted by the label's updateGeometry(): the box has no layout of its own.
    if (event->type() == QEvent::LayoutRequest) {
        fit();
        return true;
    }
    return QWidget::event(event);
}

void LabelBox::resizeEvent(QResizeEvent* event)
{
    m_label->setGeometry(rect());
    fit();
    QWidget::resizeEvent(event);
}

void LabelBox::showEvent(QShowEvent* event)
{
    fit(); // no LayoutRequest reaches a hidden box
    QWidget::showEvent(event);
}

void LabelBox::fit()
{
    const int width = this->width();
    const int needed = m_label->isHidden() ? 0 : m_label->heightForWidth(width);
    const bool grow = m_growOnly && width == m_fittedWidth;
    m_fittedHeight = grow ? std::max(m_fittedHeight, needed) : needed;
    m_fittedWidth = width;
    if (m_fittedHeight != height())
        updateGeometry();
}

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
    m_titleBox = new LabelBox(m_title, true, this);
    m_titleBox->setObjectName(stem + QStringLiteral("TitleBox"));

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
    m_layout->addWidget(m_titleBox);
    m_layout->addWidget(m_plot, 1);

    setTakeaway(QString());
}

void PlotPanel::replotNow()
{
    QCoreApplication::sendPostedEvents(m_plot, QEvent::MetaCall);
}

void PlotPanel::setTakeaway(const QString& text)
{
    m_takeaway = text;
    const double scale = currentTheme().fontScale; // presentation mode: larger titles
    const QString html = QStringLiteral("<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                                        "<br><span style=\"font-size:%2pt;\">%4</span>")
                             .arg(10.5 * scale, 0, 'f', 1)
                             .arg(9.0 * scale, 0, 'f', 1)
                             .arg(m_heading.toHtmlEscaped(), text.toHtmlEscaped());
    if (m_title->text() != html)
        m_title->setText(html);
    m_title->setAccessibleDescription(text);
}

} // namespace ridgeline::views
