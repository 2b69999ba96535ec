// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QString>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

namespace ridgeline::views {

/** One headline figure of an evaluation, for the A / B table, the Markdown summary and exports. */
struct HeadlineFigure {
    QString key;         ///< stable id, e.g. "step_ms"
    QString label;       ///< e.g. "t_step at (B, S)"
    double value = 0;    ///< in the unit of @c unit (NaN when it does not exist, e.g. no compute-bound batch)
    QString unit;        ///< e.g. "ms", "tok/s", "GB"
    QString text;        ///< value formatted with its unit, as the numbers panel shows it
    int better = 0;      ///< -1: lower is better (times, bytes), +1: higher is better (throughput), 0: neither
    QString toolTip{};   ///< where the figure's inputs come from, when that is not the formula alone (economics); may be empty
};

/** One economics line of the numbers panel (views::NumbersPanel): its key, the text shown and its tool tip. */
struct EconomicsText {
    QString key;     ///< price, costOutputAtPoint, joulesPerTokenAtPoint, tokensPerMegawattAtPoint (at (B, S)), costOutput,
                     ///< costOutputAllIn, costInput, joulesPerToken, tokensPerMegawatt (per request)
    QString text;    ///< e.g. "0.412 USD"; "\u2013" where the price or the power is unknown
    QString toolTip; ///< the formula and the source of each input (example or your price, datasheet TDP), or what to set
};

/**
 * The economics at the operating point of @p evaluation of @p scenario (model::operatingEconomics, docs/cost-model.md
 * section 5): price per GPU-hour, $ per 1M output tokens (decode share, and all-in) and input tokens, J per output token,
 * output tokens/s per MW.
 */
std::vector<EconomicsText> economicsTexts(const model::Scenario& scenario, const model::Evaluation& evaluation);

/**
 * The headline figures of @p evaluation of @p scenario, in a fixed order (the same keys for any
 * scenario, except one "max_batch_slo_<ms>" row per ITL SLO line): batch-1 floor, t_step, what
 * bounds decode (text only, value NaN), per-user and total throughput, bytes read per step, KV share, KV per token, resident weights,
 * ridge point, decode intensity, compute-bound batch, largest batch per ITL SLO, prefill time,
 * TTFT, crossover P*, KV budget, max sequences, GPU-seconds per output token; then the economics (price per GPU-hour;
 * at (B, S), keys at_batch_context.*: cost per 1M output tokens, J per output token, output tokens/s per MW, "does not
 * fit" where the cache at (B, S) does not; per request: cost per 1M output tokens (decode share, then all-in) and input
 * tokens, J per output token, output tokens/s per MW, "does not fit" where the weights do not: NaN and "\u2013" where
 * unknown).
 */
std::vector<HeadlineFigure> headlineFigures(const model::Scenario& scenario, const model::Evaluation& evaluation);

/** "B ÷ A" as shown: "1.52×", "0.658×", "=" when equal, "–" when undefined (A is 0 or either is NaN). */
QString ratioText(double a, double b);

/** "Llama 3.1 8B on H100 SXM". */
QString scenarioName(const model::Scenario& scenario);

} // namespace ridgeline::views
