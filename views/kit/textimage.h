// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QImage>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>

class QCPPainter;

namespace ridgeline::views {

/**
 * One text of a plot (an axis title) drawn from an image of it, rendered again only when the
 * text, font, colour, box, rotation or pixel ratio changes (issue 16, eleventh stop in docs/performance.md).
 *
 * QPainter::drawText() shapes and lays the text out on every call (about 0.1 M instructions for an axis title,
 * with its QFontMetrics::boundingRect() another 60 k) and QCustomPlot draws every axis title again
 * on each replot, though they do not change during a drag. Here the text is drawn once into a transparent
 * image (the painter's render hints, the device's pixel ratio) and blended on later draws.
 *
 * The same pixels where nothing was drawn under the text before it: antialiased text drawn over a transparent
 * image and that image blended (source over) onto transparent pixels is the text drawn there, bit for bit.
 * The plots draw their axis titles into the margins of their paint buffer, which QCustomPlot clears to
 * transparent on each replot. Exports (QCPPainter::pmVectorized or pmNoCaching: PDF, SVG, PNG through
 * QCustomPlot) and painters with a transform other than a whole-pixel translation draw the text itself.
 */
class TextImage {
public:
    /**
     * Draws @p text as `painter->translate(at); painter->rotate(degrees); painter->drawText(QRect(QPoint(0, 0),
     * box), flags, text)` with the painter's current font and pen (its colour) would, the transform restored.
     * @p at in the painter's logical pixels; @p degrees 0, 90 or -90 (any other angle draws the text itself).
     */
    void draw(QCPPainter* painter, QPoint at, int degrees, QSize box, int flags, const QString& text);

    /** With @p on false every TextImage draws its text itself, as QCustomPlot does (and axes drawn through
     *  cacheAxisTitle() draw their titles as QCustomPlot does): for a test's reference picture. On by default. */
    static void setEnabled(bool on);
    /** False after setEnabled(false). */
    static bool enabled();

    /** Times the image was rendered (the text laid out and drawn into it). */
    long long renders() const { return m_renders; }
    /** Times draw() blended the image (rather than drawing the text itself). */
    long long blends() const { return m_blends; }

private:
    // What m_image shows.
    QString m_text;
    QFont m_font;
    QRgb m_color = 0;
    QSize m_box;
    int m_flags = 0;
    int m_degrees = 0;
    double m_ratio = 0;
    int m_hints = 0;
    bool m_valid = false;

    QImage m_image;  ///< the text over transparent, device pixel ratio m_ratio
    QPoint m_offset; ///< where m_image's top left lies from the point the text is drawn at (logical px)
    long long m_renders = 0;
    long long m_blends = 0;
};

} // namespace ridgeline::views
