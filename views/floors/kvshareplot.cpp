// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/kvshareplot.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <QCursor>
#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "document/readouts.h"
#include "document/format.h"
#include "views/kit/card.h"
#include "views/kit/curvelayer.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

/** Context where the share crosses one half (cache bytes = weight bytes), interpolated in log S
 *  on the sweep; NaN when it stays on one side. */
double halfShareContext(const model::Sweeps& sweeps)
{
    const Eigen::Index n = std::min(sweeps.context.size(), sweeps.kvShare.size());
    for (Eigen::Index i = 1; i < n; ++i) {
        const double a = sweeps.kvShare[i - 1];
        const double b = sweeps.kvShare[i];
        if (std::isfinite(a) && std::isfinite(b) && a < 0.5 && b >= 0.5) {
            const double t = (0.5 - a) / (b - a);
            const double logS = std::log(sweeps.context[i - 1]) + t * (std::log(sweeps.context[i]) - std::log(sweeps.context[i - 1]));
            return std::exp(logS);
        }
    }
    return qQNaN();
}

/** The bar chart's height on screen with the live bar alone (px, before the theme's font scale). */
constexpr int kBarPlotHeight = 84;

/** The value of bar @p index of @p bars (GB); 0 out of range. */
double barValue(const QCPBars* bars, int index)
{
    if (!bars || index < 0 || index >= bars->data()->size())
        return 0.0;
    return (bars->data()->constBegin() + index)->value;
}

/** Sets bar @p index of @p bars to @p gb, in place when the bar is there, else appended at key @p index. */
void setBarValue(QCPBars* bars, int index, double gb)
{
    if (index < bars->data()->size())
        (bars->data()->begin() + index)->value = gb;
    else
        bars->data()->add(QCPBarsData(index, gb));
}

/** Puts @p plot's legend (placeLegendBelow()'s look and image cache, views/kit/legendlayer.h) in a row above the axis
 *  rect, centred: the legend at its least width between two empty cells that share what is left; square icons. */
void placeLegendAbove(QCustomPlot* plot)
{
    placeLegendBelow(plot, 2);
    QCPLegend* legend = plot->legend;
    QCPLayoutGrid* layout = plot->plotLayout();
    layout->take(legend);
    layout->simplify(); // the legend's row, now empty
    auto* row = new QCPLayoutGrid;
    layout->insertRow(0);
    layout->addElement(0, 0, row);
    layout->setRowStretchFactors({0.001, 1.0});
    layout->setRowSpacing(0);
    row->addElement(0, 0, new QCPLayoutElement(plot));
    row->addElement(0, 1, legend);
    row->addElement(0, 2, new QCPLayoutElement(plot));
    row->setColumnStretchFactors({1.0, 0.001, 1.0});
    row->setColumnSpacing(0);
    legend->setIconSize(8, 8); // a square in the bar's colour
    legend->setMargins(QMargins(6, 10, 6, 6)); // air between the card's title and the bar, as the Qt Charts legend left
}

} // namespace

KvSharePlot::KvSharePlot(QWidget* parent)
    : FloorPlot(FloorPlotId::KvShare,
                tr("Bytes one decode step reads: R = W + B\u00b7S\u00b7kv_tok, with W = N\u00b7b_w and\n"
                   "kv_tok = 2\u00b7L\u00b7H_kv\u00b7h\u00b7b_kv.\n"
                   "KV share = B\u00b7S\u00b7kv_tok / R, drawn across context S at the current batch B.\n"
                   "With tensor parallelism over T GPUs both are per GPU: W / T (MoE: the experts the batch\n"
                   "touches) and the KV heads each GPU holds, ceil(H_kv / T); an MLA latent is replicated.\n"
                   "Sliding-window layers hold min(S, window) tokens.\n"
                   "At 50 % the cache reads as many bytes as the weights."),
                parent)
{
    // The bar: a QCustomPlot of its own above the curve's, one horizontal stacked bar, weights then KV cache, in GB
    // (issue 16, nineteenth stop: a Qt Charts QChartView before).
    m_barPlot = new QCustomPlot(this);
    m_barPlot->setObjectName(QStringLiteral("kvShareChart"));
    // Its resize replot drops the replot refresh() queued before, as the card's plot's does (PlotPanel::eventFilter()).
    m_barPlot->installEventFilter(this);
    m_barPlot->setAccessibleName(tr("Weights and KV cache bytes per decode step"));
    setupPlot(m_barPlot);
    m_barPlot->setMinimumSize(0, 0);
    m_barPlot->setFixedHeight(kBarPlotHeight);
    m_barPlot->setMouseTracking(true); // the bars' tool tips on hover
    m_barAxis = m_barPlot->yAxis;
    m_bytesAxis = m_barPlot->xAxis;
    setupAxis(m_bytesAxis, QString(), false);
    setupAxis(m_barAxis, QString(), false);
    m_barAxis->grid()->setVisible(false);
    m_barAxis->setTickLength(0, 0);
    m_barAxis->setSubTicks(false);
    m_barAxis->setBasePen(Qt::NoPen);
    m_barAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    m_barAxis->setVisible(false);
    // Room for the first and last tick labels, centred on the axis ends (a QCustomPlot axis rect leaves none).
    m_barPlot->axisRect()->setMinimumMargins(QMargins(12, 2, 20, 0));
    m_barPlot->axisRect()->setMinimumSize(0, 12); // QCustomPlot's 50 px would squeeze the legend's row
    setBytesAxisRange(m_bytesAxis, 1.0);
    m_weights = new QCPBars(m_barAxis, m_bytesAxis);
    m_kv = new QCPBars(m_barAxis, m_bytesAxis);
    for (auto [bars, name, color] : {std::tuple{m_weights, tr("Weights"), palette::memory()}, std::tuple{m_kv, tr("KV cache"), palette::kv()}}) {
        bars->setName(name);
        bars->setPen(QPen(color, 1));
        bars->setBrush(color);
        bars->setWidth(0.7);
        bars->setWidthType(QCPBars::wtPlotCoords);
    }
    m_kv->moveAbove(m_weights);
    setBarValue(m_weights, 0, 0.0);
    setBarValue(m_kv, 0, 0.0);
    setBarCategories({tr("read")}, false);
    placeLegendAbove(m_barPlot);
    // As PlotPanel does for plot(): legend entries that measure their names once, not on every replot's layout.
    connect(m_barPlot, &QCustomPlot::beforeReplot, this, [this] { fitLegend(m_barPlot); });
    cardLayout()->insertWidget(1, m_barPlot);
    // The bars: their values on hover.
    connect(m_barPlot, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        int index = -1;
        if (const QCPBars* bars = barAt(event->position(), &index))
            QToolTip::showText(QCursor::pos(), barToolTip(bars, index), m_barPlot);
        else
            QToolTip::hideText();
    });

    // QCustomPlot: share across context.
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    setupAxis(x, titleWithShortForms(tr("context S (tokens per sequence)"), {tr("context S (tokens)")}), true);
    setupAxis(y, tr("KV share (%)"), false);
    x->setRange(model::Sweeps::kContextMin, model::Sweeps::kContextMax);
    y->setRange(0, 104); // 100 % inside the rect, so its tick label is not cut
    y->ticker()->setTickCount(5);

    m_halfLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    placeHorizontal(m_halfLine, 50.0);
    m_halfLabel = addLabel(p, x, y, palette::reference());
    m_halfLabel->setText(tr("cache = weights"));
    placeLabelAt(m_halfLabel, model::Sweeps::kContextMin, 50.0);
    setPlacement(m_halfLabel, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 2, 2));
    m_currentLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_share = addCurve(p, x, y, pen(palette::kv(), 2.4), tr("KV share at the current B"));
    // The curve from an image: it is drawn at the current B across the context axis, so a context step (and the
    // current point moving along it) leaves it as it was. One curve: the image blended gives the pixels the stroke
    // gives (views/kit/curvelayer.h).
    CurveLayerCache::install(p, {m_share});
    m_current = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::kv(), palette::kv(), 8));
    m_current->setName(tr("current S"));
    m_current->addToLegend();
    // Outside the fixed context axis (128 to 1,048,576 tokens) the scenario's own point is not drawn (issue 14).
    watchCurrentPoint(m_current, [](double context, double) { return tr("S = %1").arg(format::integer(context)); });
    placeLegendBelow(p, 2);

    // Read-out: the KV share the model gives at the whole context under the cursor, current B.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        const double context = std::clamp(std::round(key), model::Sweeps::kContextMin, model::Sweeps::kContextMax);
        const document::KvShareAt at = document::kvShareAt(*s, s->workload.batch, context);
        const double kvBytes = at.kvBytes;
        const double share = at.share;
        Readout r;
        r.key = context;
        r.keyText = tr("S = %1 tokens").arg(format::integer(context));
        r.values = {{tr("KV share"), share * 100.0, format::percent(share), m_share},
                    {tr("KV read"), kvBytes, format::gigabytes(kvBytes), nullptr}};
        return r;
    });
}

int KvSharePlot::barCount() const
{
    return int(m_weights->data()->size());
}

double KvSharePlot::weightsGb(int index) const
{
    return barValue(m_weights, index);
}

double KvSharePlot::kvGb(int index) const
{
    return barValue(m_kv, index);
}

QStringList KvSharePlot::barLabels() const
{
    const auto ticker = m_barAxis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? QStringList(ticker->ticks().values()) : QStringList();
}

void KvSharePlot::setBarCategories(const QStringList& labels, bool visible)
{
    const auto ticker = m_barAxis->ticker().staticCast<QCPAxisTickerText>();
    ticker->clear();
    for (qsizetype i = 0; i < labels.size(); ++i)
        ticker->addTick(double(i), labels[i]);
    m_barAxis->setRange(-0.5, double(labels.size()) - 0.5);
    m_barAxis->setVisible(visible);
}

QString KvSharePlot::barToolTip(const QCPBars* bars, int index) const
{
    const double weights = weightsGb(index), kv = kvGb(index);
    const QString line = tr("%1: %2 GB").arg(bars ? bars->name() : QString(), format::number(barValue(bars, index)));
    return line + QLatin1Char('\n')
        + tr("weights %1 GB + KV cache %2 GB = %3 GB read per decode step (per GPU)")
              .arg(format::number(weights), format::number(kv), format::number(weights + kv));
}

QCPBars* KvSharePlot::barAt(const QPointF& pos, int* index) const
{
    if (!m_barPlot->axisRect()->rect().contains(pos.toPoint()))
        return nullptr;
    const double key = m_barAxis->pixelToCoord(pos.y());
    const int i = int(std::lround(key));
    if (i < 0 || i >= barCount() || std::abs(key - i) > m_weights->width() / 2)
        return nullptr;
    const double gb = m_bytesAxis->pixelToCoord(pos.x());
    const double weights = weightsGb(i), kv = kvGb(i);
    QCPBars* bars = gb < 0 ? nullptr : gb <= weights ? m_weights : gb <= weights + kv ? m_kv : nullptr;
    if (bars && index)
        *index = i;
    return bars;
}

QMap<double, QString> KvSharePlot::bytesAxisTicks(const QCPAxis* axis)
{
    const auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    return ticker ? ticker->ticks() : QMap<double, QString>();
}

void KvSharePlot::setBytesAxisRange(QCPAxis* axis, double maxGb)
{
    if (!(maxGb > 0) || !std::isfinite(maxGb))
        maxGb = 1.0;
    // Decimal units, as format::gigabytes: the largest whose count at the axis end is at least 1 (GB below that).
    static const char* const kUnits[] = {"GB", "TB", "PB", "EB", "ZB", "YB"};
    int unit = 0;
    while (unit + 1 < int(std::size(kUnits)) && maxGb / std::pow(1e3, unit + 1) >= 1.0)
        ++unit;
    const double scale = std::pow(1e3, unit);
    auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
    if (!ticker) {
        ticker = QSharedPointer<QCPAxisTickerText>::create();
        axis->setTicker(ticker);
    }
    ticker->clear();
    const double ticks[] = {0.0, maxGb / 2, maxGb};
    for (double gb : ticks) {
        // %.3g: "0", "0.5", "37.5", "750"; past YB it turns to "1e+03" (7 characters with the unit still short).
        const QString text = gb == 0 ? QStringLiteral("0") : QString::number(gb / scale, 'g', 3) + QLatin1Char(' ') + QLatin1String(kUnits[unit]);
        ticker->addTick(gb, text);
    }
    axis->setRange(0.0, maxGb);
}

void KvSharePlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::DecodeResult& decode = evaluation.decode;
    const model::Sweeps& sweeps = evaluation.sweeps;

    keepForReadout(scenario); // the read-out at the cursor follows every change
    // Everything drawn below comes from these: a bandwidth or peak FLOP/s step leaves them as they were.
    const QCPRange x = plot()->xAxis->range();
    InputBytes inputs;
    inputs.addArray(sweeps.context).addArray(sweeps.kvShare);
    inputs.add(decode.weightBytes, decode.kvBytes, decode.kvShare, decode.readBytes, x.lower, x.upper,
               scenario.workload.contextTokens, scenario.workload.batch, scenario.hardware.gpus);
    if (sameInputsAsDrawn(inputs.bytes()))
        return;
    const double weightsGb = decode.weightBytes / 1e9;
    const double kvGb = decode.kvBytes / 1e9;
    setBarValue(m_weights, 0, weightsGb);
    setBarValue(m_kv, 0, kvGb);
    // The legend names the parts and the axis ends on a round number that stays put while the
    // total moves within ~20 %: the tick labels change only when it moves.
    // The figures themselves are in the title and the numbers panel.
    // With scenarios pinned it reaches the largest pinned bar too (m_barTotalGb; 0 without one), set once here rather
    // than set to the live total and widened again by keepBaselineInView() on every step.
    const double total = weightsGb + kvGb;
    const double axisMax = niceCeiling(std::max(total, m_barTotalGb));
    if (m_bytesAxis->range().upper != axisMax || m_bytesAxis->range().lower != 0.0)
        setBytesAxisRange(m_bytesAxis, axisMax);
    m_barPlot->replot(QCustomPlot::rpQueuedReplot);

    // Share across context.
    assignCurve(m_share, sweeps.context, sweeps.kvShare, 100.0, false);
    const double context = scenario.workload.contextTokens;
    assignPoint(m_current, context, decode.kvShare * 100.0);
    m_current->setVisible(context >= model::Sweeps::kContextMin);
    placeVertical(m_currentLine, context);

    const double half = halfShareContext(sweeps);
    QString crossing;
    if (std::isfinite(half))
        crossing = tr("the cache outweighs the weights from S \u2248 %1").arg(format::approximate(half));
    else if (sweeps.kvShare.size() > 0 && sweeps.kvShare[0] >= 0.5)
        crossing = tr("the cache outweighs the weights at every context shown");
    else
        crossing = tr("the weights dominate throughout the range shown (to S = %1)").arg(format::integer(model::Sweeps::kContextMax));
    const int gpus = std::max(1, scenario.hardware.gpus);
    setTakeaway(tr("KV cache is %1 of the decode read at B = %2, S = %3 (%4 of %5%6); %7.")
                    .arg(format::percent(decode.kvShare), format::integer(scenario.workload.batch),
                         format::integer(context), format::gigabytes(decode.kvBytes),
                         format::gigabytes(decode.readBytes),
                         gpus > 1 ? tr(" per GPU of %1").arg(format::integer(gpus)) : QString(), crossing));
    countRedraw();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

QList<SweepColumn> KvSharePlot::columns()
{
    return {{"context_tokens", &model::Sweeps::context}, {"kv_share_fraction", &model::Sweeps::kvShare}};
}

Explanation KvSharePlot::explain(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::DecodeResult& d = e.decode;
    const QString B = integer(s.workload.batch);
    const QString S = integer(s.workload.contextTokens);
    Explanation x;
    x.title = floorPlotTitle(FloorPlotId::KvShare);
    x.summary = tr("How much of each step's read is KV cache rather than weights. The cache grows with B\u00b7S, the "
                   "weights do not: long contexts and big batches make decode a cache-reading problem.");
    x.steps << kvPerTokenStep(s, e)
            << tr("KV read = B\u00b7S\u00b7kv_tok = %1\u00b7%2\u00b7kv_tok = %3").arg(B, S, gigabytes(d.kvBytes))
            << tr("share = KV / (W + KV) = %1 / %2 = %3").arg(gigabytes(d.kvBytes), gigabytes(d.readBytes), percent(d.kvShare))
            << tr("the cache equals the weights at S = W / (B\u00b7kv_tok) = %1 tokens")
                   .arg(d.kvBytesPerTokenPerGpu > 0 ? approximate(d.weightBytes / (s.workload.batch * d.kvBytesPerTokenPerGpu))
                                                    : QStringLiteral("\u2013"));
    return x;
}

void KvSharePlot::drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer)
{
    // The pinned scenario's share over S and its point; its bytes as one more bar (its letter) in the bar chart.
    const model::Sweeps& sweeps = a.evaluation().sweeps;
    const model::DecodeResult& decode = a.evaluation().decode;
    assignCurve(layer.addCurve(label), sweeps.context, sweeps.kvShare, 100.0, false);
    assignPoint(layer.addMarker(), a.scenario().workload.contextTokens, decode.kvShare * 100.0);
    if (m_barViewHeight == 0) // the first pinned scenario: the height with the live bar alone
        m_barViewHeight = m_barPlot->minimumHeight();
    const int bar = barCount();
    setBarValue(m_weights, bar, decode.weightBytes / 1e9);
    setBarValue(m_kv, bar, decode.kvBytes / 1e9);
    m_barTotalGb = std::max(m_barTotalGb, (decode.weightBytes + decode.kvBytes) / 1e9);
    m_barLetters << pinnedLetter(layer.slot());
    // The live bar is "B" beside A alone (the A/B comparison), "live" beside several pinned scenarios.
    const bool ab = m_barLetters == QStringList{QStringLiteral("A")};
    setBarCategories(QStringList{ab ? tr("B") : tr("live")} + m_barLetters, true);
    // Room for the labelled bars: a third more per pinned bar, at most twice the height.
    const int bars = int(m_barLetters.size());
    m_barPlot->setFixedHeight(std::min(m_barViewHeight + bars * m_barViewHeight / 3, 2 * m_barViewHeight));
    m_barPlot->replot(QCustomPlot::rpQueuedReplot);
}

void KvSharePlot::eraseBaseline()
{
    for (QCPBars* bars : {m_weights, m_kv})
        if (bars->data()->size() > 1)
            bars->data()->removeAfter(0.5);
    setBarCategories({tr("read")}, false);
    if (m_barViewHeight > 0)
        m_barPlot->setFixedHeight(m_barViewHeight);
    m_barViewHeight = 0;
    m_barTotalGb = 0;
    m_barLetters.clear();
    m_barPlot->replot(QCustomPlot::rpQueuedReplot);
}

void KvSharePlot::keepBaselineInView()
{
    FloorPlot::keepBaselineInView();
    if (!hasBaseline())
        return;
    if (m_barTotalGb > m_bytesAxis->range().upper) {
        setBytesAxisRange(m_bytesAxis, niceCeiling(m_barTotalGb));
        m_barPlot->replot(QCustomPlot::rpQueuedReplot);
    }
}

} // namespace ridgeline::views
