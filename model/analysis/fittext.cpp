// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/fittext.h"

#include <cstdio>

namespace ridgeline::model {

std::string fitCoefficientText(const char* name, const Coefficient& c, const char* unit)
{
    char b[160];
    if (c.standardError)
        std::snprintf(b, sizeof b, "%s %.4g +- %.2g%s", name, c.value, *c.standardError, unit);
    else
        std::snprintf(b, sizeof b, "%s %.4g%s%s", name, c.value, unit, c.fitted ? " (at a bound)" : " (not fitted)");
    return b;
}

std::string fitSearchesText(const BenchmarkFitResult& fit)
{
    std::string t;
    if (fit.firstTokenReturnMs.fitted || fit.firstTokenReturnMs.value > 0) // --fit-first-token-return (h13aq)
        t += ", " + fitCoefficientText("first-token return", fit.firstTokenReturnMs, " ms");
    if (fit.tokenBudget > 0) {
        // Appended, not assigned: the assignment here before h13at dropped the return path printed above.
        t += ", max_num_tokens " + std::to_string(fit.tokenBudget) + " (training cost:";
        for (const auto& [budget, cost] : fit.tokenBudgetCosts) {
            char b[48];
            std::snprintf(b, sizeof b, " %d: %.3g", budget, cost);
            t += b;
        }
        t += ")";
    }
    if (fit.prefillLimit >= 0) {
        t += ", max_prefills_per_step " + (fit.prefillLimit > 0 ? std::to_string(fit.prefillLimit) : std::string("0 (no limit)"))
             + " (training cost:";
        for (const auto& [limit, cost] : fit.prefillLimitCosts) {
            char b[48];
            std::snprintf(b, sizeof b, " %d: %.3g", limit, cost);
            t += b;
        }
        t += ")";
    }
    if (fit.kvReserveGb.fitted || !fit.kvReserveCosts.empty()) {
        t += ", " + fitCoefficientText("runtime reserve", fit.kvReserveGb, " GB per GPU") + " (training cost:";
        for (const auto& [gb, cost] : fit.kvReserveCosts) {
            char b[48];
            std::snprintf(b, sizeof b, " %g: %.3g", gb, cost);
            t += b;
        }
        t += ")";
    }
    if (fit.apiOutputUs.fitted || !fit.apiOutputCosts.empty()) {
        t += ", " + fitCoefficientText("API server output path", fit.apiOutputUs, " us per token") + " (search's training cost:";
        for (const auto& [us, cost] : fit.apiOutputCosts) {
            char b[48];
            std::snprintf(b, sizeof b, " %g: %.3g", us, cost);
            t += b;
        }
        t += ")";
    }
    if (fit.maxSequences > 0) {
        t += ", max_num_seqs " + std::to_string(fit.maxSequences) + " (profile's training cost:";
        for (const auto& [cap, cost] : fit.maxSequencesCosts) {
            char b[48];
            std::snprintf(b, sizeof b, " %d: %.3g", cap, cost);
            t += b;
        }
        t += ")";
    }
    if (fit.tokenGateUs.fitted || !fit.tokenGateCosts.empty()) {
        t += ", " + fitCoefficientText("token gate", fit.tokenGateUs, " us per token") + " (search's training cost:";
        for (const auto& [us, cost] : fit.tokenGateCosts) {
            char b[48];
            std::snprintf(b, sizeof b, " %g: %.3g", us, cost);
            t += b;
        }
        t += ")";
    }
    return t;
}

} // namespace ridgeline::model
