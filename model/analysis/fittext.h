// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The text measured_accuracy prints for a benchmark fit's coefficients and searches (bench/measured_accuracy.cpp), here so
// that a test can read it (docs/cost-model.md, "The first token's return path, printed", h13at).

#include <string>

#include "model/analysis/calibration.h"

namespace ridgeline::model {

/**
 * One coefficient of a fit, one phrase: "NAME V +- SE UNIT" when it has a standard error, else "NAME V UNIT (at a bound)"
 * when it was fitted (at a bound of its range, or its error could not be computed) and "NAME V UNIT (not fitted)" when the
 * fit kept it. V and SE in the coefficient's own unit, four and two significant digits; @p unit as given (e.g. " ms").
 */
std::string fitCoefficientText(const char* name, const Coefficient& c, const char* unit);

/**
 * The eleven continuous efficiencies and overheads of a benchmark fit, each as fitCoefficientText() writes it, joined by
 * ", ": eta_bw, MFU_pre, MFU_dec, step (ms), chunk (ms), eta_kv, per-seq (us), ttft (ms), eta_kv1, MFU_attn, frontend (ms).
 */
std::string fitCoefficientsText(const BenchmarkFitResult& fit);

/**
 * What a benchmark fit found besides its eleven continuous efficiencies and overheads, as one text that starts with ", "
 * ("" when there is nothing): the first token's return path (efficiency.first_token_return_ms) when it was fitted or is not
 * zero; the token budget, the prompt limit per step, the runtime reserve, the API server's output path, the sequence cap and
 * the token gate when searched, each with every candidate's training cost. Every item that applies is printed: before
 * h13at the token budget's text replaced the return path's, so no fit that searched a budget ever showed its return path.
 */
std::string fitSearchesText(const BenchmarkFitResult& fit);

} // namespace ridgeline::model
