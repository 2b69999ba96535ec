// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QLabel>
#include <QMargins>
#include <QSize>
#include <QString>

namespace ridgeline::views {

/**
 * A QLabel in every respect whose size hints, for a plain text on one line, are measured with one text layout
 * instead of QLabel's three (issue 16, eighteenth stop in docs/performance.md).
 *
 * QLabel::minimumSizeHint() measures a text label three times (QLabelPrivate::sizeForWidth() at -1, at
 * QWIDGETSIZE_MAX and at 0: the golden-ratio shape, the one-line height, the widest word), each a
 * QFontMetrics::boundingRect() that lays the text out and shapes it again (HarfBuzz). For a text that does not wrap
 * the three are the same rect. Here, for plain text (Qt::PlainText, or Qt::AutoText that Qt::mightBeRichText() does
 * not take for rich text) without word wrap, pixmap, movie, margin, mnemonic ('&') or frame, both hints are that
 * one rect as QLabel computes it: QFontMetrics::boundingRect() of the text in a 2000 px box with the label's
 * alignment less its centring flags, plus the indent (on the aligned sides, as QLabel adds it) and the contents
 * margins, expanded to the minimum size then in force; remembered until the text, font, alignment, indent or
 * contents margins change (QLabel's own hints are kept until then too: a later minimum size does not renew them). Anything else is left to QLabel. Painting, selection and the rest are QLabel's.
 */
class PlainLabel final : public QLabel {
public:
    explicit PlainLabel(const QString& text = QString(), QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /** True when the hints are this class's own measurement (the settings above), false when QLabel's. */
    bool measuresOnce() const;
    /** How many times this label has measured its text (QFontMetrics::boundingRect()) for its hints since it was
     *  made: one per text, font, alignment, indent or contents margins it was asked with. For tests. */
    int measurements() const { return m_measurements; }

private:
    /** The hint for the current settings, measured when one of them changed since the last measurement. */
    QSize measured() const;

    mutable QString m_text;
    mutable QFont m_font;
    mutable int m_alignment = -1;
    mutable int m_indent = 0;
    mutable QMargins m_margins;
    mutable QSize m_hintPx;
    mutable bool m_valid = false;
    mutable int m_measurements = 0;
};

} // namespace ridgeline::views
