// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/kvshareplot.h"

#include <algorithm>
#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QToolTip>
#include <QValueAxis>
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

QFont chartFont(double points)
{
    QFont font;
    font.setPointSizeF(points);
    return font;
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
    // Qt Charts: one horizontal stacked bar, weights then KV cache, in GB.
    m_weightsSet = new QBarSet(tr("Weights"));
    m_weightsSet->setColor(palette::memory());
    m_weightsSet->setBorderColor(palette::memory());
    m_weightsSet->append(0.0);
    m_kvSet = new QBarSet(tr("KV cache"));
    m_kvSet->setColor(palette::kv());
    m_kvSet->setBorderColor(palette::kv());
    m_kvSet->append(0.0);
    auto* series = new QHorizontalStackedBarSeries;
    series->setBarWidth(0.7);
    series->append(m_weightsSet);
    series->append(m_kvSet);

    m_chart = new QChart;
    m_chart->addSeries(series);
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setBackgroundRoundness(0);
    m_chart->setBackgroundBrush(QBrush(palette::card()));
    m_chart->setMargins(QMargins(12, 0, 20, 0)); // room for the first and last tick labels, centred on the axis ends
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_chart->legend()->setAlignment(Qt::AlignTop);
    m_chart->legend()->setFont(chartFont(8.0));
    m_chart->legend()->setLabelColor(palette::axis());
    m_chart->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);

    auto* category = new QBarCategoryAxis;
    category->append(tr("read"));
    category->setLabelsFont(chartFont(8.0));
    category->setLabelsColor(palette::axis());
    category->setGridLineVisible(false);
    category->setVisible(false);
    m_chart->addAxis(category, Qt::AlignLeft);
    series->attachAxis(category);
    m_bytesAxis = new QCategoryAxis; // a value axis whose tick labels are texts: GB, TB or PB as the total needs
    m_bytesAxis->setLabelsFont(chartFont(7.5));
    m_bytesAxis->setLabelsColor(palette::axis());
    m_bytesAxis->setGridLineColor(palette::grid());
    m_bytesAxis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    setBytesAxisRange(m_bytesAxis, 1.0);
    m_chart->addAxis(m_bytesAxis, Qt::AlignBottom);
    series->attachAxis(m_bytesAxis);

    m_chartView = new QChartView(m_chart, this);
    m_chartView->setObjectName(QStringLiteral("kvShareChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setFrameShape(QFrame::NoFrame);
    setTransparentBackground(m_chartView); // as the style sheet "background: transparent; border: none;" did
    // The chart's background (the card's colour, square corners, no margins) covers the whole view with opaque
    // pixels: with the view's viewport opaque, a repaint of the bar no longer repaints the card's style-sheet
    // background (a rounded rectangle) and the tab page under the view first (issue 16, fourteenth stop).
    m_chartView->viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    m_chartView->setFixedHeight(84);
    m_chartView->setAccessibleName(tr("Weights and KV cache bytes per decode step"));
    cardLayout()->insertWidget(1, m_chartView);

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
    // The bars: their values on hover.
    connect(series, &QHorizontalStackedBarSeries::hovered, this, [this](bool status, int index, QBarSet* set) {
        if (!status) {
            QToolTip::hideText();
            return;
        }
        QToolTip::showText(QCursor::pos(), barToolTip(set, index), m_chartView);
    });
}

QString KvSharePlot::barToolTip(const QBarSet* set, int index) const
{
    const double weights = m_weightsSet->at(index), kv = m_kvSet->at(index);
    const QString line = tr("%1: %2 GB").arg(set ? set->label() : QString(), format::number(set ? set->at(index) : 0.0));
    return line + QLatin1Char('\n')
        + tr("weights %1 GB + KV cache %2 GB = %3 GB read per decode step (per GPU)")
              .arg(format::number(weights), format::number(kv), format::number(weights + kv));
}

void KvSharePlot::setBytesAxisRange(QCategoryAxis* axis, double maxGb)
{
    if (!(maxGb > 0) || !std::isfinite(maxGb))
        maxGb = 1.0;
    // Decimal units, as format::gigabytes: the largest whose count at the axis end is at least 1 (GB below that).
    static const char* const kUnits[] = {"GB", "TB", "PB", "EB", "ZB", "YB"};
    int unit = 0;
    while (unit + 1 < int(std::size(kUnits)) && maxGb / std::pow(1e3, unit + 1) >= 1.0)
        ++unit;
    const double scale = std::pow(1e3, unit);
    for (const QString& label : axis->categoriesLabels())
        axis->remove(label);
    axis->setStartValue(0.0);
    const double ticks[] = {0.0, maxGb / 2, maxGb};
    for (double gb : ticks) {
        // %.3g: "0", "0.5", "37.5", "750"; past YB it turns to "1e+03" (7 characters with the unit still short).
        const QString text = gb == 0 ? QStringLiteral("0") : QString::number(gb / scale, 'g', 3) + QLatin1Char(' ') + QLatin1String(kUnits[unit]);
        axis->append(text, gb);
    }
    // The range last: a new range lays the axis out at once, and with the labels removed but not yet appended Qt Charts
    // deleted the axis's tick, grid and label items there and made them again in the layout that follows (0.7 M
    // instructions of the 1.7 M a relabel cost: issue 16, thirteenth stop in docs/performance.md). Set after the new
    // labels, the same number of items is laid out again in place.
    axis->setRange(0.0, maxGb);
}

void KvSharePlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::DecodeResult& decode = evaluation.decode;
    const model::Sweeps& sweeps = evaluation.sweeps;

    // Qt Charts, in place.
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
    m_weightsSet->replace(0, weightsGb);
    m_kvSet->replace(0, kvGb);
    // The legend names the parts and the axis ends on a round number that stays put while the
    // total moves within ~20 %: neither relabels (and re-lays out the chart) on every slider step.
    // The figures themselves are in the title and the numbers panel.
    const double total = weightsGb + kvGb;
    const double axisMax = niceCeiling(total);
    if (m_bytesAxis->max() != axisMax || m_bytesAxis->min() != 0.0)
        setBytesAxisRange(m_bytesAxis, axisMax);

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

namespace {

QBarCategoryAxis* categoryAxis(QChart* chart)
{
    for (QAbstractAxis* axis : chart->axes(Qt::Vertical))
        if (auto* category = qobject_cast<QBarCategoryAxis*>(axis))
            return category;
    return nullptr;
}

} // namespace

void KvSharePlot::drawBaseline(const document::Baseline& a, const QString& label, BaselineLayer& layer)
{
    // The pinned scenario's share over S and its point; its bytes as one more bar (its letter) in the bar chart.
    const model::Sweeps& sweeps = a.evaluation().sweeps;
    const model::DecodeResult& decode = a.evaluation().decode;
    assignCurve(layer.addCurve(label), sweeps.context, sweeps.kvShare, 100.0, false);
    assignPoint(layer.addMarker(), a.scenario().workload.contextTokens, decode.kvShare * 100.0);
    if (m_barViewHeight == 0) // the first pinned scenario: the height with the live bar alone
        m_barViewHeight = m_chartView->minimumHeight();
    m_weightsSet->append(decode.weightBytes / 1e9);
    m_kvSet->append(decode.kvBytes / 1e9);
    m_barTotalGb = std::max(m_barTotalGb, (decode.weightBytes + decode.kvBytes) / 1e9);
    m_barLetters << pinnedLetter(layer.slot());
    if (QBarCategoryAxis* axis = categoryAxis(m_chartView->chart())) {
        // The live bar is "B" beside A alone (the A/B comparison), "live" beside several pinned scenarios.
        const bool ab = m_barLetters == QStringList{QStringLiteral("A")};
        axis->setCategories(QStringList{ab ? tr("B") : tr("live")} + m_barLetters);
        axis->setVisible(true);
    }
    // Room for the labelled bars (Qt Charts drops category labels taller than their bar): a third more
    // per pinned bar, at most twice the height.
    const int bars = int(m_barLetters.size());
    m_chartView->setFixedHeight(std::min(m_barViewHeight + bars * m_barViewHeight / 3, 2 * m_barViewHeight));
}

void KvSharePlot::eraseBaseline()
{
    for (QBarSet* set : {m_weightsSet, m_kvSet})
        if (set->count() > 1)
            set->remove(1, set->count() - 1);
    if (QBarCategoryAxis* axis = categoryAxis(m_chartView->chart())) {
        axis->setCategories({tr("read")});
        axis->setVisible(false);
    }
    if (m_barViewHeight > 0)
        m_chartView->setFixedHeight(m_barViewHeight);
    m_barViewHeight = 0;
    m_barTotalGb = 0;
    m_barLetters.clear();
}

void KvSharePlot::keepBaselineInView()
{
    FloorPlot::keepBaselineInView();
    if (!hasBaseline())
        return;
    if (m_barTotalGb > m_bytesAxis->max())
        setBytesAxisRange(m_bytesAxis, niceCeiling(m_barTotalGb));
}

} // namespace ridgeline::views
