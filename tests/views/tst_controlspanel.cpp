// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 16: the controls are bound through the scenario key table (model::scenarioKeys(), the `--set` keys).
//  - every slider and spin box of the controls panel is declared by a key that exists in the table;
//  - moving each one with the keyboard (the real widget, QTest) changes exactly that key, plus only the keys its
//    documented rule touches (the preset name it marks "(edited)", the MoE rule's N and N_active, the family rule);
//  - the control then shows the key's value in its own unit (TB/s for the B/s of hardware.bandwidth).
#include <algorithm>
#include <charconv>
#include <set>

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QFontMetrics>
#include <QHash>
#include <QLineEdit>
#include <QPaintEvent>
#include <QScreen>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtTest>

#include "document/scenariodocument.h"
#include "document/scenariohistory.h"
#include "document/usercatalogue.h"
#include "model/cost/presets.h"
#include "model/cost/scenario.h"
#include "model/cost/scenariokeys.h"
#include "views/controls/controlspanel.h"
#include "views/kit/groundfill.h"
#include "views/kit/inlineblend.h"
#include "views/kit/onelinelabel.h"
#include "views/kit/valueslider.h"

using namespace ridgeline;
using ridgeline::views::KeyBinding;

namespace {

/** Llama 3.1 8B with every optional feature on, so that every control is enabled (MoE, MLA, sliding window, T = 2). */
model::Scenario everythingOn()
{
    model::Scenario s = model::defaultScenario();
    s.model.experts = 8;
    s.model.expertsPerToken = 2;
    s.model.expertParams = 0.7e9;
    s.model.kvLoraRank = 512;
    s.model.ropeHeadDim = 64;
    s.model.slidingWindow = 4096;
    s.model.slidingLayers = 16;
    s.hardware.gpus = 2;
    s.efficiency.bandwidth = 0.75;
    return s;
}

bool inTable(const std::string& key)
{
    const auto& keys = model::scenarioKeys();
    return std::any_of(keys.begin(), keys.end(), [&](const model::KeyInfo& k) { return k.key == key; });
}

double keyValue(const model::Scenario& s, const std::string& key)
{
    const std::string text = model::getKey(s, key);
    double value = 0;
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

/** The widget a person moves: a ValueSlider's slider, else the spin box itself. */
QWidget* handle(QWidget* control)
{
    if (auto* slider = qobject_cast<views::ValueSlider*>(control))
        return slider->slider();
    return control;
}

double shownValue(QWidget* control)
{
    if (auto* slider = qobject_cast<views::ValueSlider*>(control))
        return slider->value();
    if (auto* spin = qobject_cast<QSpinBox*>(control))
        return spin->value();
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(control))
        return spin->value();
    return qQNaN();
}

} // namespace

class TestControlsPanel final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    /** An empty user catalogue given to a panel whose combos list no entry of the user's leaves the combos as the
     *  constructor filled them (issue 16, fifteenth stop: the window's start-up filled them twice); a catalogue with
     *  a device fills them again, and that device is listed "(yours)". */
    void emptyCatalogueLeavesThePresetCombos()
    {
        QDir(views::UserCatalogue::directory()).removeRecursively();
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        auto* hardware = panel.findChild<QComboBox*>(QStringLiteral("hardwarePresetCombo"));
        auto* models = panel.findChild<QComboBox*>(QStringLiteral("modelPresetCombo"));
        QVERIFY(hardware && models);
        const int hardwareItems = hardware->count();
        const int hardwareIndex = hardware->currentIndex();
        const int modelIndex = models->currentIndex();
        int resets = 0; // items removed or inserted (QComboBox::clear() removes the rows; no model reset)
        for (QComboBox* combo : {hardware, models}) {
            connect(combo->model(), &QAbstractItemModel::rowsRemoved, this, [&resets] { ++resets; });
            connect(combo->model(), &QAbstractItemModel::rowsInserted, this, [&resets] { ++resets; });
            connect(combo->model(), &QAbstractItemModel::modelReset, this, [&resets] { ++resets; });
        }
        views::UserCatalogue empty;
        QVERIFY(empty.devices().empty() && empty.models().empty());
        panel.setUserCatalogue(&empty);
        QCOMPARE(resets, 0);
        QCOMPARE(hardware->count(), hardwareItems);
        QCOMPARE(hardware->currentIndex(), hardwareIndex);
        QCOMPARE(models->currentIndex(), modelIndex);
        // A device saved to it: the combos follow (changed()), with the device after the built-in ones.
        model::HardwarePreset mine = model::hardwarePresets().front();
        mine.hardware.name = "My test accelerator";
        QCOMPARE(empty.saveDevice(mine), QString());
        QVERIFY(resets > 0);
        QCOMPARE(hardware->count(), hardwareItems + 1);
        QVERIFY(hardware->itemText(hardwareItems - 1).contains(QStringLiteral("My test accelerator")));
        // Given to a fresh panel, a catalogue with entries fills its combos again.
        views::ControlsPanel second(&document);
        auto* secondHardware = second.findChild<QComboBox*>(QStringLiteral("hardwarePresetCombo"));
        QCOMPARE(secondHardware->count(), hardwareItems);
        second.setUserCatalogue(&empty);
        QCOMPARE(secondHardware->count(), hardwareItems + 1);
        // Taken away again: built-in presets only.
        second.setUserCatalogue(nullptr);
        QCOMPARE(secondHardware->count(), hardwareItems);
        QDir(views::UserCatalogue::directory()).removeRecursively();
    }
    /** A preset moved away from is named in its combo as the status line names it ("Llama 3.1 8B (edited)",
     *  document::shownNames()); a name no preset carries is shown as it is; choosing the preset again clears it. */
    void presetCombosNameAnEditedPreset()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        auto* hardware = panel.findChild<QComboBox*>(QStringLiteral("hardwarePresetCombo"));
        auto* models = panel.findChild<QComboBox*>(QStringLiteral("modelPresetCombo"));
        QVERIFY(hardware && models);
        const QString modelName = QString::fromStdString(document.scenario().model.name);
        const QString hardwareName = QString::fromStdString(document.scenario().hardware.name);
        QCOMPARE(models->currentText(), modelName);
        document.edit([](model::Scenario& s) { s.model.params = 400e9; });
        QCOMPARE(models->currentIndex(), models->count() - 1);
        QCOMPARE(models->currentText(), modelName + QStringLiteral(" (edited)"));
        QCOMPARE(hardware->currentText(), hardwareName);
        document.edit([](model::Scenario& s) { s.hardware.bandwidthBytesPerSecond *= 0.5; });
        QCOMPARE(hardware->currentText(), hardwareName + QStringLiteral(" (edited)"));
        document.edit([](model::Scenario& s) { s.model.name = "My imported model"; });
        QCOMPARE(models->currentText(), QStringLiteral("My imported model"));
        document.edit([](model::Scenario& s) { s.model.name.clear(); });
        QCOMPARE(models->currentText(), QStringLiteral("Custom (edited)"));
        // The preset chosen again: its own entry, and the last entry is no longer shown.
        models->setFocus();
        QTest::keyClick(models, Qt::Key_Home);
        QCOMPARE(models->currentIndex(), 0);
        QCOMPARE(models->currentText(), QString::fromStdString(model::modelPresets().front().shape.name));
    }
    // The model-size note's line (OneLineLabel) is shaped once per text, width and font and drawn from that layout:
    // the picture of QFontMetrics::elidedText() and QStyle::drawItemText(), byte for byte, at widths around the text's
    // own (elided or not), alignments, heights that clip it, the warning's bold font; and a repaint of the same text
    // lays nothing out (issue 16, twenty-second stop in docs/performance.md).
    void oneLineLabelDrawsAsDrawItemText()
    {
        QWidget window;
        auto* label = new views::OneLineLabel(0, &window);
        auto picture = [label](bool own) {
            views::OneLineLabel::setEnabled(own);
            const QImage image = label->grab().toImage();
            views::OneLineLabel::setEnabled(true);
            return image;
        };
        const QStringList texts{QStringLiteral("L 80 \u00b7 d 8,192 \u00b7 H 64 \u00b7 h 128"),
                                QStringLiteral("H_kv 8 does not divide H = 28: 7 KV heads here"),
                                QStringLiteral("AVAWAY Tj fi ffl \u00e9"), QStringLiteral("x")};
        const std::vector<Qt::Alignment> alignments{Qt::AlignLeft | Qt::AlignVCenter, Qt::AlignRight | Qt::AlignVCenter,
                                                    Qt::AlignHCenter | Qt::AlignTop, Qt::AlignLeft | Qt::AlignBottom};
        int drawn = 0;
        int elided = 0;
        for (const bool bold : {false, true}) {
            QFont font = label->font();
            font.setBold(bold);
            label->setFont(font);
            const QFontMetrics metrics(label->font());
            for (const QString& text : texts) {
                label->setText(text);
                const int advancePx = metrics.horizontalAdvance(text);
                std::vector<int> widthsPx{1, 12, advancePx + 40};
                for (int d = -3; d <= 3; ++d)
                    widthsPx.push_back(std::max(1, advancePx + d));
                for (const Qt::Alignment alignment : alignments) {
                    label->setAlignment(alignment);
                    for (const int heightPx : {metrics.height(), metrics.height() + 7, std::max(1, metrics.height() - 5)}) {
                        for (const int widthPx : widthsPx) {
                            label->resize(widthPx, heightPx);
                            const long long draws = label->layoutDraws();
                            const QImage own = picture(true);
                            const QImage reference = picture(false);
                            const QString where = QStringLiteral("%1 at %2 x %3, alignment %4, bold %5")
                                                      .arg(text)
                                                      .arg(widthPx)
                                                      .arg(heightPx)
                                                      .arg(int(alignment))
                                                      .arg(bold);
                            QVERIFY2(label->layoutDraws() > draws || label->shownText().isEmpty(), qPrintable(where));
                            QVERIFY2(own == reference, qPrintable(where));
                            drawn += label->layoutDraws() > draws ? 1 : 0;
                            elided += label->shownText() != text ? 1 : 0;
                        }
                    }
                }
            }
        }
        QVERIFY(drawn > 700);
        QVERIFY(elided > 100);

        // A repaint of the same text at the same width lays nothing out; a new text or width lays it out once.
        label->setAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->resize(400, QFontMetrics(label->font()).height());
        label->setText(texts.at(0));
        (void)picture(true);
        const long long layouts = label->layouts();
        (void)picture(true);
        (void)picture(true);
        QCOMPARE(label->layouts(), layouts);
        label->setText(texts.at(1));
        (void)picture(true);
        (void)picture(true);
        QCOMPARE(label->layouts(), layouts + 1);
        label->resize(401, label->height());
        (void)picture(true);
        QCOMPARE(label->layouts(), layouts + 2);
    }

    /** A batch edit repaints no double spin box whose value it leaves as shown (issue 16, tenth stop: the link latency,
     *  2 us read back as 2e-6 s / 1e-6 = 2.0000000000000004, was set again and repainted, its group box behind it too,
     *  on every slider step). */
    void batchStepRepaintsNoUnchangedSpinBox()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        panel.resize(360, 1400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        struct PaintCount final : QObject {
            QHash<QObject*, int> paints;
            bool eventFilter(QObject* watched, QEvent* event) override
            {
                if (event->type() == QEvent::Paint)
                    ++paints[watched];
                return false;
            }
        } counter;
        const QList<QDoubleSpinBox*> spins = panel.findChildren<QDoubleSpinBox*>();
        QVERIFY(spins.size() >= 5);
        QDoubleSpinBox* latency = panel.findChild<QDoubleSpinBox*>(QStringLiteral("linkLatencySpinBox"));
        QVERIFY(latency);
        QCoreApplication::processEvents();
        for (QDoubleSpinBox* spin : spins)
            spin->installEventFilter(&counter);
        for (int batch : {2, 3, 5, 8}) {
            document.edit([batch](model::Scenario& s) { s.workload.batch = batch; });
            document.evaluateNow();
            QCoreApplication::processEvents();
        }
        for (QDoubleSpinBox* spin : spins) // all but the batch slider's own box, which shows each new batch
            if (spin->objectName() != QLatin1String("batchSpinBox"))
                QVERIFY2(counter.paints.value(spin) == 0, qPrintable(spin->objectName()));
        // A change the box shows still reaches it.
        document.edit([](model::Scenario& s) { s.hardware.linkLatencySeconds = 7e-6; });
        document.evaluateNow();
        QCOMPARE(latency->value(), 7.0);
    }
    /** Issue 16, thirty-first stop: the panel's group boxes draw their frame (Fusion's stretched pixmap, a blend as
     *  tall as the part of the box repainted, 96 rows or more under a model-size step's changed labels) in strips of
     *  rows (views/kit/inlineblend.h), so each blend runs on the GUI thread, not on the raster engine's thread pool:
     *  the same pixels as one draw. */
    void groupBoxFramesBlendInStrips()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        panel.resize(360, 1400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        int titled = 0;
        for (QGroupBox* box : panel.findChildren<QGroupBox*>())
            if (!box->title().isEmpty()) {
                QVERIFY2(box->style() == views::InlineBlend::groupBoxStyle(), qPrintable(box->title()));
                ++titled;
            }
        QVERIFY(titled >= 4);
        const long long before = views::InlineBlend::strips();
        views::InlineBlend::resetTallest();
        const QImage inStrips = panel.grab().toImage();
        const long long strips = views::InlineBlend::strips() - before;
        views::InlineBlend::setEnabled(false);
        const QImage whole = panel.grab().toImage();
        views::InlineBlend::setEnabled(true);
        QVERIFY2(strips >= titled, qPrintable(QString::number(strips)));
        QVERIFY(views::InlineBlend::tallestStripRows() <= views::InlineBlend::kInlineSpans); // one span a row
        QVERIFY(inStrips == whole);
        // A repaint of part of a box inside the window (a changed child's rows: the strips cover only the rows the
        // window repaints, found from the paint's region in the window's pixels), read from the window.
        QGroupBox* model = nullptr;
        for (QGroupBox* box : panel.findChildren<QGroupBox*>())
            if (box->title() == QLatin1String("Model"))
                model = box;
        QVERIFY(model && model->height() > 160 && model->mapTo(&panel, QPoint(0, 0)).y() > 0);
        auto repainted = [&](bool on) {
            views::InlineBlend::setEnabled(on);
            panel.repaint(); // the whole window first, the same either way
            model->repaint(QRegion(QRect(0, 23, model->width(), 131)) + QRect(5, 157, 40, 3));
            views::InlineBlend::setEnabled(true);
            return panel.screen()->grabWindow(panel.winId()).toImage(); // (offscreen: the backing store's pixels)
        };
        const long long stripsBefore = views::InlineBlend::strips();
        const QImage part = repainted(true);
        const long long partStrips = views::InlineBlend::strips() - stripsBefore;
        const QImage partWhole = repainted(false);
        QVERIFY(!part.isNull());
        QVERIFY(part == partWhole);
        QVERIFY2(partStrips >= 2, qPrintable(QString::number(partStrips)));
    }
    /** Fusion's scroll bars drawn through InlineBlend::scrollBarStyle() in strip images (issue 16, thirty-third stop,
     *  docs/performance.md): a tall bar is drawn in strips of at most kScrollBarStripRows rows, so no blend is handed
     *  to the raster engine's thread pool, and its pixels are a plain QScrollBar's drawn by Fusion without the proxy,
     *  in a grab (a pixmap) and in the window (the backing store): short and tall bars, the slider at either end and
     *  in the middle, enabled and disabled, vertical and horizontal. */
    void scrollBarsInStripsAreFusionsPixels()
    {
        QWidget window;
        window.resize(1400, 720);
        auto* plain = new QScrollBar(&window);
        auto* inStrips = new QScrollBar(&window);
        inStrips->setStyle(views::InlineBlend::scrollBarStyle());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        int cases = 0;
        for (const Qt::Orientation orientation : {Qt::Vertical, Qt::Horizontal})
            for (const int length : {20, 47, 48, 96, 301, 677})
                for (const int value : {0, 37, 100})
                    for (const bool enabled : {true, false}) {
                        const QSize size = orientation == Qt::Vertical ? QSize(16, length) : QSize(length, 16);
                        for (QScrollBar* bar : {plain, inStrips}) {
                            bar->setOrientation(orientation);
                            bar->setGeometry(QRect(QPoint(bar == plain ? 5 : 700, 10 + value % 7), size));
                            bar->setRange(0, 100);
                            bar->setPageStep(30);
                            bar->setValue(value);
                            bar->setEnabled(enabled);
                            bar->setAttribute(Qt::WA_UnderMouse, false); // no part hovered (a bar keeps the last one)
                            QHoverEvent leave(QEvent::HoverLeave, QPointF(-1, -1), QPointF(-1, -1), QPointF(-1, -1));
                            QCoreApplication::sendEvent(bar, &leave);
                        }
                        const long long before = views::InlineBlend::scrollBarStrips();
                        views::InlineBlend::resetTallest();
                        const QImage grabbed = inStrips->grab().toImage();
                        const long long strips = views::InlineBlend::scrollBarStrips() - before;
                        const QString what = QStringLiteral("%1 x %2, value %3, %4")
                                                 .arg(size.width())
                                                 .arg(size.height())
                                                 .arg(value)
                                                 .arg(QLatin1String(enabled ? "enabled" : "disabled"));
                        QVERIFY2(grabbed == plain->grab().toImage(), qPrintable(what));
                        if (size.height() > views::InlineBlend::kScrollBarStripRows)
                            QVERIFY2(strips >= (size.height() + views::InlineBlend::kScrollBarStripRows - 1)
                                                  / views::InlineBlend::kScrollBarStripRows,
                                     qPrintable(what + QStringLiteral(": %1 strips").arg(strips)));
                        else
                            QCOMPARE(strips, 0);
                        QVERIFY(views::InlineBlend::tallestStripRows() <= views::InlineBlend::kScrollBarStripRows);
                        // In the window: the backing store's pixels (offscreen), each bar painted whole.
                        plain->repaint();
                        inStrips->repaint();
                        const QImage shown = window.screen()->grabWindow(window.winId()).toImage();
                        QVERIFY2(!shown.isNull() && shown.copy(inStrips->geometry()) == shown.copy(plain->geometry()),
                                 qPrintable(what));
                        ++cases;
                    }
        QCOMPARE(cases, 72);
    }
    /** A model-size step repaints the Model box's changed children, each filling its rect with the box's inside, and
     *  not the box or the panel under them (issue 16, thirty-second stop): the first step after start-up paints the
     *  box (and measures it), the next ones do not. The window then shows what a whole repaint without the fills
     *  shows, and each fill is the colour the box and panel paint under its child, read back from the window. */
    void modelSizeStepLeavesTheGroupBoxUnpainted()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        panel.resize(360, 1400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        // Active (the sliders' ticks take the active palette's colours), then settled.
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        auto settle = [] {
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
        };
        settle();
        QGroupBox* box = nullptr;
        for (QGroupBox* candidate : panel.findChildren<QGroupBox*>())
            if (candidate->title() == QLatin1String("Model"))
                box = candidate;
        QVERIFY(box);
        auto* fill = box->findChild<views::GroundFill*>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(fill);
        struct PaintCount final : QObject {
            int paints = 0;
            bool eventFilter(QObject*, QEvent* event) override
            {
                paints += event->type() == QEvent::Paint;
                return false;
            }
        } boxPaints, panelPaints;
        box->installEventFilter(&boxPaints);
        panel.installEventFilter(&panelPaints);
        auto* slider = panel.findChild<QSlider*>(QStringLiteral("modelSizeSlider"));
        QVERIFY(slider);
        const int step = std::max(1, (slider->maximum() - slider->minimum()) / 24);
        // The first step: the box is painted under its changed children, which are then measured and filled.
        slider->setSliderPosition(slider->minimum() + 3 * step);
        settle();
        QVERIFY(boxPaints.paints > 0);
        // The children a model-size step changes: the preset combo (the custom entry's name), the size control, the
        // note under it, the KV-heads control (its range and unit follow H).
        const QStringList changed{QStringLiteral("modelPresetCombo"), QStringLiteral("modelSizeControl"),
                                  QStringLiteral("modelSizeNoteBox"), QStringLiteral("kvHeadsControl")};
        std::vector<QWidget*> children;
        for (const QString& name : changed) {
            auto* child = box->findChild<QWidget*>(name, Qt::FindDirectChildrenOnly);
            QVERIFY2(child, qPrintable(name));
            QVERIFY2(fill->fills(child), qPrintable(name));
            QVERIFY(child->testAttribute(Qt::WA_OpaquePaintEvent));
            children.push_back(child);
        }
        auto windowPixels = [&] { return panel.screen()->grabWindow(panel.winId()).toImage(); };
        // Each fill is the pixel the box and the panel paint under its child: the window repainted whole without the
        // fills and without the child (its paints and its descendants' eaten), read back from the backing store.
        struct EatPaints final : QObject {
            bool eventFilter(QObject*, QEvent* event) override { return event->type() == QEvent::Paint; }
        } eat;
        for (QWidget* child : children) {
            QRgb colour = 0;
            QVERIFY(fill->fills(child, &colour));
            views::GroundFill::setEnabled(false);
            QVERIFY(!child->testAttribute(Qt::WA_OpaquePaintEvent));
            const QList<QWidget*> inner = child->findChildren<QWidget*>();
            child->installEventFilter(&eat);
            for (QWidget* widget : inner)
                widget->installEventFilter(&eat);
            panel.repaint();
            const QPoint at = child->mapTo(&panel, QPoint(0, 0));
            const QImage under = windowPixels().copy(QRect(at, child->size())).convertToFormat(
                QImage::Format_ARGB32_Premultiplied);
            child->removeEventFilter(&eat);
            for (QWidget* widget : inner)
                widget->removeEventFilter(&eat);
            panel.repaint(); // the child's own pixels back (an opaque child is not repainted with its parents)
            views::GroundFill::setEnabled(true);
            fill->measure();
            QImage expected(under.size(), QImage::Format_ARGB32_Premultiplied);
            expected.fill(QColor::fromRgba(colour));
            QVERIFY2(under == expected, qPrintable(child->objectName()));
        }
        settle();
        boxPaints.paints = 0;
        panelPaints.paints = 0;
        const long long fillsBefore = views::GroundFill::fills();
        for (int i = 2; i <= 7; ++i) {
            slider->setSliderPosition(slider->minimum() + i * 3 * step);
            settle();
            const QImage afterStep = windowPixels();
            QCOMPARE(boxPaints.paints, 0);
            QCOMPARE(panelPaints.paints, 0);
            views::GroundFill::setEnabled(false);
            panel.repaint();
            const QImage whole = windowPixels();
            views::GroundFill::setEnabled(true);
            fill->measure();
            settle();
            QVERIFY2(afterStep == whole, qPrintable(QStringLiteral("step %1").arg(i)));
            boxPaints.paints = 0;
            panelPaints.paints = 0;
        }
        QVERIFY(views::GroundFill::fills() - fillsBefore >= 6 * 3);
        box->removeEventFilter(&boxPaints);
        panel.removeEventFilter(&panelPaints);
    }
    /** A slider step repaints the span its handle moved across, not the whole slider and the group box under it
     *  (issue 16, fourteenth stop), and the window then shows what a repaint of the whole slider shows. */
    void sliderStepRepaintsTheHandlesSpan()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        panel.resize(360, 1400);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* slider = panel.findChild<QSlider*>(QStringLiteral("batchSlider"));
        QVERIFY(slider);
        struct PaintRegion final : QObject {
            QRegion region;
            bool eventFilter(QObject*, QEvent* event) override
            {
                if (event->type() == QEvent::Paint)
                    region += static_cast<QPaintEvent*>(event)->region();
                return false;
            }
        } painted;
        auto shown = [&] {
            const QPoint at = slider->mapTo(&panel, QPoint(0, 0));
            return panel.screen()->grabWindow(panel.winId(), at.x(), at.y(), slider->width(), slider->height()).toImage();
        };
        for (int i = 0; i < 3; ++i)
            QCoreApplication::processEvents();
        slider->installEventFilter(&painted);
        const int step = std::max(1, (slider->maximum() - slider->minimum()) / 24);
        for (int i = 1; i <= 4; ++i) {
            painted.region = QRegion();
            slider->setSliderPosition(slider->minimum() + i * step);
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
            QVERIFY2(!painted.region.isEmpty(), qPrintable(QString::number(i)));
            QVERIFY2(painted.region.boundingRect().width() < slider->width() / 3,
                     qPrintable(QStringLiteral("step %1 repainted %2 of %3 px").arg(i).arg(painted.region.boundingRect().width()).arg(slider->width())));
            const QImage afterStep = shown();
            slider->update();
            for (int pass = 0; pass < 3; ++pass)
                QCoreApplication::processEvents();
            QVERIFY2(shown() == afterStep, qPrintable(QString::number(i)));
        }
    }
    /** Every slider and spin box is bound, each to a key of the table; no key is bound twice. */
    void everyControlIsBoundToATableKey()
    {
        views::ScenarioDocument document(everythingOn());
        views::ControlsPanel panel(&document);
        const std::vector<KeyBinding>& bindings = panel.keyBindings();
        QVERIFY(bindings.size() >= 25);
        std::set<std::string> keys;
        for (const KeyBinding& b : bindings) {
            const std::string key = b.keyFor(document.scenario());
            QVERIFY2(inTable(key), key.c_str());
            QVERIFY2(keys.insert(key).second, ("bound twice: " + key).c_str());
            for (const std::string& also : b.alsoChanges)
                QVERIFY2(inTable(also), also.c_str());
            QVERIFY(b.control);
            QVERIFY(b.scale > 0);
        }
        // Every spin box in the panel is a bound control or the box of a bound slider.
        auto bound = [&](const QWidget* w) {
            return std::any_of(bindings.begin(), bindings.end(), [&](const KeyBinding& b) {
                return b.control == w || (qobject_cast<views::ValueSlider*>(b.control) && b.control->isAncestorOf(w));
            });
        };
        for (const QAbstractSpinBox* spin : panel.findChildren<QAbstractSpinBox*>())
            QVERIFY2(bound(spin), qPrintable(spin->objectName()));
        for (const views::ValueSlider* slider : panel.findChildren<views::ValueSlider*>())
            QVERIFY2(bound(slider), qPrintable(slider->objectName()));
    }

    void movingAControlChangesExactlyItsKey_data()
    {
        QTest::addColumn<int>("weights");
        QTest::newRow("bf16 weights") << int(model::DType::BF16);
        QTest::newRow("fp8 weights: the peak slider moves the fp8 peak") << int(model::DType::FP8);
    }

    /** Up (or Down at the top of the range) on each control: its key changes, and nothing but its rule's keys beside it. */
    void movingAControlChangesExactlyItsKey()
    {
        QFETCH(int, weights);
        model::Scenario start = everythingOn();
        start.model.weightDtype = model::DType(weights);
        views::ScenarioDocument document(start);
        views::ControlsPanel panel(&document);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const std::vector<KeyBinding>& bindings = panel.keyBindings();
        QCOMPARE(bindings[size_t(std::find_if(bindings.begin(), bindings.end(),
                                              [&](const KeyBinding& b) { return b.control == panel.peakFlopsSlider(); })
                                 - bindings.begin())]
                     .keyFor(start),
                 weights == int(model::DType::FP8) ? std::string("hardware.peak_flops_fp8") : std::string("hardware.peak_flops"));
        for (const KeyBinding& b : bindings) {
            document.setScenario(start);
            const model::Scenario before = document.scenario();
            const std::string key = b.keyFor(before);
            QWidget* widget = handle(b.control);
            QVERIFY2(widget->isEnabled(), key.c_str());
            QTest::keyClick(widget, Qt::Key_Up);
            if (views::ScenarioHistory::changedKeys(before, document.scenario()).empty())
                QTest::keyClick(widget, Qt::Key_Down); // at the top of its range
            const model::Scenario after = document.scenario();
            const std::vector<std::string> changed = views::ScenarioHistory::changedKeys(before, after);
            QVERIFY2(std::find(changed.begin(), changed.end(), key) != changed.end(), ("did not change " + key).c_str());
            for (const std::string& k : changed)
                QVERIFY2(k == key || std::find(b.alsoChanges.begin(), b.alsoChanges.end(), k) != b.alsoChanges.end(),
                         ("moving the " + key + " control also changed " + k).c_str());
            // The control shows the key's new value in its unit (a spin box to its decimals).
            const double shown = shownValue(b.control);
            const double expected = keyValue(after, key) / b.scale;
            QVERIFY2(std::abs(shown - expected) <= 1e-9 * std::max(1.0, std::abs(expected))
                         || (qobject_cast<QDoubleSpinBox*>(b.control)
                             && std::abs(shown - expected) <= std::pow(10.0, -qobject_cast<QDoubleSpinBox*>(b.control)->decimals())),
                     qPrintable(QStringLiteral("%1: shows %2, the key holds %3 in its unit")
                                    .arg(QString::fromStdString(key))
                                    .arg(shown)
                                    .arg(expected)));
        }
    }

    /** The generic binding writes the control's value times its scale through the table (bandwidth in TB/s). */
    void scaleConvertsTheControlsUnit()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        QDoubleSpinBox* box = panel.bandwidthSlider()->spinBox();
        box->setFocus();
        box->selectAll();
        QTest::keyClicks(box, QStringLiteral("2.5"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(model::getKey(document.scenario(), "hardware.bandwidth"), model::formatNumber(2.5e12));
        QVERIFY(QString::fromStdString(document.scenario().hardware.name).endsWith(QStringLiteral("(edited)")));
        QSpinBox* gpus = panel.findChild<QSpinBox*>(QStringLiteral("gpusSpinBox"));
        QVERIFY(gpus);
        gpus->setFocus();
        gpus->selectAll();
        QTest::keyClicks(gpus, QStringLiteral("4"));
        QTest::keyClick(gpus, Qt::Key_Return);
        QCOMPARE(document.scenario().hardware.gpus, 4);
    }
    /** Issue 16, thirty-third stop: a scenario change parses the ITL SLO field's text (a regular expression split)
     *  only when the text is not the one it parsed last: slider steps parse nothing; the field still follows the
     *  scenario's SLOs, and a text typed into it that is not the scenario's (or empty, or not numbers) is replaced by
     *  the scenario's on the next change, as before. */
    void sloTextParsedOnlyWhenChanged()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        auto* slo = panel.findChild<QLineEdit*>(QStringLiteral("itlSloEdit"));
        QVERIFY(slo);
        const QString shown = slo->text();
        QVERIFY(!shown.isEmpty());
        const long long first = panel.sloTextParses();
        for (int step = 1; step <= 6; ++step) {
            document.edit([step](model::Scenario& s) { s.workload.batch = 8 * step; });
            document.edit([step](model::Scenario& s) { s.model.params = 8e9 + 1e9 * step; });
        }
        QCOMPARE(panel.sloTextParses(), first); // the same text: not parsed again
        QCOMPARE(slo->text(), shown);

        document.edit([](model::Scenario& s) { s.workload.itlSloMs = {15, 30}; });
        QCOMPARE(slo->text(), QStringLiteral("15, 30")); // the old text's numbers (known) differ: rewritten
        const long long afterNew = panel.sloTextParses();
        document.edit([](model::Scenario& s) { s.workload.batch = 3; });
        QCOMPARE(panel.sloTextParses(), afterNew + 1); // the new text parsed once
        document.edit([](model::Scenario& s) { s.workload.batch = 4; });
        QCOMPARE(panel.sloTextParses(), afterNew + 1);
        QCOMPARE(slo->text(), QStringLiteral("15, 30"));

        for (const QString& typed : {QStringLiteral("abc"), QString(), QStringLiteral("15;30 45")}) {
            slo->setText(typed);
            document.edit([](model::Scenario& s) { s.workload.batch += 1; });
            QCOMPARE(slo->text(), QStringLiteral("15, 30"));
        }
        slo->setText(QStringLiteral("15 ;30"));
        document.edit([](model::Scenario& s) { s.workload.batch += 1; });
        QCOMPARE(slo->text(), QStringLiteral("15 ;30")); // the same numbers: left as typed
    }

    /** Issue 16, twenty-fourth stop: the price's currency suffix is elided (QFontMetrics::elidedText()) once per currency
     *  and font, not on every scenario change (each slider step asked it again): steps of other keys elide nothing and
     *  leave the suffix; a new currency and a new font of the box each elide once, and the suffix is what the box's font
     *  elides the currency to. (The key's resolution, which QFont::operator== does not compare, cannot be changed here:
     *  QWidget::setFont() resolves a font for the widget's own screen.) */
    void priceSuffixElidedOncePerCurrencyAndFont()
    {
        views::ScenarioDocument document(model::defaultScenario());
        views::ControlsPanel panel(&document);
        auto* price = panel.findChild<QDoubleSpinBox*>(QStringLiteral("priceSpinBox"));
        QVERIFY(price);
        auto expected = [&document, price] {
            const QFontMetrics metrics(price->font());
            return QLatin1Char(' ')
                + metrics.elidedText(QString::fromStdString(document.scenario().economics.currency), Qt::ElideRight,
                                     metrics.horizontalAdvance(QStringLiteral("MMMMM")));
        };
        QCOMPARE(price->suffix(), expected());
        const long long first = panel.currencyElisions();
        QCOMPARE(first, 1LL);
        for (int step = 1; step <= 6; ++step) {
            document.edit([step](model::Scenario& s) { s.workload.batch = 8 * step; });
            document.edit([step](model::Scenario& s) { s.model.params = 8e9 + 1e9 * step; });
        }
        QCOMPARE(panel.currencyElisions(), first); // no new currency or font: nothing elided again
        QCOMPARE(price->suffix(), expected());

        document.edit([](model::Scenario& s) { s.economics.currency = "WWWWWWWW"; });
        QCOMPARE(panel.currencyElisions(), first + 1);
        QCOMPARE(price->suffix(), expected());
        QVERIFY2(price->suffix().endsWith(QChar(0x2026)), qPrintable(price->suffix())); // elided
        document.edit([](model::Scenario& s) { s.workload.batch = 3; });
        QCOMPARE(panel.currencyElisions(), first + 1);

        QFont larger = price->font();
        larger.setPointSizeF(larger.pointSizeF() * 2);
        price->setFont(larger);
        document.edit([](model::Scenario& s) { s.workload.batch = 5; });
        QCOMPARE(panel.currencyElisions(), first + 2);
        QCOMPARE(price->suffix(), expected());

        document.edit([](model::Scenario& s) { s.economics.currency = "EUR"; });
        QCOMPARE(panel.currencyElisions(), first + 3);
        QCOMPARE(price->suffix(), expected());
        QCOMPARE(price->suffix(), QStringLiteral(" EUR"));
    }
    /** A device without an fp8 or int8 peak (the A100: 0 in its preset, matmuls then at the bf16 peak) shows "none" in
     *  those boxes, not "0.0 TFLOP/s"; a device with them shows the figures; typing 0 sets the key to 0 and says "none". */
    void missingPeaksSayNone()
    {
        model::Scenario a100 = model::defaultScenario();
        QVERIFY(model::applyHardwarePreset(a100, "A100 80GB SXM").empty());
        QCOMPARE(a100.hardware.peakFlopsFp8, 0.0);
        views::ScenarioDocument document(a100);
        views::ControlsPanel panel(&document);
        auto* fp8 = panel.findChild<QDoubleSpinBox*>(QStringLiteral("peakFp8SpinBox"));
        auto* int8 = panel.findChild<QDoubleSpinBox*>(QStringLiteral("peakInt8SpinBox"));
        QVERIFY(fp8 && int8);
        QCOMPARE(fp8->text(), QStringLiteral("none"));
        QVERIFY2(int8->text() != QStringLiteral("none"), qPrintable(int8->text())); // the A100 has an int8 peak

        views::ScenarioDocument h100Document(model::defaultScenario());
        views::ControlsPanel h100(&h100Document);
        auto* h100Fp8 = h100.findChild<QDoubleSpinBox*>(QStringLiteral("peakFp8SpinBox"));
        QVERIFY(h100Fp8);
        QVERIFY(h100Document.scenario().hardware.peakFlopsFp8 > 0);
        QVERIFY2(h100Fp8->text().endsWith(QStringLiteral("TFLOP/s")), qPrintable(h100Fp8->text()));
        h100Fp8->setFocus();
        h100Fp8->selectAll();
        QTest::keyClicks(h100Fp8, QStringLiteral("0"));
        QTest::keyClick(h100Fp8, Qt::Key_Return);
        QCOMPARE(h100Document.scenario().hardware.peakFlopsFp8, 0.0);
        QCOMPARE(h100Fp8->text(), QStringLiteral("none"));
    }
};

QTEST_MAIN(TestControlsPanel)
#include "tst_controlspanel.moc"
