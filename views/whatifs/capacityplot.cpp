// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/capacityplot.h"

#include <algorithm>
#include <cmath>

#include <qcustomplot.h>

#include "views/kit/fitregion.h"
#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotinteraction.h"
#include "views/kit/plotkit.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace plotkit;

namespace {

QString sequences(long long count)
{
    return count == 1 ? QObject::tr("1 sequence") : QObject::tr("%1 sequences").arg(format::integer(double(count)));
}

/** S_max from which one contiguous reservation no longer fits: the log-midpoint of the first grid step
 *  where the contiguous count drops to zero; nullopt when it never does, 0 when nothing fits. */
std::optional<double> firstNoFit(const model::Sweeps& sweeps)
{
    const Eigen::Index n = std::min(sweeps.maxContext.size(), sweeps.sequencesContiguous.size());
    for (Eigen::Index i = 0; i < n; ++i) {
        if (sweeps.sequencesContiguous[i] < 1.0)
            return i == 0 ? 0.0 : std::sqrt(sweeps.maxContext[i - 1] * sweeps.maxContext[i]);
    }
    return std::nullopt;
}

} // namespace

CapacityPlot::CapacityPlot(QWidget* parent)
    : PlotPanel(tr("Concurrent sequences against advertised max context"), QStringLiteral("capacity"),
                tr("KV budget per GPU = HBM \u00b7 utilisation \u2212 N\u00b7b_w / T \u2212 activation reserve.\n"
                   "Contiguous reservation: every sequence reserves the advertised max context S_max,\n"
                   "  sequences = floor(budget / (S_max \u00b7 kv_tok)).\n"
                   "Paged (blocks of b tokens): a sequence costs what it holds, S_held = min(S, S_max),\n"
                   "  sequences = floor(budget / (ceil(S_held / b) \u00b7 b \u00b7 kv_tok)).\n"
                   "Seed 001: a 16 GiB budget at 128 KiB/token fits 16 sequences at 8k, 1 at 128k."),
                parent)
{
    QCustomPlot* p = plot();
    QCPAxis* x = p->xAxis;
    QCPAxis* y = p->yAxis;
    setupAxis(x, tr("advertised max context S_max (tokens)"), true);
    setupAxis(y, tr("max concurrent sequences (per GPU)"), false);
    x->setRange(model::Sweeps::kCapacityMin, model::Sweeps::kContextMax);
    y->setRange(0, 10);

    // Label mid-height: the paged line runs along the top, the contiguous curve along the bottom there.
    m_noFit = std::make_unique<NoFitRegion>(p, x, y, tr("no contiguous reservation fits"), 0.4);
    m_currentLine = addStraightLine(p, x, y, pen(palette::reference(), 1, Qt::DotLine));
    m_paged = addCurve(p, x, y, pen(palette::kv(), 2.4), tr("paged: what each sequence holds"));
    m_contiguous = addCurve(p, x, y, pen(palette::ruling(), 2.2), tr("contiguous: S_max reserved each"));
    m_pagedMarker = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::kv(), palette::kv(), 8));
    m_contiguousMarker
        = addMarker(p, x, y, QCPScatterStyle(QCPScatterStyle::ssCircle, palette::ruling(), palette::ruling(), 8));
    m_contiguousLabel = addLabel(p, x, y, palette::ruling());
    m_pagedLabel = addLabel(p, x, y, palette::kv());
    m_contiguousMarker->setName(tr("current S_max"));
    m_contiguousMarker->addToLegend();
    placeLegendBelow(p, 3);

    // Read-out: the model evaluated with the advertised max context under the cursor.
    interaction()->setReadout([this](double key) {
        const model::Scenario* s = readoutScenario();
        if (!s)
            return interaction()->interpolatedReadout(key);
        model::Scenario at = *s;
        at.serving.maxContextTokens = static_cast<int>(std::clamp(std::round(key), model::Sweeps::kCapacityMin, model::Sweeps::kContextMax));
        const model::CapacityResult c = model::evaluate(at).capacity;
        const double contiguous = double(c.maxSequencesContiguousAtMaxContext), paged = double(c.maxSequencesPaged);
        Readout r;
        r.key = at.serving.maxContextTokens;
        r.keyText = tr("S_max = %1 tokens").arg(format::integer(r.key));
        r.values = {{tr("paged"), paged, tr("%1 sequences").arg(format::integer(paged)), m_paged},
                    {tr("contiguous"), contiguous, tr("%1 sequences").arg(format::integer(contiguous)), m_contiguous}};
        return r;
    });
}

CapacityPlot::~CapacityPlot() = default;

void CapacityPlot::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::Sweeps& sweeps = evaluation.sweeps;
    const model::CapacityResult& capacity = evaluation.capacity;
    QCustomPlot* p = plot();
    keepForReadout(scenario);

    assignCurve(m_contiguous, sweeps.maxContext, sweeps.sequencesContiguous, 1.0, false);
    assignCurve(m_paged, sweeps.maxContext, sweeps.sequencesPaged, 1.0, false);
    const double maxContext = scenario.serving.maxContextTokens;
    placeVertical(m_currentLine, maxContext);
    assignPoint(m_contiguousMarker, maxContext, double(capacity.maxSequencesContiguousAtMaxContext));
    assignPoint(m_pagedMarker, maxContext, double(capacity.maxSequencesPaged));
    m_contiguousLabel->setText(tr("contiguous: %1").arg(format::integer(double(capacity.maxSequencesContiguousAtMaxContext))));
    placeLabelAt(m_contiguousLabel, maxContext, double(capacity.maxSequencesContiguousAtMaxContext));
    setPlacement(m_contiguousLabel, Qt::AlignLeft | Qt::AlignBottom, QMargins(6, 0, 2, 4));
    m_pagedLabel->setText(tr("paged: %1").arg(format::integer(double(capacity.maxSequencesPaged))));
    placeLabelAt(m_pagedLabel, maxContext, double(capacity.maxSequencesPaged));
    setPlacement(m_pagedLabel, Qt::AlignLeft | Qt::AlignTop, QMargins(6, 4, 2, 0));

    Extent count;
    count.log = false;
    count.include(0.0);
    count.include(sweeps.sequencesContiguous);
    count.include(sweeps.sequencesPaged);
    count.include(double(capacity.maxSequencesContiguousAtMaxContext));
    count.include(double(capacity.maxSequencesPaged));
    p->yAxis->setRange(0.0, std::max(4.0, count.high * 1.08));

    m_noFit->place(capacity.kvBudgetBytes < 0 ? std::optional<double>(0.0) : firstNoFit(sweeps));

    const double held = std::min<double>(scenario.workload.contextTokens, maxContext);
    QString text;
    if (capacity.kvBudgetBytes < 0) {
        text = tr("No KV budget: the weights leave %1 of usable HBM per GPU (%2), so no sequence fits either way.")
                   .arg(format::gigabytes(capacity.kvBudgetBytes), format::percent(capacity.utilization));
    } else {
        text = tr("At %1 max context, contiguous reservation fits %2; paging by what they hold (%3) fits %4. KV budget %5 per GPU.")
                   .arg(whatifkit::contextTokens(maxContext), sequences(capacity.maxSequencesContiguousAtMaxContext),
                        format::tokens(held), held > 0 ? format::integer(double(capacity.maxSequencesPaged))
                                                       : tr("any number (S = 0 holds nothing)"),
                        format::gigabytes(capacity.kvBudgetBytes));
    }
    setTakeaway(text);
    p->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace ridgeline::views
