// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QFont>
#include <QLabel>
#include <QMargins>
#include <QSize>
#include <QString>

class QPainter;
class QTextLayout;

namespace ridgeline::views {

/**
 * A QLabel in every respect whose size hints, for a plain text on one line, are measured with one text layout
 * instead of QLabel's three (issue 16, eighteenth stop in docs/performance.md), and which paints that text from the
 * same layout (twenty-fourth stop).
 *
 * QLabel::minimumSizeHint() measures a text label three times (QLabelPrivate::sizeForWidth() at -1, at
 * QWIDGETSIZE_MAX and at 0: the golden-ratio shape, the one-line height, the widest word), each a
 * QFontMetrics::boundingRect() that lays the text out and shapes it again (HarfBuzz). For a text that does not wrap
 * the three are the same rect. Here, for plain text (Qt::PlainText, or Qt::AutoText that Qt::mightBeRichText() does
 * not take for rich text) without word wrap, pixmap, movie, margin, mnemonic ('&') or frame, both hints are that
 * one rect as QLabel computes it: QFontMetrics::boundingRect() of the text in a 2000 px box with the label's
 * alignment less its centring flags, plus the indent (on the aligned sides, as QLabel adds it) and the contents
 * margins, expanded to the minimum size then in force; remembered until the text, font, alignment, indent or
 * contents margins change (QLabel's own hints are kept until then too: a later minimum size does not renew them).
 *
 * QLabel::paintEvent() then laid the text out and shaped it again (QStyle::drawItemText(), QPainter::drawText()) on
 * every paint, a new text or not. For a text of one line (views/kit/onelinelayout.h: no control characters, no
 * trailing space, left to right, an undecorated font) the hint is read from one kept QTextLayout of the text (the
 * rect boundingRect() computes from the same line) and the paint draws that layout where drawText() puts the text:
 * the same glyphs at the same places, so the same pixels (tst_mainwindow::plainLabelDrawsAsQLabel). The paint lays the
 * text out itself only when the painter's font or its resolution (QFontMetricsF::fontDpi()) is not the measured one.
 * Only for an enabled label in the Fusion style without a style sheet; anything else paints as QLabel does. Selection
 * and the rest are QLabel's.
 */
class PlainLabel final : public QLabel {
public:
    explicit PlainLabel(const QString& text = QString(), QWidget* parent = nullptr);
    ~PlainLabel() override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /**
     * QLabel::setText(@p text), repainting only the glyphs the new text changes (issue 16, twenty-fifth stop in
     * docs/performance.md), as DocumentLabel::setTextRepaintingChanges() does for its documents: QLabel repaints its
     * whole contents rect for any new text, where a slider step changes one figure of the status summary. When the label
     * draws its text itself (see the class comment) and the text shown was drawn from the kept layout, the new text is
     * laid out here (once: the paint draws this layout) and the two lines' glyphs compared where they are drawn (the
     * glyph runs' positions plus placeOneLine()'s origin, views/kit/onelinelayout.h): the glyphs alike from the start
     * and from the end (the same font, glyph and position) are drawn alike in both, so only the rest repaints: the
     * contents rect's height over the differing glyphs' ink (old and new; QRawFont::boundingRect()) padded by
     * kInkPaddingPx for antialiasing and rounding. With the right alignment a new width moves every glyph before the
     * change, which then repaints up to it. Anything else (hidden, updates off, drawn through QLabel, a change of the
     * clip) repaints the contents rect, as setText().
     */
    void setTextRepaintingChanges(const QString& text);
    /** How many new texts setTextRepaintingChanges() repainted in part (or not at all: the same glyphs). For tests. */
    int partialRepaints() const { return m_partialRepaints; }
    /** Pixels added around the differing glyphs' ink (see setTextRepaintingChanges()). */
    static constexpr int kInkPaddingPx = 2;

    /** True when the hints are this class's own measurement (the settings above), false when QLabel's. */
    bool measuresOnce() const;
    /** How many times this label has measured its text (QFontMetrics::boundingRect() or its kept layout) for its hints
     *  since it was made: one per text, font, alignment, indent or contents margins it was asked with. For tests. */
    int measurements() const { return m_measurements; }
    /** Times the text was laid out (shaped) into the kept layout, for the hint or a paint. For tests. */
    long long layouts() const { return m_layouts; }
    /** Times paintEvent() drew the kept layout rather than through QLabel::paintEvent(). For tests. */
    long long layoutDraws() const { return m_layoutDraws; }

    /** With @p on false every PlainLabel measures with boundingRect() and paints through QLabel::paintEvent(), as
     *  before the kept layout: for a test's reference. On by default. */
    static void setDrawsItself(bool on);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Line;
    /** The hint for the current settings, measured when one of them changed since the last measurement. */
    QSize measured() const;
    /** The kept layout of text() in @p font (its resolution included), laid out for @p device when it is not that of
     *  the kept one; nullptr when the text is not one plain line (see the class comment). */
    const QTextLayout* layoutFor(const QFont& font, const QPaintDevice* device) const;
    /** True when paintEvent() draws the text itself rather than through QLabel::paintEvent() (the class comment). */
    bool drawsItself() const;
    /** The rect paintEvent() draws the text in (the contents rect less the indent on the aligned sides). */
    QRect textRect(Qt::Alignment visualAlignment) const;

    mutable QString m_text;
    mutable QFont m_font;
    mutable int m_alignment = -1;
    mutable int m_indent = 0;
    mutable QMargins m_margins;
    mutable QSize m_hintPx;
    mutable bool m_valid = false;
    mutable int m_measurements = 0;
    mutable std::unique_ptr<Line> m_line;
    mutable long long m_layouts = 0;
    long long m_layoutDraws = 0;
    int m_partialRepaints = 0;
};

} // namespace ridgeline::views
