// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotkit.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <QFont>
#include <QFontMetrics>
#include <QHash>
#include <QLineF>
#include <QPaintEngine>
#include <QString>
#include <QVarLengthArray>
#include <QVector>
#include <QtMath>

#include "views/kit/axistitle.h"
#include "views/kit/cardbuffer.h"
#include "views/kit/curvepixels.h"
#include "views/kit/gridlayer.h"
#include "views/kit/laidouttext.h"
#include "views/kit/legendlayer.h"
#include "views/kit/palette.h"

namespace ridgeline::views::plotkit {

namespace {

QFont tickFont()
{
    QFont font;
    font.setPointSizeF(8.0);
    return font;
}

QFont axisLabelFont()
{
    QFont font;
    font.setPointSizeF(8.5);
    return font;
}

/** Dynamic properties of a QCPAxis that fitTickCounts() keeps: the tick count its ticker's owner set, and the count
 *  fitTickCounts() set last (a ticker whose count differs from it was replaced or set again by its owner). */
constexpr const char* kOwnerTickCountProperty = "ridgelineOwnerTickCount";
constexpr const char* kFittedTickCountProperty = "ridgelineFittedTickCount";

/**
 * Pixels between the centres of two tick labels along @p axis that keep them apart: 1.25 text heights on a vertical
 * axis (a quarter of a line between labels); on a horizontal one the width of "100k" (as wide as the compact log
 * labels mostly get) and half a text height. Remembered for the last font (every axis styled by setupAxis() has the same tick label font).
 */
double tickLabelSpacingPx(const QCPAxis* axis)
{
    struct Spacing {
        QFont font;
        double verticalPx = 0;
        double horizontalPx = 0;
    };
    static std::optional<Spacing> last;
    const QFont font = axis->tickLabelFont();
    if (!last || !(last->font == font)) {
        const QFontMetricsF metrics(font);
        last = Spacing{font, 1.25 * metrics.height(),
                       metrics.horizontalAdvance(QStringLiteral("100k")) + 0.5 * metrics.height()};
    }
    return axis->orientation() == Qt::Vertical ? last->verticalPx : last->horizontalPx;
}

/**
 * Keeps each labelled axis's tick labels tickLabelSpacingPx() apart: a CompactLogTicker gets the number of labels its
 * length holds (setMaximumLabels(): it then ticks every 2, 5, 10... decades where every decade does not fit); another
 * ticker gets a tick count no higher than that, its owner's count while it fits, and it is raised back as the axis grows.
 * Growing takes 15 % to spare, so that a count does not flip back and forth as the other axis's labels change the
 * margins. At 1,280 x 720 the prefill crossover's value axis held nine labels, 0.01 to 100k, in 115 px (13 px apart
 * for 13 px-high text), and at 900 x 600 the decode floor's four in 40 px, on top of each other. Returns whether a
 * count or limit changed.
 */
bool fitTickCounts(QCustomPlot* plot)
{
    bool changed = false;
    const QList<QCPAxisRect*> rects = plot->axisRects();
    for (QCPAxisRect* rect : rects) {
        const QList<QCPAxis*> axes = rect->axes();
        for (QCPAxis* axis : axes) {
            const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
            // (A text ticker puts its ticks where its owner says, whatever the count: the KV bar's axes.)
            if (!ticker || !axis->visible() || !axis->tickLabels() || ticker.dynamicCast<QCPAxisTickerText>())
                continue;
            const double lengthPx = axis->orientation() == Qt::Vertical ? rect->height() : rect->width();
            if (!(lengthPx > 0))
                continue;
            const double spacingPx = tickLabelSpacingPx(axis);
            const int fits = 1 + int(std::floor(lengthPx / spacingPx));             // labels the length holds
            const int fitsGrown = 1 + int(std::floor(lengthPx / (1.15 * spacingPx))); // ... with 15 % to spare
            if (auto* log = dynamic_cast<CompactLogTicker*>(ticker.data())) {
                const int current = log->maximumLabels();
                int limit = current;
                if (current == 0 || fits < current)
                    limit = fits;
                else if (fitsGrown > current)
                    limit = fitsGrown;
                // A limit that binds neither before nor after changes no tick: left as it is, so that the ticker's
                // memo holds and no second layout runs (the labels' widths move the key axis's length on most steps).
                const int wanted = log->unlimitedLabels();
                const bool bindsBefore = current > 0 && current < wanted;
                const bool bindsAfter = limit > 0 && limit < wanted;
                if (limit != current && (bindsBefore || bindsAfter || wanted == 0)) {
                    log->setMaximumLabels(limit);
                    changed = true;
                }
                continue;
            }
            const int current = ticker->tickCount();
            int owner = axis->property(kOwnerTickCountProperty).toInt();
            if (owner <= 0 || current != axis->property(kFittedTickCountProperty).toInt()) {
                owner = current; // the first fit, a new ticker, or a count its owner set since
                axis->setProperty(kOwnerTickCountProperty, owner);
            }
            int count = current;
            if (fits - 1 < current)
                count = std::max(1, fits - 1);
            else if (current < owner)
                count = std::clamp(fitsGrown - 1, current, owner);
            if (count != current) {
                ticker->setTickCount(count);
                changed = true;
            }
            axis->setProperty(kFittedTickCountProperty, count);
        }
    }
    return changed;
}

/** Whether @p ticks (QCPAxisTickerLog's, trimmed to @p range) are several decades apart: two of them more than ten
 *  times apart, or a single power of ten with another power of ten in the range that is no tick. */
bool stepsSeveralDecades(const QVector<double>& ticks, const QCPRange& range)
{
    if (ticks.isEmpty() || !(ticks.front() > 0))
        return false;
    if (ticks.size() >= 2)
        return ticks[1] / ticks[0] > 10.5;
    const double exponent = std::log10(ticks.front());
    if (std::abs(exponent - std::round(exponent)) > 1e-9)
        return false;
    return ticks.front() * 10.0 <= range.upper * (1.0 + 1e-9) || ticks.front() / 10.0 >= range.lower * (1.0 - 1e-9);
}

bool drawable(double value, bool log)
{
    return std::isfinite(value) && (!log || value > 0);
}

/** Largest distance (px) a dropped vertex may lie from the simplified line: far below what
 *  antialiasing resolves (a coverage change of at most 2 % of one pixel). */
constexpr double kSimplifyTolerancePx = 0.02;

/**
 * The polyline @p points (pixels; NaN or infinite points are gaps, kept) without the vertices
 * that lie within kSimplifyTolerancePx of the line through their kept neighbours. On a log-log
 * plot many sweeps are straight or nearly so over long stretches; each dropped vertex is one join
 * and two edges less to stroke and rasterise, for a picture that is the same to the pixel but for
 * an occasional one-level difference in antialiasing.
 */
QVector<QPointF> simplified(const QVector<QPointF>& points)
{
    auto finite = [](const QPointF& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); };
    const int n = int(points.size());
    QVector<QPointF> out;
    out.reserve(n);
    int i = 0;
    while (i < n) {
        if (!finite(points[i])) {
            out.append(points[i++]);
            continue;
        }
        int end = i; // one past the run of finite points starting at i
        while (end < n && finite(points[end]))
            ++end;
        out.append(points[i]);
        // Sleeve fitting (Zhao and Saalfeld 1997), O(1) per vertex: from the anchor, keep the wedge of
        // directions [low, high] whose ray passes within the tolerance of every vertex since the anchor.
        // Vertex k can end the segment when its own direction is in that wedge and no skipped vertex lies
        // farther out than it. The wedge's edges are unit vectors and a direction is tested against them by
        // cross products (issue 16, twenty-eighth stop): each vertex's wedge is its direction turned by
        // +-asin(tolerance / r), less than pi / 2 either way, so every wedge is narrower than pi and "v lies
        // counter-clockwise of low and clockwise of high" is "v is in [low, high]"; no atan2 or asin a vertex.
        int anchor = i;
        int k = i + 1;
        while (k < end) {
            const QPointF a = points[anchor];
            double lowX = 0, lowY = 0, highX = 0, highY = 0, farthest = 0;
            bool haveWedge = false;
            int last = anchor; // the last vertex that may end the segment
            for (; k < end; ++k) {
                const double vx = points[k].x() - a.x();
                const double vy = points[k].y() - a.y();
                const double r = std::sqrt(vx * vx + vy * vy);
                if (r <= kSimplifyTolerancePx) {
                    last = k;
                    continue;
                }
                if (haveWedge
                    && (lowX * vy - lowY * vx < 0 || vx * highY - vy * highX < 0 || r < farthest - kSimplifyTolerancePx))
                    break;
                last = k;
                farthest = std::max(farthest, r);
                // The direction of v turned clockwise (low) and counter-clockwise (high) by asin(tolerance / r).
                const double sine = std::min(1.0, kSimplifyTolerancePx / r);
                const double cosine = std::sqrt(1.0 - sine * sine);
                const double ux = vx / r, uy = vy / r;
                const double newLowX = ux * cosine + uy * sine, newLowY = uy * cosine - ux * sine;
                const double newHighX = ux * cosine - uy * sine, newHighY = uy * cosine + ux * sine;
                if (!haveWedge) {
                    lowX = newLowX, lowY = newLowY, highX = newHighX, highY = newHighY;
                    haveWedge = true;
                    continue;
                }
                if (lowX * newLowY - lowY * newLowX > 0) // the new low edge is counter-clockwise of the old: narrower
                    lowX = newLowX, lowY = newLowY;
                if (highX * newHighY - highY * newHighX < 0)
                    highX = newHighX, highY = newHighY;
            }
            if (last == anchor) // cannot happen (the vertex after the anchor always fits); be safe
                last = anchor + 1;
            out.append(points[last]);
            anchor = last;
            k = last + 1;
        }
        i = end;
    }
    return out;
}

/**
 * A legend entry that measures its name once per name, font and icon height, not once per call:
 * QCustomPlot asks every entry for its size several times per replot (the plot's layout,
 * fitLegend()), each time laying the text out, and measures it again to draw it. Draws as
 * QCPPlottableLegendItem (QCustomPlot 2.1's code, the text's rect from the cache).
 */
/** Names QCPAbstractPlottable::drawLegendIcon() (virtual, protected) for CachedLegendItem::draw(); never made. */
struct IconAccess : QCPAbstractPlottable {
    using QCPAbstractPlottable::drawLegendIcon;
};

class CachedLegendItem final : public QCPPlottableLegendItem {
public:
    using QCPPlottableLegendItem::QCPPlottableLegendItem;

protected:
    void draw(QCPPainter* painter) override
    {
        if (!mPlottable)
            return;
        painter->setFont(getFont());
        painter->setPen(QPen(getTextColor()));
        const QSize iconSize = mParentLegend->iconSize();
        const QRect textRect = drawnTextBounds(painter);
        const QRect iconRect(mRect.topLeft(), iconSize);
        // Text lower than the icon is centred on the icon's height, else the tops align.
        const int textHeight = std::max(textRect.height(), iconSize.height());
        painter->drawText(mRect.x() + iconSize.width() + mParentLegend->iconTextPadding(), mRect.y(), textRect.width(),
                          textHeight, Qt::TextDontClip, mPlottable->name());
        painter->save();
        painter->setClipRect(iconRect, Qt::IntersectClip);
        // drawLegendIcon() is protected (QCPPlottableLegendItem is a friend): called through a member pointer.
        (mPlottable->*(&IconAccess::drawLegendIcon))(painter, iconRect);
        painter->restore();
        if (getIconBorderPen().style() != Qt::NoPen) {
            painter->setPen(getIconBorderPen());
            painter->setBrush(Qt::NoBrush);
            const int halfPen = qCeil(painter->pen().widthF() * 0.5) + 1;
            // Past the default clip rect, so that thicker pens (a selection) are not clipped.
            painter->setClipRect(mOuterRect.adjusted(-halfPen, -halfPen, halfPen, halfPen));
            painter->drawRect(iconRect);
        }
    }

    QSize minimumOuterSizeHint() const override
    {
        if (!mPlottable)
            return QSize();
        // As QCPPlottableLegendItem::minimumOuterSizeHint(), with the text's size from the cache.
        const QSize iconSize = mParentLegend->iconSize();
        const QRect textRect = textBounds();
        QSize result(iconSize.width() + mParentLegend->iconTextPadding() + textRect.width(),
                     std::max(textRect.height(), iconSize.height()));
        result.rwidth() += mMargins.left() + mMargins.right();
        result.rheight() += mMargins.top() + mMargins.bottom();
        return result;
    }

private:
    /** The bounding rect QCPPlottableLegendItem computes for the name, recomputed on a change. */
    QRect textBounds() const
    {
        const QFont font = getFont();
        const int iconHeight = mParentLegend->iconSize().height();
        if (m_name != mPlottable->name() || m_font != font || m_iconHeight != iconHeight) {
            m_name = mPlottable->name();
            m_font = font;
            m_iconHeight = iconHeight;
            m_textRect = QFontMetrics(font).boundingRect(0, 0, 0, iconHeight, Qt::TextDontClip, m_name);
        }
        return m_textRect;
    }

    /** The rect QCPPlottableLegendItem::draw() measures with the painter's font metrics (those of
     *  its device, at the device's resolution), remeasured when the name, font, icon height or
     *  resolution changed since the last draw. */
    QRect drawnTextBounds(QCPPainter* painter) const
    {
        const QFont font = getFont();
        const int iconHeight = mParentLegend->iconSize().height();
        const QPaintDevice* device = painter->device();
        const QSize dpi = device ? QSize(device->logicalDpiX(), device->logicalDpiY()) : QSize();
        if (m_drawnName != mPlottable->name() || m_drawnFont != font || m_drawnIconHeight != iconHeight || m_drawnDpi != dpi) {
            m_drawnName = mPlottable->name();
            m_drawnFont = font;
            m_drawnIconHeight = iconHeight;
            m_drawnDpi = dpi;
            m_drawnTextRect = painter->fontMetrics().boundingRect(0, 0, 0, iconHeight, Qt::TextDontClip, m_drawnName);
        }
        return m_drawnTextRect;
    }

    mutable QString m_name;
    mutable QFont m_font;
    mutable int m_iconHeight = -1;
    mutable QRect m_textRect;
    mutable QString m_drawnName;
    mutable QFont m_drawnFont;
    mutable int m_drawnIconHeight = -1;
    mutable QSize m_drawnDpi;
    mutable QRect m_drawnTextRect;
};

/** Replaces the legend's plain QCPPlottableLegendItems (QCustomPlot adds one per named plottable)
 *  by CachedLegendItems in the same order; a no-op once all are cached. */
void cacheLegendItems(QCPLegend* legend)
{
    QList<QCPAbstractLegendItem*> items;
    bool plain = false;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            items.append(item);
            plain = plain || (qobject_cast<QCPPlottableLegendItem*>(item) && !dynamic_cast<CachedLegendItem*>(item));
        }
    }
    if (!plain)
        return;
    for (QCPAbstractLegendItem* item : items)
        legend->take(item);
    legend->simplify();
    for (QCPAbstractLegendItem* item : items) {
        auto* entry = qobject_cast<QCPPlottableLegendItem*>(item);
        if (entry && !dynamic_cast<CachedLegendItem*>(item)) {
            auto* cached = new CachedLegendItem(legend, entry->plottable());
            cached->setMargins(entry->margins());
            cached->setVisible(entry->visible());
            delete entry;
            item = cached;
        }
        legend->addItem(item);
    }
}

bool g_curvePixelsMapped = true;
long long g_curvePixelMaps = 0;
bool g_curveKeyPixelsReused = true;
long long g_curveKeyPixelReuses = 0;

/** Whether curves at rest are stroked as separate line pieces (strokeAsLinePieces()); false for tests and
 *  measurements that compare with QPainter's stroke of the polyline. */
bool g_strokedAsLinePieces = true;
long long g_lineStrokes = 0;

/** How a piece that ends at an interior vertex of its dash is lengthened past it (RL_LINE_JOINS=flat|square|miter,
 *  for measurements; miter is the default). */
enum class PieceJoin { Flat, Square, Miter };

PieceJoin pieceJoin()
{
    static const PieceJoin join = [] {
        const QByteArray value = qgetenv("RL_LINE_JOINS");
        if (value == "flat")
            return PieceJoin::Flat;
        if (value == "square")
            return PieceJoin::Square;
        return PieceJoin::Miter;
    }();
    return join;
}

/**
 * Whether @p painter strokes QPainter::drawLines() with @p pen through the raster engine's own line rasteriser
 * (QRasterPaintEngine::stroke() of a QVectorPath::LinesHint path, Qt 6.4): a raster engine, antialiased, a
 * non-cosmetic solid-brush pen wider than a pixel with flat caps and a miter join, a transform no more than a uniform
 * scale, and no export (pmVectorized). Anything else goes through QCustomPlot's polyline (QStroker and the gray
 * rasteriser, or the cosmetic stroker for thin pens).
 */
bool strokesAsLinePieces(const QCPPainter* painter, const QPen& pen)
{
    if (!g_strokedAsLinePieces || painter->modes().testFlag(QCPPainter::pmVectorized) || !painter->antialiasing()
        || !painter->paintEngine() || painter->paintEngine()->type() != QPaintEngine::Raster)
        return false;
    if (pen.isCosmetic() || !(pen.widthF() > 1.0) || pen.capStyle() != Qt::FlatCap || pen.joinStyle() != Qt::MiterJoin
        || pen.brush().style() != Qt::SolidPattern || pen.style() == Qt::NoPen || pen.style() > Qt::CustomDashLine)
        return false;
    const QTransform& t = painter->transform();
    return t.type() <= QTransform::TxScale && t.m11() > 0 && t.m11() == t.m22();
}

/**
 * Appends to @p pieces (pixels) the solid pieces of a run of finite points @p points (at least two) stroked with a
 * flat-capped pen @p width px wide and dash pattern @p pattern (in pen widths; empty: solid) from @p offsetWidths
 * (pen widths into the pattern), the dash phase carried across the vertices as QDashStroker carries it along a
 * polyline. A piece that reaches an interior vertex while its dash goes on past it is lengthened past the vertex by
 * pieceJoin(): miter, as far as the outer edges of a miter join meet ((width / 2) tan(turn / 2), at least half a pixel
 * so that no seam of coverage is left across the stroke, at most width / 2); square, width / 2; flat, not at all.
 * Returns false, leaving @p pieces partly filled, when they would pass @p maxPieces or the pattern has no length.
 */
bool appendLinePieces(const QPointF* points, int count, double width, const QVector<qreal>& pattern,
                      double offsetWidths, qsizetype maxPieces, QVector<QLineF>& pieces)
{
    const PieceJoin join = pieceJoin();
    // Each segment's length once (the cutting, the vertices' lengthening and their bound all read them).
    QVarLengthArray<double, 64> lengths(count - 1);
    for (int k = 0; k + 1 < count; ++k)
        lengths[k] = std::hypot(points[k + 1].x() - points[k].x(), points[k + 1].y() - points[k].y());
    // The lengthening at vertex k (1 .. count - 2), 0 at the ends.
    auto extension = [&](int k) {
        if (k <= 0 || k >= count - 1 || join == PieceJoin::Flat)
            return 0.0;
        if (join == PieceJoin::Square)
            return width / 2;
        const QPointF a = points[k] - points[k - 1];
        const QPointF b = points[k + 1] - points[k];
        const double la = lengths[k - 1];
        const double lb = lengths[k];
        if (!(la > 0) || !(lb > 0))
            return width / 2;
        const double cross = std::abs(a.x() * b.y() - a.y() * b.x()) / (la * lb);
        const double dot = (a.x() * b.x() + a.y() * b.y()) / (la * lb);
        const double tanHalf = dot > -1 ? cross / (1 + dot) : 1e9;
        return std::clamp(width / 2 * tanHalf, std::min(0.5, width / 2), width / 2);
    };
    const bool solid = pattern.isEmpty();
    double patternLength = 0;
    for (qreal dash : pattern)
        patternLength += std::max(qreal(0), dash) * width;
    if (!solid && !(patternLength > 0))
        return false;
    int index = 0;
    double remaining = solid ? 0 : std::max(qreal(0), pattern[0]) * width;
    if (!solid) {
        double offset = std::fmod(offsetWidths * width, patternLength);
        if (offset < 0)
            offset += patternLength;
        while (offset > 0 && offset >= remaining) {
            offset -= remaining;
            index = (index + 1) % int(pattern.size());
            remaining = std::max(qreal(0), pattern[index]) * width;
        }
        remaining -= offset;
    }
    auto segmentLength = [&](int k) { return k + 1 < count ? lengths[k] : 0.0; };
    bool pieceOpen = false; // the last segment's last piece reached its end vertex with its dash going on
    double lastPiece = 0;   // the length of that piece
    for (int k = 0; k + 1 < count; ++k) {
        const QPointF a = points[k];
        const QPointF b = points[k + 1];
        const double length = segmentLength(k);
        if (!(length > 0))
            continue;
        const QPointF unit = (b - a) / length;
        double position = 0;
        bool endsOpen = false;
        while (position < length) {
            const bool on = solid || index % 2 == 0;
            const double step = solid ? length - position : std::min(remaining, length - position);
            const bool reachesVertex = solid || remaining > length - position;
            if (on && step > 0) {
                // Never past the dash's piece on the other side of the vertex: a short dash (a dot) keeps its length.
                const double before = position == 0 && pieceOpen ? std::min(extension(k), lastPiece) : 0;
                const double after = reachesVertex
                    ? std::min({extension(k + 1), segmentLength(k + 1), solid ? length : remaining - step})
                    : 0;
                if (pieces.size() >= maxPieces)
                    return false;
                pieces.append(QLineF(a + unit * (position - before), a + unit * (position + step + after)));
                lastPiece = step;
            }
            endsOpen = on && step > 0 && reachesVertex;
            position += step;
            if (solid)
                break;
            if (reachesVertex) {
                remaining -= step;
            } else {
                index = (index + 1) % int(pattern.size());
                remaining = std::max(qreal(0), pattern[index]) * width;
            }
        }
        pieceOpen = endsOpen;
    }
    return true;
}

/**
 * Strokes the polyline @p points (pixels; NaN or infinite points are gaps, as QCustomPlot's drawPolyline() makes them)
 * with @p painter's pen as separate solid line pieces through QPainter::drawLines() (strokesAsLinePieces() must
 * hold): the raster engine rasterises each piece as an antialiased line (QRasterizer::rasterizeLine()) and builds no
 * stroke outline. The dashes are cut here (appendLinePieces()), because the engine restarts the dash pattern at each
 * line of a LinesHint path (Qt 6.4). Returns false, drawing nothing, for a curve that would take more than 40,000
 * pieces (a dashed curve through a point far off the plot): the caller then draws QCustomPlot's polyline. Issue 16, twenty-eighth stop
 * in docs/performance.md.
 */
bool strokeAsLinePieces(QCPPainter* painter, const QVector<QPointF>& points)
{
    const QPen pen = painter->pen();
    const QVector<qreal> pattern = pen.style() == Qt::SolidLine ? QVector<qreal>() : pen.dashPattern();
    auto finite = [](const QPointF& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); };
    const int n = int(points.size());
    // The dashes are cut along the whole length, on screen or not: a curve with a point far outside the plot (a value
    // off the axis range by orders of magnitude) would make millions of pieces. Past kMaxPieces the curve goes to
    // QCustomPlot's polyline, whose dash stroker clips to the device first.
    constexpr qsizetype kMaxPieces = 40000;
    QVector<QLineF> pieces;
    pieces.reserve(points.size() * (pattern.isEmpty() ? 1 : 4));
    int i = 0;
    while (i < n) {
        if (!finite(points[i])) {
            ++i;
            continue;
        }
        int end = i;
        while (end < n && finite(points[end]))
            ++end;
        if (end - i >= 2 && !appendLinePieces(points.constData() + i, end - i, pen.widthF(), pattern, pen.dashOffset(), kMaxPieces, pieces))
            return false;
        i = end;
    }
    if (pieces.isEmpty())
        return true;
    QPen solid = pen;
    solid.setStyle(Qt::SolidLine);
    painter->setPen(solid);
    painter->drawLines(pieces.constData(), int(pieces.size()));
    painter->setPen(pen);
    ++g_lineStrokes;
    return true;
}

/**
 * QCPAxis::coordToPixel() of one axis with its logarithm of the range computed once: on a log axis (not reversed,
 * positive range) coordToPixel() takes qLn(value / lower) / qLn(upper / lower) * length from the axis rect's edge, two
 * logarithms a coordinate, one of them the same for every coordinate (QCustomPlot 2.1's QCPAxis::coordToPixel()).
 * Here that one is taken once and the same operations are done in the same order on the same doubles, so every
 * position is the double coordToPixel() returns; any other case (linear or reversed axes, a value that is not positive
 * or NaN) is coordToPixel() itself. Issue 16, twenty-sixth stop in docs/performance.md.
 */
class AxisPixels {
public:
    explicit AxisPixels(const QCPAxis* axis)
        : m_axis(axis)
        , m_horizontal(axis->orientation() == Qt::Horizontal)
    {
        const QCPRange range = axis->range();
        m_fast = axis->scaleType() == QCPAxis::stLogarithmic && !axis->rangeReversed() && range.lower > 0
            && range.upper > 0;
        if (m_fast) {
            const QCPAxisRect* rect = axis->axisRect();
            m_lower = range.lower;
            m_upper = range.upper;
            m_logSpan = qLn(range.upper / range.lower);
            m_length = m_horizontal ? rect->width() : rect->height();
            m_origin = m_horizontal ? rect->left() : rect->bottom();
        }
    }
    double operator()(double value) const
    {
        if (!m_fast || !(value > 0))
            return m_axis->coordToPixel(value);
        return m_horizontal ? qLn(value / m_lower) / m_logSpan * m_length + m_origin
                            : m_origin - qLn(value / m_lower) / m_logSpan * m_length;
    }

    /**
     * Whether every coordinate maps here as it maps with @p other: both on the fast path with the same orientation,
     * the same range (lower and upper, compared as doubles) and the same axis rect edge and length. What
     * coordToPixel() reads for the values that are not positive (the range and the rect's edges) is among them.
     */
    bool mapsAs(const AxisPixels& other) const
    {
        return m_fast && other.m_fast && m_horizontal == other.m_horizontal && m_lower == other.m_lower
            && m_upper == other.m_upper && m_logSpan == other.m_logSpan && m_length == other.m_length
            && m_origin == other.m_origin;
    }

private:
    const QCPAxis* m_axis;
    bool m_horizontal;
    bool m_fast = false;
    double m_lower = 0;
    double m_upper = 0;
    double m_logSpan = 0;
    int m_length = 0;
    int m_origin = 0;
};

/**
 * A line graph that strokes its polyline simplified (see simplified()); exact in vector exports. On screen a plain line
 * (no scatters, fill or selection) is drawn as QCPGraph::draw() draws it (QCustomPlot 2.1), its pixel positions from
 * AxisPixels: the same doubles with half the logarithms on log axes.
 */
class CurveGraph final : public QCPGraph {
public:
    using QCPGraph::QCPGraph;

    /**
     * What QCPGraph::getLines() gives for one unselected segment of a line (the data range widened by one point each
     * way, as QCPGraph::draw() asks), each position from AxisPixels: the same doubles. Empty without both axes.
     */
    QVector<QPointF> pixelLines() const
    {
        const QCPAxis* keys = keyAxis();
        const QCPAxis* values = valueAxis();
        QVector<QPointF> lines;
        if (!keys || !values)
            return lines;
        QCPGraphDataContainer::const_iterator begin;
        QCPGraphDataContainer::const_iterator end;
        getVisibleDataBounds(begin, end, QCPDataRange(0, dataCount()).adjusted(-1, 1));
        if (begin == end)
            return lines;
        QVector<QCPGraphData> lineData;
        getOptimizedLineData(&lineData, begin, end);
        if (keys->rangeReversed() != (keys->orientation() == Qt::Vertical))
            std::reverse(lineData.begin(), lineData.end());
        const AxisPixels keyPixels(keys);
        const AxisPixels valuePixels(values);
        const bool vertical = keys->orientation() == Qt::Vertical;
        const qsizetype n = lineData.size();
        // The key pixels of the last call, when the keys (double for double) and the key axis' mapping are the same:
        // a model-size step moves the values of curves over fixed grids (model/cost/costmodel.h Sweeps) and leaves
        // their keys and key axis as they were. Issue 16, thirty-second stop in docs/performance.md.
        bool reuse = g_curveKeyPixelsReused && m_lastKeyAxis && keyPixels.mapsAs(*m_lastKeyAxis)
            && m_lastKeys.size() == n;
        for (qsizetype i = 0; reuse && i < n; ++i)
            reuse = m_lastKeys[i] == lineData[i].key;
        if (reuse) {
            ++g_curveKeyPixelReuses;
        } else {
            m_lastKeys.resize(n);
            m_lastKeyPixels.resize(n);
            for (qsizetype i = 0; i < n; ++i) {
                m_lastKeys[i] = lineData[i].key;
                m_lastKeyPixels[i] = keyPixels(lineData[i].key);
            }
            m_lastKeyAxis = keyPixels;
        }
        lines.resize(n);
        for (qsizetype i = 0; i < n; ++i) {
            const double key = m_lastKeyPixels[i];
            const double value = valuePixels(lineData[i].value);
            lines[i] = vertical ? QPointF(value, key) : QPointF(key, value);
        }
        return lines;
    }

protected:
    void draw(QCPPainter* painter) override
    {
        QCPAxis* keys = keyAxis();
        QCPAxis* values = valueAxis();
        if (!g_curvePixelsMapped || !keys || !values || painter->modes().testFlag(QCPPainter::pmVectorized)
            || lineStyle() != lsLine || !scatterStyle().isNone() || brush().style() != Qt::NoBrush
            || !selection().isEmpty()) {
            QCPGraph::draw(painter);
            return;
        }
        if (keys->range().size() <= 0 || data()->isEmpty())
            return;
        ++g_curvePixelMaps;
        QVector<QPointF> lines = pixelLines();
        painter->setBrush(brush());
        painter->setPen(Qt::NoPen);
        drawFill(painter, &lines);
        painter->setPen(pen());
        painter->setBrush(Qt::NoBrush);
        drawLinePlot(painter, lines);
        if (mSelectionDecorator)
            mSelectionDecorator->drawDecoration(painter, selection());
    }

    void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override
    {
        if (painter->modes().testFlag(QCPPainter::pmVectorized) || lineStyle() != lsLine) {
            QCPGraph::drawLinePlot(painter, lines);
            return;
        }
        // QCPGraph::drawLinePlot() (QCustomPlot 2.1) with the polyline simplified and, where the raster engine can,
        // stroked as line pieces. QCustomPlot's fast-polyline hint (solid polylines drawn segment by segment) keeps
        // QCustomPlot's drawing.
        const QPen pen = painter->pen();
        if (pen.style() == Qt::NoPen || pen.color().alpha() == 0)
            return;
        applyDefaultAntialiasingHint(painter);
        const QVector<QPointF> points = simplified(lines);
        if (mParentPlot->plottingHints().testFlag(QCP::phFastPolylines) || !strokesAsLinePieces(painter, pen)
            || !strokeAsLinePieces(painter, points))
            drawPolyline(painter, points);
    }

private:
    // pixelLines()' keys, their pixels and the key axis' mapping of its last call (mapped anew, not reused).
    mutable QVector<double> m_lastKeys;
    mutable QVector<double> m_lastKeyPixels;
    mutable std::optional<AxisPixels> m_lastKeyAxis;
};

} // namespace

CompactLogTicker::CompactLogTicker()
{
    setLogBase(10.0);
    setSubTickCount(8);
    setTickCount(6);
}

void CompactLogTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                                QVector<double>& ticks, QVector<double>* subTicks, QVector<QString>* tickLabels)
{
    const bool wantSub = subTicks != nullptr;
    const bool wantLabels = tickLabels != nullptr;
    if (m_last && m_last->range.lower == range.lower && m_last->range.upper == range.upper && m_last->locale == locale
        && m_last->formatChar == formatChar && m_last->precision == precision && m_last->tickCount == tickCount()
        && m_last->subTickCount == subTickCount() && m_last->logBase == logBase() && m_last->tickOrigin == tickOrigin()
        && m_last->strategy == int(tickStepStrategy()) && m_last->maximumLabels == m_maximumLabels
        && (m_last->subTicks || !wantSub) && (m_last->labels || !wantLabels)) {
        ticks = m_last->ticks;
        if (wantSub)
            *subTicks = m_last->subTickValues;
        if (wantLabels)
            *tickLabels = m_last->tickLabels;
        return;
    }
    ++m_generated;
    QCPAxisTickerLog::generate(range, locale, formatChar, precision, ticks, subTicks, tickLabels);
    // A step of several decades (a short axis: fitTickCounts()): QCustomPlot would put the sub-ticks at equal
    // distances in value between two ticks (12, 23, ... 89 between 1 and 100), bunched at the top of each step on a
    // log axis. They go at the decades in between instead (10 between 1 and 100), as the sub-grid shows them.
    if (wantSub && stepsSeveralDecades(ticks, range)) {
        subTicks->clear();
        for (double v = ticks.front() / 10.0; v >= range.lower * (1.0 - 1e-9); v /= 10.0)
            subTicks->prepend(v);
        for (int i = 0; i + 1 < ticks.size(); ++i) {
            for (double v = ticks[i] * 10.0; v < ticks[i + 1] * (1.0 - 1e-9); v *= 10.0)
                subTicks->append(v);
        }
        for (double v = ticks.back() * 10.0; v <= range.upper * (1.0 + 1e-9); v *= 10.0)
            subTicks->append(v);
    }
    Last last;
    last.range = range;
    last.locale = locale;
    last.formatChar = formatChar;
    last.precision = precision;
    last.tickCount = tickCount();
    last.subTickCount = subTickCount();
    last.logBase = logBase();
    last.tickOrigin = tickOrigin();
    last.strategy = int(tickStepStrategy());
    last.maximumLabels = m_maximumLabels;
    last.subTicks = wantSub;
    last.labels = wantLabels;
    last.ticks = ticks;
    if (wantSub)
        last.subTickValues = *subTicks;
    if (wantLabels)
        last.tickLabels = *tickLabels;
    m_last = std::move(last);
}

QString CompactLogTicker::getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision)
{
    if (!(tick > 0) || !std::isfinite(tick))
        return QCPAxisTickerLog::getTickLabel(tick, locale, formatChar, precision);
    static const char* const kSuffixes[] = {"", "k", "M", "G", "T", "P", "E"};
    const int exponent = int(std::floor(std::log10(tick) + 1e-9));
    if (exponent >= 0) {
        const int group = std::min(exponent / 3, 6);
        return QString::number(tick / std::pow(10.0, 3 * group), 'g', 3) + QLatin1String(kSuffixes[group]);
    }
    if (exponent >= -4)
        return QString::number(tick, 'g', 3);
    return QString::number(tick, 'e', 0);
}

void CompactLogTicker::setMaximumLabels(int labels)
{
    m_maximumLabels = std::max(0, labels);
}

QVector<double> CompactLogTicker::createTickVector(double tickStep, const QCPRange& range)
{
    m_dense = false;
    if (!(range.lower > 0) || !(range.upper > range.lower))
        return QCPAxisTickerLog::createTickVector(tickStep, range);
    const double decades = std::log10(range.upper / range.lower);
    const double lowExponent = std::log10(range.lower);
    const double highExponent = std::log10(range.upper);
    // Labels of the 1-2-5 sequence inside the range: about three a decade.
    auto denseLabels = [&] {
        int labels = 0;
        for (int exponent = int(std::floor(lowExponent)); exponent <= int(std::ceil(highExponent)); ++exponent) {
            for (double multiple : {1.0, 2.0, 5.0}) {
                const double v = multiple * std::pow(10.0, exponent);
                labels += v >= range.lower * (1.0 - 1e-9) && v <= range.upper * (1.0 + 1e-9) ? 1 : 0;
            }
        }
        return labels;
    };
    auto inRange = [&](const QVector<double>& ticks) {
        return int(std::count_if(ticks.cbegin(), ticks.cend(), [&](double v) {
            return v >= range.lower * (1.0 - 1e-9) && v <= range.upper * (1.0 + 1e-9);
        }));
    };
    const int dense = decades < 2.2 ? denseLabels() : 0;
    QVector<double> ticks;
    if (decades >= 2.2) {
        ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
        m_unlimitedLabels = inRange(ticks);
    } else {
        m_unlimitedLabels = dense;
    }
    if (decades < 2.2 && (m_maximumLabels == 0 || dense <= m_maximumLabels)) {
        m_dense = true;
        QVector<double> ticks;
        const int first = int(std::floor(lowExponent)) - 1;
        const int last = int(std::ceil(highExponent)) + 1;
        const double multiples[] = {1.0, 2.0, 5.0};
        for (int exponent = first; exponent <= last; ++exponent) {
            for (double multiple : multiples)
                ticks.append(multiple * std::pow(10.0, exponent));
        }
        return ticks;
    }
    if (decades < 2.2)
        ticks = QCPAxisTickerLog::createTickVector(tickStep, range);
    if (m_maximumLabels == 0 || decades < 1.6) // (under 1.6 decades QCPAxisTickerLog ticks linearly)
        return ticks;
    // Powers of ten every stepDecades decades, as many as fit: 1, 2, 5, 10, 20, 50... decades apart.
    auto labelsAt = [&](int stepDecades) {
        const int first = int(std::ceil(lowExponent / stepDecades - 1e-9));
        const int last = int(std::floor(highExponent / stepDecades + 1e-9));
        return std::max(0, last - first + 1);
    };
    int stepDecades = 0;
    for (const int ladder : {1, 2, 5}) { // the first few steps of the 1-2-5 ladder, then its decades
        if (labelsAt(ladder) <= m_maximumLabels) {
            stepDecades = ladder;
            break;
        }
    }
    for (int scale = 10; stepDecades == 0; scale *= 10) {
        for (const int ladder : {1, 2, 5}) {
            if (labelsAt(ladder * scale) <= m_maximumLabels || ladder * scale > 600) {
                stepDecades = ladder * scale;
                break;
            }
        }
    }
    // QCPAxisTickerLog's own step when it is as wide (it is where the labels fit: the picture as before).
    if (inRange(ticks) <= m_maximumLabels)
        return ticks;
    ticks.clear();
    const int first = int(std::floor(lowExponent / stepDecades)) - 1;
    const int last = int(std::ceil(highExponent / stepDecades)) + 1;
    for (int k = first; k <= last; ++k)
        ticks.append(std::pow(10.0, double(k) * stepDecades));
    return ticks;
}

int CompactLogTicker::getSubTickCount(double tickStep)
{
    return m_dense ? 0 : QCPAxisTickerLog::getSubTickCount(tickStep);
}

QPen pen(const QColor& color, double width, Qt::PenStyle style)
{
    QPen result(color, width, style);
    result.setCapStyle(Qt::FlatCap);
    // Miter, not round: the curves have hundreds of joints each, and a round join builds an arc at
    // every one of them when the pen is stroked (the same picture: 26 pixels of 1.6 million differ).
    result.setJoinStyle(Qt::MiterJoin);
    return result;
}

void setupPlot(QCustomPlot* plot)
{
    plot->setAntialiasedElements(QCP::aeAll);
    // Grid lines, axes and ticks are horizontal or vertical: antialiased they cost a polygon fill
    // each (a log axis has dozens of sub-grid lines) and only come out blurred across two pixels.
    // Off, as QCustomPlot's own default, they are crisp one-pixel lines.
    plot->setNotAntialiasedElements(QCP::aeGrid | QCP::aeSubGrid | QCP::aeAxes);
    plot->setBackground(QBrush(palette::card()));
    plot->setInteractions({});
    // QCustomPlot repaints synchronously at the end of every replot by default (phImmediateRefresh):
    // with five plots that is five separate paint-and-flush passes per slider step. Off, a replot
    // only marks the widget dirty and every plot and label of the step is painted in one pass.
    plot->setPlottingHint(QCP::phImmediateRefresh, false);
    // The "overlay" layer (QCustomPlot's selection rectangle; no interactions here) needs no paint
    // buffer of its own: one buffer less to clear on every replot and to blend on every paint.
    if (QCPLayer* overlay = plot->layer(QStringLiteral("overlay")))
        overlay->setMode(QCPLayer::lmLogical);
    // QCustomPlot fills its whole rect with its (opaque) background brush: the card behind it needs
    // no painting.
    plot->setAttribute(Qt::WA_OpaquePaintEvent);
    // The paint buffer cleared in that colour and copied onto the window, not blended over a fill of it (issue 16,
    // twenty-ninth stop).
    CardBuffer::install(plot);
    plot->legend->setVisible(false);
    plot->axisRect()->setMinimumMargins(QMargins(4, 4, 4, 4));
    plot->setMinimumSize(200, 150);
    plot->setFocusPolicy(Qt::NoFocus);
    // The grid and sub-grid lines from a picture, stroked again only when they move (issue 16, tenth stop).
    GridLayerCache::install(plot);
    // Tick labels kept apart on short axes: when a count changes, the layout is run again (its three phases, as
    // QCustomPlot::updateLayout() does) so that ticks and margins follow before anything is drawn. Connected before
    // any other afterLayout slot (PlotPanel's fitLabels()), which then places its labels on the final layout.
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot] {
        if (!fitTickCounts(plot))
            return;
        QCPLayoutGrid* layout = plot->plotLayout();
        layout->update(QCPLayoutElement::upPreparation);
        layout->update(QCPLayoutElement::upMargins);
        layout->update(QCPLayoutElement::upLayout);
    });
}

QString titleWithShortForms(const QString& full, std::initializer_list<QString> shorter)
{
    QString out = full;
    for (const QString& form : shorter)
        out += QChar(0x9C) + form;
    return out;
}

QString axisTitle(const QCPAxis* axis)
{
    const QString label = axis->label();
    return label.section(QChar(0x9C), 0, 0);
}

void setupAxis(QCPAxis* axis, const QString& label, bool log)
{
    // The title from an image, laid out and drawn again only when it changes (issue 16, eleventh stop).
    cacheAxisTitle(axis);
    axis->setLabel(label);
    axis->setLabelFont(axisLabelFont());
    axis->setLabelColor(palette::axis());
    axis->setTickLabelFont(tickFont());
    axis->setTickLabelColor(palette::axis());
    axis->setBasePen(pen(palette::axis(), 1));
    axis->setTickPen(pen(palette::axis(), 1));
    axis->setSubTickPen(pen(palette::axis(), 1));
    axis->setTickLengthIn(0);
    axis->setTickLengthOut(4);
    axis->setSubTickLengthIn(0);
    axis->setSubTickLengthOut(2);
    axis->setLabelPadding(3);
    axis->setTickLabelPadding(3);
    axis->grid()->setPen(pen(palette::grid(), 1));
    axis->grid()->setSubGridPen(pen(palette::subGrid(), 1));
    axis->grid()->setZeroLinePen(Qt::NoPen);
    if (log) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(QSharedPointer<CompactLogTicker>::create());
        axis->grid()->setSubGridVisible(true);
    } else {
        axis->setScaleType(QCPAxis::stLinear);
        // A log ticker left on a linear axis makes no ticks for a range through 0 ("Invalid range for logarithmic
        // plot") and the axis loses every label: back to the default ticker (a text or other ticker stays).
        if (axis->ticker().dynamicCast<QCPAxisTickerLog>())
            axis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        axis->grid()->setSubGridVisible(false);
    }
}

void placeLegendBelow(QCustomPlot* plot, int columns)
{
    QCPLegend* legend = plot->legend;
    plot->axisRect()->insetLayout()->take(legend);
    plot->plotLayout()->addElement(1, 0, legend);
    plot->plotLayout()->setRowStretchFactor(1, 0.001);
    plot->plotLayout()->setRowSpacing(0);
    legend->setVisible(true);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    legend->setWrap(columns);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    QFont font;
    font.setPointSizeF(8.0);
    legend->setFont(font);
    legend->setTextColor(palette::axis());
    legend->setIconSize(18, 8);
    legend->setIconTextPadding(4);
    legend->setRowSpacing(2);
    legend->setColumnSpacing(10);
    legend->setMargins(QMargins(6, 2, 6, 4));
    legend->setMinimumMargins(QMargins(0, 0, 0, 0));
    legend->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    LegendLayerCache::install(plot); // the entries from an image while they stay as they are
}

void setCurvePixelsMapped(bool on)
{
    g_curvePixelsMapped = on;
}

long long curvePixelMaps()
{
    return g_curvePixelMaps;
}

void setCurveKeyPixelsReused(bool on)
{
    g_curveKeyPixelsReused = on;
}

long long curveKeyPixelReuses()
{
    return g_curveKeyPixelReuses;
}

void setCurvesStrokedAsLinePieces(bool on)
{
    g_strokedAsLinePieces = on;
}

bool curvesStrokedAsLinePieces()
{
    return g_strokedAsLinePieces;
}

long long curveLinePieceStrokes()
{
    return g_lineStrokes;
}

QVector<QPointF> simplifiedCurve(const QVector<QPointF>& points)
{
    return simplified(points);
}

QVector<QPointF> curvePixelLines(const QCPGraph* graph)
{
    const auto* curve = dynamic_cast<const CurveGraph*>(graph);
    return curve ? curve->pixelLines() : QVector<QPointF>();
}

QCPGraph* addCurve(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QPen& pen, const QString& name)
{
    // A CurveGraph registers itself with the axes' plot, as QCustomPlot::addGraph() does.
    QCPGraph* graph = keyAxis->parentPlot() == plot && valueAxis->parentPlot() == plot
        ? new CurveGraph(keyAxis, valueAxis)
        : plot->addGraph(keyAxis, valueAxis);
    graph->setPen(pen);
    graph->setLineStyle(QCPGraph::lsLine);
    graph->setAdaptiveSampling(false);
    graph->setName(name);
    if (name.isEmpty())
        graph->removeFromLegend();
    return graph;
}

QCPGraph* addMarker(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QCPScatterStyle& style)
{
    QCPGraph* graph = plot->addGraph(keyAxis, valueAxis);
    graph->setLineStyle(QCPGraph::lsNone);
    graph->setScatterStyle(style);
    graph->removeFromLegend();
    return graph;
}

void assignCurve(QCPGraph* graph, const Eigen::ArrayXd& keys, const Eigen::ArrayXd& values, double scale,
                 bool logValues)
{
    const int count = int(std::min(keys.size(), values.size()));
    auto clean = [&](Eigen::Index i) {
        const double value = values[i] * scale;
        return drawable(value, logValues) ? value : qQNaN();
    };
    QSharedPointer<QCPGraphDataContainer> data = graph->data();
    if (data->size() != count) {
        QVector<QCPGraphData> points(count);
        for (int i = 0; i < count; ++i)
            points[i] = QCPGraphData(keys[i], clean(i));
        data->set(points, true);
        return;
    }
    // Fixed grid: overwrite in place, no allocation.
    auto it = data->begin();
    for (int i = 0; i < count; ++i, ++it) {
        it->key = keys[i];
        it->value = clean(i);
    }
}

void assignPoint(QCPGraph* graph, double key, double value)
{
    QSharedPointer<QCPGraphDataContainer> data = graph->data();
    const bool ok = std::isfinite(key) && std::isfinite(value);
    if (data->size() != 1) {
        data->clear();
        data->add(QCPGraphData(key, value));
    } else {
        data->begin()->key = key;
        data->begin()->value = value;
    }
    graph->setVisible(ok);
}

void Extent::include(double value)
{
    if (!drawable(value, log))
        return;
    low = std::min(low, value);
    high = std::max(high, value);
}

void Extent::include(const Eigen::ArrayXd& values, double scale)
{
    for (Eigen::Index i = 0; i < values.size(); ++i)
        include(values[i] * scale);
}

double niceCeiling(double value)
{
    if (!std::isfinite(value) || value <= 0)
        return 1.0;
    const double decade = std::pow(10.0, std::floor(std::log10(value)));
    for (const double step : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
        if (step * decade >= value * (1 - 1e-12))
            return step * decade;
    return 10.0 * decade;
}

void applyRange(QCPAxis* axis, const Extent& extent, double pad, const QCPRange& fallback)
{
    if (!extent.valid()) {
        axis->setRange(fallback);
        return;
    }
    double low = extent.low;
    double high = extent.high;
    if (extent.log) {
        if (high <= low * 1.0001) {
            low /= 10.0;
            high *= 10.0;
        }
        axis->setRange(low / pad, high * pad);
    } else {
        if (high - low <= 1e-12 * std::max(1.0, std::abs(high))) {
            low -= 1.0;
            high += 1.0;
        }
        const double span = high - low;
        axis->setRange(low - span * pad, high + span * pad);
    }
}

QCPItemStraightLine* addStraightLine(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QPen& pen)
{
    auto* line = new QCPItemStraightLine(plot);
    line->setClipAxisRect(keyAxis->axisRect());
    line->point1->setAxes(keyAxis, valueAxis);
    line->point2->setAxes(keyAxis, valueAxis);
    line->setPen(pen);
    line->setSelectable(false);
    return line;
}

void placeVertical(QCPItemStraightLine* line, double x)
{
    const bool logKey = line->point1->keyAxis()->scaleType() == QCPAxis::stLogarithmic;
    const bool ok = drawable(x, logKey);
    line->setVisible(ok);
    if (!ok)
        return;
    line->point1->setCoords(x, 1.0);
    line->point2->setCoords(x, 2.0);
}

void placeHorizontal(QCPItemStraightLine* line, double y)
{
    const bool logValue = line->point1->valueAxis()->scaleType() == QCPAxis::stLogarithmic;
    const bool ok = drawable(y, logValue);
    line->setVisible(ok);
    if (!ok)
        return;
    line->point1->setCoords(1.0, y);
    line->point2->setCoords(2.0, y);
}

QCPItemText* addLabel(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QColor& color)
{
    auto* label = new LaidOutText(plot); // measured and laid out once per text (issue 16, thirteenth stop)
    label->setClipAxisRect(keyAxis->axisRect());
    label->setClipToAxisRect(true);
    label->position->setAxes(keyAxis, valueAxis);
    label->position->setAxisRect(keyAxis->axisRect());
    QFont font;
    font.setPointSizeF(8.0);
    label->setFont(font);
    label->setColor(color);
    QColor halo = palette::card();
    halo.setAlpha(215);
    label->setBrush(QBrush(halo));
    label->setPen(Qt::NoPen);
    label->setPadding(QMargins(2, 0, 2, 0));
    label->setSelectable(false);
    return label;
}

void placeLabelAtKey(QCPItemText* label, double x, double yRatio)
{
    label->position->setTypeX(QCPItemPosition::ptPlotCoords);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(x, yRatio);
}

void placeLabelAt(QCPItemText* label, double x, double y)
{
    label->position->setType(QCPItemPosition::ptPlotCoords);
    label->position->setCoords(x, y);
}

namespace {

const char* const kPreferredAlignment = "ridgelinePreferredAlignment";
const char* const kPreferredPadding = "ridgelinePreferredPadding";
const char* const kWholeText = "ridgelineWholeText";
const char* const kShortText = "ridgelineShortText";
const char* const kHiddenByFit = "ridgelineHiddenByFit";

bool isRotated(const QCPItemText* label)
{
    return std::abs(label->rotation() + 90.0) < 1.0;
}

/** What a text's bounding rect depends on: the text, its font and the drawing flags. */
struct TextKey {
    QString text;
    QFont font;
    int flags = 0;
    bool operator==(const TextKey& other) const
    {
        return flags == other.flags && text == other.text && font == other.font;
    }
};

size_t qHash(const TextKey& key, size_t seed = 0)
{
    return qHashMulti(seed, key.text, key.font, key.flags);
}

/**
 * QFontMetricsF(@p font).boundingRect() of @p text at the origin with @p flags (px), remembered:
 * fitLabels() measures each label up to four times per replot, with texts that mostly repeat
 * between replots. Bounded: at most kMaxEntries texts, forgotten all at once when full.
 */
QRectF textBounds(const QString& text, const QFont& font, int flags)
{
    constexpr qsizetype kMaxEntries = 512;
    static QHash<TextKey, QRectF> cache;
    TextKey key{text, font, flags};
    if (const auto it = cache.constFind(key); it != cache.constEnd())
        return it.value();
    const QRectF bounds = QFontMetricsF(font).boundingRect(QRectF(0, 0, 0, 0), flags, text);
    if (cache.size() >= kMaxEntries)
        cache.clear();
    cache.insert(std::move(key), bounds);
    return bounds;
}

/** Screen rectangle @p label occupies with @p alignment and @p padding around @p anchor. */
QRectF labelBox(const QCPItemText* label, QPointF anchor, Qt::Alignment alignment, const QMargins& padding,
                const QString& shown)
{
    const QRectF text = textBounds(shown, label->font(), Qt::TextDontClip | label->textAlignment());
    const double w = text.width() + padding.left() + padding.right();
    const double h = text.height() + padding.top() + padding.bottom();
    const double x = (alignment & Qt::AlignLeft) ? 0.0 : (alignment & Qt::AlignRight) ? -w : -w / 2;
    const double y = (alignment & Qt::AlignTop) ? 0.0 : (alignment & Qt::AlignBottom) ? -h : -h / 2;
    if (!isRotated(label))
        return QRectF(anchor.x() + x, anchor.y() + y, w, h);
    // Rotated -90 degrees: text-frame (x, y) lands on screen at (y, -x).
    return QRectF(anchor.x() + y, anchor.y() - (x + w), h, w);
}

Qt::Alignment withHorizontal(Qt::Alignment alignment, Qt::Alignment horizontal)
{
    return (alignment & ~Qt::AlignHorizontal_Mask) | horizontal;
}

Qt::Alignment withVertical(Qt::Alignment alignment, Qt::Alignment vertical)
{
    return (alignment & ~Qt::AlignVertical_Mask) | vertical;
}

} // namespace

void setPlacement(QCPItemText* label, Qt::Alignment alignment, const QMargins& padding)
{
    label->setProperty(kPreferredAlignment, int(alignment));
    label->setProperty(kPreferredPadding, QVariant::fromValue(padding));
    label->setPositionAlignment(alignment);
    label->setPadding(padding);
}

void setTextWithShortForm(QCPItemText* label, const QString& text, const QString& shortText)
{
    label->setProperty(kWholeText, shortText.isEmpty() ? QVariant() : QVariant(text));
    label->setProperty(kShortText, shortText.isEmpty() ? QVariant() : QVariant(shortText));
    label->setProperty(kHiddenByFit, QVariant());
    label->setText(text);
}

void fitLabels(QCustomPlot* plot)
{
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* label = qobject_cast<QCPItemText*>(plot->item(i));
        // A label this function hid (neither of its texts fitted) is tried again: the plot may have grown.
        if (!label || !(label->visible() || label->property(kHiddenByFit).isValid()) || !label->clipAxisRect())
            continue;
        const QVariant preferred = label->property(kPreferredAlignment);
        if (!preferred.isValid())
            continue;
        Qt::Alignment alignment = Qt::Alignment(preferred.toInt());
        QMargins padding = label->property(kPreferredPadding).value<QMargins>();
        const QRectF area = label->clipAxisRect()->rect();
        const QPointF anchor = label->position->pixelPosition();
        const bool rotated = isRotated(label);
        // How far a placement sticks out of the axis rect, along the text's reading direction
        // (text-frame x) and across it (text-frame y).
        auto overflowAlong = [&](const QRectF& box) {
            return rotated ? std::max(0.0, area.top() - box.top()) + std::max(0.0, box.bottom() - area.bottom())
                           : std::max(0.0, area.left() - box.left()) + std::max(0.0, box.right() - area.right());
        };
        auto overflowAcross = [&](const QRectF& box) {
            return rotated ? std::max(0.0, area.left() - box.left()) + std::max(0.0, box.right() - area.right())
                           : std::max(0.0, area.top() - box.top()) + std::max(0.0, box.bottom() - area.bottom());
        };
        auto mirroredHorizontal = [](Qt::Alignment a) {
            if (a & Qt::AlignLeft)
                return withHorizontal(a, Qt::AlignRight);
            if (a & Qt::AlignRight)
                return withHorizontal(a, Qt::AlignLeft);
            return a;
        };
        auto mirroredVertical = [](Qt::Alignment a) {
            if (a & Qt::AlignTop)
                return withVertical(a, Qt::AlignBottom);
            if (a & Qt::AlignBottom)
                return withVertical(a, Qt::AlignTop);
            return a;
        };
        const QMargins swappedLeftRight(padding.right(), padding.top(), padding.left(), padding.bottom());
        // The whole text, or its short form where neither placement holds the whole one along its reading direction,
        // or hidden where neither holds the short one either (setTextWithShortForm()).
        const QVariant whole = label->property(kWholeText);
        QString shown = whole.isValid() ? whole.toString() : label->text();
        // Mirror only when that sticks out less than the preferred side.
        if (const double stay = overflowAlong(labelBox(label, anchor, alignment, padding, shown)); stay > 0) {
            const Qt::Alignment other = mirroredHorizontal(alignment);
            const double mirrored = overflowAlong(labelBox(label, anchor, other, swappedLeftRight, shown));
            if (mirrored < stay) {
                alignment = other;
                padding = swappedLeftRight;
            }
            if (whole.isValid() && std::min(stay, mirrored) > 0) {
                const QString shortText = label->property(kShortText).toString();
                shown = overflowAlong(labelBox(label, anchor, alignment, padding, shortText)) <= 0 ? shortText : QString();
            }
        }
        const QMargins swappedTopBottom(padding.left(), padding.bottom(), padding.right(), padding.top());
        if (const double stay = overflowAcross(labelBox(label, anchor, alignment, padding, shown)); stay > 0) {
            const Qt::Alignment other = mirroredVertical(alignment);
            if (overflowAcross(labelBox(label, anchor, other, swappedTopBottom, shown)) < stay) {
                alignment = other;
                padding = swappedTopBottom;
            }
        }
        // No text fits: hidden (an empty text would still draw its padded background), until one fits again.
        const bool hide = whole.isValid() && shown.isEmpty();
        if (hide != label->property(kHiddenByFit).isValid()) {
            label->setProperty(kHiddenByFit, hide ? QVariant(true) : QVariant());
            label->setVisible(!hide);
        }
        if (!hide && label->text() != shown)
            label->setText(shown);
        if (label->positionAlignment() != alignment)
            label->setPositionAlignment(alignment);
        if (label->padding() != padding)
            label->setPadding(padding);
    }
}

void fitLegend(QCustomPlot* plot, int widthPixels)
{
    QCPLegend* legend = plot->legend;
    if (!legend->visible() || legend->layout() == plot->axisRect()->insetLayout())
        return;
    cacheLegendItems(legend); // entries added since the last replot
    LegendLayerCache::adopt(plot); // ... drawn from the legend's image
    // itemCount() counts the grid's cells, empty ones included: collect the real entries. Each
    // entry gets a little room below, or its clip rect cuts the underscores of "t_mem".
    const QMargins itemMargins(0, 0, 0, 3);
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem* item = legend->item(i)) {
            if (item->margins() != itemMargins)
                item->setMargins(itemMargins);
            widths.push_back(item->minimumOuterSizeHint().width());
        }
    }
    const int count = int(widths.size());
    if (count == 0)
        return;
    const int available = (widthPixels > 0 ? widthPixels : plot->width()) - legend->margins().left() - legend->margins().right() - 8;
    int columns = 1;
    for (int c = count; c >= 1; --c) {
        int width = (c - 1) * legend->columnSpacing();
        for (int column = 0; column < c; ++column) {
            int widest = 0;
            for (int i = column; i < count; i += c)
                widest = std::max(widest, widths[size_t(i)]);
            width += widest;
        }
        if (width <= available) {
            columns = c;
            break;
        }
    }
    if (legend->wrap() != columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true);
    }
}

bool inRange(const QCPAxis* axis, double x)
{
    return std::isfinite(x) && x >= axis->range().lower && x <= axis->range().upper;
}

} // namespace ridgeline::views::plotkit
