// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/parallellayout.h"

#include <string>

#include "model/cost/scenario.h"

namespace ridgeline::model {

std::string layoutRefusal(const ModelShape& m, const ParallelLayout& l)
{
    auto n = [](int v) { return std::to_string(v); };
    if (l.tp < 1 || l.pp < 1 || l.ep < 1)
        return "TP " + n(l.tp) + ", PP " + n(l.pp) + ", EP " + n(l.ep) + ": each must be at least 1";
    if (m.heads % l.tp != 0)
        return "TP " + n(l.tp) + " does not divide the " + n(m.heads) + " attention heads";
    if (!m.isMla() && m.kvHeads > 0 && m.kvHeads % l.tp != 0 && l.tp % m.kvHeads != 0)
        return "TP " + n(l.tp) + " and the " + n(m.kvHeads) + " KV heads do not divide one another";
    if (m.layers % l.pp != 0)
        return "PP " + n(l.pp) + " does not divide the " + n(m.layers) + " layers";
    if (!m.isMoe() && l.ep > 1)
        return "EP " + n(l.ep) + ": a dense model has no experts to split";
    if (m.isMoe() && m.experts % l.ep != 0)
        return "EP " + n(l.ep) + " does not divide the " + n(m.experts) + " routed experts";
    if (l.stageWidth() % l.tp != 0 || l.stageWidth() % l.ep != 0)
        return "TP " + n(l.tp) + " and EP " + n(l.ep) + " do not divide one another";
    if (l.microbatches < 0)
        return "microbatches " + n(l.microbatches) + ": must be 0 (automatic) or at least 1";
    return {};
}

} // namespace ridgeline::model
