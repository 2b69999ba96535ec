// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

namespace ridgeline::views {

/**
 * A QCPItemText whose text is measured and laid out once while its text, font and alignment stay the same
 * (issue 16, thirteenth stop in docs/performance.md).
 *
 * QCPItemText::draw() measures its text (QFontMetrics::boundingRect()) and then lays it out again and shapes it
 * (QPainter::drawText() with a rect) on every replot: about 0.1 M instructions a label, twelve labels a model-size
 * step, though most keep their text and only move. anchorPixelPosition() measures it again for each anchor read
 * (the SLO plot's label separation). Here the measured rect and a QTextLayout of the text (its glyphs kept) are
 * remembered, and draw() places that layout where QPainter::drawText() would put the text: the same glyphs at
 * the same positions, so the same pixels (tst_floorplot::laidOutLabelsDrawAsQCustomPlot).
 *
 * The text's box (QCPItemText's QFontMetrics::boundingRect()) is read from that same layout, for draw() and, when the
 * layout's font is shaped at the resolution QFontMetrics(mainFont()) measures at (QFontMetricsF::fontDpi()), for
 * anchorPixelPosition(): the text is shaped once per text and font (issue 16, twenty-second stop in
 * docs/performance.md). A new text whose anchors are read before it is drawn is laid out there (at the default
 * resolution) and draw() takes that layout when the painter's font has the same resolution (twenty-third stop).
 *
 * Only a single line with QCustomPlot's default text alignment (top, centred) and no tab, carriage return or
 * length-variant separator is laid out here; any other text, a painter for an export (QCPPainter::pmVectorized) and
 * setEnabled(false) take QCPItemText::draw().
 */
class LaidOutText final : public QCPItemText {
public:
    /** A label of @p plot (registered with it, as `new QCPItemText(plot)`). */
    explicit LaidOutText(QCustomPlot* plot);
    ~LaidOutText() override;

    /** With @p on false every LaidOutText draws as QCPItemText does: for a test's reference picture. On by default. */
    static void setEnabled(bool on);

    /** With @p on false the text's box is measured with QFontMetrics::boundingRect() (a second layout and shaping of
     *  the text) rather than read from the layout drawn: for a test's reference. On by default. */
    static void setBoundsFromLayout(bool on);

    /** Times the text was laid out (a new text, font, alignment or paint device resolution) since construction. */
    long long layouts() const { return m_layouts; }
    /** Times draw() drew the remembered layout (rather than QCPItemText::draw()). */
    long long layoutDraws() const { return m_layoutDraws; }
    /** Times the text's box was measured with QFontMetrics::boundingRect() (laid out and shaped once more) rather than
     *  read from the layout drawn. For tests. */
    long long measurements() const { return m_measurements; }

protected:
    void draw(QCPPainter* painter) override;
    QPointF anchorPixelPosition(int anchorId) const override;

private:
    struct Layout;
    /** The layout of the current text and font for @p painter's device (nullptr: draw as QCPItemText does). */
    const Layout* layoutFor(const QPainter* painter);
    /** The text laid out anew in @p font (resolved for @p device, or nullptr: the default resolution) and kept as the
     *  layout (nullptr: not one line). */
    const Layout* layOut(const QFont& font, const QPaintDevice* device, Qt::LayoutDirection direction) const;
    /** QFontMetrics(mainFont()).boundingRect() of the text as QCPItemText measures it, remembered. */
    QRect measured() const;

    mutable Layout* m_layout = nullptr;
    mutable QString m_measuredText;
    mutable QFont m_measuredFont;
    mutable int m_measuredFlags = -1;
    mutable QRect m_measured;
    mutable long long m_layouts = 0;
    long long m_layoutDraws = 0;
    mutable long long m_measurements = 0;
};

} // namespace ridgeline::views
