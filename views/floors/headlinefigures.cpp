// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/headlinefigures.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>

#include <QCoreApplication>

#include "model/analysis/operatingeconomics.h"
#include "document/format.h"
#include "views/kit/boundtext.h"

namespace ridgeline::views {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::views::HeadlineFigures", text);
}

/** One economics figure as the numbers panel and the comparison show it. */
struct EconomicsRow {
    const char* panelKey;  ///< numbers panel key
    const char* figureKey; ///< headline figure key (the JSON report's name)
    QString label;
    std::optional<double> value;
    QString unit;
    QString text;
    QString toolTip;
    int better;
};

std::vector<EconomicsRow> economicsRows(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    using namespace format;
    const model::OperatingEconomics x = model::operatingEconomics(scenario, evaluation);
    const model::OperatingCost& c = x.cost;
    const QString currency = QString::fromStdString(x.currency);
    const QString device = QString::fromStdString(x.catalogueDevice);
    const int gpus = std::max(1, scenario.hardware.gpus);
    const QString dash = number(std::nan(""));

    QString priceTip;
    switch (x.priceSource) {
    case model::PriceSource::User:
        priceTip = tr("p = %1 %2 per GPU-hour: your price (economics.price_per_gpu_hour; Hardware group, Price/GPU-hour).")
                       .arg(number(*x.inputs.pricePerGpuHour), currency);
        break;
    case model::PriceSource::Example:
        priceTip = tr("p = %1 %2 per GPU-hour: an EXAMPLE price for %3 (resources/plans/gpu-prices-example.json: round\n"
                      "figures of the order of cloud list prices, not a quote). Enter your price in the Hardware group,\n"
                      "Price/GPU-hour (economics.price_per_gpu_hour).")
                       .arg(number(*x.inputs.pricePerGpuHour), currency, device);
        break;
    case model::PriceSource::Unknown:
        priceTip = tr("No price per GPU-hour: enter one in the Hardware group, Price/GPU-hour (economics.price_per_gpu_hour).\n"
                      "Example prices exist only for catalogue devices, in USD (economics.currency is %1).")
                       .arg(currency);
        break;
    }
    QString powerTip;
    switch (x.powerSource) {
    case model::PowerSource::Datasheet:
        powerTip = tr("W = %1 W per GPU: the datasheet TDP of %2 (hardware catalogue, Help > Hardware catalogue for the\n"
                      "source). Board at TDP: an upper bound.")
                       .arg(integer(*x.inputs.boardPowerWatts), device);
        break;
    case model::PowerSource::Scenario:
        powerTip = tr("W = %1 W per GPU: hardware.board_power_watts as set. Board at TDP: an upper bound.")
                       .arg(integer(*x.inputs.boardPowerWatts));
        break;
    case model::PowerSource::Unknown:
        powerTip = tr("No board power for this device: set hardware.board_power_watts (Hardware > Add device,\n"
                      "Board power, or --set); the catalogue has no TDP for it.");
        break;
    }
    const QString pueTip = tr("PUE = %1 (economics.pue, an assumption; Hardware group, PUE).").arg(number(x.inputs.pue));
    const QString rate = tr("Per request: G = %1 GPU(s); out/s = O / (t_pre + O \u00b7 t_step(B, P + O/2) / B), in/s = P / (same): one\n"
                            "instance at batch B, decoding at the request's mean context P + O/2 = %3 (not S);\n"
                            "f = %2, the prefill share of its GPU time.")
                             .arg(integer(gpus), percent(evaluation.workload.prefillShare), integer(evaluation.workload.decodeContextTokens));
    auto money = [&](const std::optional<double>& v) { return v ? number(*v) + QLatin1Char(' ') + currency : dash; };

    // At the slider's (B, S), as t_step (issue 14): the instance's decode throughput B / t_step(B, S), no prefill; "does
    // not fit" and no number when the cache at (B, S) does not fit.
    const model::OperatingCost& at = x.atBatchContext;
    const QString noFit = tr("does not fit");
    const QString noFitTip = tr("B = %1 sequences of S = %2 tokens do not fit the KV budget (Cache at (B, S)): no cost for a\n"
                                "point that cannot run. Lower the batch or the context.")
                                 .arg(integer(scenario.workload.batch), integer(scenario.workload.contextTokens));
    const QString atRate = tr("G = %1 GPU(s); out/s = B / t_step(B, S) = %2 tok/s at B = %3, S = %4 (decode only, as t_step).")
                               .arg(integer(gpus), number(x.outputTokensPerSecondAtBatchContext), integer(scenario.workload.batch),
                                    integer(scenario.workload.contextTokens));
    auto atText = [&](const std::optional<double>& v, const QString& text) { return !x.fitsAtBatchContext ? noFit : v ? text : dash; };
    // Per request: no figure when the weights do not fit, or B sequences at P + O/2 do not (no request runs so; issue 14
    // trial: batch 4,096 on one GPU was priced at 0.06 USD/1M).
    auto requestText = [&](const QString& text) { return x.fitsPerRequest ? text : noFit; };
    const QString requestNoFitTip
        = x.weightsFit ? tr("B = %1 sequences at the request's mean context P + O/2 = %2 tokens do not fit the KV budget:\n"
                            "no cost for a point that cannot run. Lower the batch, the prompt or the output.")
                             .arg(integer(scenario.workload.batch), integer(evaluation.workload.decodeContextTokens))
                       : tr("The weights do not fit: no request runs, so no cost.");

    std::vector<EconomicsRow> rows;
    rows.push_back({"price", "price_per_gpu_hour", tr("Price per GPU-hour"), x.inputs.pricePerGpuHour, currency,
                    x.inputs.pricePerGpuHour
                        ? tr("%1 %2 (%3)").arg(number(*x.inputs.pricePerGpuHour), currency,
                                               x.priceSource == model::PriceSource::Example ? tr("example") : tr("yours"))
                        : dash,
                    priceTip, 0});
    rows.push_back({"costOutputAtPoint", "at_batch_context.cost_per_million_output_tokens", tr("Cost per 1M output tokens at (B, S)"),
                    at.costPerMillionOutputTokens, currency,
                    atText(at.costPerMillionOutputTokens, money(at.costPerMillionOutputTokens)),
                    x.fitsAtBatchContext ? tr("G \u00b7 p / 3600 / out/s \u00b7 10\u2076 at the operating point (B, S), as t_step\n"
                                              "(--report's economics.at_batch_context.cost_per_million_output_tokens).\n")
                                               + atRate + QLatin1Char('\n') + priceTip
                                         : noFitTip,
                    -1});
    rows.push_back({"joulesPerTokenAtPoint", "at_batch_context.joules_per_output_token", tr("Energy per output token at (B, S)"),
                    at.joulesPerOutputToken, QStringLiteral("J"),
                    atText(at.joulesPerOutputToken, at.joulesPerOutputToken ? number(*at.joulesPerOutputToken) + QStringLiteral(" J") : dash),
                    x.fitsAtBatchContext ? tr("G \u00b7 W \u00b7 PUE / out/s at (B, S).\n") + atRate + QLatin1Char('\n') + powerTip
                                               + QLatin1Char('\n') + pueTip
                                         : noFitTip,
                    -1});
    rows.push_back({"tokensPerMegawattAtPoint", "at_batch_context.output_tokens_per_second_per_megawatt",
                    tr("Output tok/s per MW at (B, S)"), at.outputTokensPerSecondPerMegawatt, QStringLiteral("tok/s/MW"),
                    atText(at.outputTokensPerSecondPerMegawatt,
                           at.outputTokensPerSecondPerMegawatt ? approximate(*at.outputTokensPerSecondPerMegawatt) : dash),
                    x.fitsAtBatchContext ? tr("out/s / (G \u00b7 W \u00b7 PUE / 10\u2076) at (B, S).\n") + atRate + QLatin1Char('\n')
                                               + powerTip + QLatin1Char('\n') + pueTip
                                         : noFitTip,
                    1});
    rows.push_back({"costOutput", "cost_per_million_output_tokens", tr("Cost per 1M output tokens, decode share"), c.costPerMillionOutputTokens,
                    currency, requestText(money(c.costPerMillionOutputTokens)),
                    tr("(1 \u2212 f) \u00b7 G \u00b7 p / 3600 / out/s \u00b7 10\u2076: the decode share of the GPU time, charged to output tokens\n"
                       "(all-in, prefill included: %1).\n")
                            .arg(money(c.costPerMillionOutputTokensAllIn))
                        + rate + QLatin1Char('\n') + priceTip,
                    -1});
    rows.push_back({"costOutputAllIn", "cost_per_million_output_tokens_all_in", tr("Cost per 1M output tokens, all-in"),
                    c.costPerMillionOutputTokensAllIn, currency, requestText(money(c.costPerMillionOutputTokensAllIn)),
                    tr("G \u00b7 p / 3600 / out/s \u00b7 10\u2076: every GPU-second, prefill included, charged to output tokens\n"
                       "(--report's cost_per_million_output_tokens_all_in; the Plan tab ranks plans by it).\n")
                        + rate + QLatin1Char('\n') + priceTip,
                    -1});
    rows.push_back({"costInput", "cost_per_million_input_tokens", tr("Cost per 1M input tokens"), c.costPerMillionInputTokens, currency,
                    requestText(money(c.costPerMillionInputTokens)),
                    tr("f \u00b7 G \u00b7 p / 3600 / in/s \u00b7 10\u2076: the prefill share of the GPU time, charged to prompt tokens.\n")
                        + rate + QLatin1Char('\n') + priceTip,
                    -1});
    rows.push_back({"joulesPerToken", "joules_per_output_token", tr("Energy per output token, per request"), c.joulesPerOutputToken, QStringLiteral("J"),
                    requestText(c.joulesPerOutputToken ? number(*c.joulesPerOutputToken) + QStringLiteral(" J") : dash),
                    tr("G \u00b7 W \u00b7 PUE / out/s (prefill energy included).\n") + rate + QLatin1Char('\n') + powerTip + QLatin1Char('\n')
                        + pueTip,
                    -1});
    rows.push_back({"tokensPerMegawatt", "output_tokens_per_second_per_megawatt", tr("Output tok/s per MW, per request"),
                    c.outputTokensPerSecondPerMegawatt, QStringLiteral("tok/s/MW"),
                    requestText(c.outputTokensPerSecondPerMegawatt ? approximate(*c.outputTokensPerSecondPerMegawatt) : dash),
                    tr("out/s / (G \u00b7 W \u00b7 PUE / 10\u2076).\n") + rate + QLatin1Char('\n') + powerTip + QLatin1Char('\n') + pueTip, 1});
    // A per-request point that cannot run: its tool tips say why, not how a figure it does not have would be computed.
    if (!x.fitsPerRequest)
        for (EconomicsRow& row : rows)
            if (row.value == std::nullopt && std::string_view(row.figureKey) != "price_per_gpu_hour"
                && !std::string_view(row.figureKey).starts_with("at_batch_context."))
                row.toolTip = requestNoFitTip;
    return rows;
}

} // namespace

std::vector<EconomicsText> economicsTexts(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    std::vector<EconomicsText> out;
    for (const EconomicsRow& row : economicsRows(scenario, evaluation))
        out.push_back({QString::fromLatin1(row.panelKey), row.text, row.toolTip});
    return out;
}

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

std::vector<HeadlineFigure> headlineFigures(const model::Scenario& scenario, const model::Evaluation& evaluation)
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
    add("decode_bound", tr("Decode bound by"), nan, "", timeTermText(model::largestTimeTerm(d)), 0); // t_comm too
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
    for (const EconomicsRow& row : economicsRows(scenario, evaluation))
        out.push_back({QString::fromLatin1(row.figureKey), row.label, row.value ? *row.value : nan, row.unit, row.text, row.better,
                       row.toolTip});
    return out;
}

} // namespace ridgeline::views
