// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/formulatext.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QLocale>
#include <QStringList>

#include "model/cost/costterms.h"

namespace ridgeline::model {

namespace {

const QLocale& english()
{
    static const QLocale locale(QLocale::English, QLocale::UnitedStates);
    return locale;
}

/** Three significant digits, grouped, as document/format.h number() writes them ("69.5", "0.176", "1,188"). */
QString threeDigits(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("\u2013");
    if (value == 0.0)
        return QStringLiteral("0");
    constexpr int kSignificant = 3;
    const double magnitude = std::abs(value);
    if (magnitude >= 1000.0)
        return english().toString(std::round(value), 'f', 0);
    int decimals = std::clamp(kSignificant - 1 - int(std::floor(std::log10(magnitude))), 0, 9);
    const double rounded = std::round(value * std::pow(10.0, decimals)) / std::pow(10.0, decimals);
    if (rounded != 0.0)
        decimals = std::min(decimals, std::clamp(kSignificant - 1 - int(std::floor(std::log10(std::abs(rounded)))), 0, 9));
    return english().toString(value, 'f', decimals);
}

/** Milliseconds as the window writes them ("69.5 ms"). */
QString msText(double ms)
{
    return threeDigits(ms) + QStringLiteral(" ms");
}

QString flopText(double flop)
{
    return english().toString(flop / 1e12, 'f', flop >= 1e14 ? 0 : 2) + QStringLiteral(" TFLOP");
}

QString n(double value)
{
    return formulaNumber(value);
}

const QString kDot = QStringLiteral("\u00b7");

} // namespace

QString formulaNumber(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("nan");
    if (value == 0)
        return QStringLiteral("0");
    if (value == std::round(value) && std::abs(value) < 1e6)
        return QString::number(qint64(value));
    QString text = QString::number(value, 'g', 4);
    // "8.03e+09" -> "8.03e9", "1.2e-05" -> "1.2e-5"
    const qsizetype e = text.indexOf(QLatin1Char('e'));
    if (e >= 0) {
        QString mantissa = text.left(e);
        QString exponent = text.mid(e + 1);
        const bool negative = exponent.startsWith(QLatin1Char('-'));
        exponent.remove(QLatin1Char('+')).remove(QLatin1Char('-'));
        while (exponent.size() > 1 && exponent.startsWith(QLatin1Char('0')))
            exponent.remove(0, 1);
        text = mantissa + QLatin1Char('e') + (negative ? QStringLiteral("-") : QString()) + exponent;
    }
    return text;
}

QString asciiFormula(QString text)
{
    text.replace(QStringLiteral("\u00b7"), QStringLiteral(" * "));
    text.replace(QStringLiteral("\u00b2"), QStringLiteral("^2"));
    text.replace(QStringLiteral("\u2212"), QStringLiteral("-"));
    text.replace(QStringLiteral("\u03b7"), QStringLiteral("eta"));
    text.replace(QStringLiteral("\u2248"), QStringLiteral("~"));
    text.replace(QStringLiteral("\u2264"), QStringLiteral("<="));
    return text;
}

QString FormulaText::line() const
{
    QString out = symbols;
    if (!numbers.isEmpty())
        out += QStringLiteral(" = ") + numbers + QStringLiteral(" = ") + valueText;
    if (!note.isEmpty())
        out += QStringLiteral(", ") + note;
    return out;
}

QString FormulaText::asciiLine() const
{
    return asciiFormula(line());
}

namespace {

// The terms a step adds after max(t_mem, t_comp), in the order formula(Quantity::StepTime) writes them.
const QString kCommTerm = QStringLiteral(" + t_comm");
const QString kOverheadTerm = QStringLiteral(" + t_oh");
const QString kSequenceTerm = QStringLiteral(" + B\u00b7t_seq"); // B x t_seq, efficiency.per_sequence_overhead_us

/** Appends "+ t_comm" (tensor parallel, @p split) and "+ t_oh" (when @p overheadMs > 0) to @p f. */
void appendStepAdditions(FormulaText& f, bool split, double commMs, double overheadMs, double sequenceMs = 0)
{
    if (split) {
        f.symbols += kCommTerm;
        f.numbers += QStringLiteral(" + ") + n(commMs);
    }
    if (overheadMs > 0) {
        f.symbols += kOverheadTerm;
        f.numbers += QStringLiteral(" + ") + n(overheadMs);
    }
    if (sequenceMs > 0) { // B x t_seq, efficiency.per_sequence_overhead_us (docs/cost-model.md)
        f.symbols += kSequenceTerm;
        f.numbers += QStringLiteral(" + ") + n(sequenceMs);
    }
}

const QString kStepHead = QStringLiteral("t_step = max(t_mem, t_comp)");
const QString kStepLineHead = QStringLiteral("t_step(B) = ");

} // namespace

const std::vector<FormulaEntry>& formulaTable()
{
    // One row per quantity, in the enum's order; docs/cost-model.md section 3 states each (tests/model/tst_formulatext.cpp).
    static const std::vector<FormulaEntry> table = {
        {Quantity::StepTime, "step_time", kStepHead + kCommTerm + kOverheadTerm + kSequenceTerm, "Decode step"},
        {Quantity::MemoryTime, "memory_time", QStringLiteral("t_mem = R / (BW\u00b7\u03b7_bw)"), "Decode step"},
        {Quantity::MemoryTimeSplit, "memory_time_kv",
         QStringLiteral("t_mem = W_read / (BW\u00b7\u03b7_bw) + B\u00b7S\u00b7kv_tok / (BW\u00b7\u03b7_kv)"), "KV-read bandwidth efficiency"},
        {Quantity::ComputeTime, "compute_time", QStringLiteral("t_comp = F_dec / (F_peak\u00b7MFU_decode)"), "Decode step"},
        {Quantity::PerUserSpeed, "per_user_speed", QStringLiteral("per-user speed = 1 / t_step"), "Decode step"},
        {Quantity::Throughput, "throughput", QStringLiteral("throughput = B / t_step"), "Decode step"},
        {Quantity::StepLine, "step_line", kStepLineHead + QStringLiteral("a + b\u00b7B"), "Decode step"},
        {Quantity::PrefillFlop, "prefill_flop", QStringLiteral("F_pre = 2\u00b7N_active\u00b7P + F_attn"), "Prefill of P prompt tokens"},
        {Quantity::PrefillAttention, "prefill_attention_flop",
         QStringLiteral("F_attn = c\u00b7d_attn\u00b7P\u00b7(L_g\u00b7P + L_w\u00b7min(P, w))"), "Prefill of P prompt tokens"},
        {Quantity::PrefillTime, "prefill_time",
         QStringLiteral("t_pre = max(F_pre / (F_peak\u00b7MFU_prefill), (W + P\u00b7kv_tok) / (BW\u00b7\u03b7_bw)) + t_comm + t_oh"),
         "Prefill of P prompt tokens"},
        {Quantity::Crossover, "crossover", QStringLiteral("P* = 2\u00b7N_active / (c\u00b7L\u00b7d_attn)"), "Prefill of P prompt tokens"},
        {Quantity::AttentionShare, "attention_share", QStringLiteral("attention share = F_attn / (2\u00b7N_active\u00b7P + F_attn)"),
         "Prefill of P prompt tokens"},
    };
    return table;
}

const QString& formula(Quantity quantity)
{
    return formulaTable().at(size_t(quantity)).symbols;
}

FormulaText stepTimeFormula(const Scenario& s, const Evaluation& e)
{
    const DecodeResult& d = e.decode;
    const bool split = std::max(1, s.hardware.gpus) > 1;
    const double overheadMs = s.efficiency.stepOverheadSeconds * 1e3;
    FormulaText f;
    f.symbols = kStepHead;
    f.numbers = QStringLiteral("max(%1, %2)").arg(n(d.memorySeconds * 1e3), n(d.computeSeconds * 1e3));
    appendStepAdditions(f, split, d.commSeconds * 1e3, overheadMs, s.workload.batch * s.efficiency.perSequenceOverheadSeconds * 1e3);
    f.value = d.stepSeconds * 1e3;
    f.valueText = msText(f.value);
    // The largest term, t_comm included (issue 14 trial: a TP16 step across nodes is mostly communication).
    f.note = QString::fromLatin1(timeTermName(largestTimeTerm(d))) + QStringLiteral("-bound");
    return f;
}

namespace {

/** The weights and prompt KV one GPU moves in prefill, in symbols: "W + P·kv_tok" at T = 1, split at T > 1. */
QString prefillBytesSymbols(const Scenario& s, const Evaluation& e)
{
    const int gpus = std::max(1, s.hardware.gpus);
    if (gpus == 1)
        return QStringLiteral("W + P%1kv_tok").arg(kDot);
    // The KV splits by whole heads (MLA's latent is on every GPU): kv_tok / T only when the split is even.
    const DecodeResult& d = e.decode;
    const bool even = std::abs(d.kvBytesPerTokenPerGpu * gpus - d.kvBytesPerToken) <= 1e-9 * d.kvBytesPerToken;
    return QStringLiteral("W / T + P%1").arg(kDot)
           + (even ? QStringLiteral("kv_tok / T") : QStringLiteral("kv_tok,GPU"));
}

} // namespace

FormulaText prefillTimeFormula(const Scenario& s, const Evaluation& e)
{
    const PrefillResult& p = e.prefill;
    const bool split = std::max(1, s.hardware.gpus) > 1;
    FormulaText f;
    if (!split) {
        f.symbols = formula(Quantity::PrefillTime);
    } else {
        f.symbols = QStringLiteral("t_pre = max(F_pre / (T%1F_peak%1MFU_prefill), (%2) / (BW%1\u03b7_bw)) + t_comm + t_oh")
                        .arg(kDot, prefillBytesSymbols(s, e));
    }
    const double overheadMs = std::max(0.0, p.seconds - std::max(p.computeSeconds, p.memorySeconds) - p.commSeconds) * 1e3;
    f.numbers = QStringLiteral("max(%1, %2) + %3 + %4").arg(n(p.computeSeconds * 1e3), n(p.memorySeconds * 1e3), n(p.commSeconds * 1e3), n(overheadMs));
    f.value = p.seconds * 1e3;
    f.valueText = msText(f.value);
    f.note = QString::fromLatin1(timeTermName(largestTimeTerm(p))) + QStringLiteral("-bound");
    if (f.symbols.contains(QStringLiteral("kv_tok,GPU")))
        f.symbols += s.model.isMla() ? QStringLiteral("; kv_tok,GPU = kv_tok (the MLA latent is on every GPU)")
                                     : QStringLiteral("; kv_tok,GPU = kv_tok%1ceil(H_kv / T) / H_kv (whole KV heads per GPU)").arg(kDot);
    return f;
}

FormulaText stepLineFormula(const Scenario& s, const Evaluation& e)
{
    const CostTerms t = costTerms(s);
    const DecodeResult& d = e.decode;
    const double B = s.workload.batch;
    const double S = s.workload.contextTokens;
    const bool split = t.gpus > 1;
    const double overheadMs = t.stepOverheadSeconds * 1e3;
    const std::optional<double>& crossing = e.roofline.computeBoundBatch;
    FormulaText f;
    f.value = d.stepSeconds * 1e3;
    f.valueText = msText(f.value) + QStringLiteral(" at B = ") + english().toString(qint64(B));
    if (d.bound == Bound::Memory) {
        // t_mem + t_comm + t_oh = (W(B) + B S kv) / (BW eta) + latency + per-token bytes B + overhead.
        const double bMs = d.slopeSecondsPerSequence * 1e3;
        const bool moe = t.experts > 0;
        // Dense: a holds the weights but the input table's rows, which b counts per sequence (docs/cost-model.md).
        const bool rows = !moe && t.embeddingRowBytesPerGpu() > 0;
        const double aMs = (t.weightReadBytes(moe ? B : 0.0) / t.effectiveBandwidth + (split ? t.commLatencySeconds : 0.0)) * 1e3 + overheadMs;
        f.symbols = kStepLineHead + (moe ? QStringLiteral("a(B) + b%1B").arg(kDot) : QStringLiteral("a + b%1B").arg(kDot));
        f.numbers = QStringLiteral("%1 + %2%3%4").arg(n(aMs), n(bMs), kDot, n(B));
        QStringList notes;
        // At T > 1 each GPU reads its share of the weights, W / T (issue 14 trial: the text read W).
        const QString perGpu = split ? QStringLiteral(" / T") : QString();
        notes << (moe    ? QStringLiteral("a(B) = W(B)%2 / (BW%1\u03b7_bw)").arg(kDot, perGpu)
                  : rows ? QStringLiteral("a = (W \u2212 V%1d%1b_e)%2 / (BW%1\u03b7_bw)").arg(kDot, perGpu)
                         : QStringLiteral("a = W%2 / (BW%1\u03b7_bw)").arg(kDot, perGpu))
                     + (split ? QStringLiteral(" + latency") : QString()) + (overheadMs > 0 ? QStringLiteral(" + t_oh") : QString())
              << [&] {
                     // b's bytes per sequence: its KV, the hybrids' fixed state, the embedding row it gathers.
                     QString bytes = QStringLiteral("S%1kv_tok").arg(kDot);
                     if (t.statePerSequencePerGpu > 0)
                         bytes += QStringLiteral(" + s_seq");
                     if (rows)
                         bytes += QStringLiteral(" + d%1b_e").arg(kDot);
                     const QString tail = (split ? QStringLiteral(" + all-reduce bytes") : QString())
                                          + (t.perSequenceOverheadSeconds > 0 ? QStringLiteral(" + t_seq") : QString());
                     if (t.kvEffectiveBandwidth != t.effectiveBandwidth) {
                         // The cache read at eta_kv (efficiency.kv_bandwidth), the embedding row with the weights at eta_bw.
                         QString cache = QStringLiteral("S%1kv_tok").arg(kDot);
                         if (t.statePerSequencePerGpu > 0)
                             cache = QLatin1Char('(') + cache + QStringLiteral(" + s_seq)");
                         return QStringLiteral("b = %1 / (BW%2\u03b7_kv)").arg(cache, kDot)
                                + (rows ? QStringLiteral(" + d%1b_e / (BW%1\u03b7_bw)").arg(kDot) : QString()) + tail;
                     }
                     if (bytes.contains(QLatin1Char('+')))
                         bytes = QLatin1Char('(') + bytes + QLatin1Char(')');
                     return QStringLiteral("b = %1 / (BW%2\u03b7_bw)").arg(bytes, kDot) + tail;
                 }();
        if (moe)
            notes << QStringLiteral("W(B) grows with the experts B tokens touch (%1 of %2 per layer at B = %3), so the curve bends up")
                         .arg(english().toString(t.expertsTouched(B), 'f', 1), english().toString(qint64(t.experts)),
                              english().toString(qint64(B)));
        if (crossing && *crossing <= Sweeps::kBatchMax * 256)
            notes << QStringLiteral("while memory-bound (to B \u2248 %1)").arg(english().toString(qint64(std::llround(*crossing))));
        f.note = notes.join(QStringLiteral("; "));
    } else {
        const double cMs = t.decodeFlop(1.0, S) / t.decodeFlops * 1e3;
        f.symbols = kStepLineHead + QStringLiteral("c%1B").arg(kDot);
        f.numbers = QStringLiteral("%1%2%3").arg(n(cMs), kDot, n(B));
        appendStepAdditions(f, split, d.commSeconds * 1e3, overheadMs, B * t.perSequenceOverheadSeconds * 1e3);
        f.note = QStringLiteral("c = F_dec(B = 1) / (F_peak%1MFU_decode); compute-bound").arg(kDot)
                 + (crossing && *crossing > 1.0
                        ? QStringLiteral(" from B \u2248 %1").arg(english().toString(qint64(std::llround(*crossing))))
                        : QStringLiteral(" at every batch"));
    }
    return f;
}

FormulaText prefillAttentionFormula(const Scenario& s, const Evaluation& e)
{
    const CostTerms t = costTerms(s);
    const double P = s.workload.promptTokens;
    const QString c = n(t.prefillAttentionFactor);
    FormulaText f;
    if (t.windowLayers <= 0) {
        // Hybrids count only their attention layers (L_attn); every other model has L_attn = L.
        const QString layers = t.attentionLayers == t.layers ? QStringLiteral("L") : QStringLiteral("L_attn");
        f.symbols = QStringLiteral("F_attn = %1%2%3%2P\u00b2%2d_attn").arg(c, kDot, layers);
        f.numbers = QStringLiteral("%1%2%3%2%4\u00b2%2%5").arg(c, kDot, n(t.globalLayers), n(P), n(t.attentionWidth));
    } else {
        f.symbols = QStringLiteral("F_attn = %1%2d_attn%2P%2(L_g%2P + L_w%2min(P, w))").arg(c, kDot);
        f.numbers = QStringLiteral("%1%2%3%2%4%2(%5%2%4 + %6%2min(%4, %7))")
                        .arg(c, kDot, n(t.attentionWidth), n(P), n(t.globalLayers), n(t.windowLayers), n(t.window));
    }
    f.value = e.prefill.attentionFlop;
    f.valueText = flopText(f.value);
    f.note = s.model.attention == AttentionFlops::Causal ? QStringLiteral("causal: half the score matrix")
                                                         : QStringLiteral("full P\u00d7P score matrix");
    return f;
}

FormulaText prefillFlopFormula(const Scenario& s, const Evaluation& e)
{
    const PrefillResult& p = e.prefill;
    FormulaText f;
    f.symbols = formula(Quantity::PrefillFlop);
    f.numbers = QStringLiteral("2%1%2%1%3 + %4").arg(kDot, n(s.model.activeParamsOrTotal()), n(s.workload.promptTokens), n(p.attentionFlop));
    f.value = p.flop;
    f.valueText = flopText(f.value);
    return f;
}

FormulaText crossoverFormula(const Scenario& s, const Evaluation& e)
{
    const CostTerms t = costTerms(s);
    const PrefillResult& p = e.prefill;
    const QString c = n(t.prefillAttentionFactor);
    const double allLayers = t.globalLayers + t.windowLayers;
    FormulaText f;
    if (!p.crossoverExists) {
        f.symbols = QStringLiteral("P*: none");
        f.value = std::numeric_limits<double>::quiet_NaN();
        f.note = allLayers <= 0 ? QStringLiteral("no layer holds attention, so there is no quadratic term")
                                : QStringLiteral("every layer slides, so attention stops growing at the window and never catches up");
        return f;
    }
    const double target = 2.0 * t.activeParams / (t.prefillAttentionFactor * t.attentionWidth);
    if (t.windowLayers <= 0 || target <= allLayers * t.window) {
        // Hybrids: only the attention layers grow with P (L_attn); every other model has L_attn = L.
        f.symbols = QStringLiteral("P* = 2%1N_active / (%2%1%3%1d_attn)")
                        .arg(kDot, c, t.attentionLayers == t.layers ? QStringLiteral("L") : QStringLiteral("L_attn"));
        f.numbers = QStringLiteral("2%1%2 / (%3%1%4%1%5)").arg(kDot, n(t.activeParams), c, n(allLayers), n(t.attentionWidth));
        if (t.windowLayers > 0)
            f.note = QStringLiteral("within the %1-token window, where every layer still grows").arg(english().toString(qint64(t.window)));
    } else {
        f.symbols = QStringLiteral("P* = (2%1N_active / (%2%1d_attn) \u2212 L_w%1w) / L_g").arg(kDot, c);
        f.numbers = QStringLiteral("(2%1%2 / (%3%1%4) \u2212 %5%1%6) / %7")
                        .arg(kDot, n(t.activeParams), c, n(t.attentionWidth), n(t.windowLayers), n(t.window), n(t.globalLayers));
        f.note = QStringLiteral("past the window only the %1 global layers keep growing").arg(english().toString(qint64(t.globalLayers)));
    }
    if (s.model.attention == AttentionFlops::Causal)
        f.note = f.note.isEmpty() ? QStringLiteral("causal") : QStringLiteral("causal; ") + f.note;
    f.value = p.crossoverTokens;
    f.valueText = english().toString(qint64(std::llround(f.value))) + QStringLiteral(" tokens");
    return f;
}

FormulaText attentionShareFormula(const Scenario& s, const Evaluation& e)
{
    const PrefillResult& p = e.prefill;
    FormulaText f;
    f.symbols = formula(Quantity::AttentionShare);
    f.numbers = QStringLiteral("%1 / (%2 + %1)").arg(n(p.attentionFlop), n(p.linearFlop));
    f.value = p.attentionShare;
    f.valueText = english().toString(p.attentionShare * 100.0, 'f', 1) + QStringLiteral(" %");
    if (s.model.windowLayers() <= 0 && p.crossoverExists)
        f.note = QStringLiteral("= P / (P + P*) without sliding layers");
    return f;
}

} // namespace ridgeline::model
