// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plainlabel.h"

#include <QFontMetrics>
#include <QRect>
#include <QStyle>
#include <QTextDocument>

namespace ridgeline::views {

PlainLabel::PlainLabel(const QString& text, QWidget* parent)
    : QLabel(text, parent)
{
}

bool PlainLabel::measuresOnce() const
{
    const bool plain = textFormat() == Qt::PlainText || (textFormat() == Qt::AutoText && !Qt::mightBeRichText(text()));
    return plain && !wordWrap() && pixmap().isNull() && !movie() && margin() == 0 && frameWidth() == 0
        && !text().contains(QLatin1Char('&')) && !text().isEmpty();
}

QSize PlainLabel::sizeHint() const
{
    ensurePolished(); // as QLabel: a style may set the font
    return measuresOnce() ? measured() : QLabel::sizeHint();
}

QSize PlainLabel::minimumSizeHint() const
{
    ensurePolished();
    // QLabel::minimumSizeHint() of a text that does not wrap: the one-line height and the widest word are the
    // whole text's rect, and its height is no more than sizeHint()'s (the same rect).
    return measuresOnce() ? measured() : QLabel::minimumSizeHint();
}

QSize PlainLabel::measured() const
{
    const QMargins margins = contentsMargins();
    if (m_valid && m_text == text() && m_font == font() && m_alignment == int(alignment()) && m_indent == indent()
        && m_margins == margins)
        return m_hintPx;
    m_text = text();
    m_font = font();
    m_alignment = int(alignment());
    m_indent = indent();
    m_margins = margins;
    // QLabelPrivate::sizeForWidth() (Qt 6.4) for a text label without margin, frame, word wrap or mnemonic.
    // The text's own direction, as QLabelPrivate::textDirection() for a label without a document.
    const int align = int(QStyle::visualAlignment(m_text.isRightToLeft() ? Qt::RightToLeft : Qt::LeftToRight, alignment()));
    int hextra = 0;
    int vextra = 0;
    if (m_indent > 0) { // (a negative indent without a frame adds nothing)
        if ((align & Qt::AlignLeft) || (align & Qt::AlignRight))
            hextra += m_indent;
        if ((align & Qt::AlignTop) || (align & Qt::AlignBottom))
            vextra += m_indent;
    }
    const QSize marginsPx(margins.left() + margins.right(), margins.top() + margins.bottom());
    // Centring off, as QLabel turns it off for the size (it only rounds the rect's place); a 2000 px box: a text
    // that does not wrap has the same rect in any box (QLabel's three widths).
    const int flags = align & ~(Qt::AlignVCenter | Qt::AlignHCenter);
    const QRect rect = QFontMetrics(m_font).boundingRect(0, 0, 2000 - (hextra + marginsPx.width()), 2000, flags, m_text);
    ++m_measurements;
    m_hintPx = (QSize(rect.width() + hextra, rect.height() + vextra) + marginsPx).expandedTo(minimumSize());
    m_valid = true;
    return m_hintPx;
}

} // namespace ridgeline::views
