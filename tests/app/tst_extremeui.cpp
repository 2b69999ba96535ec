// SPDX-License-Identifier: GPL-3.0-or-later
// Extreme UI (issue 7): every one of the six main sliders at either end, in all 64 combinations,
// for every entry of every combo in the controls panel; then every spin box of the controls at
// both ends of its range. After each setting the window must answer the event loop (no hang), and
// every plot must hold drawable data: finite keys, values finite or deliberate NaN gaps (never
// infinite), a visible curve with at least one point, finite item positions, finite axis ranges
// (positive on log axes), and no "nan" or "inf" in any visible text. Asserted on plot data and
// label text, not on pixels.

#include <algorithm>
#include <cmath>

#include <QBarSet>
#include <QBarSeries>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QElapsedTimer>
#include <QTimer>

#include <qcustomplot.h>

#include "app/mainwindow.h"
#include "model/cost/scenario.h"
#include "model/cost/scenariokeys.h"
#include "views/controls/controlspanel.h"
#include "views/floors/numberspanel.h"
#include "document/scenariodocument.h"
#include "views/kit/valueslider.h"
#include "views/whatifs/whatifstabs.h"

using ridgeline::app::MainWindow;
using ridgeline::views::ScenarioDocument;
using ridgeline::views::ValueSlider;
namespace model = ridgeline::model;

namespace {

/** "nan", "inf" or "infinity" as a word in @p text (case-insensitive). */
bool showsNonFinite(const QString& text)
{
    static const QRegularExpression word(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                         QRegularExpression::CaseInsensitiveOption);
    return word.match(text).hasMatch();
}

/** What is wrong with the axis range of @p axis, or empty. */
QString badRange(const QCPAxis* axis)
{
    const QCPRange range = axis->range();
    if (!std::isfinite(range.lower) || !std::isfinite(range.upper) || !(range.lower < range.upper))
        return QStringLiteral("axis '%1' range [%2, %3]").arg(axis->label()).arg(range.lower).arg(range.upper);
    if (axis->scaleType() == QCPAxis::stLogarithmic && !(range.lower > 0))
        return QStringLiteral("log axis '%1' range [%2, %3]").arg(axis->label()).arg(range.lower).arg(range.upper);
    return {};
}

/**
 * Every problem in what @p window draws: its QCustomPlots (graphs, items, axes), its Qt Charts
 * (bar sets, line series) and the text of its visible labels. Empty when all is drawable.
 */
QStringList problems(const MainWindow& window)
{
    QStringList out;
    for (int tab = ridgeline::views::WhatIfTabs::CapacityTab; tab <= ridgeline::views::WhatIfTabs::PlanTab; ++tab)
        window.whatIfTabs()->ensureBuilt(tab); // every tab's plots, as before they were built on first show
    for (QCustomPlot* plot : window.findChildren<QCustomPlot*>()) {
        const QString where = plot->parentWidget() ? plot->parentWidget()->objectName() : plot->objectName();
        for (QCPAxisRect* rect : plot->axisRects()) {
            for (QCPAxis* axis : rect->axes()) {
                if (axis->visible())
                    if (const QString bad = badRange(axis); !bad.isEmpty())
                        out << where + QStringLiteral(": ") + bad;
            }
        }
        for (int g = 0; g < plot->graphCount(); ++g) {
            QCPGraph* graph = plot->graph(g);
            if (!graph->visible())
                continue;
            const QSharedPointer<QCPGraphDataContainer> data = graph->data();
            int finitePoints = 0;
            for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
                if (!std::isfinite(it->key))
                    out << QStringLiteral("%1: graph '%2' key %3").arg(where, graph->name()).arg(it->key);
                if (std::isinf(it->value))
                    out << QStringLiteral("%1: graph '%2' value %3 at %4").arg(where, graph->name()).arg(it->value).arg(it->key);
                if (std::isfinite(it->key) && std::isfinite(it->value))
                    ++finitePoints;
            }
            // Markers are single points and hide themselves when they have none to show.
            if (!data->isEmpty() && finitePoints == 0)
                out << QStringLiteral("%1: visible graph '%2' has %3 points, none drawable")
                           .arg(where, graph->name()).arg(data->size());
        }
        for (int i = 0; i < plot->plottableCount(); ++i) {
            // The KV share's bars (QCPBars, issue 16 nineteenth stop): every part finite and not negative.
            if (auto* bars = qobject_cast<QCPBars*>(plot->plottable(i)))
                for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
                    if (!std::isfinite(it->value) || it->value < 0)
                        out << QStringLiteral("%1: bar '%2'[%3] = %4").arg(plot->objectName(), bars->name()).arg(it->key).arg(it->value);
        }
        for (int i = 0; i < plot->itemCount(); ++i) {
            QCPAbstractItem* item = plot->item(i);
            if (!item->visible())
                continue;
            for (QCPItemPosition* position : item->positions()) {
                if (!std::isfinite(position->coords().x()) || !std::isfinite(position->coords().y()))
                    out << QStringLiteral("%1: item %2 at (%3, %4)")
                               .arg(where, QString::fromLatin1(item->metaObject()->className()))
                               .arg(position->coords().x())
                               .arg(position->coords().y());
            }
            if (auto* text = qobject_cast<QCPItemText*>(item); text && showsNonFinite(text->text()))
                out << QStringLiteral("%1: label '%2'").arg(where, text->text());
        }
    }
    for (QChartView* view : window.findChildren<QChartView*>()) {
        for (QAbstractSeries* series : view->chart()->series()) {
            if (auto* bars = qobject_cast<QBarSeries*>(series)) {
                for (QBarSet* set : bars->barSets())
                    for (int i = 0; i < set->count(); ++i)
                        if (!std::isfinite(set->at(i)) || set->at(i) < 0)
                            out << QStringLiteral("%1: bar '%2'[%3] = %4").arg(view->objectName(), set->label()).arg(i).arg(set->at(i));
            } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
                for (const QPointF& p : line->points())
                    if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                        out << QStringLiteral("%1: series '%2' point (%3, %4)").arg(view->objectName(), line->name()).arg(p.x()).arg(p.y());
            }
        }
    }
    for (QLabel* label : window.findChildren<QLabel*>()) {
        if (label->isVisibleTo(&window) && showsNonFinite(label->text()))
            out << QStringLiteral("label %1: '%2'").arg(label->objectName(), label->text().left(200));
    }
    return out;
}

/** The --set line of the document's scenario, to reproduce a failure from the command line. */
QString setLine(const ScenarioDocument* document)
{
    QStringList parts;
    const model::Scenario& scenario = document->scenario();
    for (const model::KeyInfo& key : model::scenarioKeys())
        parts << QStringLiteral("--set %1=%2").arg(QString::fromUtf8(key.key.data(), qsizetype(key.key.size())),
                                                  QString::fromStdString(model::getKey(scenario, key.key)));
    return parts.join(QLatin1Char(' '));
}

/** Delivers pending events until the document has evaluated (or found the scenario invalid) and a
 *  zero-timer fires after it: the window still answers the event loop. False on a hang (5 s). */
bool settle(ScenarioDocument* document)
{
    bool answered = false;
    QTimer::singleShot(0, document, [&] { answered = true; });
    QElapsedTimer clock;
    clock.start();
    while ((document->isEvaluationPending() || !answered) && clock.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    return !document->isEvaluationPending() && answered;
}

} // namespace

class TestExtremeUi final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void detectorSeesNonFiniteData();
    void sliderCornersForEveryComboEntry();
    void spinBoxesAtBothEnds();

private:
    int m_settings = 0;
};

void TestExtremeUi::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void TestExtremeUi::detectorSeesNonFiniteData()
{
    // The check below must be able to fail: plant one infinite value, one non-finite key, one
    // all-gap curve and one "nan" label, and see each reported.
    MainWindow window(model::defaultScenario());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(settle(window.document()));
    QVERIFY2(problems(window).isEmpty(), qPrintable(problems(window).join(QLatin1Char('\n'))));
    QList<QCPGraph*> curves;
    for (QCustomPlot* plot : window.plots())
        for (int g = 0; g < plot->graphCount(); ++g)
            if (plot->graph(g)->visible() && plot->graph(g)->data()->size() > 2)
                curves << plot->graph(g);
    QVERIFY(curves.size() >= 3);
    curves[0]->data()->begin()->value = qInf();
    QCOMPARE(problems(window).size(), 1);
    (curves[1]->data()->begin() + 1)->key = qQNaN();
    QCOMPARE(problems(window).size(), 2);
    for (auto it = curves[2]->data()->begin(); it != curves[2]->data()->end(); ++it)
        it->value = qQNaN();
    QCOMPARE(problems(window).size(), 3);
    window.numbersPanel()->findChild<QLabel*>()->setText(QStringLiteral("nan ms"));
    QCOMPARE(problems(window).size(), 4);
}

void TestExtremeUi::sliderCornersForEveryComboEntry()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ScenarioDocument* document = window.document();
    document->setMinimumInterval(0); // each setting evaluated on the next pass, not throttled to 60 Hz
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    const QList<ValueSlider*> sliders{controls->modelSizeSlider(), controls->kvHeadsSlider(), controls->batchSlider(),
                                      controls->contextSlider(),   controls->bandwidthSlider(), controls->peakFlopsSlider()};
    const QList<QComboBox*> combos = controls->findChildren<QComboBox*>();
    QVERIFY2(combos.size() >= 5, "expected the model, hardware, weight dtype, KV dtype and attention combos");

    // RIDGELINE_EXTREMEUI_CORNER_STRIDE=k (the sanitizer build in CI, scripts/ci-sanitizers.sh, where one
    // setting costs about 5 times as much): each entry visits every k-th corner, starting at a different
    // corner for each entry, so that every corner is still visited across the entries. Unset: all 64.
    const int stride = std::max(1, qEnvironmentVariableIntValue("RIDGELINE_EXTREMEUI_CORNER_STRIDE"));
    int entries = 0;
    for (QComboBox* combo : combos) {
        for (int index = 0; index < combo->count(); ++index) {
            // Every entry starts from the default scenario, so that one entry's setting does not
            // leave a scenario another entry cannot be combined with.
            document->setScenario(model::defaultScenario());
            QVERIFY(settle(document));
            combo->setCurrentIndex(index);
            emit combo->activated(index);
            QVERIFY2(settle(document), qPrintable(combo->objectName()));
            ++entries;
            for (int corner = entries % stride; corner < (1 << sliders.size()); corner += stride) {
                for (int s = 0; s < sliders.size(); ++s) {
                    QSlider* slider = sliders[s]->slider();
                    slider->setSliderPosition((corner >> s) & 1 ? slider->maximum() : slider->minimum());
                }
                const QString context = QStringLiteral("%1 = '%2', corner %3 (bit i: slider i at its maximum): %4")
                                            .arg(combo->objectName(), combo->itemText(index))
                                            .arg(corner)
                                            .arg(setLine(document));
                QVERIFY2(settle(document), qPrintable(QStringLiteral("no answer: ") + context));
                ++m_settings;
                const QStringList found = problems(window);
                QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n')) + QStringLiteral("\nat ") + context));
            }
        }
    }
    qInfo("%d combo entries x 64 slider corners (every %d): %d settings drawn, none with a non-finite value", entries, stride,
          m_settings);
}

void TestExtremeUi::spinBoxesAtBothEnds()
{
    MainWindow window(model::defaultScenario());
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ScenarioDocument* document = window.document();
    document->setMinimumInterval(0); // each setting evaluated on the next pass, not throttled to 60 Hz
    ridgeline::views::ControlsPanel* controls = window.controlsPanel();
    int tried = 0;
    auto check = [&](const QString& what) {
        QVERIFY2(settle(document), qPrintable(QStringLiteral("no answer: ") + what));
        const QStringList found = problems(window);
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n')) + QStringLiteral("\nat ") + what +
                                             QStringLiteral(": ") + setLine(document)));
        ++tried;
    };
    // One at a time from the default scenario, then all at their minimum, then all at their maximum. The collapsed
    // architecture and MoE fields too (built when first opened: issue 16, twentieth stop).
    controls->ensureArchitectureFields();
    controls->ensureMoeFields();
    const QList<QSpinBox*> spins = controls->findChildren<QSpinBox*>();
    const QList<QDoubleSpinBox*> doubleSpins = controls->findChildren<QDoubleSpinBox*>();
    for (QSpinBox* spin : spins) {
        for (const int value : {spin->minimum(), spin->maximum()}) {
            document->setScenario(model::defaultScenario());
            QVERIFY(settle(document));
            spin->setValue(value);
            check(QStringLiteral("%1 = %2").arg(spin->objectName()).arg(value));
            QCOMPARE(window.errorBanner()->isVisible(), !document->errorText().isEmpty());
        }
    }
    for (QDoubleSpinBox* spin : doubleSpins) {
        for (const double value : {spin->minimum(), spin->maximum()}) {
            document->setScenario(model::defaultScenario());
            QVERIFY(settle(document));
            spin->setValue(value);
            emit spin->editingFinished();
            check(QStringLiteral("%1 = %2").arg(spin->objectName()).arg(value));
            QCOMPARE(window.errorBanner()->isVisible(), !document->errorText().isEmpty());
        }
    }
    for (const bool maximum : {false, true}) {
        document->setScenario(model::defaultScenario());
        QVERIFY(settle(document));
        for (QSpinBox* spin : spins)
            spin->setValue(maximum ? spin->maximum() : spin->minimum());
        for (QDoubleSpinBox* spin : doubleSpins) {
            spin->setValue(maximum ? spin->maximum() : spin->minimum());
            emit spin->editingFinished();
        }
        check(maximum ? QStringLiteral("every spin box at its maximum") : QStringLiteral("every spin box at its minimum"));
    }
    qInfo("%d spin-box settings drawn (%lld int, %lld double spin boxes), none with a non-finite value", tried,
          qlonglong(spins.size()), qlonglong(doubleSpins.size()));
}

QTEST_MAIN(TestExtremeUi)
#include "tst_extremeui.moc"
