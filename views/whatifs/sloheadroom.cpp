// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/sloheadroom.h"

#include <algorithm>

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

#include "document/format.h"
#include "views/kit/palette.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {

const QString& sloHeadroomHeading()
{
    static const QString text = QObject::tr("SLO headroom");
    return text;
}

QString itlFormula()
{
    return QObject::tr("ITL headroom = SLO / t_step(B) at the current batch B: below 1 the SLO is missed now.\n"
                       "Floor headroom = SLO / batch-1 decode floor, floor = W / BW at peak bandwidth\n"
                       "(W: weights read per step per GPU). Below 1 no batch, kernel or scheduler can meet the SLO.");
}

QString ttftFormula()
{
    return QObject::tr("TTFT = queue wait + t_pre(P)\n"
                       "t_pre = max(F_pre / (F_peak \u00b7 MFU_prefill), (W + P \u00b7 kv_tok) / (BW \u00b7 \u03b7_bw))\n"
                       "F_pre = 2 \u00b7 N_active \u00b7 P + 4 \u00b7 L \u00b7 P\u00b2 \u00b7 d_attn\n"
                       "headroom = TTFT SLO / TTFT. Queue wait is not model time (seed 000, rule 2).");
}

QString colored(const QColor& color)
{
    return QStringLiteral("QLabel { color: %1; background: transparent; border: none; }").arg(palette::css(color));
}

void setColor(QLabel* label, const QColor& color)
{
    const QString sheet = colored(color);
    if (label->styleSheet() != sheet)
        label->setStyleSheet(sheet);
}

} // namespace

SloHeadroomPanel::SloHeadroomPanel(ScenarioDocument* document, QWidget* parent)
    : QFrame(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("sloHeadroomPanel"));
    setStyleSheet(QStringLiteral("QFrame#sloHeadroomPanel { background: %1; border: 1px solid %2; border-radius: 6px; }")
                      .arg(palette::css(palette::card()), palette::css(palette::cardBorder())));
    m_title = titleLabel(QStringLiteral("sloHeadroomTitle"), sloHeadroomHeading(), itlFormula() + QStringLiteral("\n\n") + ttftFormula());

    m_queueWait = doubleSpin(QStringLiteral("queueWaitSpinBox"), 0, 1e7, 0, 50, tr(" ms"),
                             tr("Queue wait before prefill starts, in ms (workload.queue_wait_ms).\n%1").arg(ttftFormula()));
    m_queueWait->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    connect(m_queueWait, &QDoubleSpinBox::valueChanged, this,
            [this](double ms) { m_document->edit([ms](model::Scenario& s) { s.workload.queueWaitMs = ms; }); });

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 0, 0, 0);
    form->setHorizontalSpacing(10);
    form->addRow(caption(tr("Queue wait"), m_queueWait->toolTip()), m_queueWait);

    m_itlLayout = new QVBoxLayout;
    m_itlLayout->setContentsMargins(0, 0, 0, 0);
    m_itlLayout->setSpacing(3);
    m_ttft = valueLabel(QStringLiteral("ttftHeadroomLabel"), ttftFormula());

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_title);
    layout->addLayout(m_itlLayout);
    layout->addLayout(form);
    layout->addWidget(m_ttft);
    layout->addStretch(1);

    syncFromScenario();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &SloHeadroomPanel::syncFromScenario);
}

void SloHeadroomPanel::syncFromScenario()
{
    setQuietly(m_queueWait, m_document->scenario().workload.queueWaitMs);
}

QLabel* SloHeadroomPanel::ensureItlLabel(size_t index)
{
    while (m_itl.size() <= index) {
        QLabel* label = valueLabel(QStringLiteral("itlHeadroomLabel%1").arg(m_itl.size()), itlFormula());
        m_itlLayout->addWidget(label);
        m_itl.push_back(label);
    }
    return m_itl[index];
}

std::vector<QLabel*> SloHeadroomPanel::itlLabels() const
{
    return std::vector<QLabel*>(m_itl.begin(), m_itl.begin() + std::ptrdiff_t(m_itlUsed));
}

void SloHeadroomPanel::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::SloResult& slo = evaluation.slo;
    const double floorMs = evaluation.decode.floorSecondsBatch1 * 1e3;
    const std::vector<double>& lines = scenario.workload.itlSloMs;
    const size_t count = std::min(lines.size(), slo.itlHeadroom.size());
    const double stepMs = evaluation.decode.stepSeconds * 1e3;
    const QString atBatch = tr("t_step at B = %1 (%2)").arg(format::integer(scenario.workload.batch), format::milliseconds(stepMs));
    const bool atBatchKnown = slo.itlHeadroomAtBatch.size() >= count;
    for (size_t i = 0; i < count; ++i) {
        QLabel* label = ensureItlLabel(i);
        const double headroom = slo.itlHeadroom[i];
        const double now = atBatchKnown ? slo.itlHeadroomAtBatch[i] : headroom;
        QString text = tr("%1 ms ITL SLO = %2x %3").arg(format::plain(lines[i]), format::number(now, 2), atBatch);
        if (headroom < 1)
            text += tr(": below the %1 floor (%2x), impossible at any batch").arg(format::milliseconds(floorMs), format::number(headroom, 2));
        else
            text += (now < 1 ? tr(": missed at this batch; %1x the %2 floor") : tr("; %1x the %2 floor"))
                        .arg(format::number(headroom, 2), format::milliseconds(floorMs));
        setText(label, text);
        setColor(label, now < 1 ? palette::error() : palette::text());
        label->setVisible(true);
    }
    for (size_t i = count; i < m_itl.size(); ++i)
        m_itl[i]->setVisible(false);
    m_itlUsed = count;

    const double prefillMs = slo.ttftMs - scenario.workload.queueWaitMs;
    const QString ttft = format::duration(slo.ttftMs / 1e3);
    const QString sloText = format::duration(scenario.workload.ttftSloMs / 1e3);
    QString text = tr("TTFT = %1 queue + %2 prefill = %3 against the %4 SLO: ")
                       .arg(format::milliseconds(scenario.workload.queueWaitMs), format::milliseconds(prefillMs), ttft, sloText);
    text += slo.ttftMet ? tr("%1x headroom").arg(format::number(slo.ttftHeadroom, 2))
                        : tr("misses it (%1x)").arg(format::number(slo.ttftHeadroom, 2));
    setText(m_ttft, text);
    setColor(m_ttft, slo.ttftMet ? palette::text() : palette::error());

    QString takeaway;
    if (count > 0) {
        const auto tightest = std::min_element(lines.begin(), lines.begin() + std::ptrdiff_t(count));
        const size_t i = size_t(tightest - lines.begin());
        const double now = atBatchKnown ? slo.itlHeadroomAtBatch[i] : slo.itlHeadroom[i];
        takeaway = tr("Tightest ITL SLO %1 ms = %2x %3%4; TTFT %5 of %6.")
                       .arg(format::plain(lines[i]), format::number(now, 2), atBatch,
                            now < 1 ? tr(", missed at this batch") : QString(), ttft, sloText);
    } else {
        takeaway = tr("No ITL SLO lines set; TTFT %1 of %2.").arg(ttft, sloText);
    }
    setTitle(m_title, sloHeadroomHeading(), takeaway);
}

} // namespace ridgeline::views
