// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/fittext.h"

#include <cstdio>

namespace ridgeline::model {

namespace {

/** " K: cost" for each (K, training cost) a search tried, K printed with @p format (its %d or %g, then %.3g), and ")". */
template <typename Costs>
std::string costsText(const Costs& costs, const char* format)
{
    std::string t;
    for (const auto& [k, cost] : costs) {
        char b[48];
        std::snprintf(b, sizeof b, format, k, cost);
        t += b;
    }
    return t + ")";
}

} // namespace

std::string fitCoefficientText(const char* name, const Coefficient& c, const char* unit)
{
    char b[160];
    if (c.standardError)
        std::snprintf(b, sizeof b, "%s %.4g +- %.2g%s", name, c.value, *c.standardError, unit);
    else
        std::snprintf(b, sizeof b, "%s %.4g%s%s", name, c.value, unit, c.fitted ? " (at a bound)" : " (not fitted)");
    return b;
}

std::string fitCoefficientsText(const BenchmarkFitResult& fit)
{
    return fitCoefficientText("eta_bw", fit.bandwidthEfficiency, "") + ", " + fitCoefficientText("MFU_pre", fit.mfuPrefill, "") + ", "
           + fitCoefficientText("MFU_dec", fit.mfuDecode, "") + ", " + fitCoefficientText("step", fit.stepOverheadMs, " ms") + ", "
           + fitCoefficientText("chunk", fit.chunkOverheadMs, " ms") + ", " + fitCoefficientText("eta_kv", fit.kvBandwidthEfficiency, "")
           + ", " + fitCoefficientText("per-seq", fit.perSequenceOverheadUs, " us") + ", "
           + fitCoefficientText("ttft", fit.ttftOverheadMs, " ms") + ", "
           + fitCoefficientText("eta_kv1", fit.kvOneSequenceBandwidthEfficiency, "") + ", "
           + fitCoefficientText("MFU_attn", fit.mfuPrefillAttention, "") + ", " + fitCoefficientText("frontend", fit.frontendSerialMs, " ms");
}

std::string fitSearchesText(const BenchmarkFitResult& fit)
{
    std::string t;
    if (fit.firstTokenReturnMs.fitted || fit.firstTokenReturnMs.value > 0) // --fit-first-token-return (h13aq)
        t += ", " + fitCoefficientText("first-token return", fit.firstTokenReturnMs, " ms");
    if (fit.tokenBudget > 0) {
        // Appended, not assigned: the assignment here before h13at dropped the return path printed above.
        t += ", max_num_tokens " + std::to_string(fit.tokenBudget) + " (training cost:";
        t += costsText(fit.tokenBudgetCosts, " %d: %.3g");
    }
    if (fit.prefillLimit >= 0) {
        t += ", max_prefills_per_step " + (fit.prefillLimit > 0 ? std::to_string(fit.prefillLimit) : std::string("0 (no limit)"))
             + " (training cost:";
        t += costsText(fit.prefillLimitCosts, " %d: %.3g");
    }
    if (fit.kvReserveGb.fitted || !fit.kvReserveCosts.empty()) {
        t += ", " + fitCoefficientText("runtime reserve", fit.kvReserveGb, " GB per GPU") + " (training cost:";
        t += costsText(fit.kvReserveCosts, " %g: %.3g");
    }
    if (fit.apiOutputUs.fitted || !fit.apiOutputCosts.empty()) {
        t += ", " + fitCoefficientText("API server output path", fit.apiOutputUs, " us per token") + " (search's training cost:";
        t += costsText(fit.apiOutputCosts, " %g: %.3g");
    }
    if (fit.maxSequences > 0) {
        t += ", max_num_seqs " + std::to_string(fit.maxSequences) + " (profile's training cost:";
        t += costsText(fit.maxSequencesCosts, " %d: %.3g");
    }
    if (fit.tokenGateUs.fitted || !fit.tokenGateCosts.empty()) {
        t += ", " + fitCoefficientText("token gate", fit.tokenGateUs, " us per token") + " (search's training cost:";
        t += costsText(fit.tokenGateCosts, " %g: %.3g");
    }
    return t;
}

} // namespace ridgeline::model
