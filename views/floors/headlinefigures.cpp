// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/headlinefigures.h"

#include <cmath>

#include <QCoreApplication>

#include "document/format.h"

namespace ridgeline::views {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::views::HeadlineFigures", text);
}

} // namespace

QString scenarioName(const model::Scenario& scenario)
{
    return tr("%1 on %2").arg(QString::fromStdString(scenario.model.name), QString::fromStdString(scenario.hardware.name));
}

QString ratioText(double a, double b)
{
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0.0)
        return QStringLiteral("\u2013");
    const double r = b / a;
    if (std::abs(r - 1.0) < 5e-4)
        return QStringLiteral("=");
    QString text = format::number(r);
    if (text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e'))) { // "4.00" -> "4", "0.500" -> "0.5"
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(QLatin1Char('.')))
            text.chop(1);
    }
    return text + QStringLiteral("\u00d7");
}

std::vector<HeadlineFigure> headlineFigures(const model::Scenario& /*scenario*/, const model::Evaluation& evaluation)
{
    using namespace format;
    const model::DecodeResult& d = evaluation.decode;
    const model::PrefillResult& p = evaluation.prefill;
    const model::CapacityResult& c = evaluation.capacity;
    const double nan = std::nan("");
    std::vector<HeadlineFigure> out;
    auto add = [&out](const char* key, const QString& label, double value, const char* unit, const QString& text, int better) {
        out.push_back({QString::fromLatin1(key), label, value, QString::fromLatin1(unit), text, better});
    };
    const double floorMs = d.floorSecondsBatch1 * 1e3;
    const double stepMs = d.stepSeconds * 1e3;
    add("floor_ms", tr("Batch-1 floor"), floorMs, "ms", milliseconds(floorMs), -1);
    add("step_ms", tr("t_step at (B, S)"), stepMs, "ms", milliseconds(stepMs), -1);
    add("decode_bound", tr("Decode bound by"), nan, "", d.bound == model::Bound::Memory ? tr("memory") : tr("compute"), 0);
    add("tokens_per_s_per_user", tr("Per-user speed"), d.tokensPerSecondPerUser, "tok/s", tokensPerSecond(d.tokensPerSecondPerUser), 1);
    add("tokens_per_s_total", tr("Throughput (total)"), d.tokensPerSecondTotal, "tok/s", tokensPerSecond(d.tokensPerSecondTotal), 1);
    add("read_gb", tr("Read per step"), d.readBytes / 1e9, "GB", gigabytes(d.readBytes), -1);
    add("kv_share_percent", tr("KV share of read"), d.kvShare * 100.0, "%", percent(d.kvShare), 0);
    add("kv_kib_per_token", tr("KV per token"), d.kvBytesPerToken / 1024.0, "KiB", kibibytesPerToken(d.kvBytesPerToken), -1);
    add("resident_weights_gb", tr("Resident weights"), d.residentWeightBytes / 1e9, "GB", gigabytes(d.residentWeightBytes), -1);
    add("ridge_flop_per_byte", tr("Ridge point I*"), evaluation.roofline.ridgeFlopPerByte, "FLOP/byte",
        flopPerByte(evaluation.roofline.ridgeFlopPerByte), 0);
    add("decode_intensity", tr("Decode intensity"), evaluation.roofline.decodeIntensityFlopPerByte, "FLOP/byte",
        flopPerByte(evaluation.roofline.decodeIntensityFlopPerByte), 0);
    const std::optional<double>& bound = evaluation.roofline.computeBoundBatch;
    add("compute_bound_batch", tr("Compute-bound from"), bound ? *bound : nan, "B",
        bound ? (*bound <= 1.0 ? tr("every batch") : tr("B \u2248 %1").arg(approximate(*bound))) : tr("never"), 0);
    for (const model::SloBatch& slo : d.maxBatchForItlSlo) {
        const QString ms = plain(slo.sloMs);
        const QString key = QStringLiteral("max_batch_slo_%1ms").arg(ms);
        // The smaller of the SLO's batch and what fits in memory, saying when memory binds.
        const bool memory = slo.limit == model::BatchLimit::Memory;
        out.push_back({key, tr("Max B, ITL \u2264 %1 ms").arg(ms), slo.servableBatch ? double(*slo.servableBatch) : nan,
                       QStringLiteral("B"),
                       slo.servableBatch ? integer(double(*slo.servableBatch)) + (memory ? tr(" (memory)") : QString())
                                         : (memory ? tr("none (memory)") : tr("none")),
                       1});
    }
    add("prefill_ms", tr("Prefill time"), p.seconds * 1e3, "ms", duration(p.seconds), -1);
    add("ttft_ms", tr("TTFT"), evaluation.slo.ttftMs, "ms", duration(evaluation.slo.ttftMs / 1e3), -1);
    add("crossover_tokens", tr("Crossover P*"), p.crossoverExists ? p.crossoverTokens : nan, "tokens",
        p.crossoverExists ? tokens(p.crossoverTokens) : tr("none"), 0);
    add("kv_budget_gb", tr("KV budget/GPU"), c.kvBudgetBytes / 1e9, "GB",
        c.kvBudgetBytes >= 0 ? gigabytes(c.kvBudgetBytes) : tr("weights do not fit"), 1);
    add("max_sequences", tr("Max sequences"), double(c.maxSequencesContiguous), "seq", integer(double(c.maxSequencesContiguous)), 1);
    const double gpuSeconds = evaluation.workload.gpuSecondsPerOutputToken;
    add("gpu_ms_per_output_token", tr("GPU time/output token"), gpuSeconds * 1e3, "ms", milliseconds(gpuSeconds * 1e3), -1);
    return out;
}

} // namespace ridgeline::views
