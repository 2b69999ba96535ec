// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include <QString>

#include "model/cost/costmodel.h"
#include "model/cost/scenario.h"

namespace ridgeline::model {

/**
 * One formula as the window, the report and the docs show it, with the scenario's numbers put in:
 * the single source of formula text for t_step, the memory-bound line t_step(B), prefill FLOP, the
 * crossover P* and the attention share (issue 17). The symbols follow the scenario (causal or full
 * attention, sliding-window layers, MoE, tensor parallelism, fixed overheads), so that the numbers
 * written after them evaluate to the value shown beside them: tests/tst_formulatext.cpp parses
 * `numbers` and compares it with the cost model's value. The general
 * form of each formula, without numbers, is formula() (one table).
 */
struct FormulaText {
    QString symbols;   ///< e.g. "t_step = max(t_mem, t_comp) + t_oh"
    QString numbers;   ///< the right-hand side with numbers in, evaluable: digits, "e" exponents, + − · / ² ( ) max min
                       ///< (empty when there is nothing to compute, e.g. no P*)
    double value = 0;  ///< what `numbers` evaluates to per the cost model, in the units of the numbers (NaN: none)
    QString valueText; ///< value for display with its unit, e.g. "69.5 ms", "30,633 tokens"
    QString note;      ///< a qualifier shown after the value, e.g. "while memory-bound (to B ≈ 512)"; may be empty

    /** "symbols = numbers = valueText[, note]" (only the symbols and note when numbers is empty). */
    QString line() const;
    /** line() in ASCII (· → *, ² → ^2, − → -, η → eta, ≈ → ~) for the text report. */
    QString asciiLine() const;
};

/**
 * The quantities whose formula text has one source: formula() below. The window (Explain panel, Numbers
 * panel tool tips, control tool tips), the text report and docs/cost-model.md write these and no other
 * spelling; tests/model/tst_formulatext.cpp checks the doc, tests/app/tst_numbertrust.cpp the window and
 * the report. The scenario's own form with its numbers in is the FormulaText of the functions further down.
 */
enum class Quantity {
    StepTime,         ///< t_step of a decode step, every term the model can add
    MemoryTime,       ///< t_mem, weights and KV at one bandwidth efficiency
    MemoryTimeSplit,  ///< t_mem with the KV read at its own efficiency (efficiency.kv_bandwidth)
    ComputeTime,      ///< t_comp of a decode step
    PerUserSpeed,     ///< tokens per second per sequence
    Throughput,       ///< tokens per second, all sequences
    StepLine,         ///< t_step(B) as a line in B while memory-bound
    PrefillFlop,      ///< F_pre
    PrefillAttention, ///< F_attn, sliding-window layers included
    PrefillTime,      ///< t_pre
    Crossover,        ///< P*
    AttentionShare,   ///< attention share of prefill FLOP
};

/** One row of the formula table. */
struct FormulaEntry {
    Quantity quantity;
    const char* id;         ///< stable name, e.g. "step_time"
    QString symbols;        ///< the general formula in symbols, e.g. "t_step = max(t_mem, t_comp) + t_comm + t_oh + B·t_seq"
    const char* docSection; ///< the docs/cost-model.md heading or list title that states it, e.g. "Decode step"
};

/** Every quantity's row, in the order of the enum. */
const std::vector<FormulaEntry>& formulaTable();

/** The general formula of @p quantity in symbols (Unicode glyphs: · η ² −); asciiFormula() of it for the report and docs. */
const QString& formula(Quantity quantity);

/** @p text with the formula glyphs replaced by ASCII (see FormulaText::asciiLine()). */
QString asciiFormula(QString text);

/** A number for a formula: four significant digits, no digit grouping, exponents as "8.03e9". */
QString formulaNumber(double value);

/** t_step at the current (B, S) = max(t_mem, t_comp) (+ t_comm at T > 1) (+ t_oh when the step overhead is set), ms. */
FormulaText stepTimeFormula(const Scenario& scenario, const Evaluation& evaluation);

/**
 * t_step(B) as a line in B at the current B, ms: memory-bound a + b·B (MoE: a(B) + b·B, the weights
 * read grow with the experts touched), compute-bound c·B + t_comm + t_oh. Evaluates to t_step at the
 * current B; the note says over which batches the form holds.
 */
FormulaText stepLineFormula(const Scenario& scenario, const Evaluation& evaluation);

/**
 * t_pre of the scenario's prompt, ms: formula(Quantity::PrefillTime) at T = 1; at T > 1 the compute over T GPUs and
 * each GPU's bytes, W / T + P·kv_tok / T (P·kv_tok,GPU when the KV heads do not split evenly, or MLA's latent sits
 * on every GPU). The note names the largest term, t_comm included (largestTimeTerm(): "communication-bound").
 */
FormulaText prefillTimeFormula(const Scenario& scenario, const Evaluation& evaluation);

/** Attention FLOP of prefilling P tokens: c·L·P²·d_attn (c = 4 full, 2 causal; sliding layers cap at w). */
FormulaText prefillAttentionFormula(const Scenario& scenario, const Evaluation& evaluation);

/** F_pre = 2·N_active·P + F_attn, FLOP. */
FormulaText prefillFlopFormula(const Scenario& scenario, const Evaluation& evaluation);

/** P*, the prompt length where attention FLOP equal the linear FLOP (causal, sliding windows included), tokens. */
FormulaText crossoverFormula(const Scenario& scenario, const Evaluation& evaluation);

/** Attention share of prefill FLOP = F_attn / (F_lin + F_attn) (= P / (P + P*) without sliding layers), fraction. */
FormulaText attentionShareFormula(const Scenario& scenario, const Evaluation& evaluation);

} // namespace ridgeline::model
