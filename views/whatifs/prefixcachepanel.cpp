// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/prefixcachepanel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "document/format.h"
#include "views/kit/palette.h"
#include "document/scenariodocument.h"
#include "views/whatifs/whatifkit.h"

namespace ridgeline::views {

using namespace whatifkit;

namespace {

const QString& prefixCacheHeading()
{
    static const QString text = QObject::tr("Prefix caching");
    return text;
}

QString seedExample()
{
    return QObject::tr("Seed 001: an identical 1,800-token system prompt recomputed for every request;\n"
                       "at 47 \u00b5s/token that is 1,800 \u00d7 47 \u00b5s = 84.6 ms of GPU time per request thrown away.");
}

QString prefixCacheFormula()
{
    return QObject::tr("Shared tokens = min(prefix, P). A hit skips computing and writing the cached prefix;\n"
                       "the suffix still attends to all P tokens.\n"
                       "TTFT saved = hit rate \u00b7 (t_pre(P) \u2212 t_pre of the suffix)  \u2248 shared tokens \u00b7 prefill time per token.\n"
                       "Cost per output token changes by \u2212saved / (prefill + decode GPU time per request).\n\n%1")
        .arg(seedExample());
}

} // namespace

PrefixCachePanel::PrefixCachePanel(ScenarioDocument* document, QWidget* parent)
    : QFrame(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("prefixCachePanel"));
    setStyleSheet(QStringLiteral("QFrame#prefixCachePanel { background: %1; border: 1px solid %2; border-radius: 6px; }")
                      .arg(palette::css(palette::card()), palette::css(palette::cardBorder())));
    m_title = titleLabel(QStringLiteral("prefixCacheTitle"), prefixCacheHeading(), prefixCacheFormula());

    m_tokens = integerSpin(QStringLiteral("prefixTokensSpinBox"), 0, 100000000, tr(" tokens"),
                           tr("Shared prompt prefix (system prompt) in tokens: serving.prefix_tokens.\n%1").arg(seedExample()));
    m_hitRate = doubleSpin(QStringLiteral("prefixHitRateSpinBox"), 0, 100, 0, 5, tr(" %"),
                           tr("Share of requests that find the prefix in the cache: serving.prefix_hit_rate."));
    connect(m_tokens, &QSpinBox::valueChanged, this,
            [this](int tokens) { m_document->edit([tokens](model::Scenario& s) { s.serving.prefixTokens = tokens; }); });
    connect(m_hitRate, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        m_document->edit([percent](model::Scenario& s) { s.serving.prefixHitRate = percent / 100.0; });
    });

    m_shared = valueLabel(QStringLiteral("prefixSharedValue"), tr("Shared tokens = min(prefix, P)."));
    m_perToken = valueLabel(QStringLiteral("prefixPerTokenValue"), tr("Prefill time per token = t_pre(P) / P at the current prompt.\n%1").arg(seedExample()));
    m_work = valueLabel(QStringLiteral("prefixWorkValue"),
                        tr("Work saved = hit rate \u00b7 (F_pre(P) \u2212 F of the suffix attending to all P tokens)."));
    m_ttft = valueLabel(QStringLiteral("prefixTtftValue"), prefixCacheFormula());
    m_cost = valueLabel(QStringLiteral("prefixCostValue"),
                        tr("Relative change of GPU seconds per output token: \u2212TTFT saved / (prefill + decode per request)."));

    auto* inputs = new QHBoxLayout;
    inputs->setSpacing(8);
    inputs->addWidget(caption(tr("Shared prefix"), m_tokens->toolTip()));
    inputs->addWidget(m_tokens, 1);
    inputs->addWidget(caption(tr("Hit rate"), m_hitRate->toolTip()));
    inputs->addWidget(m_hitRate, 1);

    auto* figures = new QFormLayout;
    figures->setContentsMargins(0, 0, 0, 0);
    figures->setHorizontalSpacing(10);
    figures->setVerticalSpacing(3);
    figures->addRow(caption(tr("Cached per hit"), m_shared->toolTip()), m_shared);
    figures->addRow(caption(tr("Prefill per token"), m_perToken->toolTip()), m_perToken);
    figures->addRow(caption(tr("Work saved"), m_work->toolTip()), m_work);
    figures->addRow(caption(tr("TTFT saved"), m_ttft->toolTip()), m_ttft);
    figures->addRow(caption(tr("Cost per output token"), m_cost->toolTip()), m_cost);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 10, 8);
    layout->setSpacing(6);
    layout->addWidget(m_title);
    layout->addLayout(inputs);
    layout->addLayout(figures);
    layout->addStretch(1);

    syncFromScenario();
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &PrefixCachePanel::syncFromScenario);
}

void PrefixCachePanel::syncFromScenario()
{
    const model::Serving& s = m_document->scenario().serving;
    setQuietly(m_tokens, s.prefixTokens);
    setQuietly(m_hitRate, s.prefixHitRate * 100.0);
}

void PrefixCachePanel::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const model::PrefixCacheResult& pc = evaluation.prefixCache;
    const double prompt = scenario.workload.promptTokens;
    if (scenario.serving.prefixTokens > pc.sharedTokens)
        setText(m_shared, tr("%1: the whole %2-token prompt (the prefix entered, %3, is longer)")
                              .arg(format::tokens(pc.sharedTokens), format::integer(prompt),
                                   format::integer(scenario.serving.prefixTokens)));
    else
        setText(m_shared, tr("%1 of the %2-token prompt").arg(format::tokens(pc.sharedTokens), format::integer(prompt)));
    setText(m_perToken, tr("%1 \u00b5s/token").arg(format::number(pc.prefillSecondsPerToken * 1e6)));
    setText(m_work, tr("%1 (%2 of the prefill)")
                        .arg(format::teraflop(pc.savedFlopPerRequest),
                             format::percent(evaluation.prefill.flop > 0 ? pc.savedFlopPerRequest / evaluation.prefill.flop : 0.0)));
    setText(m_ttft, tr("%1 per request (of %2 prefill)")
                        .arg(format::duration(pc.savedSecondsPerRequest), format::duration(evaluation.prefill.seconds)));
    setText(m_cost, format::percent(pc.costPerOutputTokenChange));

    QString takeaway;
    if (pc.sharedTokens <= 0)
        takeaway = tr("No shared prefix set: every request prefills all %1.").arg(format::tokens(prompt));
    else
        takeaway = tr("A %1-token prefix at %2 hits saves %3 of TTFT per request and cuts GPU cost per output token by %4.")
                       .arg(format::integer(pc.sharedTokens), format::percent(scenario.serving.prefixHitRate),
                            format::duration(pc.savedSecondsPerRequest), format::percent(-pc.costPerOutputTokenChange));
    setTitle(m_title, prefixCacheHeading(), takeaway);
}

} // namespace ridgeline::views
