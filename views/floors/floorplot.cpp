// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/floorplot.h"

#include <algorithm>
#include <cmath>

#include <QCoreApplication>

#include <qcustomplot.h>

#include "document/format.h"
#include "model/cost/dtype.h"
#include "model/cost/scenariokeys.h"
#include "views/floors/decodeplot.h"
#include "views/floors/kvshareplot.h"
#include "views/floors/prefillplot.h"
#include "views/floors/rooflineplot.h"
#include "views/floors/sloplot.h"

namespace ridgeline::views {

namespace {

/** One row per floor plot, in kFloorPlotIds order: what is known of a plot without one. */
struct FloorPlotKind {
    FloorPlotId id;
    const char* name;       ///< floorPlotName(): the export file stem, a contract
    const char* objectStem; ///< floorPlotObjectStem()
    const char* title;      ///< floorPlotTitle(), untranslated
    QList<SweepColumn> (*columns)();
    Explanation (*explain)(const model::Scenario&, const model::Evaluation&);
    FloorPlot* (*create)(QWidget*);
};

template <typename Plot>
FloorPlot* create(QWidget* parent)
{
    return new Plot(parent);
}

const std::array<FloorPlotKind, 5> kKinds{{
    {FloorPlotId::Decode, "decode_floor", "decode", QT_TRANSLATE_NOOP("ridgeline::views::FloorPlot", "Decode floor"),
     &DecodePlot::columns, &DecodePlot::explain, &create<DecodePlot>},
    {FloorPlotId::Roofline, "roofline", "roofline", QT_TRANSLATE_NOOP("ridgeline::views::FloorPlot", "Roofline"),
     &RooflinePlot::columns, &RooflinePlot::explain, &create<RooflinePlot>},
    {FloorPlotId::KvShare, "kv_share", "kvShare",
     QT_TRANSLATE_NOOP("ridgeline::views::FloorPlot", "KV share of the decode read"), &KvSharePlot::columns,
     &KvSharePlot::explain, &create<KvSharePlot>},
    {FloorPlotId::Prefill, "prefill_crossover", "prefill", QT_TRANSLATE_NOOP("ridgeline::views::FloorPlot", "Prefill crossover"),
     &PrefillPlot::columns, &PrefillPlot::explain, &create<PrefillPlot>},
    {FloorPlotId::Slo, "slo", "slo", QT_TRANSLATE_NOOP("ridgeline::views::FloorPlot", "t_step(B) against ITL SLO lines"),
     &SloPlot::columns, &SloPlot::explain, &create<SloPlot>},
}};

constexpr bool kindsInListOrder()
{
    for (size_t i = 0; i < kFloorPlotIds.size(); ++i)
        if (kKinds[i].id != kFloorPlotIds[i])
            return false;
    return true;
}

const FloorPlotKind& kind(FloorPlotId id)
{
    static_assert(kKinds.size() == kFloorPlotIds.size());
    return kKinds[size_t(floorPlotIndex(id))];
}

QString dtypeText(model::DType type)
{
    const std::string_view name = model::dtypeName(type);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

} // namespace

int floorPlotIndex(FloorPlotId id)
{
    const auto at = std::find(kFloorPlotIds.begin(), kFloorPlotIds.end(), id);
    Q_ASSERT(at != kFloorPlotIds.end());
    return int(at - kFloorPlotIds.begin());
}

QString floorPlotName(FloorPlotId id)
{
    Q_ASSERT(kindsInListOrder());
    return QString::fromLatin1(kind(id).name);
}

std::optional<FloorPlotId> floorPlotFromName(const QString& name)
{
    for (const FloorPlotKind& k : kKinds)
        if (name == QLatin1String(k.name))
            return k.id;
    return std::nullopt;
}

QString floorPlotTitle(FloorPlotId id)
{
    return QCoreApplication::translate("ridgeline::views::FloorPlot", kind(id).title);
}

QString floorPlotObjectStem(FloorPlotId id)
{
    return QString::fromLatin1(kind(id).objectStem);
}

QByteArray sweepsCsv(const QList<SweepColumn>& columns, const model::Sweeps& sweeps)
{
    QByteArray out;
    for (qsizetype c = 0; c < columns.size(); ++c)
        out += (c ? "," : "") + QByteArray(columns[c].header);
    out += '\n';
    Eigen::Index rows = columns.empty() ? 0 : (sweeps.*columns.front().values).size();
    for (const SweepColumn& c : columns)
        rows = std::min(rows, (sweeps.*c.values).size());
    for (Eigen::Index r = 0; r < rows; ++r) {
        for (qsizetype c = 0; c < columns.size(); ++c) {
            const double v = (sweeps.*columns[c].values)[r];
            if (c)
                out += ',';
            if (std::isfinite(v))
                out += QByteArray::fromStdString(model::formatNumber(v));
        }
        out += '\n';
    }
    return out;
}

QList<SweepColumn> floorPlotCsvColumns(FloorPlotId id)
{
    return kind(id).columns();
}

Explanation explainPlot(FloorPlotId id, const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    return kind(id).explain(scenario, evaluation);
}

Explanation explainPlot(int index, const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const int last = int(kFloorPlotIds.size()) - 1;
    return explainPlot(kFloorPlotIds[size_t(index >= 0 && index < last ? index : last)], scenario, evaluation);
}

FloorPlot* createFloorPlot(FloorPlotId id, QWidget* parent)
{
    return kind(id).create(parent);
}

FloorPlot::FloorPlot(FloorPlotId id, const QString& formulaToolTip, QWidget* parent)
    : PlotPanel(floorPlotTitle(id), floorPlotObjectStem(id), formulaToolTip, parent)
    , m_id(id)
{
}

void FloorPlot::setBaseline(const document::Baseline& a, const QString& label)
{
    document::PinnedScenarios one;
    if (a.isPinned())
        one.pinAt(0, a.scenario()); // evaluates A again: a copy of the same scenario gives the same evaluation
    setBaselines(one, {label});
}

void FloorPlot::setBaselines(const document::PinnedScenarios& pinned, const QStringList& labels)
{
    clearBaseline();
    if (pinned.isEmpty())
        return;
    m_pinned.reserve(size_t(pinned.size()));
    for (size_t i = 0; i < pinned.items().size(); ++i) {
        const document::PinnedScenario& p = pinned.items()[i];
        QCPItemText* above = m_pinned.empty() ? nullptr : m_pinned.back().label();
        m_pinned.emplace_back(plot(), p.slot, above);
        drawBaseline(p.baseline, labels.value(qsizetype(i)), m_pinned.back());
    }
    keepBaselineInView();
    plot()->replot(QCustomPlot::rpQueuedReplot);
}

void FloorPlot::clearBaseline()
{
    if (m_pinned.empty())
        return;
    redrawOnNextRefresh(); // the next refresh narrows the axes the pinned scenarios widened
    for (auto it = m_pinned.rbegin(); it != m_pinned.rend(); ++it) // the later labels hang under the earlier
        it->remove();
    m_pinned.clear();
    plot()->replot(QCustomPlot::rpQueuedReplot);
    eraseBaseline();
}

QList<QCPGraph*> FloorPlot::baselineGraphs() const
{
    QList<QCPGraph*> out;
    for (const BaselineLayer& layer : m_pinned)
        out += layer.graphs();
    return out;
}

QList<QCPGraph*> FloorPlot::baselineGraphs(int index) const
{
    return index >= 0 && index < baselineCount() ? m_pinned[size_t(index)].graphs() : QList<QCPGraph*>();
}

int FloorPlot::baselineSlot(int index) const
{
    return index >= 0 && index < baselineCount() ? m_pinned[size_t(index)].slot() : -1;
}

void FloorPlot::keepBaselineInView()
{
    for (const BaselineLayer& layer : m_pinned)
        layer.keepInView();
}

QString FloorPlot::kvPerTokenStep(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::ModelShape& m = s.model;
    const model::DecodeResult& d = e.decode;
    // Hybrids hold KV in their attention layers only (L_attn); every other model has L_attn = L.
    const bool hybrid = m.attentionLayersOrAll() != m.layers;
    return m.isMla()
        ? (hybrid ? tr("kv_tok = L_attn\u00b7(r + d_r)\u00b7b_kv = %1\u00b7(%2 + %3)\u00b7%4 B = %5")
                  : tr("kv_tok = L\u00b7(r + d_r)\u00b7b_kv = %1\u00b7(%2 + %3)\u00b7%4 B = %5"))
              .arg(integer(m.attentionLayersOrAll()), integer(m.kvLoraRank), integer(m.ropeHeadDim),
                   number(model::bytesPerElement(m.kvDtype)), kibibytesPerToken(d.kvBytesPerToken))
        : (hybrid ? tr("kv_tok = 2\u00b7L_attn\u00b7H_kv\u00b7h\u00b7b_kv = 2\u00b7%1\u00b7%2\u00b7%3\u00b7%4 B (%5) = %6")
                  : tr("kv_tok = 2\u00b7L\u00b7H_kv\u00b7h\u00b7b_kv = 2\u00b7%1\u00b7%2\u00b7%3\u00b7%4 B (%5) = %6"))
              .arg(integer(m.attentionLayersOrAll()), integer(m.kvHeads), integer(m.headDimOrDefault()),
                   number(model::bytesPerElement(m.kvDtype)), dtypeText(m.kvDtype), kibibytesPerToken(d.kvBytesPerToken));
}

QString FloorPlot::weightsStep(const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    const model::ModelShape& m = s.model;
    const model::DecodeResult& d = e.decode;
    const int gpus = std::max(1, s.hardware.gpus);
    const double plainBytes = m.params * model::weightBytesPerParameter(m.weightDtype);
    const bool plainRead = std::abs(d.weightBytes - plainBytes) <= 1e-9 * plainBytes;
    return gpus > 1 || m.isMoe()
        ? tr("W = weights read per step per GPU = %1 (T = %2)").arg(gigabytes(d.weightBytes), integer(gpus))
        : plainRead ? tr("W = N\u00b7b_w = %1 \u00b7 %2 B (%3) = %4")
                          .arg(billionParams(m.params), number(model::weightBytesPerParameter(m.weightDtype)),
                               dtypeText(m.weightDtype), gigabytes(d.weightBytes))
                    // The input embedding's unread rows (model.embedding_read = rows) or 16-bit modules of a quantized import.
                    : tr("W = weights read per step = %1 of %2 held (decode gathers only its tokens' embedding rows; "
                         "modules a quantization config leaves out stay at 16 bits)")
                          .arg(gigabytes(d.weightBytes), gigabytes(d.residentWeightBytes));
}

QString FloorPlot::boundName(model::Bound bound)
{
    return bound == model::Bound::Memory ? tr("memory-bound") : tr("compute-bound");
}

} // namespace ridgeline::views
