// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/floors/numberspanel.h"

#include <algorithm>
#include <cmath>

#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QLocale>
#include <QLabel>
#include <QPalette>
#include <QScrollArea>
#include <QScrollBar>
#include <QStringList>
#include <QTimer>
#include <QVBoxLayout>

#include "model/analysis/operatingeconomics.h"
#include "model/cost/dtype.h"
#include "model/cost/formulatext.h"
#include "document/format.h"
#include "document/readouts.h"
#include "views/floors/headlinefigures.h"
#include "views/kit/boundtext.h"
#include "views/kit/card.h"
#include "views/kit/inlineblend.h"
#include "views/kit/palette.h"
#include "views/kit/plainlabel.h"
#include "views/kit/plotpanel.h"

namespace ridgeline::views {

namespace {

/**
 * True when @p text holds a character of a script that needs OpenType shaping to be drawn right (Arabic, the Indic
 * scripts, a combining mark, ...): any character outside the Latin, Greek and common (digits, punctuation, symbols)
 * scripts. A value's label lays its text out without shaping (QFont::PreferNoShaping) unless its text needs it: Qt 6.4
 * shapes no script under that strategy (docs/performance.md, "Issue 16, twenty-ninth stop: text set without OpenType
 * shaping").
 */
bool textNeedsShaping(const QString& text)
{
    for (const char32_t c : text.toUcs4()) {
        const QChar::Script script = QChar::script(c);
        if (script != QChar::Script_Common && script != QChar::Script_Latin && script != QChar::Script_Greek)
            return true;
    }
    return false;
}

/**
 * The numbers card's heading: a rich-text QLabel, drawn through QLabel's own text control, that lays that control's
 * document out as soon as it is resized. Left to its first paint after a resize, QLabel laid it out there, and the
 * document's update request marked the heading (and the card under it) dirty while it was painted: a second paint pass
 * right after the window's first (issue 16, thirtieth stop in docs/performance.md). The same layout, done earlier.
 */
class NumbersHeadingLabel final : public QLabel {
public:
    NumbersHeadingLabel(const QString& text, QWidget* parent)
        : QLabel(text, parent)
    {
    }

protected:
    bool event(QEvent* event) override
    {
        const bool handled = QLabel::event(event);
        if (event->type() == QEvent::Resize && !text().isEmpty())
            (void)heightForWidth(width()); // lays the control's document out (QLabel's size for a width)
        return handled;
    }
};

/** @p label's text in @p color, as the style sheet "QLabel { color: ... }" set it (every colour group). */
void setTextColor(QLabel* label, const QColor& color)
{
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, color);
    p.setColor(QPalette::Text, color);
    label->setPalette(p);
}

} // namespace

NumbersPanel::NumbersPanel(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("numbersPanel"));
    // No style sheets on the panel or under it (issue 16, sixteenth stop (h16q)): the card is painted (makeCard()), the texts
    // coloured through palettes and the backgrounds painted (no palette of a container: its children would inherit it,
    // issue 16, seventeenth stop (h16s)), each as the style sheet it replaces drew it.
    makeCard(this);

    auto* heading = new NumbersHeadingLabel(headingHtml(), this);
    m_heading = heading;
    heading->setObjectName(QStringLiteral("numbersTitle"));
    setTextColor(heading, palette::text());

    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("numbersScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->verticalScrollBar()->setStyle(InlineBlend::scrollBarStyle()); // drawn in strips, no pool hand-offs
    setTransparentBackground(scroll);
    auto* content = new QWidget;
    content->setObjectName(QStringLiteral("numbersContent"));
    // Resized when a value wraps to another line count (the scroll area keeps it at its hint's height): Qt then
    // repainted the whole content, every row; with static contents only what the new layout moves or exposes is
    // (the rows from the value down), not the rows above it (issue 16, twelfth stop in docs/performance.md).
    content->setAttribute(Qt::WA_StaticContents);
    paintThemeBackground(content, Theme::Card);
    m_grid = new QGridLayout(content);
    m_grid->setContentsMargins(0, 0, 4, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(3);
    m_grid->setColumnStretch(0, 0);
    m_grid->setColumnStretch(1, 1);
    scroll->setWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(heading);
    layout->addWidget(scroll, 1);

    m_relax = new QTimer(this);
    m_relax->setSingleShot(true);
    m_relax->setInterval(600);
    connect(m_relax, &QTimer::timeout, this, &NumbersPanel::relaxHeights);

    addSection(tr("Model"));
    addRow(QStringLiteral("params"), tr("Parameters"),
           tr("N, every weight; N_active, the weights one token uses (MoE: shared + k routed experts per layer)"));
    addRow(QStringLiteral("residentWeights"), tr("Resident weights"),
           tr("N \u00b7 b_w held in HBM, all GPUs together (every expert of an MoE model); per GPU N \u00b7 b_w / T"));
    addRow(QStringLiteral("weights"), tr("Weights read/step"),
           tr("Weights one decode step reads, per GPU: W / T; for MoE the shared weights plus\n"
              "E (1 \u2212 (1 \u2212 k/E)^B) experts per layer at the current B (decimal GB)"));
    addRow(QStringLiteral("kvPerToken"), tr("KV per token"),
           tr("kv_tok = 2 \u00b7 L_attn \u00b7 H_kv \u00b7 h \u00b7 b_kv, or L_attn \u00b7 (r + d_r) \u00b7 b_kv with MLA; L_attn: the layers holding\n"
              "a KV cache (L but for linear-attention / state-space hybrids); all GPUs together (KiB = 1024 B)"));
    addRow(QStringLiteral("kvPerTokenPerGpu"), tr("KV/token per GPU"),
           tr("Tensor parallelism splits the cache by whole KV heads: ceil(H_kv / T) heads per GPU, so with\n"
              "H_kv < T every GPU still holds one (replicated). An MLA latent is replicated on every GPU."));
    addRow(QStringLiteral("experts"), tr("Experts read at B"),
           tr("Expected distinct experts per layer that B uniformly routed tokens touch: E (1 \u2212 (1 \u2212 k/E)^B)"));
    addSection(tr("Decode at (B, S)"));
    addRow(QStringLiteral("floor"), tr("Batch-1 floor"),
           tr("W(B = 1) / (T \u00b7 BW) at peak bandwidth; speed 1 / floor (MoE: shared + k experts)"));
    addRow(QStringLiteral("allExpertsFloor"), tr("All-experts floor"),
           tr("N \u00b7 b_w / (T \u00b7 BW): the weights-only floor once a batch touches every expert"));
    addRow(QStringLiteral("step"), tr("t_step"),
           model::formula(model::Quantity::StepTime) + QLatin1Char('\n') + model::formula(model::Quantity::MemoryTime) + QLatin1Char('\n') + model::formula(model::Quantity::ComputeTime));
    addRow(QStringLiteral("comm"), tr("All-reduce/step"),
           tr("Two all-reduces of B \u00b7 d activations per layer, 2 (T \u2212 1) / T of their bytes over the link,\n"
              "plus the link latency; added to t_step"));
    addRow(QStringLiteral("read"), tr("Read per step R"), tr("R = W + B \u00b7 S \u00b7 kv_tok"));
    addRow(QStringLiteral("kvShare"), tr("KV share of read"), tr("B \u00b7 S \u00b7 kv_tok / R"));
    addRow(QStringLiteral("perUser"), tr("Per-user speed"), model::formula(model::Quantity::PerUserSpeed));
    addRow(QStringLiteral("total"), tr("Throughput (total)"), model::formula(model::Quantity::Throughput));
    addRow(QStringLiteral("affine"), tr("t_step(B) as a line"),
           model::formula(model::Quantity::StepLine) + tr(", memory-bound: a = W / (BW \u00b7 \u03b7_bw), b = S \u00b7 kv_tok / (BW \u00b7 \u03b7_bw)"));
    addSection(tr("Roofline"));
    addRow(QStringLiteral("ridge"), tr("Ridge point I*"), tr("I* = F_peak / BW"));
    addRow(QStringLiteral("computePeak"), tr("Matmul peak"),
           tr("The matmuls run in the weight dtype: fp8 \u2192 the fp8 peak, int8 \u2192 the int8 peak, others \u2192 bf16;\n"
              "a device without that peak falls back to bf16. Per GPU."));
    addRow(QStringLiteral("decodeIntensity"), tr("Decode intensity"), tr("I_dec = F_dec / R, F_dec = 2 \u00b7 N_active \u00b7 B + 4 \u00b7 L \u00b7 B \u00b7 S \u00b7 d_attn"));
    addRow(QStringLiteral("computeBoundBatch"), tr("Compute-bound from"), tr("The batch where t_comp(B) = t_mem(B) at the current S; it may not exist when the cache read grows as fast as the FLOPs"));
    addSection(tr("ITL SLO"));
    addRow(QStringLiteral("sloBatches"), tr("Largest batch"),
           tr("For each ITL SLO s: the smaller of the largest B with t_step(B) \u2264 s and the largest B whose KV\n"
              "cache at S fits the budget, and which of the two binds; none when t_step(1) > s or nothing fits"));
    addSection(tr("Prefill of P tokens"));
    addRow(QStringLiteral("prefillFlop"), tr("Prefill work"), model::formula(model::Quantity::PrefillFlop) + QLatin1Char('\n') + model::formula(model::Quantity::PrefillAttention));
    addRow(QStringLiteral("prefillTime"), tr("Prefill time"), model::formula(model::Quantity::PrefillTime) + tr(", compared with the TTFT SLO"));
    addRow(QStringLiteral("crossover"), tr("Crossover P*"), model::formula(model::Quantity::Crossover) + tr(", c = 4 full or 2 causal: the quadratic term equals the linear one"));
    addRow(QStringLiteral("computeBoundPrompt"), tr("Compute-bound from"), tr("The P where F_pre / (F_peak \u00b7 MFU) = (W + P \u00b7 kv_tok) / (BW \u00b7 \u03b7_bw)"));
    addRow(QStringLiteral("attentionShare"), tr("Attention share"), model::formula(model::Quantity::AttentionShare));
    addRow(QStringLiteral("kvWritten"), tr("KV written"), tr("P \u00b7 kv_tok (GiB = 1024\u00b3 B)"));
    addRow(QStringLiteral("scoreMatrix"), tr("Score matrix/head"),
           tr("P\u00b2 \u00b7 2 B (GiB = 1024\u00b3 B): one head's bf16 attention scores if materialised (eager attention);\n"
              "FlashAttention computes them in tiles and never holds the matrix"));
    addRow(QStringLiteral("promptLogits"), tr("Logits, all P"),
           tr("P \u00b7 V \u00b7 4 B: fp32 full-vocabulary logits for every prompt position, computed only when\n"
              "prompt logprobs are asked; otherwise the engine computes the last position's (V \u00b7 4 B per sequence)"));
    addSection(tr("Capacity (per GPU)"));
    addRow(QStringLiteral("kvBudget"), tr("KV budget/GPU"),
           tr("HBM capacity \u00b7 utilisation \u2212 N \u00b7 b_w / T (\u2212 activation reserve), per GPU"));
    addRow(QStringLiteral("fits"), tr("Cache at (B, S)"), tr("B \u00b7 S \u00b7 kv_tok per GPU against the KV budget"));
    addRow(QStringLiteral("maxSequences"), tr("Max sequences"), tr("Contiguous reservation: floor(budget / (S \u00b7 kv_tok))"));
    // Economics at the operating point (docs/cost-model.md section 5, "Economics"); tool tips name each input's source.
    addSection(tr("Cost and energy at (B, S)"));
    addRow(QStringLiteral("price"), tr("Price/GPU-hour"), QString());
    addRow(QStringLiteral("costOutputAtPoint"), tr("Per 1M out tok"), QString());
    addRow(QStringLiteral("joulesPerTokenAtPoint"), tr("Energy/output tok"), QString());
    addRow(QStringLiteral("tokensPerMegawattAtPoint"), tr("Output tok/s per MW"), QString());
    // Per request of P in, O out at batch B (decode at the mean context P + O/2, not S): the --report keys of the same names.
    addSection(tr("Cost and energy per request (P, O)"));
    addRow(QStringLiteral("costOutput"), tr("Per 1M out tok, decode"), QString());
    addRow(QStringLiteral("costOutputAllIn"), tr("Per 1M out tok, all-in"), QString());
    addRow(QStringLiteral("costInput"), tr("Per 1M input tok"), QString());
    addRow(QStringLiteral("joulesPerToken"), tr("Energy/output tok"), QString());
    addRow(QStringLiteral("tokensPerMegawatt"), tr("Output tok/s per MW"), QString());
    m_grid->setRowStretch(m_row, 1);
}

void NumbersPanel::addSection(const QString& title)
{
    auto* label = new PlainLabel(title, m_grid->parentWidget()); // under its final parent: no repolish when added
    QFont font = label->font();
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 0.95);
    label->setFont(font);
    setTextColor(label, palette::axis());
    if (m_row > 0) {
        // The padding above a section, as "padding-top: 6px" set it: a QLabel with a frame (the style sheet's padding
        // made one 6 px wide) indents its text by half an x (QLabel's indent -1), so the text keeps that indent.
        label->setContentsMargins(0, 6, 0, 0);
        label->setIndent(QFontMetrics(label->font()).horizontalAdvance(QLatin1Char('x')) / 2);
    }
    m_grid->addWidget(label, m_row++, 0, 1, 2);
}

void NumbersPanel::addRow(const QString& key, const QString& label, const QString& formula)
{
    // Created under the grid's widget, coloured through the palette (applyTheme() maps it as it maps
    // style sheets): a label with a style sheet of its own is polished again through the style sheet
    // engine on every reparenting, about 70 labels here at start-up (docs/performance.md).
    QWidget* content = m_grid->parentWidget();
    auto* name = new PlainLabel(label, content);
    name->setToolTip(formula);
    setTextColor(name, palette::axis());
    auto* value = new DocumentLabel;
    value->setObjectName(key + QStringLiteral("Number"));
    value->setToolTip(formula);
    value->setWordWrap(true);
    value->setTextSelectableByMouseOnFirstUse(); // QLabel's text control made on first use (issue 16, twenty-second stop)
    setTextColor(value, palette::text());
    value->setAccessibleName(label);
    value->setAccessibleDescription(formula);
    QFont font = value->font();
    font.setWeight(QFont::DemiBold);
    // Set glyph by glyph from the font's character map, without HarfBuzz (about 0.36 M instructions of a model-size
    // step): a value is digits, units and Ridgeline's words, whose glyphs need no shaping; setValue() gives a text that
    // needs it a shaped font (docs/performance.md, "Issue 16, twenty-ninth stop: text set without OpenType shaping").
    font.setStyleStrategy(QFont::StyleStrategy(font.styleStrategy() | QFont::PreferNoShaping));
    value->setFont(font);
    m_grid->addWidget(name, m_row, 0, Qt::AlignTop);
    // In a box: a new value of the same height repaints the label without re-laying out the grid.
    auto* box = new LabelBox(value, true, content);
    box->setCardFill(true);
    m_grid->addWidget(box, m_row, 1, Qt::AlignTop);
    ++m_row;
    m_values.insert(key, value);
    m_names.insert(key, name);
}

void NumbersPanel::setRowVisible(const QString& key, bool visible)
{
    if (visible == !m_hidden.contains(key))
        return;
    if (visible)
        m_hidden.remove(key);
    else
        m_hidden.insert(key);
    if (QLabel* label = m_values.value(key, nullptr))
        label->parentWidget()->setVisible(visible); // its LabelBox
    if (QLabel* label = m_names.value(key, nullptr))
        label->setVisible(visible);
}

void NumbersPanel::setRelaxDelay(int ms)
{
    m_relax->setInterval(ms);
}

void NumbersPanel::relaxHeights()
{
    for (QLabel* value : std::as_const(m_values))
        static_cast<LabelBox*>(value->parentWidget())->relax();
}

void NumbersPanel::setFormula(const QString& key, const QString& formula)
{
    for (QLabel* label : {static_cast<QLabel*>(m_values.value(key, nullptr)), m_names.value(key, nullptr)}) {
        if (label && label->toolTip() != formula) {
            label->setToolTip(formula);
            label->setAccessibleDescription(formula);
        }
    }
}

QLabel* NumbersPanel::valueLabel(const QString& key) const
{
    return m_values.value(key, nullptr);
}

void NumbersPanel::setValue(const QString& key, const QString& text)
{
    DocumentLabel* label = m_values.value(key, nullptr);
    if (label == nullptr || label->text() == text)
        return;
    if ((label->font().styleStrategy() & QFont::PreferNoShaping) != 0 && textNeedsShaping(text)) {
        QFont shaped = label->font(); // from now on: a value whose text needed shaping once may well again
        shaped.setStyleStrategy(QFont::StyleStrategy(shaped.styleStrategy() & ~QFont::PreferNoShaping));
        label->setFont(shaped);
    }
    label->setTextRepaintingChanges(text);
}

QString NumbersPanel::headingHtml()
{
    const double scale = currentTheme().fontScale; // presentation mode: as large as the plots' titles
    return QStringLiteral("<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                          "<br><span style=\"font-size:%2pt;\">%4</span>")
        .arg(10.5 * scale, 0, 'f', 1)
        .arg(9.0 * scale, 0, 'f', 1)
        .arg(tr("Numbers"), tr("Hover a figure for its formula."));
}

void NumbersPanel::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    if (const QString heading = headingHtml(); m_heading->text() != heading)
        m_heading->setText(heading);
    m_relax->start();
    using namespace format;
    const model::DecodeResult& decode = evaluation.decode;
    const model::RooflineResult& roof = evaluation.roofline;
    const model::PrefillResult& prefill = evaluation.prefill;
    const model::CapacityResult& capacity = evaluation.capacity;
    // The largest term, t_comm included: model::largestTimeTerm(), the report's rule (issue 14 trial: TP16 across nodes).
    const auto boundName = &views::boundByText;

    const model::ModelShape& shape = scenario.model;
    const int gpus = std::max(1, scenario.hardware.gpus);
    const bool split = gpus > 1;
    const QString perGpu = split ? tr(" per GPU") : QString();
    const bool moe = shape.isMoe();

    setValue(QStringLiteral("params"), moe ? tr("%1 total, %2 active").arg(billionParams(shape.params),
                                                                          billionParams(shape.activeParamsOrTotal()))
                                           : tr("%1 (dense)").arg(billionParams(shape.params)));
    setValue(QStringLiteral("residentWeights"),
             split ? tr("%1 (%2 per GPU)").arg(gigabytes(decode.residentWeightBytes),
                                              gigabytes(decode.residentWeightBytes / gpus))
                   : gigabytes(decode.residentWeightBytes));
    setValue(QStringLiteral("weights"), gigabytes(decode.weightBytes) + perGpu);
    setValue(QStringLiteral("kvPerToken"),
             shape.windowLayers() > 0
                 ? tr("%1; %2 of %3 layers keep \u2264 %4 tokens").arg(kibibytesPerToken(decode.kvBytesPerToken),
                                                                     integer(shape.windowLayers()), integer(shape.layers),
                                                                     integer(shape.slidingWindow))
                 : kibibytesPerToken(decode.kvBytesPerToken));
    setRowVisible(QStringLiteral("kvPerTokenPerGpu"), split);
    if (split) {
        QString how;
        if (shape.isMla())
            how = tr("latent replicated");
        else if (shape.kvHeads > 0 && shape.kvHeads < gpus)
            how = tr("1 KV head each, replicated");
        else if (shape.kvHeads > 0)
            how = tr("%1 of %2 KV heads each").arg(integer(std::ceil(double(shape.kvHeads) / gpus)), integer(shape.kvHeads));
        setValue(QStringLiteral("kvPerTokenPerGpu"),
                 how.isEmpty() ? kibibytesPerToken(decode.kvBytesPerTokenPerGpu)
                               : tr("%1 (%2)").arg(kibibytesPerToken(decode.kvBytesPerTokenPerGpu), how));
    }
    setRowVisible(QStringLiteral("experts"), moe);
    setRowVisible(QStringLiteral("allExpertsFloor"), moe);
    if (moe) {
        setValue(QStringLiteral("experts"), tr("%1 of %2 per layer (k = %3)")
                                                .arg(number(decode.expertsTouched), integer(shape.experts),
                                                     integer(shape.expertsPerToken)));
        setValue(QStringLiteral("allExpertsFloor"), milliseconds(decode.totalWeightFloorSeconds * 1e3));
    }
    setValue(QStringLiteral("floor"), tr("%1 \u00b7 %2").arg(milliseconds(decode.floorSecondsBatch1 * 1e3),
                                                          tokensPerSecond(1.0 / decode.floorSecondsBatch1)));
    setValue(QStringLiteral("step"), tr("%1 (%2)").arg(milliseconds(decode.stepSeconds * 1e3), boundName(model::largestTimeTerm(decode))));
    setFormula(QStringLiteral("step"),
               model::stepTimeFormula(scenario, evaluation).line() + QLatin1Char('\n')
                   + model::formula(scenario.efficiency.kvBandwidth > 0 && scenario.efficiency.kvBandwidth != scenario.efficiency.bandwidth
                                        ? model::Quantity::MemoryTimeSplit
                                        : model::Quantity::MemoryTime)
                   + QLatin1Char('\n') + model::formula(model::Quantity::ComputeTime));
    setRowVisible(QStringLiteral("comm"), split);
    if (split) {
        // The link the all-reduce is priced at: across nodes when the TP group is wider than the scale-up domain.
        const document::TensorParallelLink link = document::tensorParallelLink(scenario);
        setValue(QStringLiteral("comm"), link.acrossNodes
                                             ? tr("%1 (%2 GB/s across nodes: %3 GPUs > the %4-GPU scale-up domain)")
                                                   .arg(milliseconds(decode.commSeconds * 1e3),
                                                        number(link.bandwidthBytesPerSecond / 1e9))
                                                   .arg(scenario.hardware.gpus)
                                                   .arg(link.scaleUpDomainGpus)
                                             : tr("%1 (%2 GB/s link)")
                                                   .arg(milliseconds(decode.commSeconds * 1e3),
                                                        number(link.bandwidthBytesPerSecond / 1e9)));
    }
    setValue(QStringLiteral("read"), gigabytes(decode.readBytes) + perGpu);
    setValue(QStringLiteral("kvShare"), percent(decode.kvShare));
    setValue(QStringLiteral("perUser"), tokensPerSecond(decode.tokensPerSecondPerUser));
    setValue(QStringLiteral("total"), tokensPerSecond(decode.tokensPerSecondTotal));
    {
        const model::FormulaText line = model::stepLineFormula(scenario, evaluation);
        setValue(QStringLiteral("affine"), line.symbols + QStringLiteral(" = ") + line.numbers + QStringLiteral(" = ") + line.valueText);
        setFormula(QStringLiteral("affine"), line.line());
    }
    setValue(QStringLiteral("ridge"), flopPerByte(roof.ridgeFlopPerByte));
    {
        const std::string_view dtype = model::dtypeName(roof.computeDtype);
        const QString name = QString::fromUtf8(dtype.data(), qsizetype(dtype.size()));
        const QString peak = QLocale(QLocale::English, QLocale::UnitedStates).toString(roof.peakFlopsPerSecond / 1e12, 'f', 1);
        setValue(QStringLiteral("computePeak"),
                 roof.computePeakFallback ? tr("bf16 %1 TFLOP/s (no %2 peak)").arg(peak, name)
                                          : tr("%1: %2 %3").arg(name, peak,
                                                                roof.computeDtype == model::DType::INT8 ? tr("TOP/s")
                                                                                                        : tr("TFLOP/s")));
    }
    setValue(QStringLiteral("decodeIntensity"), flopPerByte(roof.decodeIntensityFlopPerByte));
    if (!roof.computeBoundBatch)
        setValue(QStringLiteral("computeBoundBatch"), tr("never at this S"));
    else if (*roof.computeBoundBatch <= 1.0)
        setValue(QStringLiteral("computeBoundBatch"), tr("every batch"));
    else
        setValue(QStringLiteral("computeBoundBatch"), tr("B \u2248 %1").arg(approximate(*roof.computeBoundBatch)));

    QStringList slos;
    for (const model::SloBatch& slo : decode.maxBatchForItlSlo) {
        const QString ms = plain(slo.sloMs) + QStringLiteral(" ms");
        if (slo.servableBatch)
            slos.append(slo.limit == model::BatchLimit::Memory
                            ? tr("%1: B \u2264 %2, memory binds (SLO alone %3)")
                                  .arg(ms, integer(double(*slo.servableBatch)), integer(double(*slo.batch)))
                            : tr("%1: B \u2264 %2").arg(ms, integer(double(*slo.servableBatch))));
        else
            slos.append(slo.limit == model::BatchLimit::Memory ? tr("%1: none, nothing fits in memory").arg(ms)
                                                               : tr("%1: none").arg(ms));
    }
    setValue(QStringLiteral("sloBatches"), slos.isEmpty() ? tr("no SLO lines") : slos.join(QLatin1Char('\n')));

    setValue(QStringLiteral("prefillFlop"), teraflop(prefill.flop));
    const double ttftMs = scenario.workload.ttftSloMs;
    const QString ttft = prefill.seconds * 1e3 <= ttftMs ? tr("meets TTFT %1").arg(milliseconds(ttftMs))
                                                         : tr("misses TTFT %1").arg(milliseconds(ttftMs));
    setValue(QStringLiteral("prefillTime"), tr("%1 (%2)\n%3").arg(duration(prefill.seconds), boundName(model::largestTimeTerm(prefill)), ttft));
    setValue(QStringLiteral("crossover"), prefill.crossoverExists ? tokens(prefill.crossoverTokens) : tr("none (every layer slides)"));
    setFormula(QStringLiteral("prefillFlop"), model::prefillFlopFormula(scenario, evaluation).line() + QLatin1Char('\n')
                                                  + model::prefillAttentionFormula(scenario, evaluation).line());
    setFormula(QStringLiteral("crossover"), model::crossoverFormula(scenario, evaluation).line());
    setFormula(QStringLiteral("attentionShare"), model::attentionShareFormula(scenario, evaluation).line());
    setValue(QStringLiteral("computeBoundPrompt"), tr("P \u2248 %1 tokens").arg(approximate(prefill.computeBoundTokens)));
    setValue(QStringLiteral("attentionShare"), percent(prefill.attentionShare));
    setValue(QStringLiteral("kvWritten"), gibibytes(prefill.kvWrittenBytes));
    // GiB as the KV written and the logits beside it (the per-request buffers); GB is for weights and HBM.
    setValue(QStringLiteral("scoreMatrix"), tr("%1 if materialised").arg(gibibytes(prefill.scoreMatrixBytesPerHead)));
    setValue(QStringLiteral("promptLogits"), tr("%1 with prompt logprobs").arg(gibibytes(prefill.logitsBytesAllPositions)));

    setValue(QStringLiteral("kvBudget"), capacity.kvBudgetBytes >= 0 ? gigabytes(capacity.kvBudgetBytes)
                                                                      : tr("weights do not fit"));
    setValue(QStringLiteral("fits"), tr("%1%2 (%3)").arg(gigabytes(capacity.kvNeededBytes), perGpu,
                                                       capacity.fits ? tr("fits") : tr("does not fit")));
    setValue(QStringLiteral("maxSequences"), integer(double(capacity.maxSequencesContiguous)));

    for (const EconomicsText& row : economicsTexts(scenario, evaluation)) {
        setValue(row.key, row.text);
        setFormula(row.key, row.toolTip);
    }
}

} // namespace ridgeline::views
