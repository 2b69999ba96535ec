// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <initializer_list>
#include <limits>
#include <optional>

#include <Eigen/Core>

#include <QColor>
#include <QString>

#include <qcustomplot.h>

/**
 * Shared QCustomPlot plumbing for the plot panels: one look (fonts, grids, log tickers with
 * compact labels), in-place data updates on the fixed sweep grids, and guarded axis ranges
 * (non-finite and, on log axes, non-positive values are skipped, never drawn or ranged on).
 */
namespace ridgeline::views::plotkit {

/**
 * Log ticker printing compact decimal labels: 0.01, 0.1, 1, 10, 100, 1k, 10k, 1M, 1G. When the
 * range spans less than about two decades it ticks at 1, 2 and 5 times each power of ten instead,
 * so a narrow log axis still carries several labels (unless more than setMaximumLabels() allows). Ticks several decades apart get their sub-ticks at the decades between.
 */
class CompactLogTicker final : public QCPAxisTickerLog {
public:
    CompactLogTicker();

    /**
     * QCPAxisTicker::generate(), remembered: the same range, locale, number format and ticker settings as the call
     * before give its ticks, sub-ticks and labels again without computing them (QCustomPlot asks on every replot of
     * every axis, 15 k instructions each with the labels; a slider step moves few of the axes; issue 16, thirteenth
     * stop).
     */
    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision, QVector<double>& ticks,
                  QVector<double>* subTicks, QVector<QString>* tickLabels) override;
    /** Times generate() computed the ticks rather than repeating the last ones. */
    long long generated() const { return m_generated; }
    /**
     * At most @p labels tick labels inside the range (0: no limit, the default; setupPlot()'s fit sets it from the axis
     * length): where every decade (or the 1-2-5 sequence of a narrow range) would give more, the ticks are powers of
     * ten every 2, 5, 10, 20... decades, the narrowest step that keeps to the limit. A negative value counts as 0.
     */
    void setMaximumLabels(int labels);
    int maximumLabels() const { return m_maximumLabels; }
    /** Labels inside the range that the last tick vector would have had with no limit (0 before the first). */
    int unlimitedLabels() const { return m_unlimitedLabels; }

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;

private:
    bool m_dense = false; ///< the last tick vector used the 1-2-5 sequence
    int m_maximumLabels = 0; ///< setMaximumLabels(); 0 for no limit
    int m_unlimitedLabels = 0; ///< unlimitedLabels()

    /** What the last generate() computed from, and what it gave. */
    struct Last {
        QCPRange range;
        QLocale locale;
        QChar formatChar;
        int precision = 0;
        int tickCount = 0;
        int subTickCount = 0;
        double logBase = 0;
        double tickOrigin = 0;
        int strategy = 0;
        int maximumLabels = 0;
        bool subTicks = false;
        bool labels = false;
        QVector<double> ticks;
        QVector<double> subTickValues;
        QVector<QString> tickLabels;
    };
    std::optional<Last> m_last;
    long long m_generated = 0;
};

/** Applies the common look to @p plot: antialiased curves, markers and text, crisp (not
 *  antialiased) grid and axes, white background, legend hidden; replots repaint with the window's
 *  next paint pass rather than at once (no QCP::phImmediateRefresh); one paint buffer (the empty
 *  "overlay" layer shares it) and an opaque widget (Qt::WA_OpaquePaintEvent). After each layout, every labelled
 *  axis's tick labels are kept apart (at least 1.25 text heights on a value axis, the width of "100k" and half a
 *  text height on a key axis: a log axis's CompactLogTicker::setMaximumLabels(), another ticker's count) and raised back to its owner's count as it grows; a log axis then ticks
 *  every few decades, its sub-ticks at the decades in between. */
void setupPlot(QCustomPlot* plot);

/** Styles @p axis (fonts, pens, grid) and sets its label; log scale with CompactLogTicker when @p log.
 *  @p label may hold shorter forms (titleWithShortForms()): the axis shows the longest that fits its length. */
void setupAxis(QCPAxis* axis, const QString& label, bool log);

/**
 * An axis title with shorter forms for a narrow plot: @p full, then each of @p shorter (longest first), joined by
 * U+009C, Qt's separator of length variants. QPainter::drawText() in a rectangle, and so QCustomPlot's axis title (drawn
 * in a box as long as the axis) and the title image of views/kit/axistitle.h, draws the first form whose bounding box
 * fits, or the last; at 1,280 x 720 "time per decode step (ms)" does not fit the decode floor's value axis and was cut
 * at the plot's edge. Anything that reads an axis title as text (hover read-outs, CSV headers, exports) reads the full
 * form through axisTitle().
 */
QString titleWithShortForms(const QString& full, std::initializer_list<QString> shorter);

/** The full form of @p axis's title (QCPAxis::label() up to its first U+009C), for read-outs and CSV headers. */
QString axisTitle(const QCPAxis* axis);

/** Moves the legend out of the axis rect into a row below it, @p columns entries per row. */
void placeLegendBelow(QCustomPlot* plot, int columns);

/** Adds a line graph on (@p keyAxis, @p valueAxis) with @p pen, named @p name in the legend
 *  (an empty name keeps it out of the legend). On screen the graph strokes its line without the
 *  vertices that lie within 0.02 px of the line through their neighbours (the same picture, far
 *  fewer joins to stroke on straight stretches of log-log sweeps); data() is untouched. */
QCPGraph* addCurve(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QPen& pen, const QString& name);

/** Adds a scatter-only graph (no line) for point markers, kept out of the legend. */
QCPGraph* addMarker(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QCPScatterStyle& style);

/**
 * Writes values[i] * scale at keys[i] into @p graph. When the graph already holds keys.size()
 * points the values are overwritten in place (no allocation); otherwise the container is built
 * once. Non-finite values, and non-positive ones when @p logValues, become NaN (a gap).
 */
void assignCurve(QCPGraph* graph, const Eigen::ArrayXd& keys, const Eigen::ArrayXd& values, double scale = 1.0,
                 bool logValues = true);

/** Sets @p graph to the single point (key, value), in place; hides it when not finite. */
void assignPoint(QCPGraph* graph, double key, double value);

/** Running minimum and maximum of the values that can be drawn on a (log or linear) axis. */
struct Extent {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    bool log = true;

    /** Includes @p value when finite (and positive on a log axis). */
    void include(double value);
    /** Includes every drawable value of @p values * scale. */
    void include(const Eigen::ArrayXd& values, double scale = 1.0);
    /** True once something was included. */
    bool valid() const { return low <= high; }
};

/**
 * The smallest value of the 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (x 10^k) sequence that is at least
 * @p value: an axis end that stays put while the value moves within ~20 %, so its tick labels (and
 * the layout around them) do not change on every slider step. 1 for a non-finite or non-positive
 * @p value.
 */
double niceCeiling(double value);

/**
 * Sets @p axis to @p extent padded (log: by factor @p pad on both ends; linear: by fraction @p pad
 * of the span), or to @p fallback when the extent is empty. A zero-width extent is widened.
 */
void applyRange(QCPAxis* axis, const Extent& extent, double pad, const QCPRange& fallback);

/** A straight line item on (@p keyAxis, @p valueAxis) with @p pen. */
QCPItemStraightLine* addStraightLine(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QPen& pen);

/** Places @p line vertically at key @p x (hidden when not drawable on a log key axis). */
void placeVertical(QCPItemStraightLine* line, double x);

/** Places @p line horizontally at value @p y. */
void placeHorizontal(QCPItemStraightLine* line, double y);

/** A text label in @p color on (@p keyAxis, @p valueAxis), small font, white halo background. */
QCPItemText* addLabel(QCustomPlot* plot, QCPAxis* keyAxis, QCPAxis* valueAxis, const QColor& color);

/** Positions @p label at key @p x (plot coordinates) and @p yRatio of the axis rect height from
 *  the top (0 = top edge, 1 = bottom edge). */
void placeLabelAtKey(QCPItemText* label, double x, double yRatio);

/** Positions @p label at plot coordinates (@p x, @p y). */
void placeLabelAt(QCPItemText* label, double x, double y);

/**
 * Sets the alignment (QCPItemText::positionAlignment) and padding @p label prefers around its
 * anchor. fitLabels() starts from this placement on every replot and mirrors it, per direction,
 * when the label would cross the edge of its axis rect. Works for rotation 0 and -90 degrees.
 */
void setPlacement(QCPItemText* label, Qt::Alignment alignment, const QMargins& padding = QMargins(2, 0, 2, 0));

/** Sets @p label's text to @p text with a short form, @p shortText, that fitLabels() shows instead when the whole
 *  text sticks out of the axis rect along its reading direction with either placement (a rotated "P ≥ 274:
 *  compute-bound" taller than a small plot: "P ≥ 274"); when the short form sticks out too, fitLabels() hides the
 *  label until one fits again (a larger plot). Call it after setting the label's visibility: it clears that hiding.
 *  An empty @p shortText: a plain setText(). */
void setTextWithShortForm(QCPItemText* label, const QString& text, const QString& shortText);

/** Mirrors labels placed with setPlacement() that would leave their axis rect, and shows a label's short form
 *  (setTextWithShortForm()) where its whole text does not fit. Connected to QCustomPlot::afterLayout by PlotPanel, so
 *  it sees the final pixel geometry. */
void fitLabels(QCustomPlot* plot);

/** Chooses how many legend entries share a row so the legend below the plot fits its width: the plot's width on
 *  screen, or @p widthPixels (> 0) when the plot is about to be drawn at another width (an export's toPainter()).
 *  Connected to QCustomPlot::beforeReplot by PlotPanel. Also swaps QCustomPlot's legend entries
 *  for ones that measure their text once per name instead of several times per replot, and hands entries added
 *  since the last replot to the legend's image cache (LegendLayerCache::adopt()), which alone draws them. */
void fitLegend(QCustomPlot* plot, int widthPixels = -1);

/** True when @p x lies inside the axis's current range. */
bool inRange(const QCPAxis* axis, double x);

/** A pen of @p color, @p width pixels, @p style; flat caps, miter joins. */
QPen pen(const QColor& color, double width, Qt::PenStyle style = Qt::SolidLine);

} // namespace ridgeline::views::plotkit
