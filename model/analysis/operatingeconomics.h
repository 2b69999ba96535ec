// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include "model/analysis/plan.h"
#include "model/cost/scenario.h"

namespace ridgeline::model {

struct Evaluation;

/** Where the price per GPU-hour at the operating point comes from. */
enum class PriceSource {
    User,    ///< economics.price_per_gpu_hour > 0: the user's price
    Example, ///< the example price of the catalogue device named hardware.name (USD, resources/plans/gpu-prices-example.json)
    Unknown  ///< neither: no $ figure (shown as "—", null in JSON)
};

/** Where the board power per GPU at the operating point comes from. */
enum class PowerSource {
    Datasheet, ///< the catalogue's datasheet TDP of the device named hardware.name (hardware.board_power_watts 0 or equal to it)
    Scenario,  ///< hardware.board_power_watts as set, not the catalogue's figure for a device of that name
    Unknown    ///< neither: no energy figure
};

/**
 * The economics of one evaluated scenario at its operating point (docs/cost-model.md section 5, "Economics"): the
 * inputs resolved (price, board power, PUE, currency) with where each comes from, and the figures
 * operatingCost(inputs, scenario, evaluation) gives from them. Unknown inputs leave the figures that need them nullopt.
 */
struct OperatingEconomics {
    EconomicsInputs inputs;         ///< price per GPU-hour (nullopt: unknown), board power W (nullopt: unknown), PUE
    std::string currency;           ///< economics.currency ("USD" by default)
    PriceSource priceSource = PriceSource::Unknown;
    PowerSource powerSource = PowerSource::Unknown;
    std::string catalogueDevice;    ///< the catalogue device named hardware.name (less a trailing " (edited)"), "" when none
    std::string catalogueSource;    ///< that device's datasheet source (catalogue), "" when none
    bool weightsFit = false;        ///< evaluation.capacity.weightsFit: false leaves every figure of cost nullopt ("does not fit")
    /**
     * The per-request point runs: the weights fit and B sequences at the decode context P + O/2 fit the KV budget
     * (evaluation.capacity.maxContextAtBatch nullopt, no limit, or >= evaluation.workload.decodeContextTokens).
     * false leaves every figure of cost nullopt ("does not fit"; issue 14 trial: batch 4,096 on one GPU was priced).
     */
    bool fitsPerRequest = false;
    OperatingCost cost;             ///< per request: P in, O out at batch B, decode at the mean context P + O/2 (section 5)
    /**
     * At the slider's operating point (B, S), as t_step: B sequences decoding at context S, out/s = B / t_step(B, S),
     * no prefill (prefill share 0: the output-token cost is the all-in one, no input-token cost). Every figure nullopt
     * when the cache at (B, S) does not fit the KV budget (fitsAtBatchContext false): no cost for a point that cannot run.
     */
    OperatingCost atBatchContext;
    bool fitsAtBatchContext = false; ///< evaluation.capacity.fits: weights and B sequences' cache at S fit
    double outputTokensPerSecondAtBatchContext = 0; ///< B / t_step(B, S) of the instance, tokens/s (0 when it does not fit)
};

/**
 * Resolves the economics inputs of @p scenario and prices its operating point from @p evaluation (evaluate(scenario)):
 * price = economics.price_per_gpu_hour when > 0, else the example price of the catalogue device whose name is
 * hardware.name when the currency is USD (the example file's), else unknown; board power = hardware.board_power_watts
 * when > 0, else that device's datasheet TDP, else unknown; PUE = economics.pue. Never NaN: unknowns are nullopt.
 * cost is per request (P + O at B, decode at P + O/2), nullopt throughout when the weights do not fit or B sequences at
 * P + O/2 do not (fitsPerRequest false: no price for a configuration that cannot run); atBatchContext is at the scenario's (B, S) (nullopt figures when the cache does not fit
 * there).
 */
OperatingEconomics operatingEconomics(const Scenario& scenario, const Evaluation& evaluation);

/** "user", "example" or "unknown": the JSON report's price_source. */
std::string_view priceSourceKey(PriceSource source);
/** "datasheet", "scenario" or "unknown": the JSON report's power_source. */
std::string_view powerSourceKey(PowerSource source);

/** The currency of resources/plans/gpu-prices-example.json: example prices apply only to scenarios in it. */
inline constexpr std::string_view kExamplePriceCurrency = "USD";

} // namespace ridgeline::model
