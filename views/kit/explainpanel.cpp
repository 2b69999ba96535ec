// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/explainpanel.h"

#include <algorithm>
#include <cmath>

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QScrollBar>
#include <QTextBrowser>
#include <QToolTip>
#include <QVBoxLayout>

#include "model/cost/dtype.h"
#include "model/cost/formulatext.h"
#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotpanel.h"
#include "document/scenariodocument.h"

namespace ridgeline::views {

namespace {

constexpr double kTera = 1e12;

QString dtypeText(model::DType type)
{
    const std::string_view name = model::dtypeName(type);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

QString boundName(model::Bound bound)
{
    return bound == model::Bound::Memory ? ExplainPanel::tr("memory-bound") : ExplainPanel::tr("compute-bound");
}

} // namespace

Explanation explainPlot(int index, const model::Scenario& s, const model::Evaluation& e)
{
    using namespace format;
    auto tr = [](const char* text) { return ExplainPanel::tr(text); };
    const model::DecodeResult& d = e.decode;
    const model::PrefillResult& p = e.prefill;
    const model::RooflineResult& r = e.roofline;
    const model::ModelShape& m = s.model;
    const double bw = s.hardware.bandwidthBytesPerSecond;
    const double eta = s.efficiency.bandwidth;
    const int gpus = std::max(1, s.hardware.gpus);
    const QString B = integer(s.workload.batch);
    const QString S = integer(s.workload.contextTokens);
    const QString P = integer(s.workload.promptTokens);
    // Hybrids hold KV in their attention layers only (L_attn); every other model has L_attn = L.
    const bool hybrid = m.attentionLayersOrAll() != m.layers;
    const QString kvTok = m.isMla()
        ? (hybrid ? tr("kv_tok = L_attn\u00b7(r + d_r)\u00b7b_kv = %1\u00b7(%2 + %3)\u00b7%4 B = %5")
                  : tr("kv_tok = L\u00b7(r + d_r)\u00b7b_kv = %1\u00b7(%2 + %3)\u00b7%4 B = %5"))
              .arg(integer(m.attentionLayersOrAll()), integer(m.kvLoraRank), integer(m.ropeHeadDim),
                   number(model::bytesPerElement(m.kvDtype)), kibibytesPerToken(d.kvBytesPerToken))
        : (hybrid ? tr("kv_tok = 2\u00b7L_attn\u00b7H_kv\u00b7h\u00b7b_kv = 2\u00b7%1\u00b7%2\u00b7%3\u00b7%4 B (%5) = %6")
                  : tr("kv_tok = 2\u00b7L\u00b7H_kv\u00b7h\u00b7b_kv = 2\u00b7%1\u00b7%2\u00b7%3\u00b7%4 B (%5) = %6"))
              .arg(integer(m.attentionLayersOrAll()), integer(m.kvHeads), integer(m.headDimOrDefault()),
                   number(model::bytesPerElement(m.kvDtype)), dtypeText(m.kvDtype), kibibytesPerToken(d.kvBytesPerToken));
    const double plainBytes = m.params * model::weightBytesPerParameter(m.weightDtype);
    const bool plainRead = std::abs(d.weightBytes - plainBytes) <= 1e-9 * plainBytes;
    const QString weights = gpus > 1 || m.isMoe()
        ? tr("W = weights read per step per GPU = %1 (T = %2)").arg(gigabytes(d.weightBytes), integer(gpus))
        : plainRead ? tr("W = N\u00b7b_w = %1 \u00b7 %2 B (%3) = %4")
                          .arg(billionParams(m.params), number(model::weightBytesPerParameter(m.weightDtype)),
                               dtypeText(m.weightDtype), gigabytes(d.weightBytes))
                    // The input embedding's unread rows (model.embedding_read = rows) or 16-bit modules of a quantized import.
                    : tr("W = weights read per step = %1 of %2 held (decode gathers only its tokens' embedding rows; "
                         "modules a quantization config leaves out stay at 16 bits)")
                          .arg(gigabytes(d.weightBytes), gigabytes(d.residentWeightBytes));
    Explanation x;
    switch (index) {
    case 0: {
        x.title = tr("Decode floor");
        x.summary = tr("Each decode step reads every weight once, shared by the whole batch, plus each sequence's KV "
                       "cache. Small batches wait on memory; the step only gets slower per token once the cache or the "
                       "FLOPs dominate.");
        x.steps << weights << kvTok
                << tr("R = W + B\u00b7S\u00b7kv_tok = %1 + %2\u00b7%3\u00b7kv_tok = %4").arg(gigabytes(d.weightBytes), B, S, gigabytes(d.readBytes))
                << (s.efficiency.kvBandwidth > 0 && s.efficiency.kvBandwidth != s.efficiency.bandwidth
                        ? model::formula(model::Quantity::MemoryTimeSplit) + tr(" = %1 / (%2\u00b7%3) + %4 / (%2\u00b7%5) = %6")
                              .arg(gigabytes(d.weightBytes), terabytesPerSecond(bw), plain(eta), gigabytes(d.kvBytes),
                                   plain(s.efficiency.kvBandwidth), milliseconds(d.memorySeconds * 1e3))
                        : model::formula(model::Quantity::MemoryTime) + tr(" = %1 / (%2\u00b7%3) = %4")
                              .arg(gigabytes(d.readBytes), terabytesPerSecond(bw), plain(eta), milliseconds(d.memorySeconds * 1e3)))
                << model::formula(model::Quantity::ComputeTime) + tr(" = %1 / (%2\u00b7%3) = %4")
                       .arg(teraflop(d.flop), teraflopsPerSecond(r.peakFlopsPerSecond), plain(s.efficiency.mfuDecode),
                            milliseconds(d.computeSeconds * 1e3))
                << model::stepTimeFormula(s, e).line()
                << model::formula(model::Quantity::Throughput) + tr(" = %1 / %2 = %3").arg(B, milliseconds(d.stepSeconds * 1e3), tokensPerSecond(d.tokensPerSecondTotal))
                << tr("batch-1 floor = W / BW = %1 per token").arg(milliseconds(d.floorSecondsBatch1 * 1e3));
        break;
    }
    case 1: {
        x.title = tr("Roofline");
        x.summary = tr("A kernel can go no faster than the peak FLOP/s, nor than the bytes it moves allow: attainable = "
                       "min(F_peak, I\u00b7BW). Left of the ridge it waits on memory, right of it on arithmetic.");
        x.steps << tr("I* = F_peak / BW = %1 / %2 = %3").arg(teraflopsPerSecond(r.peakFlopsPerSecond), terabytesPerSecond(bw),
                                                              flopPerByte(r.ridgeFlopPerByte))
                << tr("I_dec = F_dec / R = %1 / %2 = %3 \u2192 %4")
                       .arg(teraflop(d.flop), gigabytes(d.readBytes), flopPerByte(r.decodeIntensityFlopPerByte), boundName(d.bound))
                << tr("decode achieves F_dec / t_step = %1 (%2 of peak)")
                       .arg(teraflopsPerSecond(r.decodeAchievedFlopsPerSecond),
                            percent(r.peakFlopsPerSecond > 0 ? r.decodeAchievedFlopsPerSecond / r.peakFlopsPerSecond : 0.0))
                << tr("I_pre = F_pre / (W + P\u00b7kv_tok) = %1 at P = %2 \u2192 %3")
                       .arg(flopPerByte(r.prefillIntensityFlopPerByte), P, boundName(p.bound));
        break;
    }
    case 2: {
        x.title = tr("KV share of the decode read");
        x.summary = tr("How much of each step's read is KV cache rather than weights. The cache grows with B\u00b7S, the "
                       "weights do not: long contexts and big batches make decode a cache-reading problem.");
        x.steps << kvTok
                << tr("KV read = B\u00b7S\u00b7kv_tok = %1\u00b7%2\u00b7kv_tok = %3").arg(B, S, gigabytes(d.kvBytes))
                << tr("share = KV / (W + KV) = %1 / %2 = %3").arg(gigabytes(d.kvBytes), gigabytes(d.readBytes), percent(d.kvShare))
                << tr("the cache equals the weights at S = W / (B\u00b7kv_tok) = %1 tokens")
                       .arg(d.kvBytesPerTokenPerGpu > 0 ? approximate(d.weightBytes / (s.workload.batch * d.kvBytesPerTokenPerGpu))
                                                        : QStringLiteral("\u2013"));
        break;
    }
    case 3: {
        x.title = tr("Prefill crossover");
        x.summary = tr("Prefill work has a part linear in the prompt (every token through every weight) and an attention "
                       "part quadratic in it. P* is where they are equal: beyond it attention dominates.");
        x.steps << tr("linear = 2\u00b7N_active\u00b7P = 2\u00b7%1\u00b7%2 = %3").arg(billionParams(m.activeParamsOrTotal()), P, teraflop(p.linearFlop))
                << model::prefillAttentionFormula(s, e).line()
                << model::prefillFlopFormula(s, e).line()
                << model::crossoverFormula(s, e).line()
                << model::attentionShareFormula(s, e).line()
                << model::formula(model::Quantity::PrefillTime) + tr(" = %1, %2")
                       .arg(duration(p.seconds), boundName(p.bound));
        break;
    }
    default: {
        x.title = tr("t_step(B) against ITL SLO lines");
        x.summary = tr("While memory-bound, every extra sequence adds its cache read to the step: t_step grows in a "
                       "straight line from the weight floor. An ITL SLO is met up to the batch where the line crosses it.");
        x.steps << model::stepLineFormula(s, e).line();
        const model::CapacityResult& c = e.capacity;
        x.steps << (c.weightsFit ? tr("memory: the KV cache of B sequences at S fits up to B = %1 (budget %2 / %3 per sequence)")
                                       .arg(integer(double(c.maxSequencesContiguous)), gigabytes(c.kvBudgetBytes),
                                            gigabytes(d.kvBytesPerSequence))
                                 : tr("memory: the weights do not fit (KV budget %1), so no batch can be served")
                                       .arg(gigabytes(c.kvBudgetBytes)));
        for (const model::SloBatch& slo : d.maxBatchForItlSlo) {
            const QString ms = plain(slo.sloMs);
            if (slo.servableBatch)
                x.steps << (slo.limit == model::BatchLimit::Memory
                                ? tr("ITL \u2264 %1 ms: B_max = min(SLO %2, memory %3) = %3, memory binds")
                                      .arg(ms, integer(double(*slo.batch)), integer(double(slo.fittingBatch)))
                                : tr("ITL \u2264 %1 ms: B_max = min(SLO %2, memory %3) = %2, the SLO binds")
                                      .arg(ms, integer(double(*slo.batch)), integer(double(slo.fittingBatch))));
            else if (slo.limit == model::BatchLimit::Memory)
                x.steps << tr("ITL \u2264 %1 ms: none, memory holds no sequence").arg(ms);
            else
                x.steps << tr("ITL \u2264 %1 ms: none, t_step(1) = %2 is already above it")
                               .arg(ms, milliseconds(model::stepSecondsAt(s, 1.0) * 1e3));
        }
        x.steps << tr("now B = %1: t_step = %2 per token").arg(B, milliseconds(d.stepSeconds * 1e3));
        break;
    }
    }
    return x;
}

ExplainPanel::ExplainPanel(ScenarioDocument* document, const QList<PlotPanel*>& panels, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_panels(panels)
{
    setObjectName(QStringLiteral("explainPanel"));
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("explainBrowser"));
    m_browser->setOpenLinks(false);
    m_browser->setAccessibleName(tr("What each plot shows, with the live values"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_browser);
    for (PlotPanel* panel : m_panels)
        panel->titleLabel()->installEventFilter(this);
    connect(m_document, &ScenarioDocument::evaluated, this, &ExplainPanel::refresh);
}

QString ExplainPanel::toolTipText(int index) const
{
    const Explanation x = explainPlot(index, m_document->evaluatedScenario(), m_document->evaluation());
    return x.title + QStringLiteral("\n") + x.summary + QStringLiteral("\n\n") + x.steps.join(QLatin1Char('\n'));
}

void ExplainPanel::refresh()
{
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    const double scale = currentTheme().fontScale;
    QString html = QStringLiteral("<div style=\"font-size:%1pt;\">").arg(9.0 * scale, 0, 'f', 1);
    for (int i = 0; i < 5; ++i) {
        const Explanation x = explainPlot(i, m_document->evaluatedScenario(), m_document->evaluation());
        html += QStringLiteral("<p style=\"margin-top:6px\"><b style=\"font-size:%1pt\">%2</b><br>%3</p><p style=\"margin-left:6px\">")
                    .arg(10.0 * scale, 0, 'f', 1)
                    .arg(x.title.toHtmlEscaped(), x.summary.toHtmlEscaped());
        QStringList lines;
        for (const QString& step : x.steps)
            lines << QStringLiteral("<span style=\"color:%1\">%2</span>").arg(palette::css(palette::text()), step.toHtmlEscaped());
        html += lines.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    }
    html += QStringLiteral("</div>");
    const int scroll = m_browser->verticalScrollBar() ? m_browser->verticalScrollBar()->value() : 0;
    m_browser->setHtml(html);
    if (m_browser->verticalScrollBar())
        m_browser->verticalScrollBar()->setValue(scroll);
}

void ExplainPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale)
        refresh();
}

bool ExplainPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        for (int i = 0; i < m_panels.size(); ++i) {
            if (watched == m_panels[i]->titleLabel()) {
                QToolTip::showText(static_cast<QHelpEvent*>(event)->globalPos(), toolTipText(i), m_panels[i]->titleLabel());
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace ridgeline::views
