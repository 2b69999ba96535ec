// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include "model/cost/costmodel.h"

namespace ridgeline::views {

/**
 * What bounds a decode step or a prefill, as every view writes it: "memory-bound", "compute-bound" or
 * "communication-bound" for model::TimeTerm::Memory, Compute or Communication. Give it model::largestTimeTerm() of the
 * step or prefill (the largest of t_comp, t_mem and t_comm, the rule of the report's JSON key largest_term), not
 * model::Bound, which weighs t_comp against t_mem alone (a prefill at TP16 across nodes, mostly all-reduces, read
 * "compute-bound": issue 14 trial). Texts about the roofline crossover ("compute-bound from B >= x") are about t_comp
 * against t_mem by definition and do not use it.
 */
QString boundByText(model::TimeTerm term);

/** The term alone, for a "bound by" label: "memory", "compute" or "communication" (boundByText() without "-bound"). */
QString timeTermText(model::TimeTerm term);

} // namespace ridgeline::views
