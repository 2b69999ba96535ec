// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotpanel.h"

#include <algorithm>

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QPaintEvent>
#include <QPainter>
#include <QPalette>
#include <QStyleOption>
#include <QTextDocument>
#include <QVBoxLayout>
#include <QtMath>

#include <qcustomplot.h>

#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"

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

void LabelBox::setCardFill(bool on)
{
    m_cardFill = on;
    setAttribute(Qt::WA_OpaquePaintEvent, on);
    update();
}

void LabelBox::paintEvent(QPaintEvent* event)
{
    if (m_cardFill) {
        QPainter painter(this);
        painter.fillRect(event->rect(), palette::card());
    }
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

DocumentLabel::DocumentLabel(QWidget* parent)
    : QLabel(parent)
{
    m_document.setUndoRedoEnabled(false);
    m_document.setDocumentMargin(0); // QLabel sets its root frame's margin to 0
}

int DocumentLabel::heightForWidth(int width) const
{
    if (!ownsLayout())
        return QLabel::heightForWidth(width);
    // As QLabel::sizeForWidth() without margin, indent or frame: the document's size, rounded up.
    const QMargins margins = contentsMargins();
    const QTextDocument& doc = document(std::max(width - margins.left() - margins.right(), 0));
    const QSize size(qCeil(doc.size().width()), qCeil(doc.size().height()));
    return size.grownBy(margins).expandedTo(minimumSize()).height();
}

void DocumentLabel::paintEvent(QPaintEvent* event)
{
    if (!ownsLayout() || hasSelectedText() || hasFocus()) {
        QLabel::paintEvent(event);
        return;
    }
    // As QLabel::paintEvent() for a text label: the document at the contents rect, moved down by
    // the vertical alignment, clipped to it, text in the label's foreground colour.
    const QRect contents = contentsRect();
    const QTextDocument& doc = document(contents.width());
    const qreal height = doc.documentLayout()->documentSize().height();
    qreal offset = 0;
    if (alignment() & Qt::AlignVCenter)
        offset = std::max((contents.height() - height) / 2, qreal(0));
    else if (alignment() & Qt::AlignBottom)
        offset = std::max(contents.height() - height, qreal(0));
    const QRect area = QRectF(contents.x(), contents.y() + offset, contents.width(), contents.height()).toAlignedRect();
    QAbstractTextDocumentLayout::PaintContext context;
    QStyleOption option;
    option.initFrom(this);
    context.palette = option.palette;
    if (foregroundRole() != QPalette::Text && isEnabled())
        context.palette.setColor(QPalette::Text, context.palette.color(foregroundRole()));
    QPainter painter(this);
    painter.translate(area.topLeft());
    painter.setClipRect(QRect(QPoint(0, 0), area.size()));
    doc.documentLayout()->draw(&painter, context);
}

bool DocumentLabel::isRich() const
{
    return textFormat() == Qt::RichText || (textFormat() == Qt::AutoText && Qt::mightBeRichText(text()));
}

bool DocumentLabel::ownsLayout() const
{
    // QLabel keeps a document (the one this class mirrors) for rich text and for selectable text.
    const bool document = isRich() || (textInteractionFlags() & (Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard));
    return document && textFormat() != Qt::MarkdownText && wordWrap() && margin() == 0 && indent() < 0
        && frameWidth() == 0 && pixmap().isNull();
}

QSize DocumentLabel::sizeHint() const
{
    ensurePolished(); // as QLabel: a style may set the font
    if (!ownsLayout() || minimumWidth() > 0 || text().isEmpty()) // (QLabel measures no empty text)
        return QLabel::sizeHint();
    measureHints();
    return m_hintPx.expandedTo(minimumSize());
}

QSize DocumentLabel::minimumSizeHint() const
{
    ensurePolished();
    if (!ownsLayout() || minimumWidth() > 0 || text().isEmpty())
        return QLabel::minimumSizeHint();
    measureHints();
    // QLabel::minimumSizeHint(): each part of the size for a width, the height no more than sizeHint()'s.
    const QSize minimum = m_minimumHintPx.expandedTo(minimumSize());
    return QSize(minimum.width(), std::min(minimum.height(), m_hintPx.expandedTo(minimumSize()).height()));
}

void DocumentLabel::measureHints() const
{
    syncDocument(); // resets m_hintMarginsPx on a new text
    const QMargins margins = contentsMargins();
    const QSize marginsPx(margins.left() + margins.right(), margins.top() + margins.bottom());
    if (marginsPx == m_hintMarginsPx)
        return;
    // QLabelPrivate::sizeForWidth() for a word-wrapped text label without margin, indent or frame:
    // -1 (the golden-ratio shape of QTextDocument::adjustSize()), QWIDGETSIZE_MAX (one line), 0
    // (the widest word). The document keeps the last width; document() lays it out again at the
    // label's width when painted or asked for a height.
    auto ceiled = [this](const QSize& extraPx) {
        const QSizeF size = m_document.size();
        return QSize(qCeil(size.width()), qCeil(size.height())) + extraPx;
    };
    m_document.adjustSize();
    m_hintPx = ceiled(marginsPx);
    m_document.setTextWidth(std::max(QWIDGETSIZE_MAX - marginsPx.width(), 0));
    const int oneLineHeightPx = ceiled(marginsPx).height();
    m_document.setTextWidth(0);
    m_minimumHintPx = QSize(ceiled(marginsPx).width(), oneLineHeightPx);
    m_hintMarginsPx = marginsPx;
}

void DocumentLabel::syncDocument() const
{
    if (m_text == text() && m_font == font() && m_alignment == alignment())
        return;
    m_text = text();
    m_font = font();
    m_alignment = alignment();
    m_hintMarginsPx = QSize(-1, -1);
    if (!m_document.isEmpty())
        m_document.clear(); // the settings below then re-lay out an empty document, not the old text
    QTextOption option = m_document.defaultTextOption();
    option.setAlignment(m_alignment);
    option.setWrapMode(QTextOption::WordWrap);
    m_document.setDefaultTextOption(option);
    m_document.setDefaultFont(m_font);
    if (isRich())
        m_document.setHtml(m_text);
    else
        m_document.setPlainText(m_text);
}

const QTextDocument& DocumentLabel::document(int width) const
{
    if (m_text != text() || m_font != font() || m_alignment != alignment()) {
        m_document.clear();
        m_document.setTextWidth(width); // the text then lays out once, at this width
        syncDocument();
    } else if (m_document.textWidth() != width) {
        m_document.setTextWidth(width);
    }
    return m_document;
}

PlotPanel::PlotPanel(const QString& heading, const QString& stem, const QString& formulaToolTip, QWidget* parent)
    : QFrame(parent)
    , m_heading(heading)
{
    setObjectName(stem + QStringLiteral("Panel"));
    setFrameShape(QFrame::NoFrame);
    setStyleSheet(QStringLiteral("QFrame#%1 { background: %2; border: 1px solid %3; border-radius: 6px; }")
                      .arg(objectName(), palette::css(palette::card()), palette::css(palette::cardBorder())));

    m_title = new DocumentLabel(this);
    m_title->setObjectName(stem + QStringLiteral("Title"));
    m_title->setTextFormat(Qt::RichText);
    m_title->setWordWrap(true);
    m_title->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setToolTip(formulaToolTip);
    // The colour through the palette, as a style sheet "QLabel { color: ... }" set it (applyTheme() maps
    // both): a label with a style sheet of its own is re-polished when the box below takes it.
    QPalette titlePalette = m_title->palette();
    titlePalette.setColor(QPalette::WindowText, palette::text());
    titlePalette.setColor(QPalette::Text, palette::text());
    m_title->setPalette(titlePalette);
    m_title->setAccessibleName(heading);
    m_titleBox = new LabelBox(m_title, true, this);
    m_titleBox->setCardFill(true);
    m_titleBox->setObjectName(stem + QStringLiteral("TitleBox"));

    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(stem + QStringLiteral("Plot"));
    m_plot->setAccessibleName(heading + tr(" plot"));
    plotkit::setupPlot(m_plot);
    // Hover read-out, zoom and pan, context menu; the formulas under "Show formula" (and on the title's
    // tool tip: on the plot a tool tip would cover the read-out).
    m_interaction = PlotInteraction::install(m_plot, formulaToolTip);
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

void PlotPanel::keepForReadout(const model::Scenario& scenario)
{
    m_readoutScenario = scenario;
    m_hasReadoutScenario = true;
}

void PlotPanel::replotNow()
{
    QCoreApplication::sendPostedEvents(m_plot, QEvent::MetaCall);
}

bool PlotPanel::sameInputsAsDrawn(const QByteArray& inputs)
{
    if (!inputs.isEmpty() && inputs == m_drawnInputs)
        return true;
    m_drawnInputs = inputs;
    return false;
}

void PlotPanel::setTakeaway(const QString& text)
{
    m_takeaway = text;
    renderTitle();
}

void PlotPanel::setWarning(const QString& text)
{
    if (text == m_warning)
        return;
    m_warning = text;
    renderTitle();
}

void PlotPanel::renderTitle()
{
    const double scale = currentTheme().fontScale; // presentation mode: larger titles
    const QString warning = m_warning.isEmpty()
        ? QString()
        : QStringLiteral("<span style=\"font-size:%1pt; font-weight:600; color:%2;\">%3</span><br>")
              .arg(9.0 * scale, 0, 'f', 1)
              .arg(palette::css(palette::error()), m_warning.toHtmlEscaped());
    const QString html = QStringLiteral("<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                                        "<br>%5<span style=\"font-size:%2pt;\">%4</span>")
                             .arg(10.5 * scale, 0, 'f', 1)
                             .arg(9.0 * scale, 0, 'f', 1)
                             .arg(m_heading.toHtmlEscaped(), m_takeaway.toHtmlEscaped(), warning);
    if (m_title->text() != html)
        m_title->setText(html);
    m_title->setAccessibleDescription(takeaway());
}

QString weightsFitWarning(const model::Scenario& s, const model::Evaluation& e)
{
    if (e.capacity.weightsFit)
        return {};
    const int gpus = std::max(1, s.hardware.gpus);
    const double usable = s.hardware.memoryBytes * s.serving.memoryUtilization - s.serving.activationReserveBytes;
    return PlotPanel::tr("Does not fit: %1 of weights per GPU > %2 usable (%3 HBM \u00d7 %4%5). No batch can be served; "
                         "the curves show what it would cost if it fitted.")
        .arg(format::gigabytes(e.decode.residentWeightBytes / gpus), format::gigabytes(std::max(0.0, usable)),
             format::gigabytes(s.hardware.memoryBytes), format::plain(s.serving.memoryUtilization),
             s.serving.activationReserveBytes > 0
                 ? PlotPanel::tr(" \u2212 %1 activations").arg(format::gigabytes(s.serving.activationReserveBytes))
                 : QString());
}

} // namespace ridgeline::views
