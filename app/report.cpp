// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/report.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QLocale>
#include <QStringList>

#include "model/analysis/operatingeconomics.h"
#include "model/cost/formulatext.h"
#include "model/cost/scenariokeys.h"
#include "document/presetmatch.h"
#include "document/readouts.h"

namespace ridgeline::app {

QString groupedNumber(double value, int decimals)
{
    QLocale c(QLocale::C);
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(value, 'f', decimals);
}

QString fixedOrSignificant(double value, int decimals)
{
    if (std::isfinite(value) && value != 0 && std::abs(value) < std::pow(10.0, 1 - decimals))
        return model::formulaNumber(value);
    return groupedNumber(value, decimals);
}

namespace {

using model::Bound;

QString boundName(Bound b) { return b == Bound::Compute ? QStringLiteral("compute") : QStringLiteral("memory"); }

/** Grouped number with @p decimals places in the C locale ("30,633"). */
QString num(double v, int decimals = 0)
{
    return groupedNumber(v, decimals);
}

/** ", 16 GPUs in tensor parallelism (...)": the link the all-reduce is priced at, across nodes when the group is wider
 *  than the scale-up domain (document::tensorParallelLink(), docs/cost-model.md section 3). */
QString tensorParallelText(const model::Scenario& s)
{
    const document::TensorParallelLink link = document::tensorParallelLink(s);
    if (link.acrossNodes)
        return QStringLiteral(", %1 GPUs in tensor parallelism (all-reduce at %2 GB/s across nodes: wider than the %3-GPU "
                              "scale-up domain, whose link is %4 GB/s)")
            .arg(s.hardware.gpus)
            .arg(num(link.bandwidthBytesPerSecond / 1e9, 0))
            .arg(link.scaleUpDomainGpus)
            .arg(num(s.hardware.linkBandwidthBytesPerSecond / 1e9, 0));
    return QStringLiteral(", %1 GPUs in tensor parallelism (%2 GB/s link)")
        .arg(s.hardware.gpus)
        .arg(num(link.bandwidthBytesPerSecond / 1e9, 0));
}

QJsonValue optJson(const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); }

/**
 * The economics at the operating point (docs/cost-model.md section 5, "Economics"), keys as the plan's JSON names the
 * same quantities (app/plancommand.cpp): null where the price or the power is unknown.
 */
QJsonObject economicsJson(const model::OperatingEconomics& x)
{
    QJsonObject o{
        {QStringLiteral("currency"), QString::fromStdString(x.currency)},
        {QStringLiteral("price_per_gpu_hour"), optJson(x.inputs.pricePerGpuHour)},
        {QStringLiteral("price_source"), QString::fromUtf8(model::priceSourceKey(x.priceSource).data())},
        {QStringLiteral("board_power_watts"), optJson(x.inputs.boardPowerWatts)},
        {QStringLiteral("power_source"), QString::fromUtf8(model::powerSourceKey(x.powerSource).data())},
        {QStringLiteral("pue"), x.inputs.pue},
    };
    const QJsonObject cost = operatingCostJson(x.cost);
    for (auto it = cost.begin(); it != cost.end(); ++it)
        o.insert(it.key(), it.value());
    // Whether the per-request figures above exist (issue 14 trial: batch 4,096 on one GPU was priced): false when the
    // weights do not fit or B sequences at P + O/2 do not, and every figure of cost above is then null.
    o.insert(QStringLiteral("fits"), x.fitsPerRequest);
    // At the slider's (B, S), as decode.step_ms (issue 14): new keys beside the per-request ones above, which keep their
    // meaning (docs/cost-model.md section 5, "At the operating point"). Null figures when the point does not fit.
    const model::OperatingCost& at = x.atBatchContext;
    o.insert(QStringLiteral("at_batch_context"),
             QJsonObject{
                 {QStringLiteral("fits"), x.fitsAtBatchContext},
                 {QStringLiteral("output_tokens_per_second"),
                  x.fitsAtBatchContext ? QJsonValue(x.outputTokensPerSecondAtBatchContext) : QJsonValue(QJsonValue::Null)},
                 {QStringLiteral("cost_per_hour"), optJson(at.costPerHour)},
                 {QStringLiteral("cost_per_million_output_tokens"), optJson(at.costPerMillionOutputTokens)},
                 {QStringLiteral("facility_power_watts"), optJson(at.facilityPowerWatts)},
                 {QStringLiteral("joules_per_output_token"), optJson(at.joulesPerOutputToken)},
                 {QStringLiteral("output_tokens_per_second_per_megawatt"), optJson(at.outputTokensPerSecondPerMegawatt)},
             });
    return o;
}

} // namespace

QJsonObject operatingCostJson(const model::OperatingCost& c)
{
    return QJsonObject{
        {QStringLiteral("cost_per_hour"), optJson(c.costPerHour)},
        {QStringLiteral("cost_per_million_output_tokens"), optJson(c.costPerMillionOutputTokens)},
        {QStringLiteral("cost_per_million_input_tokens"), optJson(c.costPerMillionInputTokens)},
        {QStringLiteral("cost_per_million_output_tokens_all_in"), optJson(c.costPerMillionOutputTokensAllIn)},
        {QStringLiteral("facility_power_watts"), optJson(c.facilityPowerWatts)},
        {QStringLiteral("joules_per_output_token"), optJson(c.joulesPerOutputToken)},
        {QStringLiteral("output_tokens_per_second_per_megawatt"), optJson(c.outputTokensPerSecondPerMegawatt)},
    };
}

QJsonObject reportJson(const model::Scenario& s, const model::Evaluation& e)
{
    const auto& d = e.decode;
    const auto& r = e.roofline;
    const auto& p = e.prefill;
    const auto& c = e.capacity;

    QJsonArray sloBatches;
    for (const auto& sb : d.maxBatchForItlSlo) {
        QJsonObject o;
        o.insert(QStringLiteral("slo_ms"), sb.sloMs);
        o.insert(QStringLiteral("batch"), sb.batch ? QJsonValue(double(*sb.batch)) : QJsonValue(QJsonValue::Null));
        o.insert(QStringLiteral("memory_batch"), double(sb.fittingBatch));
        o.insert(QStringLiteral("servable_batch"), sb.servableBatch ? QJsonValue(double(*sb.servableBatch)) : QJsonValue(QJsonValue::Null));
        o.insert(QStringLiteral("binding"), sb.limit == model::BatchLimit::Memory ? QStringLiteral("memory") : QStringLiteral("slo"));
        sloBatches.append(o);
    }

    QJsonObject decode{
        {QStringLiteral("floor_ms_batch1"), d.floorSecondsBatch1 * 1e3},
        {QStringLiteral("floor_tokens_per_s_batch1"), 1.0 / d.floorSecondsBatch1},
        {QStringLiteral("step_ms"), d.stepSeconds * 1e3},
        {QStringLiteral("memory_ms"), d.memorySeconds * 1e3},
        {QStringLiteral("compute_ms"), d.computeSeconds * 1e3},
        {QStringLiteral("bound"), boundName(d.bound)},
        // The largest of t_comp, t_mem and t_comm (issue 14: "bound" compares the first two only, and keeps its meaning).
        {QStringLiteral("largest_term"), QString::fromLatin1(model::timeTermName(model::largestTimeTerm(d)))},
        {QStringLiteral("read_bytes"), d.readBytes},
        {QStringLiteral("weight_read_bytes"), d.weightBytes},
        {QStringLiteral("kv_bytes_per_sequence"), d.kvBytesPerSequence},
        {QStringLiteral("experts_touched"), d.expertsTouched},
        {QStringLiteral("comm_ms"), d.commSeconds * 1e3},
        {QStringLiteral("total_weight_floor_ms"), d.totalWeightFloorSeconds * 1e3},
        {QStringLiteral("kv_read_bytes"), d.kvBytes},
        {QStringLiteral("flop"), d.flop},
        {QStringLiteral("kv_share"), d.kvShare},
        {QStringLiteral("tokens_per_s_per_user"), d.tokensPerSecondPerUser},
        {QStringLiteral("tokens_per_s_total"), d.tokensPerSecondTotal},
        {QStringLiteral("intensity_flop_per_byte"), d.intensityFlopPerByte},
        {QStringLiteral("t_step_intercept_ms"), d.interceptSeconds * 1e3},
        {QStringLiteral("t_step_slope_ms"), d.slopeSecondsPerSequence * 1e3},
        {QStringLiteral("max_batch_for_itl_slo"), sloBatches},
    };
    QJsonObject roofline{
        {QStringLiteral("ridge_flop_per_byte"), r.ridgeFlopPerByte},
        {QStringLiteral("peak_flop_per_s"), r.peakFlopsPerSecond},
        {QStringLiteral("compute_dtype"), QString::fromUtf8(model::dtypeName(r.computeDtype))},
        {QStringLiteral("compute_peak_fallback"), r.computePeakFallback},
        {QStringLiteral("compute_peak_key"), QString::fromUtf8(model::matmulPeakKey(s.hardware, s.model.weightDtype))},
        {QStringLiteral("effective_ridge_flop_per_byte"), r.effectiveRidgeFlopPerByte},
        {QStringLiteral("compute_bound_batch"),
         r.computeBoundBatch ? QJsonValue(*r.computeBoundBatch) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("decode_intensity_flop_per_byte"), r.decodeIntensityFlopPerByte},
        {QStringLiteral("decode_flop_per_s"), r.decodeAchievedFlopsPerSecond},
        {QStringLiteral("prefill_intensity_flop_per_byte"), r.prefillIntensityFlopPerByte},
        {QStringLiteral("prefill_flop_per_s"), r.prefillAchievedFlopsPerSecond},
    };
    QJsonObject prefill{
        {QStringLiteral("flop"), p.flop},
        {QStringLiteral("linear_flop"), p.linearFlop},
        {QStringLiteral("attention_flop"), p.attentionFlop},
        {QStringLiteral("ms"), p.seconds * 1e3},
        {QStringLiteral("compute_ms"), p.computeSeconds * 1e3},
        {QStringLiteral("memory_ms"), p.memorySeconds * 1e3},
        {QStringLiteral("bound"), boundName(p.bound)},
        {QStringLiteral("largest_term"), QString::fromLatin1(model::timeTermName(model::largestTimeTerm(p)))},
        {QStringLiteral("crossover_tokens"), p.crossoverExists ? QJsonValue(p.crossoverTokens) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("comm_ms"), p.commSeconds * 1e3},
        {QStringLiteral("compute_bound_tokens"), p.computeBoundExists ? QJsonValue(p.computeBoundTokens) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("attention_share"), p.attentionShare},
        {QStringLiteral("kv_written_bytes"), p.kvWrittenBytes},
        {QStringLiteral("score_matrix_elements"), p.scoreMatrixElements},
        {QStringLiteral("score_matrix_bytes_per_head"), p.scoreMatrixBytesPerHead},
        {QStringLiteral("logits_bytes_all_positions"), p.logitsBytesAllPositions},
    };
    QJsonArray itlHeadroom;
    for (size_t i = 0; i < e.slo.itlHeadroom.size(); ++i)
        itlHeadroom.append(QJsonObject{{QStringLiteral("slo_ms"), s.workload.itlSloMs[i]},
                                       {QStringLiteral("floor_ms"), d.floorSecondsBatch1 * 1e3},
                                       {QStringLiteral("headroom"), e.slo.itlHeadroom[i]},
                                       {QStringLiteral("step_ms"), d.stepSeconds * 1e3},
                                       {QStringLiteral("headroom_at_batch"), e.slo.itlHeadroomAtBatch[i]},
                                       {QStringLiteral("met_at_batch"), e.slo.itlHeadroomAtBatch[i] >= 1.0}});
    QJsonObject slo{
        {QStringLiteral("itl"), itlHeadroom},
        {QStringLiteral("ttft_ms"), e.slo.ttftMs},
        {QStringLiteral("ttft_slo_ms"), s.workload.ttftSloMs},
        {QStringLiteral("ttft_headroom"), e.slo.ttftHeadroom},
        {QStringLiteral("ttft_met"), e.slo.ttftMet},
        {QStringLiteral("queue_wait_ms"), s.workload.queueWaitMs},
    };
    QJsonObject workload{
        {QStringLiteral("prefill_ms_per_request"), e.workload.prefillSecondsPerRequest * 1e3},
        {QStringLiteral("decode_ms_per_request"), e.workload.decodeSecondsPerRequest * 1e3},
        {QStringLiteral("prefill_share"), e.workload.prefillShare},
        {QStringLiteral("decode_share"), 1.0 - e.workload.prefillShare},
        {QStringLiteral("owner"), e.workload.prefillShare >= 0.5 ? QStringLiteral("prefill") : QStringLiteral("decode")},
        {QStringLiteral("decode_context_tokens"), e.workload.decodeContextTokens},
        {QStringLiteral("gpu_ms_per_output_token"), e.workload.gpuSecondsPerOutputToken * 1e3},
    };
    QJsonObject prefixCache{
        {QStringLiteral("shared_tokens"), e.prefixCache.sharedTokens},
        {QStringLiteral("prefix_longer_than_prompt"), s.serving.prefixTokens > e.prefixCache.sharedTokens},
        {QStringLiteral("hit_rate"), s.serving.prefixHitRate},
        {QStringLiteral("prefill_us_per_token"), e.prefixCache.prefillSecondsPerToken * 1e6},
        {QStringLiteral("saved_ms_per_request"), e.prefixCache.savedSecondsPerRequest * 1e3},
        {QStringLiteral("saved_flop_per_request"), e.prefixCache.savedFlopPerRequest},
        {QStringLiteral("ttft_saved_ms"), e.prefixCache.savedSecondsPerRequest * 1e3},
        {QStringLiteral("cost_per_output_token_change"), e.prefixCache.costPerOutputTokenChange},
    };
    QJsonObject speculative{
        {QStringLiteral("acceptance"), s.speculative.acceptance},
        {QStringLiteral("draft_tokens"), s.speculative.draftTokens},
        {QStringLiteral("expected_tokens_per_step"), e.speculative.expectedTokensPerStep},
        {QStringLiteral("speedup"), e.speculative.speedup},
        {QStringLiteral("discarded_fraction"), e.speculative.discardedFraction},
        {QStringLiteral("break_even_verify_cost"), e.speculative.breakEvenVerifyCost},
        {QStringLiteral("model_verify_cost"), e.speculative.modelVerifyCost},
    };
    QJsonObject capacity{
        {QStringLiteral("max_sequences_contiguous_at_max_context"), double(c.maxSequencesContiguousAtMaxContext)},
        {QStringLiteral("max_sequences_paged"), double(c.maxSequencesPaged)},
        {QStringLiteral("context_exceeds_max_context"), s.workload.contextTokens > s.serving.maxContextTokens},
        {QStringLiteral("max_position_embeddings"),
         s.model.maxPositionEmbeddings > 0 ? QJsonValue(s.model.maxPositionEmbeddings) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("context_exceeds_max_position_embeddings"),
         s.model.maxPositionEmbeddings > 0
             && std::max(s.workload.contextTokens, s.serving.maxContextTokens) > s.model.maxPositionEmbeddings},
        {QStringLiteral("max_context_tokens"), s.serving.maxContextTokens},
        {QStringLiteral("max_context_at_batch"),
         c.maxContextAtBatch ? QJsonValue(double(*c.maxContextAtBatch)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("request_kv_bytes"), c.requestKvBytes},
        {QStringLiteral("memory_utilization"), c.utilization},
        {QStringLiteral("kv_budget_bytes"), c.kvBudgetBytes},
        {QStringLiteral("kv_needed_bytes"), c.kvNeededBytes},
        {QStringLiteral("fits"), c.fits},
        {QStringLiteral("weights_fit"), c.weightsFit},
        {QStringLiteral("max_sequences_contiguous"), double(c.maxSequencesContiguous)},
    };
    return QJsonObject{
        {QStringLiteral("ridgeline_version"), QStringLiteral(RIDGELINE_VERSION)},
        {QStringLiteral("kv_bytes_per_token"), d.kvBytesPerToken},
        {QStringLiteral("kv_bytes_per_token_per_gpu"), d.kvBytesPerTokenPerGpu},
        {QStringLiteral("weight_bytes"), d.residentWeightBytes},
        {QStringLiteral("total_params"), s.model.params},
        {QStringLiteral("active_params"), s.model.activeParamsOrTotal()},
        {QStringLiteral("gpus"), s.hardware.gpus},
        {QStringLiteral("decode"), decode},
        {QStringLiteral("roofline"), roofline},
        {QStringLiteral("prefill"), prefill},
        {QStringLiteral("capacity"), capacity},
        {QStringLiteral("slo"), slo},
        {QStringLiteral("workload"), workload},
        {QStringLiteral("prefix_cache"), prefixCache},
        {QStringLiteral("speculative"), speculative},
        {QStringLiteral("economics"), economicsJson(model::operatingEconomics(s, e))},
        {QStringLiteral("scenario"), model::toJson(s)},
    };
}

QString reportText(const model::Scenario& s, const model::Evaluation& e)
{
    const auto& m = s.model;
    const auto& d = e.decode;
    const auto& r = e.roofline;
    const auto& p = e.prefill;
    const auto& c = e.capacity;
    const double B = s.workload.batch;
    QStringList out;
    auto row = [&out](const QString& label, const QString& value, const QString& formula = {}) {
        out << (QStringLiteral("  ") + label.leftJustified(30) + QLatin1Char(' ') + value.leftJustified(40)
                + QStringLiteral("  ") + formula).trimmed().prepend(QStringLiteral("  "));
    };
    const document::ShownNames names = document::shownNames(s, nullptr); // "(edited)" when no longer the named preset
    const QString mName = QString::fromStdString(names.model);
    const QString hName = QString::fromStdString(names.hardware);
    out << QStringLiteral("Ridgeline %1: %2 on %3").arg(QStringLiteral(RIDGELINE_VERSION), mName, hName);
    out << QStringLiteral("  model     N %1 B params (active %2 B), L %3, d %4, H %5, H_kv %6, h %7, weights %8, KV %9")
               .arg(num(m.params / 1e9, 2), num(m.activeParamsOrTotal() / 1e9, 2))
               .arg(m.layers).arg(m.hidden).arg(m.heads).arg(m.kvHeads).arg(m.headDimOrDefault())
               .arg(QString::fromUtf8(model::dtypeName(m.weightDtype)), QString::fromUtf8(model::dtypeName(m.kvDtype)));
    out << QStringLiteral("  hardware  %1 TB/s HBM, %2 TFLOP/s dense %3%4, %5 GB%6")
               .arg(num(s.hardware.bandwidthBytesPerSecond / 1e12, 3), num(r.peakFlopsPerSecond / 1e12, 1),
                    QString::fromUtf8(model::dtypeName(r.computeDtype)),
                    r.computePeakFallback ? QStringLiteral(" (no ") + QString::fromUtf8(model::dtypeName(r.computeDtype))
                                                + QStringLiteral(" peak on this device: bf16 peak used)")
                                          : QString(),
                    num(s.hardware.memoryBytes / 1e9, 0),
                    s.hardware.gpus > 1 ? tensorParallelText(s) : QString());
    if (m.isMoe())
        out << QStringLiteral("  MoE       %1 experts, %2 per token; B = %3 touches %4 per layer")
                   .arg(m.experts).arg(m.expertsPerToken).arg(num(B)).arg(num(d.expertsTouched, 2));
    if (m.isMla())
        out << QStringLiteral("  MLA       latent %1 + RoPE %2 cached per layer").arg(m.kvLoraRank).arg(m.ropeHeadDim);
    if (m.slidingWindow > 0)
        out << QStringLiteral("  windows   %1 of %2 layers slide over %3 tokens").arg(m.slidingLayers).arg(m.layers).arg(num(m.slidingWindow));
    if (m.attention == model::AttentionFlops::Causal)
        out << QStringLiteral("  attention prefill FLOP count the causal half of the score matrix");
    out << QStringLiteral("  workload  B %1, S %2 tokens, P %3 tokens; eta_bw %4, MFU prefill %5, MFU decode %6")
               .arg(num(B), num(s.workload.contextTokens), num(s.workload.promptTokens))
               .arg(num(s.efficiency.bandwidth, 2), num(s.efficiency.mfuPrefill, 2), num(s.efficiency.mfuDecode, 2));
    if (!c.weightsFit)
        out << QStringLiteral("  DOES NOT FIT: %1 GB of weights per GPU > %2 GB usable HBM (%3 GB x %4); no batch can be served,")
                   .arg(num(d.residentWeightBytes / std::max(1, s.hardware.gpus) / 1e9, 1),
                        num(std::max(0.0, s.hardware.memoryBytes * c.utilization - s.serving.activationReserveBytes) / 1e9, 1),
                        num(s.hardware.memoryBytes / 1e9, 0), num(c.utilization, 2))
            << QStringLiteral("  the figures below are what it would cost if it fitted");
    out << QString();
    out << QStringLiteral("Decode");
    row(QStringLiteral("weights"), num(d.residentWeightBytes / 1e9, 2) + QStringLiteral(" GB"), QStringLiteral("W = N * b_w"));
    // With MoE or tensor parallelism a step reads W_read, not W: the formulas below name what they use.
    // With embedding_read = rows (the default) a dense model reads W minus the unread input-table rows.
    const bool readsRows = d.floorSecondsBatch1 < d.totalWeightFloorSeconds * (1 - 1e-12);
    const bool readsPart = m.isMoe() || s.hardware.gpus > 1 || readsRows;
    const QString weightsRead = readsPart ? QStringLiteral("W_read") : QStringLiteral("W");
    if (readsPart)
        row(QStringLiteral("weights read per step per GPU"), num(d.weightBytes / 1e9, 2) + QStringLiteral(" GB"),
            m.isMoe() ? QStringLiteral("W_read = (shared + E (1 - (1 - k/E)^B) experts) * b_w / T")
            : readsRows ? QStringLiteral("W_read = (W - (V - B) d b_w) / T: B rows of the input table")
                        : QStringLiteral("W_read = W / T"));
    if (s.hardware.gpus > 1)
        row(QStringLiteral("all-reduce time per step"), num(d.commSeconds * 1e3, 3) + QStringLiteral(" ms"),
            QStringLiteral("2 L (2 (T-1)/T * B d * 2 B / link + latency)"));
    row(QStringLiteral("KV cache per token"),
        num(d.kvBytesPerToken / 1024, 1) + QStringLiteral(" KiB (") + num(d.kvBytesPerToken) + QStringLiteral(" B)"),
        [&] {
            // Hybrids cache KV in their attention layers only: L_attn, not L (the count beside it).
            const bool hybrid = m.attentionLayersOrAll() != m.layers;
            const QString layers = hybrid ? QStringLiteral("L_attn") : QStringLiteral("L");
            const QString formula = m.isMla() ? QStringLiteral("MLA: %1 * (r + d_r) * b_kv").arg(layers)
                                              : QStringLiteral("2 * %1 * H_kv * h * b_kv").arg(layers);
            return hybrid ? formula + QStringLiteral(", L_attn = %1 of L = %2 layers").arg(m.attentionLayersOrAll()).arg(m.layers)
                          : formula;
        }());
    row(QStringLiteral("batch-1 decode floor"),
        num(d.floorSecondsBatch1 * 1e3, 2) + QStringLiteral(" ms/token, ") + num(1.0 / d.floorSecondsBatch1, 1) + QStringLiteral(" tok/s"),
        m.isMoe() || readsRows ? QStringLiteral("W_read(B = 1) / BW") : weightsRead + QStringLiteral(" / BW"));
    {
        const model::FormulaText step = model::stepTimeFormula(s, e);
        row(QStringLiteral("t_step"),
            num(d.stepSeconds * 1e3, 3) + QStringLiteral(" ms, ") + step.note,
            model::asciiFormula(step.symbols + QStringLiteral(" = ") + step.numbers));
    }
    row(QStringLiteral("memory / compute time"),
        num(d.memorySeconds * 1e3, 3) + QStringLiteral(" / ") + num(d.computeSeconds * 1e3, 3) + QStringLiteral(" ms"),
        s.efficiency.kvBandwidth > 0 && s.efficiency.kvBandwidth != s.efficiency.bandwidth
            ? model::asciiFormula(model::formula(model::Quantity::MemoryTimeSplit) + QStringLiteral(", ") + model::formula(model::Quantity::ComputeTime))
            : model::asciiFormula(model::formula(model::Quantity::MemoryTime) + QStringLiteral(", ") + model::formula(model::Quantity::ComputeTime)));
    // Per GPU at T > 1: each GPU reads its share of the cache (kv_tok per GPU, KV heads split or replicated), as the
    // turn-to-compute row below says (a new-user trial, stop 30: "B * S * kv_tok" with the per-GPU value beside it).
    const QString kvRead = std::max(1, s.hardware.gpus) > 1 ? QStringLiteral("B * S * kv_tok per GPU") : QStringLiteral("B * S * kv_tok");
    row(QStringLiteral("bytes read per step"), num(d.readBytes / 1e9, 2) + QStringLiteral(" GB"), QStringLiteral("R = ") + weightsRead + QStringLiteral(" + ") + kvRead);
    row(QStringLiteral("KV share of the read"), num(d.kvShare * 100, 1) + QStringLiteral(" %"), kvRead + QStringLiteral(" / R"));
    row(QStringLiteral("speed per user"), fixedOrSignificant(d.tokensPerSecondPerUser, 1) + QStringLiteral(" tok/s"), model::asciiFormula(model::formula(model::Quantity::PerUserSpeed)));
    row(QStringLiteral("throughput"), num(d.tokensPerSecondTotal, 0) + QStringLiteral(" tok/s"), model::asciiFormula(model::formula(model::Quantity::Throughput)));
    row(QStringLiteral("arithmetic intensity"), num(d.intensityFlopPerByte, 2) + QStringLiteral(" FLOP/B"), QStringLiteral("F_dec / R"));
    {
        const model::FormulaText line = model::stepLineFormula(s, e);
        row(QStringLiteral("t_step(B) as a line"), model::asciiFormula(line.numbers) + QStringLiteral(" = ") + line.valueText,
            model::asciiFormula(line.symbols + QStringLiteral("; ") + line.note));
    }
    for (const auto& sb : d.maxBatchForItlSlo) {
        QString v;
        if (sb.servableBatch)
            v = QStringLiteral("B <= ") + num(double(*sb.servableBatch))
                + (sb.limit == model::BatchLimit::Memory ? QStringLiteral(" (memory binds; the SLO alone allows ") + num(double(*sb.batch))
                                                               + QStringLiteral(")")
                                                         : QStringLiteral(" (the SLO binds; ") + num(double(sb.fittingBatch))
                                                               + QStringLiteral(" fit)"));
        else if (sb.limit == model::BatchLimit::Memory)
            v = c.weightsFit ? QStringLiteral("none (not one sequence's KV cache fits)") : QStringLiteral("none (the weights do not fit)");
        else
            v = QStringLiteral("none (t_step(1) > SLO)");
        row(QStringLiteral("ITL SLO %1 ms").arg(num(sb.sloMs, sb.sloMs == std::floor(sb.sloMs) ? 0 : 2)), v,
            QStringLiteral("min(largest B with t_step(B) <= SLO, sequences whose KV fits at S)"));
    }
    out << QString();
    out << QStringLiteral("Roofline");
    row(QStringLiteral("ridge point"), num(r.ridgeFlopPerByte, 1) + QStringLiteral(" FLOP/B"), QStringLiteral("I* = F_peak / BW"));
    row(QStringLiteral("decode turns compute-bound at"),
        r.computeBoundBatch ? QStringLiteral("B = ") + num(*r.computeBoundBatch, 1)
                            : QStringLiteral("never at this context (cache read grows as fast as the FLOPs)"),
        QStringLiteral("t_comp(B) = t_mem(B)"));
    out << QString();
    out << QStringLiteral("Prefill of %1 tokens").arg(num(s.workload.promptTokens));
    row(QStringLiteral("FLOP"),
        num(p.flop / 1e12, 2) + QStringLiteral(" TFLOP (linear ") + num(p.linearFlop / 1e12, 2) + QStringLiteral(", attention ")
            + num(p.attentionFlop / 1e12, 2) + QStringLiteral(")"),
        model::asciiFormula(model::prefillFlopFormula(s, e).symbols + QStringLiteral(", ") + model::prefillAttentionFormula(s, e).symbols));
    {
        // The largest term names the bound, t_comm included; at T > 1 the bytes are each GPU's, W / T (issue 14 trial).
        const model::FormulaText time = model::prefillTimeFormula(s, e);
        row(QStringLiteral("time"), num(p.seconds * 1e3, 2) + QStringLiteral(" ms, ") + time.note,
            model::asciiFormula(time.symbols));
    }
    row(QStringLiteral("quadratic = linear at"),
        p.crossoverExists ? QStringLiteral("P* = ") + num(p.crossoverTokens) + QStringLiteral(" tokens")
                          : (m.attentionLayersOrAll() == 0 ? QStringLiteral("never (no attention layer)")
                                                           : QStringLiteral("never (every layer slides)")),
        model::asciiFormula(model::crossoverFormula(s, e).symbols));
    row(QStringLiteral("turns compute-bound at"),
        p.computeBoundExists ? num(p.computeBoundTokens) + QStringLiteral(" tokens") : QStringLiteral("never (below 1e12 tokens)"),
        std::max(1, s.hardware.gpus) > 1 ? QStringLiteral("F_pre(P) / (T * F_peak * MFU) = (W / T + P * kv_tok per GPU) / (BW * eta_bw)")
                                         : QStringLiteral("F_pre(P) / (F_peak * MFU) = (W + P * kv_tok) / (BW * eta_bw)"));
    row(QStringLiteral("attention share"), num(p.attentionShare * 100, 1) + QStringLiteral(" %"),
        model::asciiFormula(model::attentionShareFormula(s, e).symbols));
    row(QStringLiteral("KV written"), num(p.kvWrittenBytes / 1073741824.0, 3) + QStringLiteral(" GiB"), QStringLiteral("P * kv_tok"));
    // One unit for a request's buffers (KV written, score matrix, logits, KV of one request): GiB, as the reference
    // values of docs/cost-model.md; GB (1e9 B) for weights, HBM and the KV budget, as datasheets.
    row(QStringLiteral("score matrix, one head"),
        num(p.scoreMatrixBytesPerHead / 1073741824.0, 2) + QStringLiteral(" GiB if materialised"),
        QStringLiteral("P^2 * 2 B (bf16; FlashAttention never holds it)"));
    row(QStringLiteral("logits, all positions"),
        num(p.logitsBytesAllPositions / 1073741824.0, 2) + QStringLiteral(" GiB with prompt logprobs"),
        QStringLiteral("P * V * 4 B (fp32; else only the last position's)"));
    out << QString();
    out << QStringLiteral("Capacity (per GPU, %1 % of HBM usable)").arg(num(c.utilization * 100));
    row(QStringLiteral("KV budget"),
        c.weightsFit ? num(c.kvBudgetBytes / 1e9, 2) + QStringLiteral(" GB")
                     : QStringLiteral("none: the weights are ") + num(-c.kvBudgetBytes / 1e9, 2) + QStringLiteral(" GB over"),
        QStringLiteral("memory * utilization - W"));
    row(QStringLiteral("KV needed at B x S"),
        num(c.kvNeededBytes / 1e9, 2) + QStringLiteral(" GB, ") + (c.fits ? QStringLiteral("fits") : QStringLiteral("does NOT fit")),
        QStringLiteral("B * S * kv_tok"));
    row(QStringLiteral("sequences holding S tokens"), num(double(c.maxSequencesContiguous)),
        QStringLiteral("floor(budget / (S * kv_tok))"));
    row(QStringLiteral("contiguous at max context"),
        num(double(c.maxSequencesContiguousAtMaxContext)) + QStringLiteral(" at ") + num(s.serving.maxContextTokens) + QStringLiteral(" tokens"),
        QStringLiteral("floor(budget / (S_max * kv_tok))"));
    row(QStringLiteral("paged, by tokens held"),
        num(double(c.maxSequencesPaged)) + QStringLiteral(" (") + num(s.serving.blockTokens) + QStringLiteral("-token blocks)"),
        QStringLiteral("floor(budget / (ceil(min(S, S_max) / block) * block * kv_tok))"));
    if (s.workload.contextTokens > s.serving.maxContextTokens)
        out << QStringLiteral("  (context S = %1 is longer than serving.max_context_tokens = %2: the server would refuse such "
                              "a request; the paged count holds S_max tokens per sequence)")
                   .arg(num(s.workload.contextTokens), num(s.serving.maxContextTokens));
    if (const int trained = s.model.maxPositionEmbeddings;
        trained > 0 && std::max(s.workload.contextTokens, s.serving.maxContextTokens) > trained)
        out << QStringLiteral("  (the context (S = %1, serving.max_context_tokens = %2) is longer than the model was trained for, "
                              "model.max_position_embeddings = %3: its answers there are not the model's; the cost is "
                              "computed all the same)")
                   .arg(num(s.workload.contextTokens), num(s.serving.maxContextTokens), num(trained));
    row(QStringLiteral("longest context at batch B"),
        c.maxContextAtBatch ? num(double(*c.maxContextAtBatch)) + QStringLiteral(" tokens") : (m.attentionLayersOrAll() == 0 ? QStringLiteral("unbounded (no KV cache: the context does not fill memory)")
                                                                                    : QStringLiteral("unbounded (every layer slides)")),
        QStringLiteral("largest S with B * kv(S) <= budget"));
    row(QStringLiteral("KV of one P-token request"), num(c.requestKvBytes / 1073741824.0, 2) + QStringLiteral(" GiB"),
        QStringLiteral("P * kv_tok"));
    out << QString();
    out << QStringLiteral("SLO headroom");
    for (size_t i = 0; i < e.slo.itlHeadroom.size(); ++i)
        row(QStringLiteral("ITL SLO %1 ms").arg(num(s.workload.itlSloMs[i], s.workload.itlSloMs[i] == std::floor(s.workload.itlSloMs[i]) ? 0 : 2)), // as the capacity rows write it: "4.5" read "5", next to "(missed)" (adversarial trial, stop 32)
            num(e.slo.itlHeadroomAtBatch[i], 2) + QStringLiteral("x t_step at B = ") + num(B)
                + (e.slo.itlHeadroomAtBatch[i] < 1 ? QStringLiteral(" (missed)") : QString()) + QStringLiteral(", ")
                + num(e.slo.itlHeadroom[i], 1) + QStringLiteral("x the ") + num(d.floorSecondsBatch1 * 1e3, 1) + QStringLiteral(" ms floor"),
            QStringLiteral("SLO / t_step(B); SLO / batch-1 floor"));
    row(QStringLiteral("TTFT"),
        num(e.slo.ttftMs, 1) + QStringLiteral(" ms vs SLO ") + num(s.workload.ttftSloMs, s.workload.ttftSloMs == std::floor(s.workload.ttftSloMs) ? 0 : 2) + QStringLiteral(" ms (")
            + num(e.slo.ttftHeadroom, 2) + QStringLiteral("x)"),
        QStringLiteral("queue wait + t_pre(P)"));
    out << QString();
    out << QStringLiteral("Workload shape (%1 in / %2 out at B = %3)").arg(num(s.workload.promptTokens), num(s.workload.outputTokens), num(B));
    row(QStringLiteral("GPU time per request"),
        num(e.workload.prefillSecondsPerRequest * 1e3, 1) + QStringLiteral(" ms prefill + ") + num(e.workload.decodeSecondsPerRequest * 1e3, 1)
            + QStringLiteral(" ms decode"),
        QStringLiteral("t_pre(P); O * t_step(B, P + O/2) / B"));
    row(QStringLiteral("phase that owns it"),
        (e.workload.prefillShare >= 0.5 ? QStringLiteral("prefill, ") + num(e.workload.prefillShare * 100, 0)
                                        : QStringLiteral("decode, ") + num((1 - e.workload.prefillShare) * 100, 0))
            + QStringLiteral(" %"));
    {
        // Economics at this operating point (docs/cost-model.md section 5, "Economics"): unknown inputs say what to set.
        const model::OperatingEconomics x = model::operatingEconomics(s, e);
        const QString cur = QString::fromStdString(x.currency);
        const QString device = QString::fromStdString(x.catalogueDevice);
        out << QString();
        // The device's own noun ("TPU" on a TPU: issue 14 trial); the keys keep their names.
        const QString unit = QString::fromStdString(model::acceleratorNoun(s.hardware));
        out << QStringLiteral("Economics (%1 %2%3 at B = %4, S = %5, PUE %6)")
                   .arg(num(std::max(1, s.hardware.gpus)), unit, std::max(1, s.hardware.gpus) == 1 ? QString() : QStringLiteral("s"), num(B),
                        num(s.workload.contextTokens), num(x.inputs.pue, 2));
        QString price;
        if (x.priceSource == model::PriceSource::User)
            price = fixedOrSignificant(*x.inputs.pricePerGpuHour, 2) + QLatin1Char(' ') + cur + QStringLiteral(" (your price)");
        else if (x.priceSource == model::PriceSource::Example)
            price = fixedOrSignificant(*x.inputs.pricePerGpuHour, 2) + QLatin1Char(' ') + cur
                    + QStringLiteral(" (EXAMPLE price for %1, not a quote: set economics.price_per_gpu_hour)").arg(device);
        else
            price = QStringLiteral("unknown: set economics.price_per_gpu_hour (in %1)").arg(cur);
        row(QStringLiteral("price per %1-hour").arg(unit), price);
        QString power;
        if (x.powerSource == model::PowerSource::Datasheet)
            power = num(*x.inputs.boardPowerWatts) + QStringLiteral(" W (datasheet TDP of %1)").arg(device);
        else if (x.powerSource == model::PowerSource::Scenario)
            power = num(*x.inputs.boardPowerWatts) + QStringLiteral(" W (hardware.board_power_watts)");
        else
            power = QStringLiteral("unknown: set hardware.board_power_watts");
        row(QStringLiteral("board power per %1").arg(unit), power, QStringLiteral("board at TDP: an upper bound"));
        auto money = [&](const std::optional<double>& v) {
            return v ? fixedOrSignificant(*v, 3) + QLatin1Char(' ') + cur : QStringLiteral("unknown (no price)");
        };
        // Weights that do not fit, or B sequences at P + O/2 that do not: no request runs so, and no per-request figure
        // (issue 14 trials: they were priced).
        const QString requestNoFit = !x.weightsFit ? QStringLiteral("does not fit (weights)")
                                                   : QStringLiteral("does not fit (%1 sequences at P + O/2 = %2 tokens)")
                                                         .arg(num(B), num(e.workload.decodeContextTokens));
        // O = 0: no output token to price or power, whatever the price and power (it read "unknown (no price)" with
        // a price set: adversarial trial, stop 31).
        const bool noOutput = s.workload.outputTokens <= 0;
        auto perRequest = [&](const QString& text) {
            if (!x.fitsPerRequest)
                return requestNoFit;
            return noOutput && text.startsWith(QLatin1String("unknown")) ? QStringLiteral("none: no output tokens (workload.output_tokens = 0)")
                                                                          : text;
        };
        // At (B, S), as t_step: B / t_step(B, S) output tokens/s, no prefill; "does not fit" and no figure when it does not.
        const model::OperatingCost& at = x.atBatchContext;
        const QString noFit = QStringLiteral("does not fit at (B, S)");
        row(QStringLiteral("per 1M out tokens at (B, S)"), x.fitsAtBatchContext ? money(at.costPerMillionOutputTokens) : noFit,
            QStringLiteral("G p / 3600 / (B / t_step(B, S)) * 1e6, S = %1").arg(num(s.workload.contextTokens)));
        row(QStringLiteral("energy/out token at (B, S)"),
            !x.fitsAtBatchContext ? noFit
            : at.joulesPerOutputToken ? fixedOrSignificant(*at.joulesPerOutputToken, 3) + QStringLiteral(" J")
                                      : QStringLiteral("unknown (no power)"),
            QStringLiteral("G W PUE t_step(B, S) / B"));
        row(QStringLiteral("out tok/s per MW at (B, S)"),
            !x.fitsAtBatchContext ? noFit
            : at.outputTokensPerSecondPerMegawatt ? num(*at.outputTokensPerSecondPerMegawatt, 0)
                                                  : QStringLiteral("unknown (no power)"),
            QStringLiteral("(B / t_step(B, S)) / (G W PUE / 1e6)"));
        out << QStringLiteral("  Per request (%1 in / %2 out at B, decode at the mean context P + O/2 = %3):")
                   .arg(num(s.workload.promptTokens), num(s.workload.outputTokens), num(e.workload.decodeContextTokens));
        row(QStringLiteral("per 1M output tokens"), perRequest(money(x.cost.costPerMillionOutputTokens)),
            QStringLiteral("(1 - f) G p / 3600 / out/s * 1e6")
                + (x.fitsPerRequest ? QStringLiteral("; all-in %1").arg(noOutput ? QStringLiteral("none") : money(x.cost.costPerMillionOutputTokensAllIn)) : QString()));
        row(QStringLiteral("per 1M input tokens"), perRequest(money(x.cost.costPerMillionInputTokens)), QStringLiteral("f G p / 3600 / in/s * 1e6"));
        row(QStringLiteral("energy per output token"),
            perRequest(x.cost.joulesPerOutputToken ? fixedOrSignificant(*x.cost.joulesPerOutputToken, 3) + QStringLiteral(" J")
                                                   : QStringLiteral("unknown (no power)")),
            QStringLiteral("G W PUE / out/s (prefill included)"));
        row(QStringLiteral("output tokens/s per MW"),
            perRequest(x.cost.outputTokensPerSecondPerMegawatt ? num(*x.cost.outputTokensPerSecondPerMegawatt, 0)
                                                               : QStringLiteral("unknown (no power)")),
            QStringLiteral("out/s / (G W PUE / 1e6)"));
    }
    if (s.serving.prefixTokens > 0) {
        out << QString();
        out << QStringLiteral("Prefix caching (%1 shared tokens, hit rate %2)").arg(num(e.prefixCache.sharedTokens), num(s.serving.prefixHitRate, 2));
        if (s.serving.prefixTokens > e.prefixCache.sharedTokens)
            out << QStringLiteral("  (serving.prefix_tokens = %1 is longer than the %2-token prompt: the whole prompt is the prefix)")
                       .arg(num(s.serving.prefixTokens), num(s.workload.promptTokens));
        row(QStringLiteral("prefill time saved per request"), num(e.prefixCache.savedSecondsPerRequest * 1e3, 1) + QStringLiteral(" ms"),
            QStringLiteral("hit rate * (t_pre(P) - t_pre(suffix))"));
        row(QStringLiteral("cost per output token"), num(e.prefixCache.costPerOutputTokenChange * 100, 1) + QStringLiteral(" %"));
    }
    out << QString();
    out << QStringLiteral("Speculative decoding (alpha %1, k %2, c_d %3, c_v %4)")
               .arg(num(s.speculative.acceptance, 2), num(s.speculative.draftTokens), num(s.speculative.draftCost, 2),
                    num(s.speculative.verifyCost, 2));
    row(QStringLiteral("expected tokens per step"), num(e.speculative.expectedTokensPerStep, 2), QStringLiteral("(1 - alpha^(k+1)) / (1 - alpha)"));
    row(QStringLiteral("speedup"), num(e.speculative.speedup, 2) + QStringLiteral("x"), QStringLiteral("E / (1 + k c_d + k c_v)"));
    row(QStringLiteral("drafted tokens discarded"), num(e.speculative.discardedFraction * 100, 1) + QStringLiteral(" %"),
        QStringLiteral("1 - sum(alpha^i) / k"));
    row(QStringLiteral("slowdown once c_v exceeds"), num(e.speculative.breakEvenVerifyCost, 2),
        QStringLiteral("(E - 1 - k c_d) / k; the cost model implies c_v = ") + num(e.speculative.modelVerifyCost, 3) + QStringLiteral(" here"));
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

namespace {

/** Numeric leaves of a report, as dotted keys in document order ("decode.step_ms"), skipping the scenario. */
void flatten(const QJsonObject& o, const QString& prefix, QList<QPair<QString, QJsonValue>>& out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + QLatin1Char('.') + it.key();
        if (key == QLatin1String("scenario"))
            continue;
        if (it->isObject())
            flatten(it->toObject(), key, out);
        else if (it->isArray()) {
            const QJsonArray array = it->toArray();
            for (qsizetype i = 0; i < array.size(); ++i)
                if (array.at(i).isObject())
                    flatten(array.at(i).toObject(), key + QLatin1Char('[') + QString::number(i) + QLatin1Char(']'), out);
        } else
            out.append({key, *it});
    }
}

QJsonValue ratio(const QJsonValue& a, const QJsonValue& b)
{
    // Ratios compare sizes: a figure that is negative in either scenario (a break-even cost below zero) has none
    // (a trial found "-25.335x"), nor one that is 0 in A.
    if (!a.isDouble() || !b.isDouble() || !(a.toDouble() > 0) || !(b.toDouble() >= 0))
        return QJsonValue(QJsonValue::Null);
    const double r = b.toDouble() / a.toDouble();
    return std::isfinite(r) ? QJsonValue(r) : QJsonValue(QJsonValue::Null);
}

/** A ratio cell, "1.250x": three decimals, or four significant digits when far from 1 ("2.5e+14x", not 300 digits). */
QString ratioCell(const QJsonValue& r)
{
    if (!r.isDouble())
        return QStringLiteral("-");
    const double d = r.toDouble();
    return (d >= 1e6 || (d != 0 && d < 1e-3) ? QString::number(d, 'g', 4) : QString::number(d, 'f', 3)) + QLatin1Char('x');
}

/** The currency a report's money figures are in (economics.currency). */
QString currencyOf(const QJsonObject& report)
{
    return report.value(QStringLiteral("economics")).toObject().value(QStringLiteral("currency")).toString();
}

/** B / A of figure @p key, as ratio(); null for a money figure of two reports in different currencies (no exchange rate). */
QJsonValue figureRatio(const QString& key, const QJsonValue& a, const QJsonValue& b, const QJsonObject& reportA, const QJsonObject& reportB)
{
    // Money in any currency: the per-request figures and the (B, S) ones (adversarial trial: the nested
    // economics.at_batch_context.cost_* keys were divided across USD and EUR).
    const bool money = key.startsWith(QLatin1String("economics.cost_"))
                       || key.startsWith(QLatin1String("economics.at_batch_context.cost_"))
                       || key == QLatin1String("economics.price_per_gpu_hour");
    if (money && currencyOf(reportA).compare(currencyOf(reportB), Qt::CaseInsensitive) != 0)
        return QJsonValue(QJsonValue::Null);
    return ratio(a, b);
}

/** Inserts @p value at dotted @p key (array parts "[i]" become "_i" keys) under @p root. */
void insertDotted(QJsonObject& root, const QString& key, const QJsonValue& value)
{
    const qsizetype dot = key.indexOf(QLatin1Char('.'));
    QString head = dot < 0 ? key : key.left(dot);
    head.replace(QLatin1Char('['), QLatin1Char('_')).remove(QLatin1Char(']'));
    if (dot < 0) {
        root.insert(head, value);
        return;
    }
    QJsonObject child = root.value(head).toObject();
    insertDotted(child, key.mid(dot + 1), value);
    root.insert(head, child);
}

} // namespace

QJsonObject compareJson(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                        const model::Evaluation& eb)
{
    const QJsonObject ra = reportJson(a, ea);
    const QJsonObject rb = reportJson(b, eb);
    QList<QPair<QString, QJsonValue>> la, lb;
    flatten(ra, QString(), la);
    flatten(rb, QString(), lb);
    QJsonObject ratios;
    for (const auto& [key, va] : la)
        for (const auto& [keyB, vb] : lb)
            if (keyB == key) {
                if (va.isDouble())
                    insertDotted(ratios, key, figureRatio(key, va, vb, ra, rb));
                break;
            }
    return QJsonObject{{QStringLiteral("a"), ra}, {QStringLiteral("b"), rb}, {QStringLiteral("ratio"), ratios}};
}

namespace {

/** The name of a compared scenario as the comparison prints it: "Llama 3.1 8B on H100 SXM". */
QString comparedName(const model::Scenario& s)
{
    return QString::fromStdString(s.model.name) + QStringLiteral(" on ") + QString::fromStdString(s.hardware.name);
}

/**
 * Whether figure @p key of @p report is an economics figure left null because the configuration does not fit: the
 * per-request cost and energy figures when economics.fits is false (the weights, or B sequences at P + O/2, do not fit;
 * capacity.weights_fit for a report without that key), the economics.at_batch_context ones when that point's fits is
 * false (issue 14 trials: --compare priced configurations that do not fit).
 */
bool economicsDoesNotFit(const QString& key, const QJsonValue& value, const QJsonObject& report)
{
    if (!value.isNull() || !key.startsWith(QLatin1String("economics.")))
        return false;
    const QJsonObject economics = report.value(QStringLiteral("economics")).toObject();
    if (key.startsWith(QLatin1String("economics.at_batch_context.")))
        return !economics.value(QStringLiteral("at_batch_context")).toObject().value(QStringLiteral("fits")).toBool();
    static const QStringList kInputs{QStringLiteral("economics.price_per_gpu_hour"), QStringLiteral("economics.board_power_watts")};
    if (kInputs.contains(key))
        return false;
    const QJsonValue fits = economics.value(QStringLiteral("fits"));
    return fits.isBool() ? !fits.toBool() : !report.value(QStringLiteral("capacity")).toObject().value(QStringLiteral("weights_fit")).toBool(true);
}

/** The cell of an economics figure that does not fit (economicsDoesNotFit()), in the text and CSV comparisons. */
const QString kDoesNotFit = QStringLiteral("does not fit");

/** A compared figure as the text tables print it (compareText and the N-way table). */
QString comparedCell(const QJsonValue& v)
{
    if (v.isDouble()) {
        const double d = v.toDouble();
        if (d == std::floor(d) && std::abs(d) < 1e15)
            return num(d); // whole counts with thousands separators
        return std::abs(d) >= 1e6 || (d != 0 && std::abs(d) < 1e-3) ? QString::number(d, 'g', 4) : QString::number(d, 'f', 3);
    }
    if (v.isBool())
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    if (v.isNull())
        return QStringLiteral("none");
    return v.toString();
}

} // namespace

QString compareText(const model::Scenario& a, const model::Evaluation& ea, const model::Scenario& b,
                    const model::Evaluation& eb, const QStringList& files)
{
    QList<QPair<QString, QJsonValue>> la, lb;
    const QJsonObject ra = reportJson(a, ea), rb = reportJson(b, eb);
    flatten(ra, QString(), la);
    flatten(rb, QString(), lb);
    // Cells first, then columns as wide as their widest cell plus a two-space gap, so that no two
    // figures ever run together (989,400,000,000,000 FLOP/s is 19 characters).
    struct Row {
        QString key, a, b, ratio;
    };
    QList<Row> rows{{QStringLiteral("figure"), QStringLiteral("A"), QStringLiteral("B"), QStringLiteral("B / A")}};
    for (const auto& [key, va] : la) {
        QJsonValue vb;
        for (const auto& [keyB, v] : lb)
            if (keyB == key)
                vb = v;
        if (key == QLatin1String("ridgeline_version"))
            continue;
        const QJsonValue r = figureRatio(key, va, vb, ra, rb);
        rows.append({key, economicsDoesNotFit(key, va, ra) ? kDoesNotFit : comparedCell(va),
                     economicsDoesNotFit(key, vb, rb) ? kDoesNotFit : comparedCell(vb), ratioCell(r)});
    }
    qsizetype wKey = 0, wA = 0, wB = 0, wRatio = 0;
    for (const Row& row : rows) {
        wKey = std::max(wKey, row.key.size());
        wA = std::max(wA, row.a.size());
        wB = std::max(wB, row.b.size());
        wRatio = std::max(wRatio, row.ratio.size());
    }
    QStringList out;
    const QStringList titles = comparedTitles({a, b}, files);
    out << QStringLiteral("A: ") + titles[0] << QStringLiteral("B: ") + titles[1] << QString();
    for (const Row& row : rows)
        out << row.key.leftJustified(wKey) + row.a.rightJustified(wA + 2) + row.b.rightJustified(wB + 2)
                   + row.ratio.rightJustified(wRatio + 2);
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

namespace {

/** One CSV field: numbers in the shortest form that reads back to the same double, text quoted when it must be. */
QString csvField(const QJsonValue& v)
{
    if (v.isDouble())
        return std::isfinite(v.toDouble()) ? QString::fromStdString(model::formatNumber(v.toDouble())) : QString();
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull() || v.isUndefined())
        return QString();
    QString text = v.toString();
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) || text.contains(QLatin1Char('\n')))
        text = QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

/** The flattened reports of @p scenarios, one map per scenario, and the keys of the first in document order. */
struct FlatReports {
    QStringList keys;
    QList<QHash<QString, QJsonValue>> values;
    QList<QJsonObject> reports;
};

FlatReports flatReports(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations)
{
    FlatReports out;
    for (size_t i = 0; i < scenarios.size(); ++i) {
        out.reports.append(reportJson(scenarios[i], evaluations[i]));
        QList<QPair<QString, QJsonValue>> flat;
        flatten(out.reports.back(), QString(), flat);
        QHash<QString, QJsonValue> map;
        for (const auto& [key, value] : flat) {
            map.insert(key, value);
            if (i == 0 && key != QLatin1String("ridgeline_version"))
                out.keys.append(key);
        }
        out.values.append(map);
    }
    return out;
}

} // namespace

QString comparedLetter(int index)
{
    return QString(QChar(u'A' + std::clamp(index, 0, 25)));
}

QStringList comparedTitles(const std::vector<model::Scenario>& scenarios, const QStringList& files)
{
    QStringList names, sources, out;
    for (size_t i = 0; i < scenarios.size(); ++i) {
        names << comparedName(scenarios[i]);
        const QString file = files.value(qsizetype(i));
        sources << (file.isEmpty() ? QStringLiteral("defaults") : QFileInfo(file).fileName());
    }
    for (qsizetype i = 0; i < names.size(); ++i) {
        if (names.count(names[i]) < 2) {
            out << names[i];
            continue;
        }
        // Told apart as the window tells its pins apart: by the file, then by the order among those of that file.
        int sameSource = 0, order = 0;
        for (qsizetype j = 0; j < names.size(); ++j)
            if (names[j] == names[i] && sources[j] == sources[i]) {
                ++sameSource;
                order += j <= i ? 1 : 0;
            }
        out << (sameSource < 2 ? QStringLiteral("%1 (%2)").arg(names[i], sources[i])
                               : QStringLiteral("%1 (%2, #%3)").arg(names[i], sources[i]).arg(order));
    }
    return out;
}

QJsonObject compareJson(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations,
                        const QStringList& files)
{
    const FlatReports flat = flatReports(scenarios, evaluations);
    QJsonObject out;
    QJsonArray labels, names;
    for (qsizetype i = 0; i < flat.reports.size(); ++i) {
        const QString letter = comparedLetter(int(i));
        out.insert(letter.toLower(), flat.reports[i]);
        labels.append(letter);
        names.append(comparedName(scenarios[size_t(i)]));
        if (i == 0)
            continue;
        QJsonObject ratios;
        for (const QString& key : flat.keys) {
            const QJsonValue va = flat.values[0].value(key);
            if (va.isDouble() && flat.values[i].contains(key)) // as compareJson of two: figures both reports have
                insertDotted(ratios, key, figureRatio(key, va, flat.values[i].value(key), flat.reports[0], flat.reports[i]));
        }
        out.insert(i == 1 ? QStringLiteral("ratio") : QStringLiteral("ratio_") + letter.toLower(), ratios);
    }
    out.insert(QStringLiteral("labels"), labels);
    out.insert(QStringLiteral("names"), names);
    if (!files.isEmpty()) { // added (h14k): which file each letter is, and the names told apart where they repeat
        QJsonArray given;
        for (size_t i = 0; i < scenarios.size(); ++i)
            given.append(files.value(qsizetype(i)).isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(files.value(qsizetype(i))));
        out.insert(QStringLiteral("files"), given);
        out.insert(QStringLiteral("titles"), QJsonArray::fromStringList(comparedTitles(scenarios, files)));
    }
    return out;
}

QString compareText(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations,
                    const QStringList& files)
{
    const FlatReports flat = flatReports(scenarios, evaluations);
    const qsizetype n = flat.reports.size();
    QList<QStringList> rows;
    QStringList header{QStringLiteral("figure")};
    for (qsizetype i = 0; i < n; ++i)
        header << comparedLetter(int(i));
    for (qsizetype i = 1; i < n; ++i)
        header << comparedLetter(int(i)) + QStringLiteral(" / A");
    rows.append(header);
    for (const QString& key : flat.keys) {
        QStringList row{key};
        const QJsonValue va = flat.values[0].value(key);
        for (qsizetype i = 0; i < n; ++i) {
            const QJsonValue v = flat.values[i].value(key, QJsonValue(QJsonValue::Null));
            row << (economicsDoesNotFit(key, v, flat.reports[i]) ? kDoesNotFit : comparedCell(v));
        }
        for (qsizetype i = 1; i < n; ++i) {
            const QJsonValue r = figureRatio(key, va, flat.values[i].value(key), flat.reports[0], flat.reports[i]);
            row << (ratioCell(r));
        }
        rows.append(row);
    }
    // Columns as wide as their widest cell plus a two-space gap, as compareText.
    QList<qsizetype> widths(header.size(), 0);
    for (const QStringList& row : rows)
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], row[c].size());
    QStringList out;
    const QStringList titles = comparedTitles(scenarios, files);
    for (qsizetype i = 0; i < n; ++i)
        out << comparedLetter(int(i)) + QStringLiteral(": ") + titles[i];
    out << QString();
    for (const QStringList& row : rows) {
        QString line = row[0].leftJustified(widths[0]);
        for (qsizetype c = 1; c < row.size(); ++c)
            line += row[c].rightJustified(widths[c] + 2);
        out << line;
    }
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

QString compareCsv(const std::vector<model::Scenario>& scenarios, const std::vector<model::Evaluation>& evaluations,
                   const QStringList& files)
{
    const FlatReports flat = flatReports(scenarios, evaluations);
    const qsizetype n = flat.reports.size();
    QStringList header{QStringLiteral("figure")};
    for (qsizetype i = 0; i < n; ++i)
        header << comparedLetter(int(i));
    for (qsizetype i = 1; i < n; ++i)
        header << comparedLetter(int(i)) + QStringLiteral(" / A");
    QStringList lines{header.join(QLatin1Char(','))};
    QStringList names{QStringLiteral("name")};
    const QStringList titles = comparedTitles(scenarios, files);
    for (qsizetype i = 0; i < n; ++i)
        names << csvField(titles[i]);
    for (qsizetype i = 1; i < n; ++i)
        names << QString();
    lines << names.join(QLatin1Char(','));
    for (const QString& key : flat.keys) {
        QStringList row{key};
        const QJsonValue va = flat.values[0].value(key);
        for (qsizetype i = 0; i < n; ++i) {
            const QJsonValue v = flat.values[i].value(key, QJsonValue(QJsonValue::Null));
            row << (economicsDoesNotFit(key, v, flat.reports[i]) ? kDoesNotFit : csvField(v));
        }
        for (qsizetype i = 1; i < n; ++i)
            row << csvField(figureRatio(key, va, flat.values[i].value(key), flat.reports[0], flat.reports[i]));
        lines << row.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace ridgeline::app
