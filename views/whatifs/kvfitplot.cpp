// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/kvfitplot.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

QCPScatterStyle currentStyle(bool fits)
{
    const QColor color = fits ? palette::throughput() : palette::slo();
    return QCPScatterStyle(fits ? QCPScatterStyle::ssCircle : QCPScatterStyle::ssCross, QPen(color, 2.2), color, 10);
}

} // namespace

KvFitPlot::KvFitPlot(QWidget* parent)
    : PlotPanel(tr("Where the KV cache fits: batch against context"), QStringLiteral("kvFit"),
                tr("The largest batch whose cache fits at each context S:\n"
                   "  B_max(S) = floor(KV budget / (S \u00b7 kv_tok)) per GPU (sliding layers hold min(S, window)),\n"
                   "  KV budget = HBM \u00b7 utilisation \u2212 N\u00b7b_w / T \u2212 activation reserve.\n"
                   "Above the curve B \u00b7 S \u00b7 kv_tok exceeds the budget: the cache does not fit.\n"
                   "A context where not even one sequence fits drops below the bottom edge."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    setupAxis(x, tr("context S (tokens per sequence)"), true);
    setupAxis(y, tr("batch B (sequences)"), true);
    x->setRange(model::Sweeps::kContextMin, model::Sweeps::kContextMax);
    y->setRange(0.7, 1e4);

    QColor fill = palette::slo();
    fill.setAlpha(30);
    m_ceiling = addCurve(p, x, y, Qt::NoPen, QString());
    m_boundary = addCurve(p, x, y, pen(palette::kv(), 2.4), tr("largest batch that fits"));
    m_boundary->setBrush(QBrush(fill));
    m_boundary->setChannelFillGraph(m_ceiling);
    m_batchLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_contextLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_current = addMarker(p, x, y, currentStyle(true));
    m_current->setName(tr("current (S, B)"));
    m_current->addToLegend();

    // A legend entry for the shaded region: an empty graph drawn only as its legend icon.
    QCPGraph* shade = addCurve(p, x, y, QPen(fill.darker(110), 8), tr("does not fit"));
    shade->setBrush(QBrush(fill));
    placeLegendBelow(p, 3);

    // Read-out: the model evaluated at the context under the cursor.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        model::Scenario at = *s;
        at.workload.contextTokens = static_cast<int>(std::clamp(std::round(key), model::Sweeps::kContextMin, model::Sweeps::kContextMax));
        const model::CapacityResult c = model::evaluate(at).capacity;
        const double fitting = c.weightsFit ? double(c.maxSequencesContiguous) : 0.0;
        Readout r;
        r.key = at.workload.contextTokens;
        r.keyText = tr("S = %1 tokens").arg(format::integer(r.key));
        r.values = {{m_boundary->name(), fitting, tr("B = %1").arg(format::integer(fitting)), m_boundary}};
        return r;
    });
}

void KvFitPlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::CapacityResult& capacity = evaluation.capacity;
    QCustomPlot* p = plot();
    keepForReadout(scenario); // the read-out at the cursor follows every change
    // Everything drawn below comes from these: a bandwidth or peak FLOP/s step leaves them as they were.
    InputBytes inputs;
    inputs.addArray(sweeps.context).addArray(sweeps.maxBatchFitting);
    inputs.add(scenario.workload.batch, scenario.workload.contextTokens, capacity.fits, capacity.kvBudgetBytes,
               capacity.kvNeededBytes, capacity.maxSequencesContiguous, capacity.maxContextAtBatch.has_value(),
               capacity.maxContextAtBatch.value_or(0), p->xAxis->range().lower, p->xAxis->range().upper);
    if (sameInputsAsDrawn(inputs.bytes()))
        return;

    const Eigen::Index n = std::min(sweeps.context.size(), sweeps.maxBatchFitting.size());
    m_drawn = sweeps.maxBatchFitting.head(n).max(kNoBatch); // same size every time: no reallocation
    assignCurve(m_boundary, sweeps.context, m_drawn);
    if (m_ceiling->data()->size() != int(n)) // the context grid never changes
        assignCurve(m_ceiling, sweeps.context, Eigen::ArrayXd::Constant(n, kCeiling));

    const double batch = scenario.workload.batch;
    const double context = scenario.workload.contextTokens;
    assignPoint(m_current, context, batch);
    m_current->setVisible(context > 0);
    if (m_currentFits != capacity.fits) {
        m_currentFits = capacity.fits;
        m_current->setScatterStyle(currentStyle(capacity.fits));
    }
    placeHorizontal(m_batchLine, batch);
    placeVertical(m_contextLine, context);

    Extent range;
    range.include(sweeps.maxBatchFitting);
    range.include(batch);
    p->yAxis->setRange(0.7, std::clamp(range.valid() ? range.high * 2.0 : 10.0, 10.0, 1e9));

    QString text;
    if (capacity.kvBudgetBytes < 0) {
        text = tr("No KV budget (%1 per GPU): the weights alone overfill the usable HBM, so no batch fits at any context.")
                   .arg(format::gigabytes(capacity.kvBudgetBytes));
    } else {
        QString atContext;
        if (context > 0)
            atContext = tr("At S = %1 up to %2 fit").arg(format::integer(context), format::integer(double(capacity.maxSequencesContiguous)));
        else
            atContext = tr("At S = 0 the cache is empty");
        QString atBatch;
        if (!capacity.maxContextAtBatch)
            atBatch = tr("at B = %1 any context fits (every layer slides)").arg(format::integer(batch));
        else if (*capacity.maxContextAtBatch <= 0)
            atBatch = tr("at B = %1 no context fits").arg(format::integer(batch));
        else
            atBatch = tr("at B = %1 the cache fits up to S = %2")
                          .arg(format::integer(batch), whatifkit::contextTokens(double(*capacity.maxContextAtBatch)));
        const QString now = capacity.fits
            ? tr("Now: fits, %1 of the %2 budget.").arg(format::gigabytes(capacity.kvNeededBytes), format::gigabytes(capacity.kvBudgetBytes))
            : tr("Now: does not fit, needs %1 of a %2 budget.").arg(format::gigabytes(capacity.kvNeededBytes), format::gigabytes(capacity.kvBudgetBytes));
        text = tr("%1; %2. %3").arg(atContext, atBatch, now);
    }
    setTakeaway(text);
    countRedraw();
    p->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
