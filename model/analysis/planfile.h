// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include <QByteArray>
#include <QString>

#include "model/analysis/plan.h"

namespace ridgeline::model {

/** Current plan file format version ("format_version"). */
inline constexpr int kPlanFormatVersion = 1;

/** A parsed plan file (`ridgeline --plan FILE`; format in resources/plans/README and docs/cost-model.md section 5). */
struct PlanFile {
    PlanRequest request;
    std::string title;                  ///< "title" when it is text (one line, printable), else ""
    std::string currency = "USD";       ///< label printed beside prices
    std::string modelSource;            ///< "preset llama-3.1-70b", "config path/config.json", "inline"
    std::vector<std::string> notes;     ///< e.g. which prices are the shipped examples, import notes
    int simulateTop = 0;                ///< "simulate_top": check this many of the best plans with the simulator (0-20)
    long long simulateRequests = 2000;  ///< "simulate_requests": requests per simulator check (100-100,000)
};

/**
 * Parses plan JSON @p json. Keys (all optional but "model" and "load"):
 *   "format_version": 1
 *   "model": "preset-id" | {"preset": id | "config": path (relative to @p baseDir), plus model keys overriding it}
 *            | {model keys as in scenario files, e.g. "params", "layers"}
 *   "set": {"efficiency.bandwidth": 0.8, ...}   scenario keys as `--set` takes them (model, efficiency, serving)
 *   "load": {"requests_per_second", "prompt_tokens", "output_tokens"}
 *   "slo": {"ttft_ms", "itl_ms"}               (mean-estimate proxies, see PlanSlo)
 *   "candidates": {"devices": "all" | [ids], "gpu_counts": [n], "layouts": [{"tp", "pp", "ep", "microbatches"}],
 *                  "batch_caps": [n], "disaggregation": "both" | "colocated" | "disaggregated", "microbatches": n,
 *                  "max_utilization": fraction (default 0.85)}
 *                 with both "layouts" and "gpu_counts", each layout's GPUs (ParallelLayout::gpus(): pp x max(tp, ep))
 *                 must be one of the counts (else it would never be searched: refused, naming the layout and the counts)
 *   "prices": {id: per GPU-hour}, "use_example_prices": bool (default true), "currency": text (default "USD"; the
 *            example prices fill in only when it is the example file's currency, examplePriceCurrency(), else the
 *            devices without "prices" have no price and a note names them)
 * "load.prompt_tokens" and "load.output_tokens" are whole numbers; a device listed twice is searched once (a note).
 *   "power_watts": {id: W}, "pue": number from kMinPue to kMaxPue, 1 to 10 (default 1.2; the bounds of economics.pue)
 *   "simulate_top": n (0-20, default 0), "simulate_requests": n (100-100,000, default 2,000): simulator checks
 *                  of the best n plans (simulatePlan())
 * An error in a "set" key is labelled "set.<key>: ..." (validate()'s message), one in the model "model: ...". The search's
 * and the simulator checks' work is checked last (checkPlanWork(), model/analysis/plan.h): a file over the budget is
 * refused with the fields, their values, the estimate and the bound.
 * Returns "" on success, else one sentence naming the field and the value at fault (then @p out is unspecified).
 */
std::string parsePlanFile(const QByteArray& json, const QString& baseDir, PlanFile& out);

} // namespace ridgeline::model
