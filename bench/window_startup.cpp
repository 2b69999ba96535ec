// SPDX-License-Identifier: GPL-3.0-or-later
// Start-up reference with Ridgeline's content (issue 16, thirty-third stop in docs/performance.md): the window of
// Ridgeline's first frame (default scenario, 1600 x 1000) written the plain way, with plain Qt Widgets and QCustomPlot
// and no Ridgeline code: a QMainWindow with the same menus and about as many actions; a "Controls" QDockWidget holding
// a QScrollArea with the same group boxes, kinds and numbers of widgets and texts (preset combos with the same names,
// bold labels, QDoubleSpinBox / QSpinBox with the same ranges and suffixes, log-scale QSlider, collapsed sections as
// QToolButton over a hidden QGroupBox, efficiency buttons, SLO edit); a QTabWidget with the same seven tabs (only the
// first filled); in it five cards (QFrame, bold title QLabel, word-wrapped explanation QLabel, QCustomPlot with each
// floor's content from bench/floorplots.h, and the KV-share card's bar plot) and the numbers panel (a QScrollArea
// with a QGridLayout of QLabel pairs under bold section headings); the status bar's summary. The texts are the default
// scenario's as Ridgeline shows them; nothing is computed. Timed exactly as bench/oneplot_startup.cpp (process start,
// or RL_LAUNCH_REALTIME, to the end of the event-loop pass that painted, 2 ms quiet): scripts/startup-ratio.sh runs it.
// Built with the project, never run by CTest. Usage:
//   QT_QPA_PLATFORM=offscreen build/bench/window_startup      (or under xvfb-run with QT_QPA_PLATFORM=xcb)
// Prints "start-up to first painted window: N ms"; RL_DEBUG_STARTUP=1 prints the checkpoints oneplot_startup prints;
// RL_DEBUG_GRAB=FILE.png saves the window after its first paint (that is after the timing).

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEvent>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "floorplots.h" // bench/floorplots.h: the five floors' plots
#include "processage.h"   // bench/processage.h
#include "startupclock.h" // bench/startupclock.h: showAndTimeFirstPaint
#include "stepclock.h"    // bench/stepclock.h: PaintCounter

using namespace ridgeline::bench;

namespace {

QFont bold(QFont font)
{
    font.setBold(true);
    return font;
}

/** A bold label, a spin box with its unit and a slider under them, as one control of Ridgeline's panel. */
struct SliderRow {
    const char* label;
    const char* unit;
    double minimum, maximum, value;
    int decimals;
    bool logScale;
};

QWidget* sliderRow(const SliderRow& row, QWidget* parent)
{
    auto* box = new QWidget(parent);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 0, 0, 0);
    auto* name = new QLabel(QString::fromUtf8(row.label), box);
    name->setFont(bold(name->font()));
    auto* spin = new QDoubleSpinBox(box);
    spin->setRange(row.minimum, row.maximum);
    spin->setDecimals(row.decimals);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setValue(row.value);
    spin->setButtonSymbols(QAbstractSpinBox::UpDownArrows);
    auto* unit = new QLabel(QString::fromUtf8(row.unit), box);
    auto* slider = new QSlider(Qt::Horizontal, box);
    if (row.logScale) { // 50 positions a decade
        slider->setRange(0, int(std::lround(std::log10(row.maximum / row.minimum) * 50)));
        slider->setValue(int(std::lround(std::log10(row.value / row.minimum) * 50)));
    } else {
        slider->setRange(int(row.minimum), int(row.maximum));
        slider->setValue(int(row.value));
    }
    grid->addWidget(name, 0, 0);
    grid->addWidget(spin, 0, 1);
    grid->addWidget(unit, 0, 2);
    grid->addWidget(slider, 1, 0, 1, 3);
    grid->setColumnStretch(0, 1);
    QObject::connect(slider, &QSlider::valueChanged, spin, [spin, row](int position) {
        spin->setValue(row.logScale ? row.minimum * std::pow(10.0, position / 50.0) : position);
    });
    return box;
}

QDoubleSpinBox* figureSpin(const QString& suffix, int decimals, double minimum, double maximum, double value)
{
    auto* spin = new QDoubleSpinBox;
    spin->setRange(minimum, maximum);
    spin->setDecimals(decimals);
    spin->setSuffix(suffix);
    spin->setGroupSeparatorShown(true);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setValue(value);
    return spin;
}

QSpinBox* integerSpin(int minimum, int maximum, int value, const QString& suffix = QString())
{
    auto* spin = new QSpinBox;
    spin->setRange(minimum, maximum);
    spin->setSuffix(suffix);
    spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    spin->setValue(value);
    return spin;
}

/** A collapsed section: a tool button with an arrow over a hidden group of form rows. */
QWidget* collapsedSection(const QString& title, QGroupBox* fields)
{
    auto* container = new QWidget;
    auto* layout = new QVBoxLayout(container);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* toggle = new QToolButton;
    toggle->setText(title);
    toggle->setCheckable(true);
    toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toggle->setArrowType(Qt::RightArrow);
    toggle->setAutoRaise(true);
    layout->addWidget(toggle);
    layout->addWidget(fields);
    fields->setVisible(false);
    QObject::connect(toggle, &QToolButton::toggled, fields, [toggle, fields](bool open) {
        toggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        fields->setVisible(open);
    });
    return container;
}

QComboBox* dtypeCombo()
{
    auto* combo = new QComboBox;
    for (const char* item : {"fp32  (4 B)", "bf16  (2.00 B)", "fp16  (2.00 B)", "fp8  (1.00 B)", "int8  (1.00 B)",
                             "int4  (0.50 B)", "fp4  (0.50 B)"})
        combo->addItem(QString::fromUtf8(item));
    combo->setCurrentIndex(1);
    return combo;
}

QWidget* buildControls()
{
    auto* panel = new QWidget;
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->setSpacing(8);

    auto* modelBox = new QGroupBox(QStringLiteral("Model"));
    auto* model = new QVBoxLayout(modelBox);
    auto* modelPreset = new QComboBox;
    for (const char* name : {"Incident drill 13B (GQA-8)", "Llama 3.2 1B", "Llama 3.2 3B", "Llama 3.1 8B",
                             "Llama 3.1 70B", "Llama 3.1 405B", "Mixtral 8x7B", "DeepSeek-V3 (MLA, MoE)",
                             "Gemma 2 9B (sliding)", "Qwen2.5 3B", "Qwen3 30B-A3B (MoE)", "Custom (edited)"})
        modelPreset->addItem(QString::fromUtf8(name));
    modelPreset->setCurrentIndex(3);
    model->addWidget(modelPreset);
    model->addWidget(sliderRow({"Model size N", "B params", 0.5, 2000, 8.03, 2, true}, modelBox));
    auto* shape = new QLabel(QStringLiteral("L 32 \u00b7 d 4,096 \u00b7 H 32 \u00b7 h 128"));
    shape->setEnabled(false);
    model->addWidget(shape);
    model->addWidget(sliderRow({"KV heads H_kv", "of 32: GQA", 1, 32, 8, 0, false}, modelBox));
    auto* modelForm = new QFormLayout;
    modelForm->addRow(QStringLiteral("Weights"), dtypeCombo());
    modelForm->addRow(QStringLiteral("KV cache"), dtypeCombo());
    auto* attention = new QComboBox;
    attention->addItem(QStringLiteral("full P\u00d7P (seeds)"));
    attention->addItem(QStringLiteral("causal half"));
    modelForm->addRow(QStringLiteral("Attention"), attention);
    model->addLayout(modelForm);
    layout->addWidget(modelBox);

    auto* architecture = new QGroupBox;
    auto* architectureForm = new QFormLayout(architecture);
    architectureForm->addRow(QStringLiteral("Layers L"), integerSpin(1, 1000, 32));
    architectureForm->addRow(QStringLiteral("Hidden d"), integerSpin(1, 1 << 20, 4096));
    architectureForm->addRow(QStringLiteral("Query heads H"), integerSpin(1, 4096, 32));
    architectureForm->addRow(QStringLiteral("Head dim h"), integerSpin(1, 4096, 128));
    architectureForm->addRow(QStringLiteral("d_attn = H\u00b7h"), new QLabel(QStringLiteral("4,096")));
    layout->addWidget(collapsedSection(QStringLiteral("Architecture (L, d, H, h)"), architecture));

    auto* moe = new QGroupBox;
    auto* moeForm = new QFormLayout(moe);
    moeForm->addRow(QStringLiteral("Experts E"), integerSpin(0, 4096, 0));
    moeForm->addRow(QStringLiteral("Per token k"), integerSpin(0, 4096, 0));
    moeForm->addRow(QStringLiteral("Expert size"), figureSpin(QStringLiteral(" B params"), 3, 0, 1e5, 0));
    moeForm->addRow(QStringLiteral("N_active"), new QLabel(QStringLiteral("8.03 B params (dense)")));
    moeForm->addRow(QStringLiteral("KV latent r"), integerSpin(0, 1 << 16, 0));
    moeForm->addRow(QStringLiteral("RoPE dim d_r"), integerSpin(0, 4096, 0));
    moeForm->addRow(QStringLiteral("Window"), integerSpin(0, 1 << 24, 0, QStringLiteral(" tokens")));
    moeForm->addRow(QStringLiteral("Sliding layers"), integerSpin(0, 1000, 0));
    layout->addWidget(collapsedSection(QStringLiteral("MoE, MLA, sliding window"), moe));

    auto* workloadBox = new QGroupBox(QStringLiteral("Workload"));
    auto* workload = new QVBoxLayout(workloadBox);
    workload->addWidget(sliderRow({"Batch B", "sequences", 1, 1024, 1, 0, true}, workloadBox));
    workload->addWidget(sliderRow({"Context S", "tokens", 128, 1048576, 2048, 0, true}, workloadBox));
    workload->addWidget(sliderRow({"Prompt P", "tokens", 16, 1048576, 2048, 0, true}, workloadBox));
    layout->addWidget(workloadBox);

    auto* hardwareBox = new QGroupBox(QStringLiteral("Hardware"));
    auto* hardware = new QVBoxLayout(hardwareBox);
    auto* hardwarePreset = new QComboBox;
    for (const char* name :
         {"A100 40GB SXM", "A100 80GB SXM", "A100 80GB (drill, 2.0 TB/s)", "H100 SXM", "H100 PCIe", "H200", "H20",
          "B200 (HGX)", "GB200 (per GPU)", "B300 (HGX)", "GB300 (per GPU)", "L40S", "L4", "RTX 4090", "RTX 5090",
          "MI250X (both dies)", "MI300X", "MI325X", "MI355X", "TPU v5e", "TPU v5p", "TPU v6e (Trillium)",
          "TPU7x (Ironwood)", "Gaudi 3", "Apple M2 Ultra (FLOP/s estimated)", "Apple M4 Max (FLOP/s estimated)",
          "Custom (edited)"})
        hardwarePreset->addItem(QString::fromUtf8(name));
    hardwarePreset->setCurrentIndex(3);
    hardware->addWidget(hardwarePreset);
    hardware->addWidget(sliderRow({"HBM bandwidth", "TB/s", 0.1, 20, 3.35, 3, true}, hardwareBox));
    hardware->addWidget(sliderRow({"Peak bf16", "TFLOP/s", 10, 10000, 989.4, 1, true}, hardwareBox));
    auto* hardwareForm = new QFormLayout;
    hardwareForm->addRow(QStringLiteral("fp8 peak"), figureSpin(QStringLiteral(" TFLOP/s"), 1, 0, 1e5, 1978.9));
    hardwareForm->addRow(QStringLiteral("int8 peak"), figureSpin(QStringLiteral(" TOP/s"), 1, 0, 1e5, 1978.9));
    hardwareForm->addRow(QStringLiteral("GPUs (tensor parallel)"), integerSpin(1, 1024, 1));
    hardwareForm->addRow(QStringLiteral("Link bandwidth"), figureSpin(QStringLiteral(" GB/s"), 0, 0, 1e5, 450));
    hardwareForm->addRow(QStringLiteral("Link latency"), figureSpin(QStringLiteral(" \u00b5s"), 1, 0, 1e5, 5));
    auto* computeDtype = new QLabel(QStringLiteral("matmuls in bf16: 989.4 TFLOP/s"));
    computeDtype->setEnabled(false);
    hardwareForm->addRow(computeDtype);
    auto* price = figureSpin(QString(), 2, 0, 1e6, 0);
    price->setSpecialValueText(QStringLiteral("example"));
    hardwareForm->addRow(QStringLiteral("Price/GPU-hour"), price);
    hardwareForm->addRow(QStringLiteral("PUE"), figureSpin(QString(), 2, 0, 10, 1.2));
    hardware->addLayout(hardwareForm);
    layout->addWidget(hardwareBox);

    auto* efficiencyBox = new QGroupBox(QStringLiteral("Efficiency"));
    auto* efficiency = new QVBoxLayout(efficiencyBox);
    auto* efficiencyForm = new QFormLayout;
    efficiencyForm->addRow(QStringLiteral("\u03b7_bw (bandwidth)"), figureSpin(QString(), 2, 0.01, 1, 1));
    efficiencyForm->addRow(QStringLiteral("MFU prefill"), figureSpin(QString(), 2, 0.01, 1, 1));
    efficiencyForm->addRow(QStringLiteral("MFU decode"), figureSpin(QString(), 2, 0.01, 1, 1));
    efficiency->addLayout(efficiencyForm);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(new QPushButton(QStringLiteral("Floor (1.0)")));
    buttons->addWidget(new QPushButton(QStringLiteral("Planning (0.75 / 0.40)")));
    efficiency->addLayout(buttons);
    auto* measured = new QComboBox;
    measured->addItem(QStringLiteral("Measured\u2026"));
    for (const char* item : {"H100 SXM \u00b7 TensorRT-LLM in-flight batching (NIM)",
                             "H100 SXM \u00b7 TensorRT-LLM 0.9 static batch",
                             "A100 SXM \u00b7 TensorRT-LLM 0.9 static batch"})
        measured->addItem(QString::fromUtf8(item));
    efficiency->addWidget(measured);
    layout->addWidget(efficiencyBox);

    auto* sloBox = new QGroupBox(QStringLiteral("Service-level objectives"));
    auto* sloForm = new QFormLayout(sloBox);
    auto* itl = new QLineEdit(QStringLiteral("20, 40, 100"));
    itl->setPlaceholderText(QStringLiteral("e.g. 20, 40, 100"));
    sloForm->addRow(QStringLiteral("ITL SLOs (ms)"), itl);
    auto* itlError = new QLabel;
    itlError->setVisible(false);
    sloForm->addRow(QString(), itlError);
    sloForm->addRow(QStringLiteral("TTFT SLO"), figureSpin(QStringLiteral(" ms"), 0, 1, 1e7, 500));
    layout->addWidget(sloBox);
    layout->addStretch(1);
    return panel;
}

/** A card: a bold title, a word-wrapped explanation and what follows (a plot, or the numbers). */
QFrame* card(const QString& title, const QString& text, QWidget* parent, QVBoxLayout** contents)
{
    auto* frame = new QFrame(parent);
    frame->setFrameShape(QFrame::StyledPanel);
    frame->setAutoFillBackground(true);
    QPalette palette = frame->palette();
    palette.setColor(QPalette::Window, Qt::white);
    frame->setPalette(palette);
    auto* layout = new QVBoxLayout(frame);
    layout->setContentsMargins(8, 6, 8, 6);
    layout->setSpacing(2);
    auto* heading = new QLabel(title, frame);
    QFont headingFont = bold(heading->font());
    headingFont.setPointSizeF(headingFont.pointSizeF() * 1.15);
    heading->setFont(headingFont);
    layout->addWidget(heading);
    if (!text.isEmpty()) {
        auto* explanation = new QLabel(text, frame);
        explanation->setWordWrap(true);
        layout->addWidget(explanation);
    }
    *contents = layout;
    return frame;
}

/** The numbers panel: sections of label / value pairs in a grid, in a scroll area. */
QWidget* buildNumbers(QWidget* parent)
{
    struct Row {
        const char* section; // a heading before the row when not null
        const char* name;
        const char* value;
        bool shown;
    };
    static const Row rows[] = {
        {"Model", "Parameters", "8.03 B (dense)", true},
        {nullptr, "Resident weights", "16.1 GB", true},
        {nullptr, "Weights read/step", "15.0 GB", true},
        {nullptr, "KV per token", "128 KiB/token", true},
        {nullptr, "KV/token per GPU", "128 KiB/token", false},
        {nullptr, "Experts read at B", "", false},
        {"Decode at (B, S)", "Batch-1 floor", "4.48 ms \u00b7 223 tok/s", true},
        {nullptr, "All-experts floor", "", false},
        {nullptr, "t_step", "4.56 ms (memory-bound)", true},
        {nullptr, "All-reduce/step", "", false},
        {nullptr, "Read per step R", "15.3 GB", true},
        {nullptr, "KV share of read", "1.8 %", true},
        {nullptr, "Per-user speed", "219 tok/s", true},
        {nullptr, "Throughput (total)", "219 tok/s", true},
        {nullptr, "t_step(B) as a line", "t_step(B) = a + b\u00b7B = 4.481 + 0.08013\u00b71 = 4.56 ms at B = 1", true},
        {"Roofline", "Ridge point I*", "295 FLOP/byte", true},
        {nullptr, "Matmul peak", "bf16: 989.4 TFLOP/s", true},
        {nullptr, "Decode intensity", "1.12 FLOP/byte", true},
        {nullptr, "Compute-bound from", "never at this S", true},
        {"ITL SLO", "Largest batch",
         "20 ms: B \u2264 193\n40 ms: B \u2264 208, memory binds (SLO alone 443)\n"
         "100 ms: B \u2264 208, memory binds (SLO alone 1,192)", true},
        {"Prefill of P tokens", "Prefill work", "35.1 TFLOP (attention 6.3 %)", true},
        {nullptr, "Prefill time", "35.5 ms (compute-bound), meets TTFT 500 ms", true},
        {nullptr, "Crossover P*", "30,633 tokens", true},
        {nullptr, "Compute-bound from", "P \u2248 274", true},
        {nullptr, "Attention share", "6.3 %", true},
        {nullptr, "KV written", "0.25 GiB", true},
        {nullptr, "Score matrix/head", "8.0 MiB", true},
        {nullptr, "Logits, all P", "1.0 GiB", true},
        {"Capacity (per GPU)", "KV budget/GPU", "55.9 GB", true},
        {nullptr, "Cache at (B, S)", "0.27 GB of 55.9 GB: fits", true},
        {nullptr, "Max sequences", "213", true},
        {"Cost and energy at (B, S)", "Price/GPU-hour", "$2.50 (example)", true},
        {nullptr, "Per 1M out tok", "$3.17", true},
        {nullptr, "Energy/output tok", "3.2 J", true},
        {nullptr, "Output tok/s per MW", "310,000", true},
        {"Cost and energy per request (P, O)", "Per 1M out tok, decode", "$3.17", true},
        {nullptr, "Per 1M out tok, all-in", "$3.21", true},
        {nullptr, "Per 1M input tok", "$0.012", true},
        {nullptr, "Energy/output tok", "3.2 J", true},
        {nullptr, "Output tok/s per MW", "310,000", true},
    };
    auto* scroll = new QScrollArea(parent);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* table = new QWidget;
    auto* grid = new QGridLayout(table);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(2);
    int line = 0;
    for (const Row& row : rows) {
        if (row.section) {
            auto* heading = new QLabel(QString::fromUtf8(row.section), table);
            heading->setFont(bold(heading->font()));
            grid->addWidget(heading, line++, 0, 1, 2);
        }
        auto* name = new QLabel(QString::fromUtf8(row.name), table);
        auto* value = new QLabel(QString::fromUtf8(row.value), table);
        value->setFont(bold(value->font()));
        value->setWordWrap(true);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        name->setVisible(row.shown);
        value->setVisible(row.shown);
        grid->addWidget(name, line, 0, Qt::AlignTop);
        grid->addWidget(value, line++, 1);
    }
    grid->setColumnStretch(1, 1);
    grid->setRowStretch(line, 1);
    scroll->setWidget(table);
    return scroll;
}

} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer clock;
    clock.start();
    const double ageAtMain = processAgeSeconds();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const double appMs = double(clock.nsecsElapsed()) / 1e6;

    // --without PART (repeatable; controls, plots, numbers, menus): the window without that part, to see what each
    // part costs (not for scripts/startup-ratio.sh, which runs the whole window).
    QStringList without;
    const QStringList args = QCoreApplication::arguments();
    for (int i = 1; i < args.size(); ++i) {
        if (args[i] == QLatin1String("--without") && i + 1 < args.size()) {
            without.append(args[++i]);
        } else {
            std::fprintf(stderr, "usage: window_startup [--without controls|plots|numbers|menus]...\n");
            return 2;
        }
    }

    QMainWindow window;
    window.setWindowTitle(QStringLiteral("Ridgeline \u2014 LLM serving cost explorer"));
    const QStringList tabNames{QStringLiteral("Floors"), QStringLiteral("Capacity && SLOs"),
                               QStringLiteral("Workload, prefix cache, speculative"), QStringLiteral("Incident triage"),
                               QStringLiteral("Simulation"), QStringLiteral("Calibration"), QStringLiteral("Plan")};

    // Menus: as many actions as Ridgeline's, in the same menus.
    QAction* controlsAction = nullptr;
    QAction* numbersAction = nullptr;
    if (!without.contains(QLatin1String("menus"))) {
        QMenu* file = window.menuBar()->addMenu(QStringLiteral("&File"));
        file->addAction(QStringLiteral("&New"))->setShortcut(QKeySequence::New);
        file->addAction(QStringLiteral("&Open\u2026"))->setShortcut(QKeySequence::Open);
        file->addMenu(QStringLiteral("Open &Recent"))->addAction(QStringLiteral("(none)"))->setEnabled(false);
        QMenu* examples = file->addMenu(QStringLiteral("Open &Example"));
        for (const char* example : {"Llama 3.1 8B on H100", "Incident drill: 13B on A100",
                                    "Crossover reference: 70B on H100", "Crossover reference: 405B on H100"})
            examples->addAction(QString::fromUtf8(example));
        file->addAction(QStringLiteral("&Save"))->setShortcut(QKeySequence::Save);
        file->addAction(QStringLiteral("Save &As\u2026"))->setShortcut(QKeySequence::SaveAs);
        file->addSeparator();
        file->addAction(QStringLiteral("&Export plots, data and summary\u2026"));
        file->addAction(QStringLiteral("&Import model config\u2026"))->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
        file->addAction(QStringLiteral("&Save model to my catalogue\u2026"));
        file->addSeparator();
        file->addAction(QStringLiteral("&Quit"), &window, &QWidget::close)->setShortcut(QKeySequence::Quit);
        QMenu* edit = window.menuBar()->addMenu(QStringLiteral("&Edit"));
        edit->addAction(QStringLiteral("&Undo"))->setShortcut(QKeySequence::Undo);
        edit->addAction(QStringLiteral("&Redo"))->setShortcut(QKeySequence::Redo);
        edit->addSeparator();
        edit->addAction(QStringLiteral("Copy &summary (Markdown)"));
        edit->addSeparator();
        edit->addAction(QStringLiteral("&Pin as baseline A"));
        edit->addAction(QStringLiteral("Pin as &next scenario (B, C, \u2026)"));
        edit->addMenu(QStringLiteral("&Unpin"))->setEnabled(false);
        edit->addAction(QStringLiteral("C&lear baseline"));
        QMenu* view = window.menuBar()->addMenu(QStringLiteral("&View"));
        controlsAction = view->addAction(QStringLiteral("&Controls"));
        numbersAction = view->addAction(QStringLiteral("&Numbers panel"));
        numbersAction->setCheckable(true);
        numbersAction->setChecked(true);
        QMenu* whatIfs = view->addMenu(QStringLiteral("&What-ifs"));
        for (const QString& name : tabNames)
            whatIfs->addAction(name);
        view->addSeparator();
        view->addAction(QStringLiteral("&Presentation mode"))->setCheckable(true);
        view->addAction(QStringLiteral("&Explain the plots"))->setCheckable(true);
        view->addAction(QStringLiteral("Numbers as &A / B"))->setCheckable(true);
        QMenu* hardwareMenu = window.menuBar()->addMenu(QStringLiteral("&Hardware"));
        hardwareMenu->addAction(QStringLiteral("&Add device\u2026"));
        hardwareMenu->addAction(QStringLiteral("&Edit device\u2026"));
        hardwareMenu->addAction(QStringLiteral("&Remove device"));
        QMenu* help = window.menuBar()->addMenu(QStringLiteral("&Help"));
        help->addAction(QStringLiteral("&Glossary: TTFT, TPOT, ITL, E2E, goodput"));
        help->addAction(QStringLiteral("&Hardware catalogue"));
        help->addAction(QStringLiteral("&About Ridgeline"));
        help->addAction(QStringLiteral("About &Qt"), &app, &QApplication::aboutQt);
    }

    // Centre: the seven tabs, the first a 3 x 2 grid of five plot cards and the numbers.
    auto* central = new QWidget(&window);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(8, 8, 8, 8);
    auto* tabs = new QTabWidget(central);
    auto* floors = new QWidget;
    auto* grid = new QGridLayout(floors);
    grid->setSpacing(8);
    tabs->addTab(floors, tabNames[0]);
    for (int tab = 1; tab < tabNames.size(); ++tab)
        tabs->addTab(new QWidget, tabNames[tab]);
    centralLayout->addWidget(tabs);

    const QString titles[] = {QStringLiteral("Decode floor"), QStringLiteral("Roofline"),
                              QStringLiteral("KV share of the decode read"), QStringLiteral("Prefill crossover"),
                              QStringLiteral("t_step(B) against ITL SLO lines")};
    const QString texts[] = {
        QStringLiteral("Floor W_read/BW = 4.48 ms/token at B = 1 (223 tok/s; the input table's unread rows left out); "
                       "never compute-bound at S = 2,048. At B = 1: t_step 4.56 ms (memory-bound), 219 tok/s total."),
        QStringLiteral("Ridge I* = 295 FLOP/byte. Decode (B = 1, S = 2,048) at 1.12 FLOP/byte reaches 3.76 TFLOP/s "
                       "(0.38 % of peak), memory-bound; prefill (P = 2,048) at 2,294 FLOP/byte is compute-bound."),
        QStringLiteral("KV cache is 1.8 % of the decode read at B = 1, S = 2,048 (0.268 GB of 15.3 GB); the cache "
                       "outweighs the weights from S \u2248 115,000."),
        QStringLiteral("P* = 30,633 tokens (as Llama 3.1 8B). At P = 2,048: 35.1 TFLOP, attention 6.3 % of it, "
                       "35.5 ms compute-bound; compute-bound from P \u2248 274."),
        QStringLiteral("t_step(B) = a + b\u00b7B = 4.481 + 0.08013\u00b71 = 4.56 ms at B = 1. ITL 20 ms: B \u2264 193; "
                       "40 ms: B \u2264 208, memory binds (the SLO alone allows 443); 100 ms: B \u2264 208, "
                       "memory binds (the SLO alone allows 1,192)."),
    };
    PaintCounter counter;
    for (int i = 0; i < 5; ++i) {
        QVBoxLayout* contents = nullptr;
        QFrame* frame = card(titles[i], texts[i], floors, &contents);
        if (without.contains(QLatin1String("plots"))) {
            contents->addStretch(1);
            grid->addWidget(frame, i / 3, i % 3);
            continue;
        }
        if (i == 2) { // the KV-share card's bar: weights and KV cache, GB
            auto* bars = new QCustomPlot(frame);
            bars->setFixedHeight(90);
            bars->yAxis->setVisible(false);
            bars->xAxis->setRange(0, 20);
            bars->xAxis->setLabel(QString());
            auto* weights = new QCPBars(bars->yAxis, bars->xAxis);
            weights->setName(QStringLiteral("Weights"));
            weights->setBrush(QColor(31, 119, 180));
            weights->setData(QVector<double>{1}, QVector<double>{15.0});
            auto* kv = new QCPBars(bars->yAxis, bars->xAxis);
            kv->setName(QStringLiteral("KV cache"));
            kv->setBrush(QColor(148, 103, 189));
            kv->setData(QVector<double>{1}, QVector<double>{0.27});
            kv->moveAbove(weights);
            bars->yAxis->setRange(0.5, 1.5);
            bars->legend->setVisible(true); // above the bar, in one row, as Ridgeline's
            bars->legend->setFillOrder(QCPLegend::foColumnsFirst);
            bars->legend->setBorderPen(Qt::NoPen);
            bars->plotLayout()->insertRow(0);
            bars->plotLayout()->addElement(0, 0, bars->legend);
            bars->plotLayout()->setRowStretchFactor(0, 0.001);
            bars->legend->setMinimumSize(0, 24);
            contents->addWidget(bars);
            bars->installEventFilter(&counter);
        }
        DashboardPlot plot = makePlot(frame, i, true, 2, true);
        plot.update(8.03);
        contents->addWidget(plot.plot, 1);
        plot.plot->installEventFilter(&counter);
        grid->addWidget(frame, i / 3, i % 3);
    }
    if (!without.contains(QLatin1String("numbers"))) {
        QVBoxLayout* numbersContents = nullptr;
        QFrame* numbers = card(QStringLiteral("Numbers"), QStringLiteral("Hover a figure for its formula."), floors,
                               &numbersContents);
        numbersContents->addWidget(buildNumbers(numbers), 1);
        grid->addWidget(numbers, 1, 2);
        if (numbersAction)
            QObject::connect(numbersAction, &QAction::toggled, numbers, &QWidget::setVisible);
    }
    for (int column = 0; column < 3; ++column)
        grid->setColumnStretch(column, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);
    window.setCentralWidget(central);

    // Left dock: the controls in a scroll area.
    if (!without.contains(QLatin1String("controls"))) {
        QWidget* controls = buildControls();
        auto* scroll = new QScrollArea;
        scroll->setWidget(controls);
        scroll->setWidgetResizable(true);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setMinimumWidth(controls->sizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 4);
        auto* dock = new QDockWidget(QStringLiteral("Controls"), &window);
        dock->setWidget(scroll);
        window.addDockWidget(Qt::LeftDockWidgetArea, dock);
        if (controlsAction)
            QObject::connect(controlsAction, &QAction::triggered, dock, &QWidget::show);
    }

    auto* summary =
        new QLabel(QStringLiteral("Llama 3.1 8B on H100 SXM \u00b7 B = 1 \u00b7 S = 2,048 \u00b7 P = 2,048"));
    window.statusBar()->addPermanentWidget(summary);
    window.resize(1600, 1000);
    window.installEventFilter(&counter);

    // Shown and timed exactly as bench/oneplot_startup.cpp (bench/startupclock.h).
    const bool painted = ridgeline::bench::showAndTimeFirstPaint(window, counter, clock, ageAtMain, appMs);
    // RL_DEBUG_GRAB=FILE.png: the window as first painted, to compare with Ridgeline's (after the timing).
    if (const QString grabPath = qEnvironmentVariable("RL_DEBUG_GRAB"); !grabPath.isEmpty())
        window.grab().save(grabPath);
    std::fflush(stdout);
    // Without the window's teardown, as `ridgeline_bench --startup-only` (the one-plot app's is small): CPU time and
    // instructions of the whole process are then start-up's.
    std::_Exit(painted ? 0 : 1);
}
