// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QLabel>

class QPainter;

namespace ridgeline::views {

/**
 * A plain-text label of exactly one line whose size hints do not depend on its text: sizeHint() and
 * minimumSizeHint() are one line of the label's font high (QFontMetrics::height(), plus the contents margins) and
 * @p hintWidthPx wide. A text wider than the label is drawn elided at the right ("…"); text() keeps it whole.
 *
 * For a line whose text changes while the user drags a slider (issue 16, h16m in docs/performance.md): in a LabelBox,
 * a new text then costs a repaint of the line and no layout pass (a QLabel's hints follow its text's width, so every
 * new text asked the layouts above it again; a word-wrapped one could also change its height). Only the text is
 * drawn: no rich text, no word wrap, no selection, no buddy or mnemonic; the colour is the palette's WindowText.
 *
 * The line is shaped once per text, font, width and resolution (issue 16, twenty-second stop in
 * docs/performance.md): QFontMetrics::elidedText() shaped the text to measure it and QStyle::drawItemText() shaped it
 * again, on every paint. Here one QTextLayout of the text, kept, both measures it (a line that fits is not elided) and
 * draws it where QPainter::drawText() puts it: the same glyphs at the same places, so the same pixels
 * (tst_controlspanel::oneLineLabelDrawsAsDrawItemText). Only where that is shown to hold: an enabled label in the
 * Fusion style, left-to-right, the painter's font at the resolution fontMetrics() measures at (QFontMetricsF::fontDpi()),
 * a text of one line without control characters, trailing space or decorated font; anything else paints as before
 * (elidedText() and drawItemText()).
 */
class OneLineLabel final : public QLabel {
public:
    explicit OneLineLabel(int hintWidthPx, QWidget* parent = nullptr);
    ~OneLineLabel() override;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /** The text as painted at the current width: text() elided at the right when it does not fit. */
    QString shownText() const;

    /** With @p on false every OneLineLabel paints through elidedText() and drawItemText(): for a test's reference
     *  picture. On by default. */
    static void setEnabled(bool on);
    /** Times the line was laid out (shaped) for painting since construction: one per new text, font, width or
     *  resolution painted. For tests. */
    long long layouts() const { return m_layouts; }
    /** Times paintEvent() drew the kept layout (rather than through drawItemText()). For tests. */
    long long layoutDraws() const { return m_layoutDraws; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Line;
    /** The kept line for the current text, font and contents width on @p painter's device, laid out when one of
     *  them changed; nullptr where this class does not draw the line itself (see the class comment). */
    const Line* lineFor(const QPainter& painter);

    int m_hintWidthPx;
    std::unique_ptr<Line> m_line;
    long long m_layouts = 0;
    long long m_layoutDraws = 0;
};

} // namespace ridgeline::views
