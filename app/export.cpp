// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/export.h"

#include <cmath>
#include <cstdio>
#include <functional>

#include <QAbstractTextDocumentLayout>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCoreApplication>
#include <QDate>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QLabel>
#include <QPdfWriter>
#include <QSpinBox>
#include <QSvgGenerator>
#include <QTextDocument>

#include <qcustomplot.h>

#include "app/clippedvector.h"
#include "app/exportsource.h"
#include "model/cost/dtype.h"
#include "model/files/inputfile.h"
#include "model/files/outputfile.h"
#include "model/cost/scenariokeys.h"
#include "views/whatifs/baseline.h"
#include "views/calibration/benchmarkpredictplot.h"
#include "views/calibration/benchmarkpredictview.h"
#include "views/calibration/calibrationplot.h"
#include "views/calibration/calibrationtab.h"
#include "views/whatifs/capacityplot.h"
#include "document/format.h"
#include "views/floors/headlinefigures.h"
#include "views/whatifs/kvfitplot.h"
#include "views/floors/floorplot.h"
#include "views/kit/palette.h"
#include "views/kit/plotkit.h"
#include "views/plan/plantab.h"
#include "views/kit/plotpanel.h"
#include "document/scenariodocument.h"
#include "views/simulation/simulationplots.h"
#include "document/simulationrunner.h"
#include "views/simulation/simulationtab.h"
#include "views/whatifs/speculativeplot.h"
#include "views/triage/triagepanel.h"
#include "views/whatifs/whatifstabs.h"
#include "views/controls/workloadpanel.h"

namespace ridgeline::app {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::app::Export", text);
}

constexpr int kGap = 12;       ///< between dashboard cells, logical pixels
constexpr int kHeader = 34;    ///< dashboard header line
constexpr int kMargin = 10;    ///< inside a panel

QString dtypeText(model::DType type)
{
    const std::string_view name = model::dtypeName(type);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

QString cellText(QString text)
{
    return text.replace(QLatin1Char('|'), QStringLiteral("\\|")).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

/** One plot of a tab other than the floors: its file stem, the card drawn (a PlotPanel or the
 *  workload panel) and the QCustomPlots its CSV is read from (none for the workload bar chart). */
struct TabPlot {
    QString stem;
    QWidget* panel = nullptr;
    QList<QCustomPlot*> plots;
};

QString noSimulationNote()
{
    return tr("Simulation: no simulation has been run, so its four plots are not exported (run one in the "
              "Simulation tab, or give --simulate FILE with --export).");
}

QString noCalibrationNote()
{
    return tr("Calibration: no measurements are loaded, so its two plots are not exported (import them in the "
              "Calibration tab, or give --calibrate DATA with --export).");
}

QString noPredictionNote()
{
    return tr("Benchmark prediction: no benchmark file is loaded, so its two plots are not exported (open one in the "
              "Calibration tab's \"Predict a benchmark\" page, or give --predict FILE with --export).");
}

/** The other tabs' plots that have something to show, in tabPlotStems() order; @p notExported
 *  receives a sentence for each tab left out and why. */
QList<TabPlot> tabPlots(const ExportSource& window, QStringList* notExported)
{
    const views::WhatIfTabs* tabs = window.whatIfTabs();
    const QStringList stems = tabPlotStems();
    QList<TabPlot> out;
    auto add = [&](int index, views::PlotPanel* panel, QList<QCustomPlot*> plots) {
        out.append({stems[index], panel, std::move(plots)});
    };
    add(0, tabs->capacityPlot(), {tabs->capacityPlot()->plot()});
    add(1, tabs->kvFitPlot(), {tabs->kvFitPlot()->plot()});
    out.append({stems[2], tabs->workloadPanel(), {}});
    add(3, tabs->speculativePlot(), {tabs->speculativePlot()->plot()});
    const views::SimulationTab* simulation = tabs->simulationTab();
    if (simulation->outcome()) {
        add(4, simulation->itlTimelinePlot(), {simulation->itlTimelinePlot()->plot()});
        add(5, simulation->latencyCdfPlot(), {simulation->latencyCdfPlot()->plot()});
        add(6, simulation->capSweepPlot(), {simulation->capSweepPlot()->plot()});
        add(7, simulation->kvUsagePlot(), {simulation->kvUsagePlot()->plot()});
        const auto o = simulation->outcome();
        if (o->rateSweep.steps > 0 && !o->rateSweepResult.points.empty()) { // the run swept the arrival rate
            const QStringList rate = rateSweepPlotStems();
            out.append({rate[0], simulation->rateSweepPlot(), {simulation->rateSweepPlot()->plot()}});
            out.append({rate[1], simulation->attainmentPlot(), {simulation->attainmentPlot()->plot()}});
        }
    } else if (notExported) {
        notExported->append(noSimulationNote());
    }
    const views::CalibrationTab* calibration = tabs->calibrationTab();
    if (!calibration->measurements().empty()) {
        for (views::CalibrationPlot* plot : {calibration->itlPlot(), calibration->ttftPlot()}) {
            QList<QCustomPlot*> plots{plot->plot()};
            if (plot->residualsVisible())
                plots << plot->residualPlot();
            add(plot == calibration->itlPlot() ? 8 : 9, plot, plots);
        }
    } else if (notExported) {
        notExported->append(noCalibrationNote());
    }
    const views::BenchmarkPredictView* predict = calibration->predictView();
    if (predict->hasPrediction()) {
        for (views::BenchmarkPredictPlot* plot : {predict->decodePlot(), predict->ttftPlot()})
            add(plot == predict->decodePlot() ? 10 : 11, plot, {plot->plot(), plot->residualPlot()});
    } else if (notExported) {
        notExported->append(noPredictionNote());
    }
    add(12, tabs->planTab()->plot(), {tabs->planTab()->plot()->plot()});
    return out;
}

/** A tab's name as shown, without the mnemonic's ampersands. */
QString tabName(const views::WhatIfTabs* tabs, int index)
{
    QString text = tabs->tabText(index);
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    return text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
}

QList<QPair<QString, QString>> takeawaysOf(const ExportSource& window)
{
    QList<QPair<QString, QString>> out;
    for (views::PlotPanel* panel : window.floorPlots())
        out.append({panel->titleLabel()->accessibleName(), panel->takeaway()});
    // Every other tab: each card's title carries its heading (accessible name) and its live
    // takeaway (accessible description), PlotPanel and whatifkit alike.
    const views::WhatIfTabs* tabs = window.whatIfTabs();
    const views::SimulationTab* simulation = tabs->simulationTab();
    const views::CalibrationTab* calibration = tabs->calibrationTab();
    for (int index = views::WhatIfTabs::CapacityTab; index < tabs->count(); ++index) {
        const QString tab = tabName(tabs, index);
        QWidget* page = tabs->widget(index);
        if (page == simulation && !simulation->outcome())
            continue; // said under "Not exported"
        const bool calibrated = !calibration->measurements().empty();
        const bool predicted = calibration->predictView()->hasPrediction();
        if (page == calibration && !calibrated && !predicted)
            continue;
        if (index == views::WhatIfTabs::TriageTab) {
            const views::TriagePanel* triage = tabs->triagePanel();
            const QString standup = triage->standupText();
            out.append({tab, tr("Phase: %1. %2")
                                 .arg(QString::fromStdString(model::ticketClassName(triage->result().ticketClass)),
                                      standup.section(QLatin1Char('\n'), 0, 0))});
            continue;
        }
        for (const QLabel* label : page->findChildren<QLabel*>()) {
            if (label->accessibleName().isEmpty() || label->accessibleDescription().isEmpty())
                continue;
            if (page == calibration && !(calibration->predictView()->isAncestorOf(label) ? predicted : calibrated))
                continue; // a page of the Calibration tab with nothing loaded
            out.append({tab + QStringLiteral(" \u00b7 ") + label->accessibleName(), label->accessibleDescription()});
        }
    }
    return out;
}

QByteArray csvCellUtf8(const QString& text)
{
    QByteArray bytes = text.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n'))
        bytes = '"' + bytes.replace('"', "\"\"") + '"';
    return bytes;
}

/** Draws @p label's rich text (a card title) at (@p x, @p y), @p width wide; returns its height. */
int drawTitle(QCPPainter& painter, const QLabel* label, int x, int y, int width)
{
    QTextDocument title;
    title.setDocumentMargin(0);
    title.setDefaultFont(label->font());
    title.setHtml(label->text());
    title.setTextWidth(width);
    painter.save();
    painter.translate(x, y);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, views::palette::text());
    title.documentLayout()->draw(&painter, context);
    painter.restore();
    return qCeil(title.size().height());
}

/** Draws the Qt Charts @p chart into @p target, laid out at the target's size for the drawing. */
void drawChart(QCPPainter& painter, QChart* chart, const QRectF& target)
{
    const QSizeF old = chart->size();
    chart->resize(target.size());
    QCoreApplication::sendPostedEvents(chart->scene());
    painter.save();
    painter.setMode(QCPPainter::pmNoCaching);
    chart->scene()->render(&painter, target, QRectF(chart->pos(), target.size()), Qt::IgnoreAspectRatio);
    painter.restore();
    chart->resize(old);
}

/** The workload card: its title and the bar chart of one request's GPU time. */
void renderWorkload(QCPPainter& painter, views::WorkloadPanel* panel, const QRect& rect)
{
    painter.save();
    painter.setPen(QPen(views::palette::cardBorder(), 1));
    painter.setBrush(views::palette::card());
    painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    painter.restore();
    const QRect inner = rect.adjusted(kMargin, kMargin - 2, -kMargin, -kMargin + 4);
    int y = inner.top();
    if (const auto* title = panel->findChild<QLabel*>(QStringLiteral("workloadTitle")))
        y += drawTitle(painter, title, inner.left(), y, inner.width()) + 4;
    drawChart(painter, panel->chartView()->chart(), QRectF(inner.left(), y, inner.width(), std::max(40, inner.bottom() - y)));
}

/** The workload bars as CSV: one row per bar, the prefill and decode GPU time per request in ms. */
QByteArray workloadCsv(const views::WorkloadPanel* panel)
{
    const QBarSet* prefill = panel->prefillBarSet();
    const QBarSet* decode = panel->decodeBarSet();
    QByteArray out = "request,prefill_ms,decode_ms\n";
    const std::pair<int, const char*> bars[] = {{views::WorkloadPanel::kAsIs, "as_is"},
                                                {views::WorkloadPanel::kWithPrefixCache, "with_prefix_cache"}};
    for (const auto& [index, name] : bars)
        out += QByteArray(name) + ',' + QByteArray::fromStdString(model::formatNumber(prefill->at(index))) + ','
             + QByteArray::fromStdString(model::formatNumber(decode->at(index))) + '\n';
    return out;
}

void renderTabPlot(QCPPainter& painter, const TabPlot& plot, const QRect& rect)
{
    if (auto* panel = qobject_cast<views::PlotPanel*>(plot.panel))
        renderPanel(painter, panel, rect);
    else if (auto* workload = qobject_cast<views::WorkloadPanel*>(plot.panel))
        renderWorkload(painter, workload, rect);
}

QString titleOf(const TabPlot& plot)
{
    if (auto* panel = qobject_cast<views::PlotPanel*>(plot.panel))
        return panel->titleLabel()->accessibleName();
    if (const auto* title = plot.panel->findChild<QLabel*>(QStringLiteral("workloadTitle")))
        return title->accessibleName();
    return plot.stem;
}

/**
 * "" or why the export will not write at @p path: a symbolic link there (QSaveFile writes through it, replacing the
 * file it points at, outside the export's folder perhaps; a trial found it).
 */
QString linkRefusal(const QString& path)
{
    const QFileInfo at(path);
    if (!at.isSymLink())
        return {};
    if (model::isSymlinkLoop(path))
        return tr("%1; the export does not write through links: remove the link or export into another folder; nothing was "
                  "written at this name")
            .arg(QString::fromStdString(model::brokenSymlinkText(path)));
    return tr("is a symbolic link (to %1); the export does not write through links: remove the link or export into "
              "another folder; nothing was written at this name")
        .arg(QDir::toNativeSeparators(at.symLinkTarget()));
}

/** Writes @p bytes whole or not at all; "" or the reason (model::writeFileAtomically; never through a link). */
QString writeBytes(const QString& path, const QByteArray& bytes)
{
    if (QString refusal = linkRefusal(path); !refusal.isEmpty())
        return refusal;
    return model::writeFileAtomically(path, bytes);
}

using Draw = std::function<void(QCPPainter&, const QRect&)>;

/** The image formats, in the order the export writes them, with their file suffixes. */
const QList<QPair<ExportFormat, QString>>& imageFormats()
{
    static const QList<QPair<ExportFormat, QString>> formats{
        {ExportFormat::Png, QStringLiteral("png")}, {ExportFormat::Pdf, QStringLiteral("pdf")}, {ExportFormat::Svg, QStringLiteral("svg")}};
    return formats;
}

/** Renders @p draw at @p size (logical pixels) into @p path as PNG (at @p dpi), PDF or SVG. */
QString writeImage(const QString& path, ExportFormat format, const QSize& size, int dpi, const QString& title,
                   const Draw& draw)
{
    if (QString refusal = linkRefusal(path); !refusal.isEmpty())
        return refusal;
    const QRect rect(QPoint(0, 0), size);
    if (format == ExportFormat::Png) {
        const double scale = dpi / 96.0;
        QImage image(QSize(qRound(size.width() * scale), qRound(size.height() * scale)), QImage::Format_ARGB32_Premultiplied);
        image.fill(views::palette::window());
        {
            QCPPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::TextAntialiasing);
            painter.setMode(QCPPainter::pmNoCaching);
            if (scale != 1.0) {
                painter.scale(scale, scale);
                painter.setMode(QCPPainter::pmNonCosmetic);
            }
            draw(painter, rect);
        }
        const int dotsPerMeter = qRound(dpi / 0.0254);
        image.setDotsPerMeterX(dotsPerMeter); // metadata only: fonts were laid out at 96 dpi
        image.setDotsPerMeterY(dotsPerMeter);
        return savePng(image, path);
    }
    if (format != ExportFormat::Pdf && format != ExportFormat::Svg)
        return tr("not an image format");
    // Vector formats: every vertex, no pixmap caches, widths in the page's units.
    auto paintVector = [&](QPaintDevice* device, const QString& what) -> QString {
        QCPPainter painter;
        if (!painter.begin(device))
            return tr("cannot start the %1").arg(what);
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setMode(QCPPainter::pmNonCosmetic);
        painter.fillRect(rect, views::palette::window());
        draw(painter, rect);
        painter.end();
        return {};
    };
    return model::writeFileAtomically(path, [&](QIODevice& file) -> QString {
        if (format == ExportFormat::Pdf) {
            QPdfWriter writer(&file);
            writer.setResolution(96); // one device unit = one logical pixel
            writer.setPageSize(QPageSize(QSizeF(size) * 0.75, QPageSize::Point, QString(), QPageSize::ExactMatch));
            writer.setPageMargins(QMarginsF(0, 0, 0, 0));
            writer.setCreator(QStringLiteral("Ridgeline ") + QStringLiteral(RIDGELINE_VERSION));
            writer.setTitle(title);
            return paintVector(&writer, QStringLiteral("PDF"));
        }
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(rect);
        generator.setResolution(96);
        generator.setTitle(title);
        generator.setDescription(QStringLiteral("Ridgeline ") + QStringLiteral(RIDGELINE_VERSION));
        // Through ClippedVectorDevice: the SVG generator drops clip rectangles, and curves would run
        // through the axes into the titles and legends.
        ClippedVectorDevice clipped(&generator);
        return paintVector(&clipped, QStringLiteral("SVG"));
    });
}

/** The headline figures as a table in @p rect (A / B / ratio columns with a baseline). */
void drawFigures(QPainter& painter, const QRect& rect, const ExportSource& window)
{
    const views::BaselineOverlay* baseline = window.baseline();
    const bool ab = baseline && baseline->isPinned();
    const std::vector<views::HeadlineFigure> b = views::headlineFigures(window.document()->evaluatedScenario(),
                                                                         window.document()->evaluation());
    std::vector<views::HeadlineFigure> a;
    if (ab)
        a = views::headlineFigures(baseline->scenario(), baseline->evaluation());

    painter.save();
    painter.setPen(QPen(views::palette::cardBorder(), 1));
    painter.setBrush(views::palette::card());
    painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    const QRect inner = rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    QFont heading;
    heading.setPointSizeF(10.5);
    heading.setWeight(QFont::DemiBold);
    painter.setFont(heading);
    painter.setPen(views::palette::text());
    const int headingHeight = QFontMetrics(heading).height() + 4;
    painter.drawText(QRect(inner.topLeft(), QSize(inner.width(), headingHeight)), Qt::AlignLeft | Qt::AlignVCenter,
                     ab ? tr("Headline figures: A / B") : tr("Headline figures"));

    const int rows = int(b.size()) + (ab ? 1 : 0);
    const int available = inner.height() - headingHeight;
    QFont body;
    body.setPointSizeF(std::clamp(available / double(std::max(rows, 1)) * 0.55, 6.0, 9.5));
    painter.setFont(body);
    const int lineHeight = std::max(QFontMetrics(body).height(), available / std::max(rows, 1));
    const int labelWidth = inner.width() * (ab ? 40 : 55) / 100;
    const int valueWidth = ab ? (inner.width() - labelWidth) / 3 : inner.width() - labelWidth;
    int y = inner.top() + headingHeight;
    auto cell = [&](int column, const QString& text, const QColor& colour, bool bold) {
        QFont f = body;
        f.setWeight(bold ? QFont::DemiBold : QFont::Normal);
        painter.setFont(f);
        painter.setPen(colour);
        const QRect r = column == 0 ? QRect(inner.left(), y, labelWidth, lineHeight)
                                    : QRect(inner.left() + labelWidth + (column - 1) * valueWidth, y, valueWidth, lineHeight);
        painter.drawText(r, (column == 0 ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter,
                         QFontMetrics(f).elidedText(text, Qt::ElideRight, r.width() - 2));
    };
    if (ab) {
        cell(1, tr("A"), views::palette::axis(), true);
        cell(2, tr("B"), views::palette::axis(), true);
        cell(3, tr("B \u00f7 A"), views::palette::axis(), true);
        y += lineHeight;
    }
    for (const views::HeadlineFigure& f : b) {
        cell(0, f.label, views::palette::axis(), false);
        if (ab) {
            const views::HeadlineFigure* fa = nullptr;
            for (const views::HeadlineFigure& x : a)
                if (x.key == f.key)
                    fa = &x;
            cell(1, fa ? fa->text : QStringLiteral("\u2013"), views::palette::text(), false);
            cell(2, f.text, views::palette::text(), true);
            cell(3, views::ratioText(fa ? fa->value : std::nan(""), f.value), views::palette::text(), true);
        } else {
            cell(1, f.text, views::palette::text(), true);
        }
        y += lineHeight;
    }
    painter.restore();
}

void drawDashboard(QCPPainter& painter, const QRect& rect, ExportSource& window, const QSize& plotSize)
{
    const model::Scenario& s = window.document()->evaluatedScenario();
    QFont header;
    header.setPointSizeF(12);
    header.setWeight(QFont::DemiBold);
    painter.setFont(header);
    painter.setPen(views::palette::text());
    QString line = tr("Ridgeline \u2014 %1 \u00b7 B = %2 \u00b7 S = %3 \u00b7 P = %4")
                       .arg(views::scenarioName(s), views::format::integer(s.workload.batch),
                            views::format::integer(s.workload.contextTokens), views::format::integer(s.workload.promptTokens));
    if (window.baseline() && window.baseline()->isPinned()) {
        QStringList labels;
        for (const document::PinnedScenario& p : window.baseline()->pinned().items())
            labels << window.baseline()->label(p.slot);
        line += tr(" \u00b7 dashed: %1").arg(labels.join(QStringLiteral(", ")));
    }
    painter.drawText(QRect(rect.left() + kGap, rect.top(), rect.width() - 2 * kGap, kHeader), Qt::AlignLeft | Qt::AlignVCenter,
                     QFontMetrics(header).elidedText(line, Qt::ElideRight, rect.width() - 2 * kGap));
    const QList<views::FloorPlot*> panels = window.floorPlots();
    for (int i = 0; i < 6; ++i) { // the plots in floorPlotIds() order, three to a row, then the figures
        const int column = i % 3, row = i / 3;
        const QRect cell(rect.left() + kGap + column * (plotSize.width() + kGap),
                         rect.top() + kHeader + row * (plotSize.height() + kGap), plotSize.width(), plotSize.height());
        if (i < panels.size())
            renderPanel(painter, panels[i], cell);
        else
            drawFigures(painter, cell, window);
    }
}

} // namespace

QString savePng(const QImage& image, const QString& path)
{
    return model::writeFileAtomically(path, [&image](QIODevice& file) -> QString {
        return image.save(&file, "PNG") ? QString() : tr("cannot encode the PNG");
    });
}

QString parseExportFormats(const QString& text, ExportFormats& out)
{
    ExportFormats formats;
    for (QString item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        item = item.trimmed().toLower();
        if (item == QLatin1String("png"))
            formats |= ExportFormat::Png;
        else if (item == QLatin1String("pdf"))
            formats |= ExportFormat::Pdf;
        else if (item == QLatin1String("svg"))
            formats |= ExportFormat::Svg;
        else if (item == QLatin1String("csv"))
            formats |= ExportFormat::Csv;
        else if (item == QLatin1String("md") || item == QLatin1String("markdown"))
            formats |= ExportFormat::Markdown;
        else if (item == QLatin1String("all"))
            formats |= kAllExportFormats;
        else
            return tr("\"%1\" is not an export format (expected png, pdf, svg, csv, md)").arg(item);
    }
    if (!formats)
        return tr("no export format given (expected a list such as png,pdf,svg,csv,md)");
    out = formats;
    return {};
}

QStringList plotStems()
{
    QStringList stems;
    for (views::FloorPlotId id : views::floorPlotIds())
        stems << views::floorPlotName(id);
    return stems;
}

QStringList rateSweepPlotStems()
{
    return {QStringLiteral("simulation_rate_goodput"), QStringLiteral("simulation_rate_attainment")};
}

QStringList tabPlotStems()
{
    return {QStringLiteral("capacity_sequences"),      QStringLiteral("capacity_kv_fit"),
            QStringLiteral("workload_request_time"),   QStringLiteral("speculative_speedup"),
            QStringLiteral("simulation_itl_timeline"), QStringLiteral("simulation_latency_cdf"),
            QStringLiteral("simulation_cap_sweep"),    QStringLiteral("simulation_kv_usage"),
            QStringLiteral("calibration_itl"),         QStringLiteral("calibration_ttft"),
            QStringLiteral("predict_itl"),             QStringLiteral("predict_ttft"),
            QStringLiteral("plan_pareto")};
}

QByteArray curvesCsv(const QList<QCustomPlot*>& plots)
{
    QStringList columns; // axis labels, in order of first use
    auto columnOf = [&columns](const QCPAxis* axis) {
        const QString label = axis->label().isEmpty() ? tr("value") : views::plotkit::axisTitle(axis);
        qsizetype index = columns.indexOf(label);
        if (index < 0) {
            columns << label;
            index = columns.size() - 1;
        }
        return index;
    };
    struct Point {
        QString series;
        qsizetype keyColumn;
        qsizetype valueColumn;
        double key;
        double value;
    };
    std::vector<Point> points;
    for (QCustomPlot* plot : plots) {
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable* p = plot->plottable(i);
            // Unnamed plottables are drawing aids (a fill's far edge); legend keys hold no data.
            if (!p->visible() || p->name().isEmpty() || !p->keyAxis() || !p->valueAxis())
                continue;
            const QString series = p->name();
            const qsizetype keyColumn = columnOf(p->keyAxis());
            const qsizetype valueColumn = columnOf(p->valueAxis());
            auto take = [&](double key, double value) {
                if (std::isfinite(key) && std::isfinite(value))
                    points.push_back({series, keyColumn, valueColumn, key, value});
            };
            if (auto* graph = qobject_cast<QCPGraph*>(p)) {
                for (const QCPGraphData& d : *graph->data())
                    take(d.key, d.value);
            } else if (auto* curve = qobject_cast<QCPCurve*>(p)) {
                for (const QCPCurveData& d : *curve->data())
                    take(d.key, d.value);
            } else if (auto* bars = qobject_cast<QCPBars*>(p)) {
                for (const QCPBarsData& d : *bars->data())
                    take(d.key, d.value);
            }
        }
    }
    QByteArray out = "series";
    for (const QString& column : columns)
        out += ',' + csvCellUtf8(column);
    out += '\n';
    for (const Point& point : points) {
        out += csvCellUtf8(point.series);
        for (qsizetype c = 0; c < columns.size(); ++c) {
            out += ',';
            if (c == point.keyColumn)
                out += QByteArray::fromStdString(model::formatNumber(point.key));
            else if (c == point.valueColumn)
                out += QByteArray::fromStdString(model::formatNumber(point.value));
        }
        out += '\n';
    }
    return out;
}

QByteArray plotCsv(const QString& stem, const model::Evaluation& evaluation)
{
    const std::optional<views::FloorPlotId> id = views::floorPlotFromName(stem);
    return id ? views::sweepsCsv(views::floorPlotCsvColumns(*id), evaluation.sweeps) : QByteArray();
}

QString summaryMarkdown(const model::Scenario& scenario, const model::Evaluation& evaluation,
                        const QList<QPair<QString, QString>>& takeaways, const model::Scenario* baseline,
                        const model::Evaluation* baselineEvaluation, const QStringList& notExported)
{
    QList<ComparedScenario> pinned;
    if (baseline && baselineEvaluation)
        pinned.append({QStringLiteral("A"), baseline, baselineEvaluation});
    return summaryMarkdown(scenario, evaluation, takeaways, pinned, notExported);
}

QString summaryMarkdown(const model::Scenario& scenario, const model::Evaluation& evaluation,
                        const QList<QPair<QString, QString>>& takeaways, const QList<ComparedScenario>& pinned,
                        const QStringList& notExported)
{
    using namespace views::format;
    const bool ab = !pinned.isEmpty();
    // Beside A alone the live scenario is B (the A/B summary); beside several pinned ones it is "live".
    const bool twoWay = pinned.size() == 1 && pinned.front().letter == QLatin1String("A");
    const QString live = twoWay ? QStringLiteral("B") : tr("live");
    const QString reference = ab ? pinned.front().letter : QString();
    auto inputs = [](const model::Scenario& s) {
        const model::ModelShape& m = s.model;
        const model::Hardware& h = s.hardware;
        const model::Workload& w = s.workload;
        QStringList slos;
        for (double v : w.itlSloMs)
            slos << plain(v);
        QString shape = tr("%1 parameters, L = %2, H = %3, H_kv = %4, weights %5, KV %6")
                            .arg(billionParams(m.params), integer(m.layers), integer(m.heads), integer(m.kvHeads),
                                 dtypeText(m.weightDtype), dtypeText(m.kvDtype));
        if (m.isMoe())
            shape += tr(", MoE %1 experts (k = %2), %3 active").arg(integer(m.experts), integer(m.expertsPerToken),
                                                                    billionParams(m.activeParamsOrTotal()));
        QList<QPair<QString, QString>> rows{
            {tr("Model"), QString::fromStdString(m.name) + QStringLiteral(": ") + shape},
            {tr("Hardware"), tr("%1 \u00d7 %2: %3, %4, %5 HBM")
                                 .arg(QString::fromStdString(h.name), integer(h.gpus), terabytesPerSecond(h.bandwidthBytesPerSecond),
                                      teraflopsPerSecond(h.peakFlopsPerSecond), gigabytes(h.memoryBytes))},
            {tr("Workload"), tr("B = %1, S = %2, P = %3, O = %4").arg(integer(w.batch), integer(w.contextTokens),
                                                                     integer(w.promptTokens), integer(w.outputTokens))},
            {tr("Efficiencies"), tr("\u03b7_bw %1, MFU prefill %2, MFU decode %3")
                                     .arg(plain(s.efficiency.bandwidth), plain(s.efficiency.mfuPrefill), plain(s.efficiency.mfuDecode))},
            {tr("SLOs"), tr("ITL %1 ms; TTFT %2 ms").arg(slos.join(QStringLiteral(", ")), plain(w.ttftSloMs))},
        };
        return rows;
    };

    QStringList md;
    md << tr("# Ridgeline summary: %1").arg(views::scenarioName(scenario)) << QString();
    md << tr("Ridgeline %1, %2. Analytical floors from the cost model; efficiencies as set below.")
              .arg(QStringLiteral(RIDGELINE_VERSION), QDate::currentDate().toString(Qt::ISODate))
       << QString();
    if (twoWay)
        md << tr("A (baseline): %1  ").arg(views::scenarioName(*pinned.front().scenario))
           << tr("B (current): %1").arg(views::scenarioName(scenario)) << QString();
    else if (ab) {
        for (const ComparedScenario& p : pinned)
            md << tr("%1 (pinned): %2  ").arg(p.letter, views::scenarioName(*p.scenario));
        md << tr("live (current): %1").arg(views::scenarioName(scenario)) << QString();
    }

    md << tr("## Scenario") << QString();
    const auto rowsB = inputs(scenario);
    if (ab) {
        QList<QList<QPair<QString, QString>>> rowsPinned;
        QString header = tr("| Input |"), rule = QStringLiteral("|---|");
        for (const ComparedScenario& p : pinned) {
            rowsPinned.append(inputs(*p.scenario));
            header += QStringLiteral(" %1 |").arg(p.letter);
            rule += QStringLiteral("---|");
        }
        md << header + QStringLiteral(" %1 |").arg(live) << rule + QStringLiteral("---|");
        for (qsizetype i = 0; i < rowsB.size(); ++i) {
            QString line = QStringLiteral("| %1 |").arg(cellText(rowsB[i].first));
            for (const auto& rows : rowsPinned)
                line += QStringLiteral(" %1 |").arg(cellText(rows[i].second));
            md << line + QStringLiteral(" %1 |").arg(cellText(rowsB[i].second));
        }
    } else {
        md << tr("| Input | Value |") << QStringLiteral("|---|---|");
        for (const auto& [name, value] : rowsB)
            md << QStringLiteral("| %1 | %2 |").arg(cellText(name), cellText(value));
    }
    md << QString();

    if (!takeaways.isEmpty()) {
        md << tr("## Takeaways") << QString();
        for (const auto& [heading, text] : takeaways)
            md << QStringLiteral("- **%1**: %2").arg(heading, text);
        md << QString();
    }

    if (!notExported.isEmpty()) {
        md << tr("## Not exported") << QString();
        for (const QString& note : notExported)
            md << QStringLiteral("- ") + note;
        md << QString();
    }

    md << tr("## Headline figures") << QString();
    const std::vector<views::HeadlineFigure> b = views::headlineFigures(scenario, evaluation);
    if (ab) {
        // One column per pinned scenario and the live one, then each one's ratio to the reference (the first pinned).
        std::vector<std::vector<views::HeadlineFigure>> figures;
        QString header = tr("| Figure |"), rule = QStringLiteral("|---|");
        for (const ComparedScenario& p : pinned) {
            figures.push_back(views::headlineFigures(*p.scenario, *p.evaluation));
            header += QStringLiteral(" %1 |").arg(p.letter);
            rule += QStringLiteral("---:|");
        }
        header += QStringLiteral(" %1 |").arg(live);
        rule += QStringLiteral("---:|");
        for (qsizetype c = 1; c < pinned.size(); ++c) {
            header += QStringLiteral(" %1 \u00f7 %2 |").arg(pinned[c].letter, reference);
            rule += QStringLiteral("---:|");
        }
        header += QStringLiteral(" %1 \u00f7 %2 |").arg(live, reference);
        rule += QStringLiteral("---:|");
        md << header << rule;
        auto find = [](const std::vector<views::HeadlineFigure>& list, const QString& key) -> const views::HeadlineFigure* {
            for (const views::HeadlineFigure& x : list)
                if (x.key == key)
                    return &x;
            return nullptr;
        };
        for (const views::HeadlineFigure& f : b) {
            const views::HeadlineFigure* fa = find(figures.front(), f.key);
            const double va = fa ? fa->value : std::nan("");
            QString line = QStringLiteral("| %1 |").arg(cellText(f.label));
            for (const auto& list : figures) {
                const views::HeadlineFigure* x = find(list, f.key);
                line += QStringLiteral(" %1 |").arg(cellText(x ? x->text : QStringLiteral("\u2013")));
            }
            line += QStringLiteral(" %1 |").arg(cellText(f.text));
            for (size_t c = 1; c < figures.size(); ++c) {
                const views::HeadlineFigure* x = find(figures[c], f.key);
                line += QStringLiteral(" %1 |").arg(views::ratioText(va, x ? x->value : std::nan("")));
            }
            md << line + QStringLiteral(" %1 |").arg(views::ratioText(va, f.value));
        }
    } else {
        md << tr("| Figure | Value |") << QStringLiteral("|---|---:|");
        for (const views::HeadlineFigure& f : b)
            md << QStringLiteral("| %1 | %2 |").arg(cellText(f.label), cellText(f.text));
    }
    md << QString();
    return md.join(QLatin1Char('\n'));
}

QString summaryMarkdown(const ExportSource& window)
{
    QList<ComparedScenario> pinned;
    if (const views::BaselineOverlay* baseline = window.baseline())
        for (const document::PinnedScenario& p : baseline->pinned().items())
            pinned.append({views::pinnedLetter(p.slot), &p.baseline.scenario(), &p.baseline.evaluation()});
    QStringList notExported;
    tabPlots(window, &notExported);
    return summaryMarkdown(window.document()->evaluatedScenario(), window.document()->evaluation(), takeawaysOf(window), pinned,
                           notExported);
}

void renderPanel(QCPPainter& painter, views::PlotPanel* panel, const QRect& rect)
{
    painter.save();
    painter.setPen(QPen(views::palette::cardBorder(), 1));
    painter.setBrush(views::palette::card());
    painter.drawRoundedRect(QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    painter.restore();
    const QRect inner = rect.adjusted(kMargin, kMargin - 2, -kMargin, -kMargin + 4);
    int y = inner.top();

    // Title: the heading and the live takeaway, as on screen.
    y += drawTitle(painter, panel->titleLabel(), inner.left(), y, inner.width()) + 4;

    // The KV panel's bar chart, laid out at the export width, at its height on screen.
    if (auto* floor = qobject_cast<views::FloorPlot*>(panel); floor && floor->barPlot()) {
        QCustomPlot* bar = floor->barPlot();
        const int height = bar->height();
        views::plotkit::fitLegend(bar, inner.width()); // its legend's rows at the export width
        painter.save();
        painter.translate(inner.left(), y);
        bar->toPainter(&painter, inner.width(), height);
        painter.restore();
        bar->replot(QCustomPlot::rpQueuedReplot); // lay out for the screen again
        y += height + 4;
    }

    // The plot itself: toPainter lays it out at the export size and draws it as vectors; the
    // calibration plots' residuals, when shown, take the lower third.
    QCustomPlot* plot = panel->plot();
    QCustomPlot* below = nullptr;
    if (auto* calibration = qobject_cast<views::CalibrationPlot*>(panel); calibration && calibration->residualsVisible())
        below = calibration->residualPlot();
    else if (auto* predict = qobject_cast<views::BenchmarkPredictPlot*>(panel))
        below = predict->residualPlot();
    const int available = std::max(40, inner.bottom() - y);
    const int belowHeight = below ? available / 3 : 0;
    const int plotHeight = available - belowHeight;
    // The legend fitted to the export's width, and its entries handed to the legend's image cache: a plot hidden since
    // its entries changed (the Plan tab's, exported while another tab shows) has not replotted, and until then its new
    // entries drew nowhere (the exported Pareto plot showed an empty band where its legend belongs).
    views::plotkit::fitLegend(plot, inner.width());
    painter.save();
    painter.translate(inner.left(), y);
    plot->toPainter(&painter, inner.width(), plotHeight);
    painter.restore();
    plot->replot(QCustomPlot::rpQueuedReplot); // lay out for the screen again
    if (below) {
        views::plotkit::fitLegend(below, inner.width());
        painter.save();
        painter.translate(inner.left(), y + plotHeight);
        below->toPainter(&painter, inner.width(), belowHeight);
        painter.restore();
        below->replot(QCustomPlot::rpQueuedReplot);
    }
}

QSize dashboardSize(const QSize& plotSize)
{
    return QSize(3 * plotSize.width() + 4 * kGap, kHeader + 2 * plotSize.height() + 2 * kGap);
}

namespace {

/**
 * Writes tab plot @p plot as @p format into @p dir (stem.suffix, options.size and dpi), the one image writer of
 * exportAll() and exportPlanPlot(); @p record(path, error) keeps the path written and returns "" or the message.
 */
QString writeTabPlot(const QDir& dir, const TabPlot& plot, ExportFormat format, const QString& suffix, const ExportOptions& options,
                     const std::function<QString(const QString&, const QString&)>& record)
{
    const QString path = dir.absoluteFilePath(plot.stem + QLatin1Char('.') + suffix);
    return record(path, writeImage(path, format, options.size, options.dpi, titleOf(plot),
                                   [&plot](QCPPainter& painter, const QRect& rect) { renderTabPlot(painter, plot, rect); }));
}

} // namespace

QStringList exportTargets(const ExportSource& window, const ExportOptions& options)
{
    const QDir dir(options.folder);
    QStringList out;
    const QList<TabPlot> tabs = tabPlots(window, nullptr);
    for (const auto& [format, suffix] : imageFormats()) {
        if (!(options.formats & format))
            continue;
        for (const QString& stem : plotStems())
            out << dir.absoluteFilePath(stem + QLatin1Char('.') + suffix);
        out << dir.absoluteFilePath(QStringLiteral("dashboard.") + suffix);
        for (const TabPlot& plot : tabs)
            out << dir.absoluteFilePath(plot.stem + QLatin1Char('.') + suffix);
    }
    if (options.formats & ExportFormat::Csv) {
        for (const QString& stem : plotStems()) {
            out << dir.absoluteFilePath(stem + QStringLiteral(".csv"));
            if (window.baseline())
                for (const document::PinnedScenario& p : window.baseline()->pinned().items())
                    out << dir.absoluteFilePath(stem + QLatin1Char('_') + views::pinnedLetter(p.slot).toLower() + QStringLiteral(".csv"));
        }
        for (const TabPlot& plot : tabs)
            out << dir.absoluteFilePath(plot.stem + QStringLiteral(".csv"));
    }
    if (options.formats & ExportFormat::Markdown)
        out << dir.absoluteFilePath(QStringLiteral("summary.md"));
    return out;
}

QString exportPreflight(const QString& folder, const QStringList& targets)
{
    if (const QString problem = exportFolderProblem(folder); !problem.isEmpty())
        return problem + tr("; nothing was exported");
    // The nearest folder that exists (the folder, or the parent mkpath() would create it in) must take new files.
    QFileInfo at(QDir::cleanPath(QDir(folder).absolutePath()));
    while (!at.exists() && !(at.isRoot() || at.absolutePath() == at.absoluteFilePath()))
        at = QFileInfo(at.absolutePath());
    if (!at.isWritable())
        return tr("cannot write into %1: the folder is not writable (permissions or a read-only file system); nothing was exported")
            .arg(QDir::toNativeSeparators(at.absoluteFilePath()));
    for (const QString& path : targets) {
        const QFileInfo target(path);
        const QString name = QDir::toNativeSeparators(path);
        if (target.isSymLink() && model::isSymlinkLoop(path))
            return tr("cannot write %1: %2; the export does not write through links: remove the link or export into another "
                      "folder; nothing was exported")
                .arg(name, QString::fromStdString(model::brokenSymlinkText(path)));
        if (target.isSymLink()) // also a dangling one: QSaveFile would write the file it names
            return tr("cannot write %1: is a symbolic link (to %2); the export does not write through links: remove the link or "
                      "export into another folder; nothing was exported")
                .arg(name, QDir::toNativeSeparators(target.symLinkTarget()));
        if (target.isDir())
            return tr("cannot write %1: is a folder; remove or rename it, or export into another folder; nothing was exported").arg(name);
        if (target.exists() && !target.isFile())
            return tr("cannot write %1: is not a regular file (a device, pipe or socket); remove it, or export into another "
                      "folder; nothing was exported")
                .arg(name);
        if (target.exists() && !target.isWritable()) // QSaveFile refuses to replace a file its user may not write
            return tr("cannot write %1: the file exists and is read-only (permissions); make it writable, remove it, or "
                      "export into another folder; nothing was exported")
                .arg(name);
    }
    return {};
}

QString exportAll(ExportSource& window, const ExportOptions& options, QStringList* written)
{
    const QString folder = QDir::toNativeSeparators(options.folder);
    window.flushForScreenshot();
    if (!window.whatIfTabs()->calibrationTab()->measurements().empty())
        window.whatIfTabs()->calibrationTab()->refresh(); // it redraws only while visible otherwise
    window.whatIfTabs()->planTab()->recompute(); // likewise: searches only while visible
    // Every name first: a link, a folder or an unwritable folder found at the 43rd file left 42 written (a trial).
    if (const QString problem = exportPreflight(options.folder, exportTargets(window, options)); !problem.isEmpty())
        return problem;
    if (!QDir().mkpath(options.folder))
        return tr("cannot create the folder %1").arg(folder);
    const QDir dir(options.folder);
    auto record = [&](const QString& path, const QString& error) {
        if (error.isEmpty() && written)
            written->append(path);
        return error.isEmpty() ? QString() : tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), error);
    };
    const QList<views::FloorPlot*> panels = window.floorPlots();
    const QList<TabPlot> tabs = tabPlots(window, nullptr);
    for (const auto& [format, suffix] : imageFormats()) {
        if (!(options.formats & format))
            continue;
        for (views::FloorPlot* panel : panels) {
            const QString path = dir.absoluteFilePath(panel->name() + QLatin1Char('.') + suffix);
            const QString error = writeImage(path, format, options.size, options.dpi, panel->titleLabel()->accessibleName(),
                                             [panel](QCPPainter& painter, const QRect& rect) { renderPanel(painter, panel, rect); });
            if (QString message = record(path, error); !message.isEmpty())
                return message;
        }
        const QString path = dir.absoluteFilePath(QStringLiteral("dashboard.") + suffix);
        const QSize plotSize = options.size;
        const QString error = writeImage(path, format, dashboardSize(plotSize), options.dpi, tr("Ridgeline dashboard"),
                                         [&window, plotSize](QCPPainter& painter, const QRect& rect) {
                                             drawDashboard(painter, rect, window, plotSize);
                                         });
        if (QString message = record(path, error); !message.isEmpty())
            return message;
        for (const TabPlot& plot : tabs)
            if (QString message = writeTabPlot(dir, plot, format, suffix, options, record); !message.isEmpty())
                return message;
    }
    if (options.formats & ExportFormat::Csv) {
        const views::BaselineOverlay* baseline = window.baseline();
        for (const views::FloorPlot* panel : panels) {
            const QString path = dir.absoluteFilePath(panel->name() + QStringLiteral(".csv"));
            if (QString message = record(path, writeBytes(path, panel->csv(window.document()->evaluation()))); !message.isEmpty())
                return message;
            if (!baseline)
                continue;
            for (const document::PinnedScenario& p : baseline->pinned().items()) { // "<stem>_a.csv", "<stem>_c.csv", ...
                const QString pathPinned =
                    dir.absoluteFilePath(panel->name() + QLatin1Char('_') + views::pinnedLetter(p.slot).toLower() + QStringLiteral(".csv"));
                if (QString message = record(pathPinned, writeBytes(pathPinned, panel->csv(p.baseline.evaluation()))); !message.isEmpty())
                    return message;
            }
        }
        for (const TabPlot& plot : tabs) {
            const QString path = dir.absoluteFilePath(plot.stem + QStringLiteral(".csv"));
            const views::PlanTab* planTab = window.whatIfTabs()->planTab();
            const QByteArray bytes = plot.plots.isEmpty()           ? workloadCsv(static_cast<views::WorkloadPanel*>(plot.panel))
                                     : plot.panel == planTab->plot() ? planTab->paretoCsv() // every evaluated point, met the SLOs or not
                                                                     : curvesCsv(plot.plots);
            if (QString message = record(path, writeBytes(path, bytes)); !message.isEmpty())
                return message;
        }
    }
    if (options.formats & ExportFormat::Markdown) {
        const QString path = dir.absoluteFilePath(QStringLiteral("summary.md"));
        if (QString message = record(path, writeBytes(path, summaryMarkdown(window).toUtf8())); !message.isEmpty())
            return message;
    }
    return {};
}

QStringList planPlotTargets(const ExportOptions& options)
{
    const QDir dir(options.folder);
    const QString stem = tabPlotStems().constLast();
    QStringList out;
    for (const auto& [format, suffix] : imageFormats())
        if (options.formats & format)
            out << dir.absoluteFilePath(stem + QLatin1Char('.') + suffix);
    if (options.formats & ExportFormat::Csv)
        out << dir.absoluteFilePath(stem + QStringLiteral(".csv"));
    return out;
}

QString exportPlanPlot(ExportSource& window, const ExportOptions& options, QStringList* written)
{
    if (const QString problem = exportPreflight(options.folder, planPlotTargets(options)); !problem.isEmpty())
        return problem;
    if (!QDir().mkpath(options.folder))
        return tr("cannot create the folder %1").arg(QDir::toNativeSeparators(options.folder));
    views::PlanTab* planTab = window.whatIfTabs()->planTab();
    planTab->recompute(); // searches only while visible otherwise
    const TabPlot plot = tabPlots(window, nullptr).constLast(); // plan_pareto: exportAll()'s entry, drawn the same way
    Q_ASSERT(plot.panel == planTab->plot());
    const QDir dir(options.folder);
    auto record = [&](const QString& path, const QString& error) {
        if (error.isEmpty() && written)
            written->append(path);
        return error.isEmpty() ? QString() : tr("cannot write %1: %2").arg(QDir::toNativeSeparators(path), error);
    };
    for (const auto& [format, suffix] : imageFormats()) {
        if (!(options.formats & format))
            continue;
        if (QString message = writeTabPlot(dir, plot, format, suffix, options, record); !message.isEmpty())
            return message;
    }
    if (options.formats & ExportFormat::Csv) {
        const QString path = dir.absoluteFilePath(plot.stem + QStringLiteral(".csv"));
        if (QString message = record(path, writeBytes(path, planTab->paretoCsv())); !message.isEmpty())
            return message;
    }
    return {};
}

QString predictInWindow(ExportSource& window, const QString& path, const model::BenchmarkOptions& options)
{
    views::BenchmarkPredictView* predict = window.whatIfTabs()->calibrationTab()->predictView();
    predict->setOptions(options);
    QEventLoop loop;
    QObject::connect(predict, &views::BenchmarkPredictView::predictionFinished, &loop, &QEventLoop::quit);
    window.document()->evaluateNow();
    if (const QString error = predict->loadBenchmark(path); !error.isEmpty())
        return error;
    if (predict->isPredicting())
        loop.exec();
    return predict->hasPrediction() ? QString() : tr("the prediction did not finish");
}

QString simulateInWindow(ExportSource& window, const QString& path)
{
    views::SimulationTab* simulation = window.whatIfTabs()->simulationTab();
    if (const QString error = simulation->loadExample(path); !error.isEmpty())
        return error;
    QEventLoop loop;
    QObject::connect(simulation, &views::SimulationTab::outcomeShown, &loop, &QEventLoop::quit);
    QObject::connect(simulation->runner(), &views::SimulationRunner::cancelled, &loop, &QEventLoop::quit);
    simulation->run();
    if (simulation->runner()->isRunning())
        loop.exec();
    if (!simulation->outcome()) {
        const QString why = simulation->inputError().isEmpty() ? simulation->errorLabel()->text() : simulation->inputError();
        return why.isEmpty() ? tr("the simulation did not finish") : why;
    }
    return QString();
}

QString exportFolderProblem(const QString& folder)
{
    for (QFileInfo at(QDir::cleanPath(QDir(folder).absolutePath()));; at = QFileInfo(at.absolutePath())) {
        if (at.isSymLink() && !at.exists()) { // a dangling link: not "a file" (a trial); a loop is not a missing target
            if (model::isSymlinkLoop(at.filePath()))
                return tr("%1 %2, not a folder; give a folder to write into")
                    .arg(QDir::toNativeSeparators(at.filePath()), QString::fromStdString(model::brokenSymlinkText(at.filePath())));
            return tr("%1 is a symbolic link to a missing target (%2), not a folder; give a folder to write into")
                .arg(QDir::toNativeSeparators(at.filePath()), QDir::toNativeSeparators(at.symLinkTarget()));
        }
        if (at.exists())
            return at.isDir() ? QString()
                              : QStringLiteral("%1 is a file, not a folder; give a folder to write into").arg(QDir::toNativeSeparators(at.filePath()));
        if (at.isRoot() || at.absolutePath() == at.absoluteFilePath())
            return {};
    }
}

int runExport(const model::Scenario& scenario, const ExportOptions& options,
              const std::function<std::unique_ptr<ExportSource>(const model::Scenario&)>& openWindow)
{
    auto print = [](FILE* stream, const QString& line) {
        const QByteArray bytes = line.toLocal8Bit();
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
        std::fputc('\n', stream);
        std::fflush(stream);
    };
    // A file where the folder (or one of its parents) should be is a wrong option value (exit 2, as every bad
    // option), not a failure to write (exit 1); said before any work.
    if (const QString problem = exportFolderProblem(options.folder); !problem.isEmpty()) {
        print(stderr, QStringLiteral("ridgeline: --export %1: %2").arg(QDir::toNativeSeparators(options.folder), problem));
        return 2;
    }
    const std::unique_ptr<ExportSource> opened = openWindow(scenario);
    ExportSource& window = *opened;
    if (!options.simulationFile.isEmpty()) {
        if (const QString error = simulateInWindow(window, options.simulationFile); !error.isEmpty()) {
            print(stderr, QStringLiteral("ridgeline: --simulate %1: %2").arg(QDir::toNativeSeparators(options.simulationFile), error));
            return 2;
        }
    }
    if (!options.calibrationFile.isEmpty()) {
        views::CalibrationTab* calibration = window.whatIfTabs()->calibrationTab();
        const QString path = options.calibrationFile;
        QString error = calibration->loadMeasurements(path);
        if (error.isEmpty())
            error = calibration->fit();
        if (!error.isEmpty()) {
            print(stderr, QStringLiteral("ridgeline: --calibrate %1: %2").arg(QDir::toNativeSeparators(path), error));
            return 2;
        }
    }
    if (!options.predictFile.isEmpty()) {
        if (const QString error = predictInWindow(window, options.predictFile, options.benchmarkOptions); !error.isEmpty()) {
            print(stderr, QStringLiteral("ridgeline: --predict %1: %2").arg(QDir::toNativeSeparators(options.predictFile), error));
            return 2;
        }
    }
    window.flushForScreenshot();
    QStringList written;
    const QString error = exportAll(window, options, &written);
    for (const QString& path : written)
        print(stdout, QDir::toNativeSeparators(path));
    if (!error.isEmpty()) {
        print(stderr, QStringLiteral("ridgeline: --export %1: %2").arg(QDir::toNativeSeparators(options.folder), error));
        return 1;
    }
    return 0;
}

} // namespace ridgeline::app
