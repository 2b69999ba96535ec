// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/plan/plantab.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <tuple>

#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QResizeEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStringList>
#include <QShowEvent>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "document/format.h"
#include "model/analysis/operatingeconomics.h"
#include "model/cost/economicsbounds.h"
#include "model/files/inputfile.h"
#include "model/cost/scenariokeys.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/kit/resulttable.h"
#include "document/scenariodocument.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

/** Colour of the @p i-th drawn device: the palette's six series colours, then two more. */
QColor deviceColor(int i)
{
    switch (i % PlanPlot::kMaxDevices) {
    case 0: return palette::memory();
    case 1: return palette::compute();
    case 2: return palette::throughput();
    case 3: return palette::kv();
    case 4: return palette::ruling();
    case 5: return palette::reference();
    case 6: return QColor(0x00, 0x83, 0x8f); // teal
    default: return QColor(0xad, 0x14, 0x57); // magenta
    }
}

QString deviceName(const model::PlanRequest& request, int device)
{
    return QString::fromStdString(request.candidates.devices.at(size_t(device)).hardware.name);
}

/** The ranked-plans table's first column: what tells one plan from another beside the device, short enough for the
 *  column to stay narrow: "MI300X TP4 \u00d72" (2 replicas), "H100 SXM TP4 PP2 \u00d71", "H200 TP8 1P+3D" (1 prefill and
 *  3 decode instances, disaggregated); PP1 and EP1 left out. The plans are one per device, GPU count, layout and
 *  disaggregation (model::PlanResult::plans), so no two rows read the same (issue 14: at 1,280 px rows 1 and 2 both read
 *  "MI300X 1.91", the layout off to the right). The table's own text: the CSV and JSON columns keep their names. */
QString planKeyText(const model::PlanRequest& request, const model::PlanPoint& p)
{
    QString layout = QStringLiteral("TP%1").arg(p.layout.tp);
    if (p.layout.pp > 1)
        layout += QStringLiteral(" PP%1").arg(p.layout.pp);
    if (p.layout.ep > 1)
        layout += QStringLiteral(" EP%1").arg(p.layout.ep);
    const QString fleet = p.disaggregated ? QStringLiteral("%1P+%2D").arg(format::integer(p.prefillInstances), format::integer(p.decodeInstances))
                                          : QStringLiteral("\u00d7%1").arg(format::integer(p.replicas));
    return deviceName(request, p.device) + QLatin1Char(' ') + layout + QLatin1Char(' ') + fleet;
}

/** A point for the plot labels, as the ranked table names it with the GPUs in all: "MI300X TP2 3P+1D (8 GPUs,
 *  disaggregated)", "MI300X TP4 \u00d72 (8 GPUs)". It read "8 \u00d7 MI300X (TP2 PP1 EP1, disaggregated)", where 8 was GPUs
 *  while the table's "\u00d72" is replicas (new-user trial, stop 32). */
QString pointText(const model::PlanRequest& request, const model::PlanPoint& p)
{
    return QStringLiteral("%1 (%2%3)")
        .arg(planKeyText(request, p), counted(p.totalGpus, QStringLiteral("1 GPU"), QStringLiteral("%1 GPUs")),
             p.disaggregated ? QStringLiteral(", disaggregated") : QString());
}

bool finitePositive(double v)
{
    return std::isfinite(v) && v > 0;
}

/** Hollow grey circle: an evaluated point that misses the TTFT or the ITL SLO. */
QCPScatterStyle missedStyle()
{
    return QCPScatterStyle(QCPScatterStyle::ssCircle, pen(palette::axis(), 1.4), palette::card(), 8);
}

/** Why no plan of @p result meets @p request's SLOs, in a few short lines for the plot. */
QString whyNoPlan(const model::PlanRequest& request, const model::PlanResult& result)
{
    QStringList lines;
    lines << PlanPlot::tr("No plan meets ITL \u2264 %1 ms and TTFT \u2264 %2 ms at %3 req/s (mean estimates).")
                 .arg(format::number(request.slo.itlMs, 3), format::number(request.slo.ttftMs, 3),
                      format::number(request.load.requestsPerSecond, 3));
    std::optional<size_t> bestItl, bestTtft;
    for (size_t i = 0; i < result.points.size(); ++i) {
        const model::PlanPoint& q = result.points[i];
        if (q.itlDefined && (!bestItl || q.itlMs < result.points[*bestItl].itlMs)) // one output token: no ITL (h14k)
            bestItl = i;
        if (!bestTtft || q.ttftMs < result.points[*bestTtft].ttftMs)
            bestTtft = i;
    }
    int doesNotFit = 0, tooManyReplicas = 0;
    for (const model::DeviceSummary& d : result.devices) {
        doesNotFit += d.reason == model::ExclusionReason::DoesNotFit ? 1 : 0;
        tooManyReplicas += d.reason == model::ExclusionReason::TooManyReplicas ? 1 : 0;
    }
    if (!bestTtft && tooManyReplicas > 0) {
        // No point evaluated because of the fleet-size cap, not the fit (adversarial trial, stop 32: it read "No device fits
        // the model" at 10M req/s while the list said every device needs more than 100,000 replicas).
        lines.clear();
        lines << PlanPlot::tr("No plan at %1 req/s: %2 of %3 devices would need more than 100,000 replicas (the search's cap)%4.")
                     .arg(format::number(request.load.requestsPerSecond, 3))
                     .arg(tooManyReplicas)
                     .arg(result.devices.size())
                     .arg(doesNotFit > 0 ? PlanPlot::tr(", %1 do not fit").arg(doesNotFit) : QString());
        lines << PlanPlot::tr("Plan a share of the load per fleet (the list below says why each device fails).");
    } else if (!bestTtft) {
        lines << PlanPlot::tr("No device fits the model with one sequence of %1 tokens (the list below says why).")
                     .arg(format::integer(request.load.promptTokens + request.load.outputTokens)); // whole tokens: 2,304, not 2,304.00
    } else {
        if (bestItl)
            lines << PlanPlot::tr("Best ITL %1 ms (%2); best TTFT %3 ms (%4).")
                         .arg(format::number(result.points[*bestItl].itlMs, 3), deviceName(request, result.points[*bestItl].device),
                              format::number(result.points[*bestTtft].ttftMs, 3), deviceName(request, result.points[*bestTtft].device));
        else // one output token: no ITL exists
            lines << PlanPlot::tr("Best TTFT %1 ms (%2); one output token has no ITL.")
                         .arg(format::number(result.points[*bestTtft].ttftMs, 3), deviceName(request, result.points[*bestTtft].device));
        if (doesNotFit > 0)
            lines << PlanPlot::tr("%1 of %2 devices do not fit; hollow grey points miss an SLO.").arg(doesNotFit).arg(result.devices.size());
        else
            lines << PlanPlot::tr("Hollow grey points miss an SLO.");
    }
    return lines.join(QLatin1Char('\n'));
}

/** A table cell sorting by @p key (numbers numerically; nullopt after every number). */
class SortItem final : public QTableWidgetItem {
public:
    SortItem(const QString& text, std::optional<double> key)
        : QTableWidgetItem(text)
        , m_key(key)
    {
        setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
        if (key)
            setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        const auto* o = dynamic_cast<const SortItem*>(&other);
        if (!o)
            return QTableWidgetItem::operator<(other);
        if (m_key && o->m_key)
            return *m_key < *o->m_key;
        if (m_key != o->m_key)
            return bool(m_key); // known before unknown
        return text() < o->text();
    }

private:
    std::optional<double> m_key;
};

/**
 * Lays the Plan tab's input boxes (label, box pairs) out in one row of @p grid, or in two when one row is wider than the
 * watched widget (the tab's scroll area's viewport): at 900 x 600 the one row, about 640 px, made the tab wider than its
 * 500 px view and the takeaway above the plot was cut at the view's edge (issue 14). Rearranges on the viewport's
 * resizes only, when the row count changes.
 */
class InputsReflow final : public QObject {
public:
    InputsReflow(QGridLayout* grid, std::vector<QWidget*> cells, QObject* parent)
        : QObject(parent)
        , m_grid(grid)
        , m_cells(std::move(cells))
    {
        arrange(false);
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Resize)
            arrange(static_cast<QResizeEvent*>(event)->size().width() < oneRowWidth());
        return QObject::eventFilter(watched, event);
    }

private:
    /** px the boxes take in one row, with the layout's spacing and margins. */
    int oneRowWidth() const
    {
        int width = m_grid->horizontalSpacing() * int(m_cells.size() - 1);
        for (const QWidget* cell : m_cells)
            width += cell->sizeHint().width();
        const QMargins margins = m_grid->contentsMargins();
        return width + margins.left() + margins.right();
    }

    void arrange(bool twoRows)
    {
        if (m_arranged && twoRows == m_twoRows)
            return;
        m_arranged = true;
        m_twoRows = twoRows;
        const int perRow = twoRows ? int(m_cells.size() + 3) / 4 * 2 : int(m_cells.size()); // pairs stay together
        for (QWidget* cell : m_cells)
            m_grid->removeWidget(cell);
        for (int i = 0; i < int(m_cells.size()); ++i)
            m_grid->addWidget(m_cells[size_t(i)], i / perRow, i % perRow);
        for (int column = 0; column <= int(m_cells.size()); ++column)
            m_grid->setColumnStretch(column, column == perRow ? 1 : 0); // the room left after the boxes
    }

    QGridLayout* m_grid;
    std::vector<QWidget*> m_cells;
    bool m_arranged = false;
    bool m_twoRows = false;
};

QString optionalNumber(const std::optional<double>& v, int significant = 3)
{
    return v && std::isfinite(*v) ? format::number(*v, significant) : QStringLiteral("-");
}

} // namespace

// ---------------------------------------------------------------------------------------------
// PlanPlot
// ---------------------------------------------------------------------------------------------

bool PlanPlot::markedPlanBelowFrontier(const model::PlanResult& result, const std::optional<int>& index)
{
    if (!index)
        return false;
    const model::PlanPoint& plan = result.points.at(size_t(*index));
    constexpr double kTolerance = 1e-9; // relative: the same point read twice is not below itself
    for (const model::DeviceSummary& summary : result.devices) {
        if (summary.device != plan.device)
            continue;
        for (int f : summary.frontier) {
            const model::PlanPoint& q = result.points.at(size_t(f));
            const bool asFast = q.tokensPerSecondPerUser >= plan.tokensPerSecondPerUser * (1 - kTolerance);
            const bool asDense = q.outputTokensPerSecondPerGpu >= plan.outputTokensPerSecondPerGpu * (1 - kTolerance);
            const bool better = q.tokensPerSecondPerUser > plan.tokensPerSecondPerUser * (1 + kTolerance)
                || q.outputTokensPerSecondPerGpu > plan.outputTokensPerSecondPerGpu * (1 + kTolerance);
            if (asFast && asDense && better)
                return true;
        }
    }
    return false;
}

PlanPlot::PlanPlot(QWidget* parent)
    : PlotPanel(tr("Fleet plan: Pareto frontier"), QStringLiteral("plan"),
                tr("Each device's Pareto frontier over GPUs per instance x layouts x batch caps x colocated or\n"
                   "disaggregated serving (docs/cost-model.md section 5):\n"
                   "  x = tokens/s per user = 1000 / ITL (ms),  y = output tokens/s per GPU at the plan's utilization.\n"
                   "Hollow markers miss the TTFT or ITL SLO (mean estimates, not percentiles). The red line is the\n"
                   "ITL SLO: points left of it are too slow per user."),
                parent)
{
    QCustomPlot* p = plot();
    setupAxis(p->xAxis, tr("tokens/s per user (1000 / ITL ms)"), false);
    setupAxis(p->yAxis, tr("output tokens/s per GPU"), false);
    for (int i = 0; i < kMaxDevices; ++i) {
        const QColor color = deviceColor(i);
        QCPGraph* line = addCurve(p, p->xAxis, p->yAxis, pen(color, 1.8), QString());
        line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, color, 6));
        line->setVisible(false);
        line->removeFromLegend();
        m_frontier.push_back(line);
        QCPGraph* missed = addMarker(p, p->xAxis, p->yAxis, missedStyle());
        missed->setVisible(false);
        m_missed.push_back(missed);
    }
    // One legend key for every hollow marker (they hold the data; the key holds none).
    m_missedKey = addMarker(p, p->xAxis, p->yAxis, missedStyle());
    m_missedKey->setName(tr("misses SLO"));
    m_missedKey->setVisible(false);
    // A line under the legend: the devices with points that are not drawn (in the layout only while there are some).
    m_notDrawnNote = new QCPTextElement(p, QString());
    m_notDrawnNote->setObjectName(QStringLiteral("planNotDrawnNote"));
    QFont noteFont = m_notDrawnNote->font();
    noteFont.setPointSizeF(8.0);
    m_notDrawnNote->setFont(noteFont);
    m_notDrawnNote->setTextColor(palette::axis());
    m_notDrawnNote->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_notDrawnNote->setMargins(QMargins(8, 0, 8, 4));
    m_notDrawnNote->setLayer(p->legend->layer());
    // A line at the bottom while a marked plan sits below its own device's frontier (issue 14): the frontier's points
    // are per replica, the marked plan's fleet is rounded up to whole replicas before it is priced.
    m_roundingNote = new QCPTextElement(p, QString());
    m_roundingNote->setObjectName(QStringLiteral("planRoundingNote"));
    m_roundingNote->setFont(noteFont);
    m_roundingNote->setTextColor(palette::axis());
    m_roundingNote->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_roundingNote->setMargins(QMargins(8, 0, 8, 4));
    m_roundingNote->setLayer(p->legend->layer());
    m_roundingNote->setVisible(false);
    m_noPlanLabel = new QCPItemText(p);
    m_noPlanLabel->setClipToAxisRect(true);
    m_noPlanLabel->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_noPlanLabel->position->setCoords(0.5, 0.03);
    m_noPlanLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_noPlanLabel->setTextAlignment(Qt::AlignLeft);
    m_noPlanLabel->setColor(palette::error());
    m_noPlanLabel->setBrush(QBrush(palette::withAlpha(palette::card(), 230)));
    m_noPlanLabel->setPadding(QMargins(6, 4, 6, 4));
    m_noPlanLabel->setVisible(false);
    m_cheapestMarker = addMarker(p, p->xAxis, p->yAxis,
                                 QCPScatterStyle(QCPScatterStyle::ssStar, pen(palette::text(), 2.0), QBrush(Qt::NoBrush), 18));
    m_efficientMarker = addMarker(p, p->xAxis, p->yAxis,
                                  QCPScatterStyle(QCPScatterStyle::ssDiamond, pen(palette::text(), 2.0), QBrush(Qt::NoBrush), 15));
    m_cheapestMarker->setName(tr("cheapest plan"));
    m_efficientMarker->setName(tr("most power-efficient plan"));
    // The plan labels are placed by separateLabels() alone (not plotkit::fitLabels): beside their marker or, where the
    // curves leave no room there, farther out with a leader line.
    m_cheapestLabel = addLabel(p, p->xAxis, p->yAxis, palette::text());
    m_cheapestLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_efficientLabel = addLabel(p, p->xAxis, p->yAxis, palette::text());
    m_efficientLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    for (QCPItemLine** leader : {&m_cheapestLeader, &m_efficientLeader}) {
        *leader = new QCPItemLine(p);
        (*leader)->setPen(pen(palette::axis(), 1.0));
        (*leader)->setClipToAxisRect(true);
        for (QCPItemPosition* end : {(*leader)->start, (*leader)->end})
            end->setType(QCPItemPosition::ptAbsolute);
        (*leader)->setVisible(false);
    }
    m_itlLine = addStraightLine(p, p->xAxis, p->yAxis, pen(palette::slo(), 1.4, Qt::DashLine));
    m_itlLabel = addLabel(p, p->xAxis, p->yAxis, palette::slo());
    setPlacement(m_itlLabel, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 0, 4, 0));
    placeLegendBelow(p, 4);
    p->legend->setVisible(true);
    // After PlotPanel's plotkit::fitLabels (connected first): the final say on where the labels go.
    connect(p, &QCustomPlot::afterLayout, this, &PlanPlot::separateLabels);
}

void PlanPlot::refresh(const model::Scenario&, const model::Evaluation&)
{
}

void PlanPlot::setResult(const model::PlanRequest& request, const model::PlanResult& result, const std::vector<int>& drawn)
{
    QCustomPlot* p = plot();
    m_drawn = drawn;
    Extent xs, ys;
    xs.log = ys.log = true; // positive values only: both axes may turn logarithmic
    bool anyMissed = false;
    for (int i = 0; i < kMaxDevices; ++i) {
        QCPGraph* line = m_frontier[size_t(i)];
        QCPGraph* missed = m_missed[size_t(i)];
        QVector<double> keys, values, missedKeys, missedValues;
        if (i < int(drawn.size())) {
            const model::DeviceSummary& summary = result.devices.at(size_t(drawn[size_t(i)]));
            for (int index : summary.frontier) {
                const model::PlanPoint& point = result.points.at(size_t(index));
                const double x = point.tokensPerSecondPerUser, y = point.outputTokensPerSecondPerGpu;
                if (!finitePositive(x) || !finitePositive(y))
                    continue;
                keys << x;
                values << y;
                xs.include(x);
                ys.include(y);
                if (!point.meetsSlo()) {
                    missedKeys << x;
                    missedValues << y;
                }
            }
        }
        line->setData(keys, values, true);
        missed->setData(missedKeys, missedValues, true);
        anyMissed = anyMissed || !missedKeys.isEmpty();
        const bool shown = i < int(drawn.size());
        line->setVisible(shown);
        missed->setVisible(shown);
        missed->removeFromLegend(); // the one "misses SLO" key stands for them all
        if (shown) {
            line->setName(deviceName(request, drawn[size_t(i)]));
            line->addToLegend();
            missed->setName(line->name() + tr(" (misses an SLO)"));
        } else {
            line->removeFromLegend();
        }
    }
    m_missedKey->setVisible(anyMissed);
    if (anyMissed)
        m_missedKey->addToLegend();
    else
        m_missedKey->removeFromLegend();
    // Devices with points that are not drawn: said in the legend, with where to find them.
    std::vector<bool> withPoints(result.devices.size(), false);
    for (size_t d = 0; d < result.devices.size(); ++d) {
        if (result.plans.empty())
            withPoints[d] = !result.devices[d].frontier.empty();
    }
    for (int index : result.plans) {
        const int device = result.points.at(size_t(index)).device;
        for (size_t d = 0; d < result.devices.size(); ++d)
            withPoints[d] = withPoints[d] || result.devices[d].device == device;
    }
    int candidates = 0;
    for (size_t d = 0; d < result.devices.size(); ++d) {
        const bool isDrawn = std::find(drawn.begin(), drawn.end(), result.devices[d].device) != drawn.end();
        candidates += withPoints[d] && !isDrawn ? 1 : 0;
    }
    m_notDrawn = candidates;
    QCPLayoutGrid* layout = p->plotLayout();
    auto holds = [layout](QCPLayoutElement* element) {
        for (int i = 0; i < layout->elementCount(); ++i)
            if (layout->elementAt(i) == element)
                return true;
        return false;
    };
    // The legend under the plot only while it has entries: an empty legend, hidden, still capped the layout column at
    // its own grid's maximum width, so the axis rect shrank to 50 px with its tick labels run together when no device
    // fit (--set model.params=1e16, a trial).
    if (!drawn.empty() && !holds(p->legend)) {
        layout->insertRow(1);
        layout->addElement(1, 0, p->legend);
        layout->setRowStretchFactor(1, 0.001);
    } else if (drawn.empty() && holds(p->legend)) {
        layout->take(p->legend);
        layout->simplify();
    }
    const bool inLayout = holds(m_notDrawnNote);
    if (m_notDrawn > 0) {
        m_notDrawnNote->setText(
            result.plans.empty()
                ? tr("+%1 more devices that fit are not drawn (drawn: the %2 nearest the ITL SLO); every point is in plan_pareto.csv")
                      .arg(m_notDrawn)
                      .arg(int(drawn.size()))
                : tr("+%1 more devices with plans are not drawn (drawn: the %2 with the best plans); see the table below and "
                     "plan_pareto.csv")
                      .arg(m_notDrawn)
                      .arg(int(drawn.size())));
        if (!inLayout) { // under the legend
            const int row = layout->rowCount();
            layout->addElement(row, 0, m_notDrawnNote);
            layout->setRowStretchFactor(row, 0.001);
        }
        m_notDrawnNote->setVisible(true);
    } else if (inLayout) {
        layout->take(m_notDrawnNote);
        layout->simplify();
        m_notDrawnNote->setVisible(false);
    }
    if (result.plans.empty()) {
        m_noPlanLabel->setText(whyNoPlan(request, result));
        m_noPlanLabel->setVisible(true);
    } else {
        m_noPlanLabel->setVisible(false);
    }

    auto mark = [&](QCPGraph* marker, QCPItemText* label, const std::optional<int>& index, const QString& what) {
        if (!index) {
            marker->data()->clear();
            label->setVisible(false);
            return QPointF();
        }
        const model::PlanPoint& point = result.points.at(size_t(*index));
        const double x = point.tokensPerSecondPerUser, y = point.outputTokensPerSecondPerGpu;
        if (!finitePositive(x) || !finitePositive(y)) {
            marker->data()->clear();
            label->setVisible(false);
            return QPointF();
        }
        assignPoint(marker, x, y);
        xs.include(x);
        ys.include(y);
        label->setText(what + QLatin1Char('\n') + pointText(request, point));
        placeLabelAt(label, x, y);
        label->setVisible(true);
        return QPointF(x, y);
    };
    const bool same = result.cheapest && result.mostPowerEfficient && *result.cheapest == *result.mostPowerEfficient;
    const QPointF cheapest = mark(m_cheapestMarker, m_cheapestLabel, result.cheapest,
                                  same ? tr("cheapest and most power-efficient") : tr("cheapest"));
    if (same) {
        m_efficientMarker->data()->clear();
        m_efficientLabel->setVisible(false);
    } else {
        mark(m_efficientMarker, m_efficientLabel, result.mostPowerEfficient, tr("most power-efficient"));
    }
    Q_UNUSED(cheapest);
    // A marked plan below its device's frontier (a frontier point as fast per user and faster per GPU, or the other way
    // round): the frontier is per replica; the plan's cost is the fleet's, rounded up to whole replicas, after it.
    const bool offFrontier = markedPlanBelowFrontier(result, result.cheapest) || markedPlanBelowFrontier(result, result.mostPowerEfficient);
    // One output token: no inter-token gap, so no ITL SLO line; the x of a point is the decode rate a user would get
    // (model::PlanPoint::tokensPerSecondPerUser), and the note says so (new-user and adversarial trials, stop 32: the cheapest star sat left of the ITL line, on the
    // side the tool tip calls too slow per user, and the note blamed the rounding).
    const bool noItl = request.load.outputTokens < 2;
    const QString xTitle = noItl ? tr("tokens/s per user (the decode rate: one output token has no ITL)") : tr("tokens/s per user (1000 / ITL ms)");
    if (p->xAxis->label() != xTitle)
        p->xAxis->setLabel(xTitle);
    const bool noteInLayout = holds(m_roundingNote);
    if (offFrontier || noItl) {
        QStringList notes;
        if (noItl)
            notes << tr("One output token: no ITL, so no ITL SLO line; x is the decode rate a user would get (1 / t_step, less the prefills' share when colocated)");
        if (offFrontier)
            notes << tr("A marked plan below its frontier: fleet rounded up to whole replicas (the frontier is per replica)");
        m_roundingNote->setText(notes.join(QLatin1Char('\n')));
        if (!noteInLayout) {
            const int row = layout->rowCount();
            layout->addElement(row, 0, m_roundingNote);
            layout->setRowStretchFactor(row, 0.001);
        }
        m_roundingNote->setVisible(true);
    } else if (noteInLayout) {
        layout->take(m_roundingNote);
        layout->simplify();
        m_roundingNote->setVisible(false);
    }

    const double sloX = request.slo.itlMs > 0 && !noItl ? 1000.0 / request.slo.itlMs : 0;
    if (finitePositive(sloX))
        xs.include(sloX);

    // Logarithmic where the spread is large, linear otherwise.
    const bool logX = xs.valid() && xs.high / xs.low > 20;
    const bool logY = ys.valid() && ys.high / ys.low > 20;
    if (logX != m_logX) {
        setupAxis(p->xAxis, p->xAxis->label(), logX);
        m_logX = logX;
    }
    if (logY != m_logY) {
        setupAxis(p->yAxis, p->yAxis->label(), logY);
        m_logY = logY;
    }
    xs.log = logX;
    ys.log = logY;
    if (!logX && xs.valid())
        xs.include(0.0);
    if (!logY && ys.valid())
        ys.include(0.0);
    applyRange(p->xAxis, xs, logX ? 1.4 : 0.06, QCPRange(0, 100));
    applyRange(p->yAxis, ys, logY ? 1.5 : 0.1, QCPRange(0, 1000));

    if (finitePositive(sloX)) {
        placeVertical(m_itlLine, sloX);
        m_itlLine->setVisible(true);
        m_itlLabel->setText(tr("ITL SLO %1 ms").arg(format::number(request.slo.itlMs, 3)));
        m_itlLabelTop = result.plans.empty() ? 0.3 : 0.02; // below the no-plan note
        placeLabelAtKey(m_itlLabel, sloX, m_itlLabelTop);
        setPlacement(m_itlLabel, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 0, 4, 0));
        m_itlLabel->setVisible(true);
    } else {
        m_itlLine->setVisible(false);
        m_itlLabel->setVisible(false);
    }
    p->legend->setVisible(!drawn.empty());
    if (result.plans.empty() && ys.valid() && !logY) {
        // Room above the points for the note on why nothing qualifies (linear axis; a log axis keeps its range).
        const QCPRange r = p->yAxis->range();
        p->yAxis->setRange(r.lower, r.upper + 0.45 * (r.upper - r.lower));
    }
    p->replot(QCustomPlot::rpQueuedReplot);
}

namespace {

/** The size (px, no padding) of @p label's text as QCPItemText lays it out; unrotated labels only. Measured once per
 *  label and call of PlanPlot::separateLabels(), not once per placement tried (up to 20 per label). */
QSizeF labelTextSize(const QCPItemText* label)
{
    return QFontMetrics(label->font()).boundingRect(0, 0, 0, 0, Qt::TextDontClip | label->textAlignment(), label->text()).size();
}

/** The pixel rectangle (padding included) a label of text size @p text (labelTextSize()) takes with @p alignment and
 *  @p padding at pixel @p anchor, as QCPItemText lays it out (its topLeft and bottomRight anchors). */
QRectF labelRect(const QSizeF& text, QPointF anchor, Qt::Alignment alignment, const QMargins& padding)
{
    const QRectF box(0, 0, text.width() + padding.left() + padding.right(), text.height() + padding.top() + padding.bottom());
    const double x = (alignment & Qt::AlignLeft) ? 0.0 : (alignment & Qt::AlignRight) ? -box.width() : -box.width() / 2;
    const double y = (alignment & Qt::AlignTop) ? 0.0 : (alignment & Qt::AlignBottom) ? -box.height() : -box.height() / 2;
    return QRectF(anchor.x() + x, anchor.y() + y, box.width(), box.height());
}

double overlapArea(const QRectF& a, const QRectF& b)
{
    const QRectF both = a.intersected(b);
    return both.isValid() ? both.width() * both.height() : 0.0;
}

/** Area of @p box outside @p area. */
double outsideArea(const QRectF& box, const QRectF& area)
{
    return box.width() * box.height() - overlapArea(box, area);
}

/** One way to place a label: where its anchor is, how the text sits around it, its padding, and how much less it is
 *  preferred than the first (a cost in the units of the overlap areas, px²). */
struct LabelPlacement {
    QPointF anchor;
    Qt::Alignment alignment;
    QMargins padding;
    double penalty = 0;
    bool leader = false; ///< far from its marker: a leader line joins them
};

/** Length (px) of the segment @p a-@p b inside @p box (Liang-Barsky clipping). */
double lengthInside(QPointF a, QPointF b, const QRectF& box)
{
    double t0 = 0, t1 = 1;
    const double dx = b.x() - a.x(), dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - box.left(), box.right() - a.x(), a.y() - box.top(), box.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return 0;
    }
    return (t1 - t0) * std::hypot(dx, dy);
}

/** True when the segments @p a-@p b and @p c-@p d cross. */
bool segmentsCross(QPointF a, QPointF b, QPointF c, QPointF d)
{
    auto side = [](QPointF p, QPointF q, QPointF r) { return (q.x() - p.x()) * (r.y() - p.y()) - (q.y() - p.y()) * (r.x() - p.x()); };
    const double d1 = side(c, d, a), d2 = side(c, d, b), d3 = side(a, b, c), d4 = side(a, b, d);
    return ((d1 > 0) != (d2 > 0)) && ((d3 > 0) != (d4 > 0));
}

/** The point of @p box nearest @p p. */
QPointF nearestPoint(const QRectF& box, QPointF p)
{
    return QPointF(std::clamp(p.x(), box.left(), box.right()), std::clamp(p.y(), box.top(), box.bottom()));
}

} // namespace

/** @p text with each line broken at spaces so that none is wider than @p width px in @p font (a word longer than
 *  that stays whole). */
static QString wrapLines(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    QStringList out;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        QString current;
        for (const QString& word : line.split(QLatin1Char(' '))) {
            const QString longer = current.isEmpty() ? word : current + QLatin1Char(' ') + word;
            if (!current.isEmpty() && metrics.horizontalAdvance(longer) > width) {
                out << current;
                current = word;
            } else {
                current = longer;
            }
        }
        out << current;
    }
    return out.join(QLatin1Char('\n'));
}

void PlanPlot::wrapNoPlanNote(double areaWidth)
{
    if (!m_noPlanLabel->visible())
        return;
    const QString shown = m_noPlanLabel->text();
    const QMargins padding = m_noPlanLabel->padding();
    const double width = areaWidth - padding.left() - padding.right() - 8;
    // The same text, width and font as the last wrap: the lines shown are already those (each layout of a slider step
    // measured every word again; docs/performance.md, "Plan tab, one frame").
    if (shown == m_noPlanWrapped && width == m_noPlanWrapWidth && m_noPlanLabel->font() == m_noPlanWrapFont)
        return;
    if (shown != m_noPlanWrapped) // set anew (setResult(), or the tab's own refusal): the lines as given
        m_noPlanSource = shown;
    const QString wrapped = wrapLines(m_noPlanSource, m_noPlanLabel->font(), width);
    ++m_noPlanWraps;
    m_noPlanWrapped = wrapped;
    m_noPlanWrapWidth = width;
    m_noPlanWrapFont = m_noPlanLabel->font();
    if (wrapped != shown)
        m_noPlanLabel->setText(wrapped);
}

void PlanPlot::separateLabels()
{
    QCustomPlot* p = plot();
    const QRectF area = p->axisRect()->rect();
    if (area.width() <= 0 || area.height() <= 0)
        return;
    wrapNoPlanNote(area.width());
    // The curves drawn, in pixels: a label placed over one hides it (issue 14, G: the cheapest plan's label sat on the
    // MI300X frontier). Each px of curve under a label costs as much as kCurveCost px² of overlap.
    constexpr double kCurveCost = 150;
    constexpr double kLeaderCrossCost = 1e6; // more than any placement's other costs: crossing leaders only if nothing else fits
    // A label is clipped to the axis rect, so a part outside it is lost, not merely crowded: each px² outside costs as
    // much as 67 px of curve under a label, and so does each px² of a label on another label or on the no-plan note
    // (text on text reads as neither). At 4 for outside, 8 and 1 for on a label and the note (until the twenty-first
    // stop of issue 16) a label half outside came out cheaper than one over a curve: the 720 x 480 export of the Pareto
    // plot cut "most power-efficient" to "ost power-efficient" at the axis.
    constexpr double kOutsideCost = 1e4;
    std::vector<std::vector<QPointF>> curves;
    for (QCPGraph* graph : m_frontier) {
        if (!graph->visible() || graph->data()->isEmpty())
            continue;
        std::vector<QPointF> line;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            line.emplace_back(p->xAxis->coordToPixel(it->key), p->yAxis->coordToPixel(it->value));
        curves.push_back(std::move(line));
    }
    if (m_itlLine->visible()) {
        const double x = m_itlLine->point1->pixelPosition().x();
        curves.push_back({QPointF(x, area.top()), QPointF(x, area.bottom())});
    }
    const size_t itlCurve = m_itlLine->visible() ? curves.size() - 1 : size_t(-1);
    // The ITL SLO line under a marker label counts 15 times a frontier's length (twice until h14j): a plan's label crossed
    // by the SLO line read as struck through (issue 14: the cheapest star's label on the ITL line), and with the leader
    // costs below the line across a label near its star came out cheaper than a label farther out. The ITL label skips
    // its own line.
    // Each curve's pixel bounds (a lone point's 6 px mark included): a box or a leader clear of them adds nothing, so
    // the curve's segments are not visited (the sums are those of visiting them: each would add exactly 0).
    std::vector<QRectF> curveBounds;
    for (const std::vector<QPointF>& line : curves) {
        double left = line.front().x(), right = left, top = line.front().y(), bottom = top;
        for (const QPointF& q : line) {
            left = std::min(left, q.x());
            right = std::max(right, q.x());
            top = std::min(top, q.y());
            bottom = std::max(bottom, q.y());
        }
        if (line.size() == 1) {
            left -= 3;
            right += 3;
        }
        curveBounds.emplace_back(QPointF(left, top), QPointF(right, bottom));
    }
    // False only when @p box and curve @p c's bounds are apart (touching edges count as meeting, as lengthInside() and
    // segmentsCross() see them).
    auto mayMeet = [&](const QRectF& box, size_t c) {
        const QRectF& b = curveBounds[c];
        return !(b.right() < box.left() || b.left() > box.right() || b.bottom() < box.top() || b.top() > box.bottom());
    };
    auto curveLength = [&](const QRectF& box, bool skipItl) {
        double length = 0;
        for (size_t c = 0; c < curves.size(); ++c) {
            if (skipItl && c == itlCurve)
                continue;
            if (!mayMeet(box, c))
                continue;
            const std::vector<QPointF>& line = curves[c];
            const double weight = c == itlCurve ? 15.0 : 1.0;
            for (size_t i = 0; i < line.size(); ++i) // a lone point counts as a 6 px mark
                length += weight * (line.size() == 1 ? lengthInside(line[0] - QPointF(3, 0), line[0] + QPointF(3, 0), box)
                                                     : i + 1 < line.size() ? lengthInside(line[i], line[i + 1], box) : 0.0);
        }
        return length;
    };
    // Segments of the frontiers (@p frontiers) or of the ITL SLO line (else) a leader line from @p from to @p to crosses.
    auto crossings = [&](QPointF from, QPointF to, bool frontiers) {
        int n = 0;
        const QRectF span(QPointF(std::min(from.x(), to.x()), std::min(from.y(), to.y())),
                          QPointF(std::max(from.x(), to.x()), std::max(from.y(), to.y())));
        for (size_t c = 0; c < curves.size(); ++c) {
            if ((c == itlCurve) == frontiers || !mayMeet(span, c))
                continue;
            const std::vector<QPointF>& line = curves[c];
            for (size_t i = 0; i + 1 < line.size(); ++i)
                n += segmentsCross(from, to, line[i], line[i + 1]) ? 1 : 0;
        }
        return n;
    };
    // A leader across a frontier reads as pointing at that device's curve, and a long one leaves the reader hunting for
    // its star (issue 14: at 1,600 px the cheapest star's label sat 300 px away, its leader across three frontiers): each
    // frontier crossed costs as much as 100 px of curve under the label, each px of leader as much as 0.1 px of curve.
    constexpr double kLeaderCrossFrontierCost = 100 * kCurveCost;
    constexpr double kLeaderLengthCost = 0.1 * kCurveCost;

    // A marker label beside its marker (near, as before) or farther out with a leader line, in four directions.
    auto markerPixel = [&](QCPGraph* marker) {
        const auto it = marker->data()->constBegin();
        return QPointF(p->xAxis->coordToPixel(it->key), p->yAxis->coordToPixel(it->value));
    };
    auto markerPlacements = [](QPointF marker, Qt::Alignment preferred) {
        std::vector<LabelPlacement> out;
        std::vector<Qt::Alignment> order{preferred};
        for (Qt::Alignment a : {Qt::AlignRight | Qt::AlignBottom, Qt::AlignLeft | Qt::AlignBottom, Qt::AlignLeft | Qt::AlignTop,
                                Qt::AlignRight | Qt::AlignTop})
            if (a != preferred)
                order.push_back(a);
        // Diagonal steps outwards, and two steeper / flatter ones: with the ITL SLO line an obstacle too, the room left
        // between the frontiers is often straight below or beside the marker rather than on its diagonal.
        const QPointF offsets[] = {{11, 9}, {34, 30}, {70, 56}, {60, 120}, {140, 50}, {120, 96}, {180, 140}, {250, 190}};
        for (size_t d = 0; d < std::size(offsets); ++d) {
            for (size_t k = 0; k < order.size(); ++k) {
                const Qt::Alignment a = order[k];
                // Left-aligned text starts right of the marker; bottom-aligned text sits above it.
                const QPointF offset((a & Qt::AlignLeft) ? offsets[d].x() : -offsets[d].x(),
                                     (a & Qt::AlignBottom) ? -offsets[d].y() : offsets[d].y());
                out.push_back({marker + offset, a, QMargins(3, 1, 3, 1), 4.0 * double(k) + 60.0 * double(d), d > 0});
            }
        }
        // Centred straight under or over the marker: between two frontiers there is often room there and none beside it,
        // where the ITL SLO line or the next curve runs (issue 14: at 1,600 px the cheapest star's label went 300 px away).
        const double drops[] = {12, 34, 60};
        for (size_t d = 0; d < std::size(drops); ++d)
            for (const bool below : {true, false})
                out.push_back({marker + QPointF(0, below ? drops[d] : -drops[d]), Qt::AlignHCenter | (below ? Qt::AlignTop : Qt::AlignBottom),
                               QMargins(3, 1, 3, 1), 16.0 + 60.0 * double(d) + (below ? 0.0 : 4.0), d > 0});
        return out;
    };
    struct Movable {
        QCPItemText* label;
        std::vector<LabelPlacement> placements;
        QCPItemLine* leader = nullptr;
        QPointF marker;
    };
    std::vector<Movable> movable;
    if (m_itlLabel->visible()) {
        // Beside the ITL line: right of it (preferred) or left, at its preferred top or at the bottom of the plot.
        const double x = m_itlLabel->position->pixelPosition().x();
        const QPointF top(x, area.top() + m_itlLabelTop * area.height()), bottom(x, area.top() + 0.98 * area.height());
        movable.push_back({m_itlLabel,
                           {{top, Qt::AlignLeft | Qt::AlignTop, QMargins(4, 0, 4, 0)},
                            {top, Qt::AlignRight | Qt::AlignTop, QMargins(4, 0, 4, 0), 4},
                            {bottom, Qt::AlignLeft | Qt::AlignBottom, QMargins(4, 0, 4, 0), 8},
                            {bottom, Qt::AlignRight | Qt::AlignBottom, QMargins(4, 0, 4, 0), 12}},
                           nullptr,
                           QPointF()});
    }
    for (auto [marker, label, leader, preferred] :
         {std::tuple{m_cheapestMarker, m_cheapestLabel, m_cheapestLeader, Qt::Alignment(Qt::AlignRight | Qt::AlignBottom)},
          std::tuple{m_efficientMarker, m_efficientLabel, m_efficientLeader, Qt::Alignment(Qt::AlignLeft | Qt::AlignTop)}}) {
        leader->setVisible(false);
        if (label->visible() && !marker->data()->isEmpty()) {
            const QPointF at = markerPixel(marker);
            movable.push_back({label, markerPlacements(at, preferred), leader, at});
        }
    }
    if (movable.empty())
        return;
    // Fixed: the no-plan note and the two markers (a label may not cover the other plan's marker, nor its own).
    std::vector<QRectF> fixed;
    if (m_noPlanLabel->visible())
        fixed.emplace_back(m_noPlanLabel->topLeft->pixelPosition(), m_noPlanLabel->bottomRight->pixelPosition());
    std::vector<QRectF> markers;
    for (QCPGraph* marker : {m_cheapestMarker, m_efficientMarker}) {
        if (marker->data()->isEmpty())
            continue;
        const QPointF c = markerPixel(marker);
        const double r = marker->scatterStyle().size() / 2;
        markers.emplace_back(c.x() - r, c.y() - r, 2 * r, 2 * r);
    }
    // Each placement's own cost (outside the axis rect, on the note, a marker or a curve), once.
    std::vector<std::vector<QRectF>> boxesOf(movable.size());
    std::vector<std::vector<double>> costOf(movable.size());
    for (size_t i = 0; i < movable.size(); ++i) {
        const QSizeF text = labelTextSize(movable[i].label); // once per label: the text is the same in every placement
        for (const LabelPlacement& pl : movable[i].placements) {
            const QRectF box = labelRect(text, pl.anchor, pl.alignment, pl.padding);
            double cost = pl.penalty + kOutsideCost * outsideArea(box, area);
            for (const QRectF& f : fixed)
                cost += kOutsideCost * overlapArea(box, f); // text on text: as lost as text outside
            for (const QRectF& m : markers)
                cost += 4.0 * overlapArea(box, m);
            cost += kCurveCost * curveLength(box, movable[i].label == m_itlLabel);
            if (pl.leader) {
                const QPointF end = nearestPoint(box, movable[i].marker);
                cost += 400.0 * crossings(movable[i].marker, end, false)
                    + kLeaderCrossFrontierCost * crossings(movable[i].marker, end, true)
                    + kLeaderLengthCost * std::hypot(end.x() - movable[i].marker.x(), end.y() - movable[i].marker.y());
            }
            boxesOf[i].push_back(box);
            costOf[i].push_back(cost);
        }
    }
    // Where each placement's leader line would end: the label's point nearest its marker.
    std::vector<std::vector<QPointF>> endOf(movable.size());
    for (size_t i = 0; i < movable.size(); ++i)
        for (const QRectF& box : boxesOf[i])
            endOf[i].push_back(nearestPoint(box, movable[i].marker));
    // What two labels' placements cost together (each pair of labels i > j, each pair of their placements), once:
    // 4 x 38 + 4 x 38 + 38 x 38 pairs at most, where every combination below used to cost its pairs anew (up to
    // 3 x 4 x 38 x 38). The four terms are kept apart and added in the order the combination adds them, so that every
    // combination's cost is the same double as before, ties included.
    struct PairTerms {
        double overlap, leadersCross, leaderThroughOther, otherLeaderThroughThis;
    };
    std::vector<std::vector<std::vector<PairTerms>>> pairOf(movable.size()); // [i][j][ci * size(j) + cj], j < i
    m_labelPairsCosted = 0;
    for (size_t i = 0; i < movable.size(); ++i) {
        pairOf[i].resize(i);
        for (size_t j = 0; j < i; ++j) {
            const size_t nj = movable[j].placements.size();
            std::vector<PairTerms>& terms = pairOf[i][j];
            terms.resize(movable[i].placements.size() * nj);
            for (size_t ci = 0; ci < movable[i].placements.size(); ++ci) {
                for (size_t cj = 0; cj < nj; ++cj) {
                    const LabelPlacement& a = movable[i].placements[ci];
                    const LabelPlacement& b = movable[j].placements[cj];
                    const QPointF aEnd = endOf[i][ci], bEnd = endOf[j][cj];
                    // Two leader lines that cross (issue 14: the cheapest and most-efficient leaders made an X), or
                    // one through the other's label: as bad as a label on a label.
                    terms[ci * nj + cj] = {
                        kOutsideCost * overlapArea(boxesOf[i][ci], boxesOf[j][cj]),
                        a.leader && b.leader && segmentsCross(movable[i].marker, aEnd, movable[j].marker, bEnd) ? kLeaderCrossCost : 0.0,
                        a.leader ? kCurveCost * lengthInside(movable[i].marker, aEnd, boxesOf[j][cj]) : 0.0,
                        b.leader ? kCurveCost * lengthInside(movable[j].marker, bEnd, boxesOf[i][ci]) : 0.0};
                    ++m_labelPairsCosted;
                }
            }
        }
    }
    // Every combination (at most 4 x 38 x 38), the first with the least cost wins; labels may not overlap each other.
    size_t combinations = 1;
    for (const Movable& m : movable)
        combinations *= m.placements.size();
    std::vector<size_t> choice(movable.size(), 0), best = choice;
    double bestCost = std::numeric_limits<double>::infinity();
    for (size_t n = 0; n < combinations; ++n) {
        size_t rest = n; // n in mixed radix, the last label's placement varying fastest
        for (size_t i = movable.size(); i-- > 0;) {
            choice[i] = rest % movable[i].placements.size();
            rest /= movable[i].placements.size();
        }
        double cost = 0;
        for (size_t i = 0; i < movable.size() && cost < bestCost; ++i) {
            cost += costOf[i][choice[i]];
            for (size_t j = 0; j < i; ++j) {
                const PairTerms& t = pairOf[i][j][choice[i] * movable[j].placements.size() + choice[j]];
                cost += t.overlap;
                cost += t.leadersCross; // + 0.0 where they do not cross: the same double
                cost += t.leaderThroughOther;
                cost += t.otherLeaderThroughThis;
            }
        }
        if (cost < bestCost) {
            bestCost = cost;
            best = choice;
        }
    }
    for (size_t i = 0; i < movable.size(); ++i) {
        const LabelPlacement& pl = movable[i].placements[best[i]];
        QCPItemText* label = movable[i].label;
        if (label == m_itlLabel) {
            const double ratio = (pl.anchor.y() - area.top()) / area.height();
            if (label->position->coords().y() != ratio)
                label->position->setCoords(label->position->coords().x(), ratio);
        } else {
            label->position->setPixelPosition(pl.anchor);
        }
        if (label->positionAlignment() != pl.alignment)
            label->setPositionAlignment(pl.alignment);
        if (label->padding() != pl.padding)
            label->setPadding(pl.padding);
        if (QCPItemLine* leader = movable[i].leader; leader && pl.leader) {
            // From the marker's edge to the label's nearest point.
            const QRectF box = boxesOf[i][best[i]];
            const QPointF end = nearestPoint(box, movable[i].marker);
            const QPointF from = movable[i].marker;
            const double length = std::hypot(end.x() - from.x(), end.y() - from.y());
            const double skip = std::min(length, 9.0); // out of the marker
            leader->start->setPixelPosition(from + (end - from) * (length > 0 ? skip / length : 0.0));
            leader->end->setPixelPosition(end);
            leader->setVisible(true);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// PlanTab
// ---------------------------------------------------------------------------------------------

PlanTab::PlanTab(ScenarioDocument* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("planTab"));

    auto makeSpin = [this](const QString& name, double low, double high, double value, int decimals, const QString& suffix,
                           const QString& tip) {
        auto* spin = new QDoubleSpinBox(this);
        spin->setObjectName(name);
        spin->setRange(low, high);
        spin->setDecimals(decimals);
        spin->setValue(value);
        spin->setSuffix(suffix);
        spin->setKeyboardTracking(false);
        spin->setToolTip(tip);
        spin->setAccessibleName(tip);
        return spin;
    };
    m_rate = makeSpin(QStringLiteral("planRateSpinBox"), 0, 1e6, 10, 2, tr(" req/s"),
                      tr("Mean request rate the fleet must carry (Poisson arrivals), requests per second"));
    m_ttft = makeSpin(QStringLiteral("planTtftSpinBox"), 1, 1e6, 800, 0, tr(" ms"),
                      tr("TTFT SLO (mean estimate), milliseconds; follows the scenario's TTFT SLO"));
    m_itl = makeSpin(QStringLiteral("planItlSpinBox"), 1, 1e5, 50, 1, tr(" ms"),
                     tr("ITL SLO (mean estimate), milliseconds; follows the scenario's first ITL SLO line"));
    m_pue = makeSpin(QStringLiteral("planPueSpinBox"), model::kMinPue, model::kMaxPue, model::kDefaultPue, 2, QString(),
                     tr("Power usage effectiveness: facility power / IT power (an assumption)"));
    m_pue->setSingleStep(0.05);
    m_examplePrices = new QCheckBox(tr("Example prices per GPU-hour"), this);
    m_examplePrices->setObjectName(QStringLiteral("planExamplePricesCheckBox"));
    m_examplePrices->setChecked(true);
    m_examplePrices->setToolTip(tr("Illustrative prices from resources/plans/gpu-prices-example.json: examples to edit, "
                                   "not quotes. Off: every cost is unknown (-) and plans rank by J/token."));

    auto* inputs = new QGridLayout;
    inputs->setHorizontalSpacing(12);
    std::vector<QWidget*> inputCells; // label, box, label, box...: one row, or two where one is wider than the view
    auto addInput = [&](const QString& label, QWidget* widget) {
        auto* l = new QLabel(label, this);
        l->setBuddy(widget);
        inputCells.push_back(l);
        inputCells.push_back(widget);
    };
    addInput(tr("&Rate"), m_rate);
    addInput(tr("&TTFT SLO"), m_ttft);
    addInput(tr("&ITL SLO"), m_itl);
    addInput(tr("&PUE"), m_pue);
    auto* note = m_inputsNote = new QLabel(tr("Model, prompt / output lengths and efficiencies: the scenario's controls."), this);
    note->setObjectName(QStringLiteral("planInputsNote"));
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(palette::css(palette::axis())));
    // The check box beside the note, not after the four boxes: one row of them all was 960 px wide and, with a 1280 px
    // window, pushed the tab past its view (issue 14, G).
    auto* secondRow = new QHBoxLayout;
    secondRow->setSpacing(12);
    secondRow->addWidget(m_examplePrices);
    secondRow->addWidget(note, 1);

    // Which plan is shown: the window scenario's (live) or a plan file's (`ridgeline --plan FILE`'s format).
    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("planSourceLabel"));
    m_source->setWordWrap(true);
    m_source->setTextFormat(Qt::PlainText);
    m_source->setAccessibleName(tr("Plan shown"));
    m_openFile = new QPushButton(tr("Open plan &file\u2026"), this);
    m_openFile->setObjectName(QStringLiteral("planOpenFileButton"));
    m_openFile->setToolTip(tr("Show the plan of a plan file (JSON, as ridgeline --plan FILE reads it: model, load, SLOs, "
                              "candidates, prices): its Pareto plot, plans and exclusions, and the export's plan_pareto files"));
    m_live = new QPushButton(tr("Back to the scenario's plan"), this);
    m_live->setObjectName(QStringLiteral("planLiveButton"));
    m_live->setToolTip(tr("Show the live plan of the window's scenario again (the inputs above)"));
    connect(m_openFile, &QPushButton::clicked, this, &PlanTab::openPlanFileFromDialog);
    connect(m_live, &QPushButton::clicked, this, &PlanTab::showLivePlan);
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(m_openFile);
    sourceRow->addWidget(m_live);

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("planMessageLabel"));
    m_message->setWordWrap(true);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: 600; }").arg(palette::css(palette::error())));
    m_message->setVisible(false);

    m_rangeNote = new QLabel(this);
    m_rangeNote->setObjectName(QStringLiteral("planRangeNoteLabel"));
    m_rangeNote->setWordWrap(true);
    m_rangeNote->setTextFormat(Qt::PlainText);
    m_rangeNote->setAccessibleName(tr("Values the input boxes cannot show"));
    m_rangeNote->setVisible(false);

    m_plot = new PlanPlot(this);
    m_plot->setMinimumHeight(380);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("planTable"));
    QStringList headers(ColumnCount); // in the order of Column
    headers[RankColumn] = tr("#");
    headers[DeviceColumn] = tr("Device, layout");
    headers[CostColumn] = tr("USD/1M out"); // showCurrency() writes the plan's currency
    headers[ItlColumn] = tr("ITL (ms)");
    headers[TtftColumn] = tr("TTFT (ms)");
    headers[GpusColumn] = tr("GPUs in all");
    headers[LayoutColumn] = tr("Layout");
    headers[ModeColumn] = tr("Mode");
    headers[BatchCapColumn] = tr("Batch cap");
    headers[FleetColumn] = tr("Replicas / pools");
    headers[TokensPerGpuColumn] = tr("tok/s/GPU");
    headers[TokensPerUserColumn] = tr("tok/s/user");
    headers[JoulesColumn] = tr("J/token");
    m_table->setHorizontalHeaderLabels(headers);
    m_table->horizontalHeaderItem(DeviceColumn)
        ->setToolTip(tr("The device, its layout (TP tensor-, PP pipeline-, EP expert-parallel GPUs; PP1 and EP1 not written) "
                        "and its fleet: \u00d7N replicas, or nP+mD prefill and decode instances when disaggregated"));
    m_table->horizontalHeaderItem(CostColumn)
        ->setToolTip(tr("Cost per million output tokens, every GPU-second charged to output (all-in), at the example "
                        "or given price; - when the price is unknown"));
    m_table->verticalHeader()->setVisible(false);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSortingEnabled(true);
    // Widths set once per result (resizeColumnsToContents() in showResult()): ResizeToContents would
    // measure every row again on each setItem().
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setResizeContentsPrecision(200);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("Ranked plans"));

    m_excluded = new QListWidget(this);
    m_excluded->setObjectName(QStringLiteral("planExcludedList"));
    m_excluded->setAccessibleName(tr("Devices without a plan"));
    m_excluded->setWordWrap(true);

    // Per-device economics: price per GPU-hour and board power, editable; the source says whose figure it is.
    m_catalogue = model::catalogueDevices(true, model::kDefaultPue);
    m_economics = new QTableWidget(int(m_catalogue.size()), EconomicsColumnCount, this);
    m_economics->setObjectName(QStringLiteral("planEconomicsTable"));
    m_economics->setAccessibleName(tr("Price per GPU-hour and board power per device"));
    m_economics->setHorizontalHeaderLabels({tr("Device"), tr("USD/GPU-hour"), tr("source"), tr("Board W"), tr("source")});
    m_economics->horizontalHeaderItem(PriceColumn)
        ->setToolTip(tr("Price per GPU-hour (USD). Double-click to edit; \"example\": resources/plans/gpu-prices-example.json, "
                        "an illustration, not a quote"));
    m_economics->horizontalHeaderItem(PowerColumn)
        ->setToolTip(tr("Board power per GPU (W, at TDP). Double-click to edit; \"datasheet\": the catalogue's figure"));
    m_economics->verticalHeader()->setVisible(false);
    m_economics->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed | QAbstractItemView::AnyKeyPressed);
    m_economics->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_economics->horizontalHeader()->setStretchLastSection(true);
    fillEconomicsTable();
    connect(m_economics, &QTableWidget::itemChanged, this, &PlanTab::economicsEdited);

    // Short headings, the rest in their tool tips: the long ones made the three boxes 960 px wide at the least and
    // pushed the tab past a 1280 px window's view (issue 14, G); wrapped, they overlapped the plot's legend.
    auto heading = [this](const QString& text, const QString& tip) {
        auto* label = new QLabel(text, this);
        label->setToolTip(tip);
        label->setWordWrap(true); // one line each from about 1,000 px; at 900 x 600 their width made the tab wider than the view
        return label;
    };
    auto* lower = new QHBoxLayout;
    auto* tableBox = new QVBoxLayout;
    tableBox->addWidget(heading(tr("<b>Plans meeting both SLOs</b>, cheapest first"),
                                tr("Plans meeting both SLOs, cheapest first: click a column header to sort")));
    tableBox->addWidget(m_table, 1);
    auto* economicsBox = new QVBoxLayout;
    economicsBox->addWidget(heading(tr("<b>Price and power</b> per GPU"), tr("Price and power per GPU: double-click a value to edit it")));
    economicsBox->addWidget(m_economics, 1);
    auto* excludedBox = new QVBoxLayout;
    excludedBox->addWidget(heading(tr("<b>Devices without a plan</b>"), tr("Devices without a plan (and why), then the devices with plans "
                                                                          "that the plot does not draw")));
    excludedBox->addWidget(m_excluded, 1);
    // The widest: cost, ITL and TTFT show at 1,280 px beside the device cell, which names the layout and fleet too
    // (tst_plantab::labelsAvoidTheCurves, rankedRowsReadApartAt1280).
    lower->addLayout(tableBox, 8);
    lower->addLayout(economicsBox, 3);
    lower->addLayout(excludedBox, 2);

    // In a scroll area of its own: below the tab's minimum height (the plot's 380 px, the inputs and the tables) a
    // short window scrolls it. Without one, the wrapped source text's extra lines were taken from the layout below
    // and, at 900 x 600, the table headings sat on the plot (issue 14).
    auto* content = new QWidget;
    content->setObjectName(QStringLiteral("planContent"));
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("planScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 8, 0, 0);
    layout->addLayout(sourceRow);
    layout->addLayout(inputs);
    layout->addLayout(secondRow);
    layout->addWidget(m_rangeNote);
    layout->addWidget(m_message);
    layout->addWidget(m_plot, 3);
    layout->addLayout(lower, 2);
    scroll->setWidget(content);
    scroll->viewport()->setAutoFillBackground(false);
    scroll->viewport()->installEventFilter(new InputsReflow(inputs, std::move(inputCells), scroll->viewport()));
    content->setAutoFillBackground(false);

    // One search per event-loop pass, however many changes arrive in it.
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(0);
    connect(m_timer, &QTimer::timeout, this, [this] { search(true); });
    m_tablesTimer = new QTimer(this);
    m_tablesTimer->setSingleShot(true);
    m_tablesTimer->setInterval(kTablesQuietMs);
    connect(m_tablesTimer, &QTimer::timeout, this, &PlanTab::showTables);

    m_livePue = m_pue->value();
    syncSlosFromDocument();
    showSource();
    showCurrency();
    connect(m_document, &ScenarioDocument::evaluated, this, &PlanTab::scheduleRecompute);
    // A user's edit (the boxes are set with their signals blocked otherwise): the live plan takes the box's value.
    for (auto [spin, live] : {std::pair{m_rate, &m_liveRate}, std::pair{m_ttft, &m_liveTtftMs}, std::pair{m_itl, &m_liveItlMs},
                              std::pair{m_pue, &m_livePue}})
        // An init-capture: clang 14 (the sanitizer build) cannot capture a structured binding by name.
        connect(spin, &QDoubleSpinBox::valueChanged, this, [this, live = live](double value) {
            *live = value;
            showInputValues();
            scheduleRecompute();
        });
    connect(m_examplePrices, &QCheckBox::toggled, this, [this](bool checked) {
        m_examplePricesWanted = checked; // the user's choice (the box is set with its signals blocked otherwise)
        fillEconomicsTable();
        scheduleRecompute();
    });
}

void PlanTab::fillEconomicsTable()
{
    const QSignalBlocker quiet(m_economics);
    const bool examplesApply = model::examplePricesApply(currency().toStdString());
    const bool examples = m_examplePricesWanted && examplesApply;
    const ScenarioEconomics own = scenarioEconomics();
    // Runs on every search (each slider step of a drag): a cell is only written where its text, flags or alignment
    // differ. Every write emits the model's dataChanged() (setFlags() always does, even with the same flags), and with
    // ResizeToContents columns each one had the header measure every cell again: about 64 % of a step's instructions
    // (docs/performance.md, "Plan tab, slider to painted").
    auto cell = [this](int row, int column, const QString& text, bool editable) {
        // Items are updated in place: this runs inside itemChanged() while the edited item commits.
        QTableWidgetItem* item = m_economics->item(row, column);
        if (!item) {
            item = new QTableWidgetItem;
            m_economics->setItem(row, column, item);
        }
        if (item->text() != text)
            item->setText(text);
        const Qt::ItemFlags flags = editable ? Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable
                                             : Qt::ItemIsSelectable | Qt::ItemIsEnabled;
        if (item->flags() != flags)
            item->setFlags(flags);
        if (editable && item->textAlignment() != int(Qt::AlignRight | Qt::AlignVCenter))
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    };
    auto deviceId = [this](int row, const std::string& id) {
        const QString text = QString::fromStdString(id);
        QTableWidgetItem* item = m_economics->item(row, EconomicsDeviceColumn);
        if (item->data(Qt::UserRole).toString() != text)
            item->setData(Qt::UserRole, text);
    };
    if (m_planFile) {
        // A plan file's own devices, prices and power (new-user trial: the disabled table kept the scenario's USD
        // examples under the file's EUR header). Rows go back to the catalogue with the live plan.
        const std::vector<model::PlanDevice>& devices = m_planFile->request.candidates.devices;
        m_economics->setRowCount(int(devices.size()));
        for (int row = 0; row < int(devices.size()); ++row) {
            const model::PlanDevice& d = devices[size_t(row)];
            cell(row, EconomicsDeviceColumn, QString::fromStdString(d.hardware.name), false);
            deviceId(row, d.id);
            const auto& price = d.economics.pricePerGpuHour;
            const auto& power = d.economics.boardPowerWatts;
            cell(row, PriceColumn, price ? format::plain(*price) : QStringLiteral("-"), false);
            // Each figure's own source: the file's "prices" / "power_watts", the example prices or the datasheet TDP (a
            // trial, stop 30: every one read "plan file", the examples and datasheet figures too).
            const auto source = [](bool known, const std::string& from) {
                return !known                  ? tr("none")
                       : from == "plan file"   ? tr("plan file")
                       : from == "example"     ? tr("example")
                       : from == "datasheet"   ? tr("datasheet")
                                               : QString::fromStdString(from);
            };
            cell(row, PriceSourceColumn, source(price.has_value(), d.priceSource), false);
            cell(row, PowerColumn, power ? format::plain(*power) : QStringLiteral("-"), false);
            cell(row, PowerSourceColumn, source(power.has_value(), d.powerSource), false);
        }
        return;
    }
    m_economics->setRowCount(int(m_catalogue.size()));
    for (int row = 0; row < int(m_catalogue.size()); ++row) {
        const model::PlanDevice& d = m_catalogue[size_t(row)];
        cell(row, EconomicsDeviceColumn, QString::fromStdString(d.hardware.name), false);
        deviceId(row, d.id);
        // The price shown and its source, first that applies: the user's edit, the scenario's own price for its device,
        // the example price (when examples are on). A plain number and a flag, not a std::optional copied between the
        // branches: g++ -O2 warned that such an optional "may be used uninitialized".
        const bool scenarioDevice = !own.deviceId.empty() && own.deviceId == d.id;
        double price = 0; // per GPU-hour, in currency()
        bool priceKnown = false;
        QString priceSource;
        if (const auto it = m_priceEdits.find(d.id); it != m_priceEdits.end()) {
            price = it->second;
            priceKnown = true;
            priceSource = tr("edited");
        } else if (scenarioDevice && own.pricePerGpuHour.has_value()) {
            price = own.pricePerGpuHour.value();
            priceKnown = true;
            priceSource = QString::fromStdString(own.currency).compare(QStringLiteral("USD"), Qt::CaseInsensitive) == 0
                              ? tr("scenario")
                              : tr("scenario (%1)").arg(QString::fromStdString(own.currency));
        } else if (!d.economics.pricePerGpuHour.has_value()) {
            priceSource = tr("none");
        } else if (examples) {
            price = d.economics.pricePerGpuHour.value();
            priceKnown = true;
            priceSource = tr("example");
        } else {
            priceSource = examplesApply ? tr("example off")
                                        : tr("example in %1, not used").arg(QString::fromStdString(model::examplePriceCurrency()));
        }
        cell(row, PriceColumn, priceKnown ? format::plain(price) : QStringLiteral("-"), true);
        cell(row, PriceSourceColumn, priceSource, false);
        // The board power, the same way: the user's edit, the scenario's own, the datasheet's.
        double power = 0; // W per GPU
        bool powerKnown = false;
        QString powerSource = tr("none");
        if (const auto it = m_powerEdits.find(d.id); it != m_powerEdits.end()) {
            power = it->second;
            powerKnown = true;
            powerSource = tr("edited");
        } else if (scenarioDevice && own.boardPowerWatts.has_value()) {
            power = own.boardPowerWatts.value();
            powerKnown = true;
            powerSource = tr("scenario");
        } else if (d.economics.boardPowerWatts.has_value()) {
            power = d.economics.boardPowerWatts.value();
            powerKnown = true;
            powerSource = tr("datasheet");
        }
        cell(row, PowerColumn, powerKnown ? format::plain(power) : QStringLiteral("-"), true);
        cell(row, PowerSourceColumn, powerSource, false);
    }
}

PlanTab::ScenarioEconomics PlanTab::scenarioEconomics() const
{
    ScenarioEconomics out;
    const model::Scenario& scenario = m_document->evaluatedScenario();
    const model::OperatingEconomics economics = model::operatingEconomics(scenario, m_document->evaluation());
    if (economics.catalogueDevice.empty())
        return out;
    for (const model::PlanDevice& d : m_catalogue)
        if (d.hardware.name == economics.catalogueDevice)
            out.deviceId = d.id;
    if (economics.priceSource == model::PriceSource::User)
        out.pricePerGpuHour = economics.inputs.pricePerGpuHour;
    if (economics.powerSource == model::PowerSource::Scenario)
        out.boardPowerWatts = economics.inputs.boardPowerWatts;
    out.currency = economics.currency;
    return out;
}

void PlanTab::economicsEdited(QTableWidgetItem* item)
{
    const int column = item->column();
    if (column != PriceColumn && column != PowerColumn)
        return;
    const model::PlanDevice& d = m_catalogue.at(size_t(item->row()));
    const QString text = item->text().trimmed();
    bool ok = false;
    double value = QLocale().toDouble(text, &ok);
    if (!ok)
        value = text.toDouble(&ok); // "2.5" also where the locale writes "2,5"
    if (!ok || !std::isfinite(value) || value <= 0) {
        const QString field = column == PriceColumn ? tr("price per GPU-hour") : tr("board power (W)");
        fillEconomicsTable(); // back to the last good value
        const QString message = tr("%1: %2 \"%3\" is not valid: give a number above 0. Kept %4.")
                                    .arg(QString::fromStdString(d.hardware.name), field, text.isEmpty() ? tr("(empty)") : text,
                                         m_economics->item(item->row(), column)->text());
        m_message->setText(message);
        m_message->setVisible(true);
        return;
    }
    (column == PriceColumn ? m_priceEdits : m_powerEdits)[d.id] = value;
    fillEconomicsTable();
    scheduleRecompute();
}

QByteArray PlanTab::paretoCsv() const
{
    auto cell = [](const QString& text) {
        QByteArray bytes = text.toUtf8();
        if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n'))
            bytes = '"' + bytes.replace('"', "\"\"") + '"';
        return bytes;
    };
    auto number = [](double v) { return std::isfinite(v) ? QByteArray::fromStdString(model::formatNumber(v)) : QByteArray(); };
    auto optional = [&](const std::optional<double>& v) { return v ? number(*v) : QByteArray(); };
    QByteArray out = "series," + cell(axisTitle(m_plot->plot()->xAxis)) + ',' + cell(axisTitle(m_plot->plot()->yAxis))
                     + ",device_id,gpus_per_instance,tp,pp,ep,disaggregated,batch_cap,total_gpus,itl_ms,ttft_ms,meets_slo,excluded_by,"
                       "on_frontier,cost_per_million_output_tokens_all_in,joules_per_output_token,currency\n";
    if (!m_result || !m_request)
        return out;
    const model::PlanResult& r = *m_result;
    std::vector<bool> onFrontier(r.points.size(), false);
    for (const model::DeviceSummary& d : r.devices)
        for (int i : d.frontier)
            onFrontier[size_t(i)] = true;
    auto row = [&](const QString& series, size_t i) {
        const model::PlanPoint& p = r.points[i];
        const char* excludedBy = p.meetsSlo() ? "" : !p.meetsItl && !p.meetsTtft ? "misses_itl_and_ttft" : !p.meetsItl ? "misses_itl" : "misses_ttft";
        out += cell(series) + ',' + number(p.tokensPerSecondPerUser) + ',' + number(p.outputTokensPerSecondPerGpu) + ','
               + cell(QString::fromStdString(m_request->candidates.devices.at(size_t(p.device)).id)) + ','
               + QByteArray::number(p.gpusPerInstance) + ',' + QByteArray::number(p.layout.tp) + ',' + QByteArray::number(p.layout.pp) + ','
               + QByteArray::number(p.layout.ep) + ',' + (p.disaggregated ? "true" : "false") + ',' + QByteArray::number(p.batchCap) + ','
               + QByteArray::number(p.totalGpus) + ',' + (p.itlDefined ? number(p.itlMs) : QByteArray()) + ',' + number(p.ttftMs) + ',' + (p.meetsSlo() ? "true" : "false")
               + ',' + excludedBy + ',' + (onFrontier[i] ? "true" : "false") + ',' + optional(p.cost.costPerMillionOutputTokensAllIn) + ','
               + optional(p.cost.joulesPerOutputToken) + ','
               // Added last, as the plan CSV's (issue 14 trial: the money column's currency was not said).
               + cell(QString::fromStdString(m_request->currency)) + '\n';
    };
    for (size_t i = 0; i < r.points.size(); ++i)
        row(deviceName(*m_request, r.points[i].device), i);
    if (r.cheapest)
        row(m_plot->cheapestMarker()->name(), size_t(*r.cheapest));
    if (r.mostPowerEfficient)
        row(m_plot->efficientMarker()->name(), size_t(*r.mostPowerEfficient));
    return out;
}

void PlanTab::syncSlosFromDocument()
{
    const model::Workload& workload = m_document->evaluatedScenario().workload;
    if (workload.ttftSloMs > 0 && workload.ttftSloMs != m_documentTtftMs) {
        m_documentTtftMs = workload.ttftSloMs;
        m_liveTtftMs = workload.ttftSloMs;
    }
    if (!workload.itlSloMs.empty() && workload.itlSloMs.front() > 0 && workload.itlSloMs.front() != m_documentItlMs) {
        m_documentItlMs = workload.itlSloMs.front();
        m_liveItlMs = workload.itlSloMs.front();
    }
    showInputValues();
}

void PlanTab::showInputValues()
{
    const bool file = m_planFile.has_value();
    const model::PlanRequest* r = file ? &m_planFile->request : nullptr;
    const double pue = r && !r->candidates.devices.empty() ? r->candidates.devices.front().economics.pue : m_livePue;
    struct Shown {
        QDoubleSpinBox* spin;
        double value;
        QString field, unit;
        bool fromBox; ///< the live rate and PUE are the box's own values: nothing to note
    };
    const Shown values[] = {
        {m_rate, r ? r->load.requestsPerSecond : m_liveRate, tr("Rate"), tr("req/s"), !file},
        {m_ttft, r ? r->slo.ttftMs : m_liveTtftMs, tr("TTFT SLO"), tr("ms"), false},
        {m_itl, r ? r->slo.itlMs : m_liveItlMs, tr("ITL SLO"), tr("ms"), false},
        {m_pue, pue, tr("PUE"), QString(), !file},
    };
    // Every digit the value has, grouped when whole and large: 1,000,000 rather than 1e+06.
    auto exact = [](double v) { return std::abs(v) >= 1e5 && v == std::round(v) ? format::integer(v) : format::plain(v); };
    QStringList notes;
    for (const Shown& v : values) {
        const QSignalBlocker quiet(v.spin);
        v.spin->setValue(v.value); // the live rate and PUE are the box's own: back from a file's
        const double shown = v.spin->value();
        if (v.fromBox || std::abs(shown - v.value) <= 1e-9 * std::max(1.0, std::abs(v.value)))
            continue;
        const QString unit = v.unit.isEmpty() ? QString() : QLatin1Char(' ') + v.unit;
        const QString whose = file ? tr("the plan file's") : tr("the scenario's");
        const bool outside = v.value < v.spin->minimum() || v.value > v.spin->maximum();
        notes << (outside ? tr("%1: %2 %3%4 is outside this box's %5 to %6%4; the plan uses %3%4.")
                                .arg(v.field, whose, exact(v.value), unit, exact(v.spin->minimum()), exact(v.spin->maximum()))
                          : tr("%1: %2 %3%4 has more decimals than this box shows (%5%4); the plan uses %3%4.")
                                .arg(v.field, whose, exact(v.value), unit, exact(shown)));
    }
    m_rangeNote->setText(notes.join(QLatin1Char(' ')));
    m_rangeNote->setVisible(!notes.isEmpty());
}

QString PlanTab::currency() const
{
    if (m_planFile)
        return QString::fromStdString(m_planFile->currency);
    const std::string& c = m_document->evaluatedScenario().economics.currency;
    return c.empty() ? QStringLiteral("USD") : QString::fromStdString(c);
}

void PlanTab::showCurrency()
{
    const QString c = currency();
    // The currency code in the headers, as the texts and tool tips write it ("$" read beside "USD": issue 14 trial).
    m_table->horizontalHeaderItem(CostColumn)->setText(tr("%1/1M out").arg(c));
    m_table->horizontalHeaderItem(CostColumn)
        ->setToolTip(tr("Cost per million output tokens (%1), every GPU-second charged to output (all-in), at the example "
                        "or given price; - when the price is unknown")
                         .arg(c));
    m_economics->horizontalHeaderItem(PriceColumn)->setText(tr("%1/GPU-hour").arg(c));
    const bool examples = model::examplePricesApply(c.toStdString());
    m_economics->horizontalHeaderItem(PriceColumn)
        ->setToolTip(examples ? tr("Price per GPU-hour (%1). Double-click to edit; \"example\": resources/plans/gpu-prices-example.json, "
                                   "an illustration, not a quote")
                                    .arg(c)
                              : tr("Price per GPU-hour (%1). Double-click to edit; the example prices are in %2 and are not "
                                   "converted, so only the scenario's own price and your edits are known")
                                    .arg(c, QString::fromStdString(model::examplePriceCurrency())));
    const QString tip = tr("Illustrative prices from resources/plans/gpu-prices-example.json: examples to edit, "
                           "not quotes. Off: every cost is unknown (-) and plans rank by J/token.");
    m_examplePrices->setToolTip(m_planFile ? tip + QLatin1Char('\n')
                                                 + tr("Not in use: the plan file shown brings its own prices (the table below); "
                                                      "\"Back to the scenario's plan\" restores this choice.")
                                : examples ? tip
                                           : tip + QLatin1Char('\n')
                                                 + tr("Not available: the example prices are in %1, the plan's currency is %2 "
                                                      "(economics.currency); they are never converted.")
                                                       .arg(QString::fromStdString(model::examplePriceCurrency()), c));
    // The box shows whether the example prices are in use (issue 14, J: it stayed ticked, disabled, while a plan file's
    // prices were): unticked while they cannot be; the user's choice is kept for when they can.
    const bool available = examples && !m_planFile;
    m_examplePrices->setEnabled(available);
    const QSignalBlocker quiet(m_examplePrices);
    m_examplePrices->setChecked(available && m_examplePricesWanted);
}

void PlanTab::scheduleRecompute()
{
    if (m_planFile)
        return; // a plan file's plan does not follow the document or the inputs
    if (isVisible()) {
        if (!m_timer->isActive())
            m_timer->start();
    } else {
        m_stale = true;
    }
}

void PlanTab::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale || !m_result)
        recompute();
}

QString PlanTab::recompute()
{
    return search(false);
}

QString PlanTab::search(bool deferTables)
{
    m_timer->stop();
    m_stale = false;
    QElapsedTimer clock;
    if (m_planFile) { // the file's own request: the same plan each time (the export asks again before writing)
        m_request = m_planFile->request;
        clock.start();
        m_result = model::searchPlans(*m_request);
        m_lastSearchMs = double(clock.nsecsElapsed()) / 1e6;
        ++m_searches;
        showResult(deferTables);
        return {};
    }
    syncSlosFromDocument();
    const double rate = m_liveRate;
    if (!(rate > 0) || !std::isfinite(rate)) {
        const QString message = tr("Request rate must be above 0 req/s (it is %1): the plans below are for the last valid rate.")
                                    .arg(format::number(rate, 3));
        m_message->setText(message);
        m_message->setVisible(true);
        return message;
    }
    const model::Scenario& scenario = m_document->evaluatedScenario();
    model::PlanRequest request = model::planRequestFor(scenario, rate, m_liveItlMs);
    request.slo.ttftMs = m_liveTtftMs;
    request.currency = currency().toStdString();
    showCurrency();
    // The example prices (USD) only for a plan in their currency: never relabelled as euros.
    const bool examples = m_examplePricesWanted && model::examplePricesApply(request.currency);
    request.candidates.devices = model::catalogueDevices(examples, m_livePue);
    const ScenarioEconomics own = scenarioEconomics();
    for (model::PlanDevice& d : request.candidates.devices) { // the scenario's own figures, then the user's edits
        if (!own.deviceId.empty() && own.deviceId == d.id) {
            if (own.pricePerGpuHour)
                d.economics.pricePerGpuHour = own.pricePerGpuHour;
            if (own.boardPowerWatts)
                d.economics.boardPowerWatts = own.boardPowerWatts;
        }
        if (const auto it = m_priceEdits.find(d.id); it != m_priceEdits.end())
            d.economics.pricePerGpuHour = it->second;
        if (const auto it = m_powerEdits.find(d.id); it != m_powerEdits.end())
            d.economics.boardPowerWatts = it->second;
    }
    fillEconomicsTable(); // the scenario's own price and power may have changed
    // A prompt longer than the model's trained context: refused as --plan refuses it (model::checkPlanContext). The
    // message goes where the rate's does; no plan is drawn (an empty result, the refusal as its takeaway), and the
    // inputs and the document stay as the user left them.
    if (const std::string refusal = model::checkPlanContext(request, "workload.prompt_tokens"); !refusal.empty()) {
        const QString message = tr("No plan: %1.").arg(QString::fromStdString(refusal));
        model::PlanResult none;
        none.takeaway = message.toStdString();
        m_request = std::move(request);
        m_result = std::move(none);
        m_message->setText(message);
        m_message->setVisible(true);
        showResult(false);
        m_plot->noPlanLabel()->setText(tr("No plan: the prompt of %1 tokens (workload.prompt_tokens) is longer than\n"
                                          "the model's context of %2 tokens (model.max_position_embeddings).")
                                           .arg(format::integer(m_request->load.promptTokens),
                                                format::integer(m_request->scenario.model.maxPositionEmbeddings)));
        return message;
    }
    clock.start();
    m_result = model::searchPlans(request);
    m_lastSearchMs = double(clock.nsecsElapsed()) / 1e6;
    ++m_searches;
    m_request = std::move(request);
    m_message->clear();
    m_message->setVisible(false);
    showResult(deferTables);
    return {};
}

bool PlanTab::isRecomputePending() const
{
    return m_timer->isActive();
}

bool PlanTab::areTablesPending() const
{
    return m_tablesTimer->isActive();
}

void PlanTab::showResult(bool deferTables)
{
    QElapsedTimer clock;
    clock.start();
    const model::PlanRequest& request = *m_request;
    const model::PlanResult& result = *m_result;

    // Devices drawn: those with a plan, in the order of their best plan's rank, then those without; at most kMaxDevices.
    std::vector<int> withPlans; // in the order of each device's first plan in the ranking
    for (int index : result.plans) {
        const int device = result.points.at(size_t(index)).device;
        if (std::find(withPlans.begin(), withPlans.end(), device) == withPlans.end())
            withPlans.push_back(device);
    }
    std::vector<int> drawn(withPlans.begin(), withPlans.begin() + std::min<size_t>(withPlans.size(), PlanPlot::kMaxDevices));
    {
        // Then, in the slots left, the devices that fit but have no plan (all their points miss: hollow), those closest
        // to the ITL SLO first, so that a planner sees how far they miss (a new-user trial, stop 30: L4 fitted, missed
        // the ITL SLO and was not drawn at all; with no plan at all these are the only curves).
        std::vector<std::pair<double, int>> fitting; // (best tokens/s per user, device)
        for (const model::DeviceSummary& d : result.devices) {
            if (d.frontier.empty() || std::find(withPlans.begin(), withPlans.end(), d.device) != withPlans.end())
                continue;
            double best = 0;
            for (int index : d.frontier)
                best = std::max(best, result.points.at(size_t(index)).tokensPerSecondPerUser);
            fitting.emplace_back(best, d.device);
        }
        std::stable_sort(fitting.begin(), fitting.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        for (size_t i = 0; i < fitting.size() && drawn.size() < size_t(PlanPlot::kMaxDevices); ++i)
            drawn.push_back(fitting[i].second);
    }
    m_plot->setResult(request, result, drawn);
    m_plot->showTakeaway(result.takeaway.empty() ? tr("No plan meets both SLOs at %1 req/s.").arg(format::number(request.load.requestsPerSecond, 3))
                                                 : QString::fromStdString(result.takeaway));
    // A takeaway that needs another line resizes the plot: laid out now, before the replot setResult() queued, so the
    // plot is replotted once, at its new size, not once at the old size and again after the resize (issue 16, tenth stop).
    if (isVisible())
        deliverLayoutRequests();
    m_drawn = std::move(drawn);
    m_withPlans = std::move(withPlans);
    // The tables cost two frames and more (a few hundred rows, their widths measured): a queued search (a slider step,
    // an input's change) shows the frontier alone and (re)starts the single-shot timer, so the tables follow the last
    // result kTablesQuietMs after the changes pause, whatever came before it (issue 14, K: "the frontier updates within
    // one frame"). The first step of a drag is deferred too: it used to show the tables at once when the previous result
    // was older than kTablesQuietMs, the slowest step of every drag. recompute() (export, screenshot) shows them now.
    if (deferTables) {
        m_tablesTimer->start(); // restarts a running timer: always kTablesQuietMs after the last result
    } else {
        m_tablesTimer->stop();
        showTables();
    }
    m_lastShowMs = double(clock.nsecsElapsed()) / 1e6;
    emit resultShown();
}

void PlanTab::showTables()
{
    m_tablesTimer->stop();
    if (!m_result || !m_request)
        return;
    const model::PlanRequest& request = *m_request;
    const model::PlanResult& result = *m_result;
    const std::vector<int>& drawn = m_drawn;
    const std::vector<int>& withPlans = m_withPlans;

    // The ranked plans.
    m_table->setSortingEnabled(false);
    m_table->clearContents();
    m_table->setRowCount(int(result.plans.size()));
    for (int row = 0; row < int(result.plans.size()); ++row) {
        const model::PlanPoint& p = result.points.at(size_t(result.plans[size_t(row)]));
        const QString fleet = p.disaggregated ? tr("%1 prefill + %2 decode").arg(format::integer(p.prefillInstances), format::integer(p.decodeInstances))
                                              : counted(p.replicas, tr("1 replica"), tr("%1 replicas"));
        auto set = [&](int column, const QString& text, std::optional<double> key) {
            m_table->setItem(row, column, new SortItem(text, key));
        };
        set(RankColumn, QString::number(row + 1), row + 1);
        set(DeviceColumn, planKeyText(request, p), std::nullopt);
        m_table->item(row, DeviceColumn)
            ->setToolTip(tr("%1, %2, %3, %4, batch cap %5")
                             .arg(deviceName(request, p.device), QString::fromStdString(model::layoutText(p.layout)), fleet,
                                  p.disaggregated ? tr("disaggregated") : tr("colocated"))
                             .arg(p.batchCap));
        set(GpusColumn, format::integer(p.totalGpus), p.totalGpus);
        set(LayoutColumn, QString::fromStdString(model::layoutText(p.layout)), std::nullopt);
        set(ModeColumn, p.disaggregated ? tr("disaggregated") : tr("colocated"), std::nullopt);
        set(BatchCapColumn, QString::number(p.batchCap), p.batchCap);
        set(FleetColumn, fleet, p.totalGpus);
        // One output token: no ITL, no tokens/s per user (an en dash, sorted after the numbers; issue 14, h14k).
        const QString none = QStringLiteral("\u2013");
        set(ItlColumn, p.itlDefined ? format::number(p.itlMs, 3) : none, p.itlDefined ? std::optional<double>(p.itlMs) : std::nullopt);
        set(TtftColumn, format::number(p.ttftMs, 3), p.ttftMs);
        set(TokensPerGpuColumn, format::number(p.outputTokensPerSecondPerGpu, 3), p.outputTokensPerSecondPerGpu);
        set(TokensPerUserColumn, p.itlDefined ? format::number(p.tokensPerSecondPerUser, 3) : none,
            p.itlDefined ? std::optional<double>(p.tokensPerSecondPerUser) : std::nullopt);
        set(CostColumn, optionalNumber(p.cost.costPerMillionOutputTokensAllIn), p.cost.costPerMillionOutputTokensAllIn);
        set(JoulesColumn, optionalNumber(p.cost.joulesPerOutputToken), p.cost.joulesPerOutputToken);
    }
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(RankColumn, Qt::AscendingOrder);
    m_table->resizeColumnsToContents();

    // Devices without a plan, then the ones with plans not drawn.
    m_excluded->clear();
    for (const model::DeviceSummary& d : result.devices) {
        if (d.reason == model::ExclusionReason::None)
            continue;
        QString line = deviceName(request, d.device) + QStringLiteral(": ") + QString::fromStdString(model::exclusionText(d.reason));
        if (!d.detail.empty())
            line += QStringLiteral(" \u2014 ") + QString::fromStdString(d.detail);
        m_excluded->addItem(line);
    }
    for (size_t i = drawn.size(); i < withPlans.size(); ++i)
        m_excluded->addItem(tr("%1: has plans (in the table), not drawn: the plot shows the %2 devices with the best plans")
                                .arg(deviceName(request, withPlans[i]))
                                .arg(PlanPlot::kMaxDevices));
    if (m_excluded->count() == 0) { // an empty box read as missing (issue 14 trial): say there is none
        auto* none = new QListWidgetItem(tr("None: every candidate device has a plan (in the table)"), m_excluded);
        none->setFlags(Qt::ItemIsEnabled);
        none->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    }
}

QString PlanTab::loadPlanFile(const QString& path)
{
    // The command line's reader and messages ("PATH: message"); nothing on screen changes unless the file is good.
    QByteArray bytes;
    model::PlanFile file;
    std::string error = model::readInputFile(path, bytes);
    if (error.empty())
        error = model::parsePlanFile(bytes, QFileInfo(path).absolutePath(), file);
    if (!error.empty()) {
        const QString message = path + QStringLiteral(": ") + QString::fromStdString(error);
        m_message->setText(message);
        m_message->setVisible(true);
        return message;
    }
    showPlanFile(file, path);
    return {};
}

void PlanTab::showPlanFile(const model::PlanFile& file, const QString& path)
{
    m_planFile = file;
    m_planFilePath = path;
    m_message->clear();
    m_message->setVisible(false);
    showSource();
    recompute();
}

void PlanTab::showLivePlan()
{
    if (!m_planFile)
        return;
    m_planFile.reset();
    m_planFilePath.clear();
    m_message->clear();
    m_message->setVisible(false);
    showSource();
    recompute();
}

void PlanTab::openPlanFileFromDialog()
{
    const QString folder = m_planFilePath.isEmpty() ? QString() : QFileInfo(m_planFilePath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open plan file"), folder, tr("Plan files (*.json);;All files (*)"));
    if (!path.isEmpty())
        loadPlanFile(path);
}

void PlanTab::showSource()
{
    const bool file = m_planFile.has_value();
    // The inputs and the economics table drive the live plan only: a file brings its own.
    for (QWidget* w : std::initializer_list<QWidget*>{m_rate, m_ttft, m_itl, m_pue, m_economics})
        w->setEnabled(!file);
    showInputValues(); // the file's rate, SLOs and PUE while it is shown, the live plan's again after
    showCurrency();
    fillEconomicsTable(); // the file's devices, prices and power while it is shown, the catalogue's again after
    m_live->setVisible(file);
    // A plan file brings its own model, lengths and efficiencies ("set"): the note said the scenario's controls with a
    // file shown (a new-user trial, stop 30).
    m_inputsNote->setText(file ? tr("Model, prompt / output lengths and efficiencies: the plan file's (the controls on the left do not "
                                    "change it).")
                               : tr("Model, prompt / output lengths and efficiencies: the scenario's controls."));
    if (!file) {
        m_source->setText(tr("Plan for the window's scenario (live: it follows the scenario's controls and the inputs below)."));
        m_source->setToolTip(QString());
        return;
    }
    const model::PlanFile& f = *m_planFile;
    const model::PlanRequest& r = f.request;
    QString text = tr("Plan file %1%2: %3 (%4), %5 req/s, prompt %6 and output %7 tokens; SLOs ITL %8 ms, TTFT %9 ms.")
                       .arg(QFileInfo(m_planFilePath).fileName(),
                            f.title.empty() ? QString() : QStringLiteral(" \u2014 \u201c%1\u201d").arg(QString::fromStdString(f.title)),
                            QString::fromStdString(r.scenario.model.name), QString::fromStdString(f.modelSource),
                            format::plain(r.load.requestsPerSecond), format::integer(r.load.promptTokens),
                            format::integer(r.load.outputTokens), format::plain(r.slo.itlMs))
                       .arg(format::plain(r.slo.ttftMs));
    text += QLatin1Char(' ') + tr("Prices (%1), power and PUE are the file's; the inputs below show its rate, SLOs and PUE.")
                                   .arg(QString::fromStdString(f.currency));
    if (f.simulateTop > 0)
        text += QLatin1Char(' ') + tr("Its simulator checks (simulate_top %1) run with ridgeline --plan FILE.").arg(f.simulateTop);
    QStringList notes;
    for (const std::string& n : f.notes)
        notes << QString::fromStdString(n);
    if (!notes.isEmpty())
        text += QLatin1Char(' ') + tr("Notes: %1.").arg(notes.join(QStringLiteral("; ")));
    m_source->setText(text);
    m_source->setToolTip(QDir::toNativeSeparators(QFileInfo(m_planFilePath).absoluteFilePath()));
}

} // namespace ridgeline::views
