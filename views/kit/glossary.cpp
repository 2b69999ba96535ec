// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/glossary.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace ridgeline::views {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::views::Glossary", text);
}

} // namespace

const QList<GlossaryTerm>& glossary()
{
    static const QList<GlossaryTerm> terms{
        {QStringLiteral("TTFT"), tr("TTFT: time to first token"),
         tr("From sending a request to receiving its first output token, per request: queue wait plus prefill "
            "(and network). Ridgeline's prefill time t_pre is its floor with no queue.")},
        {QStringLiteral("TPOT"), tr("TPOT: time per output token"),
         tr("Per request, the time after the first token divided by the tokens after it: (E2E latency \u2212 TTFT) / "
            "(output tokens \u2212 1); its percentiles are over requests. In steady decode it is the step time t_step(B). "
            "genai-perf calls this per-request average \u201cinter token latency\u201d.")},
        {QStringLiteral("ITL"), tr("ITL: inter-token latency"),
         tr("The gap between two consecutive output tokens of one request, every gap counted on its own (vLLM's "
            "benchmark pools all gaps of all requests for its ITL percentiles). One decode step t_step(B) at batch B; "
            "a prefill that shares the step shows as a long gap in the tail. Not genai-perf's \u201cITL\u201d, which is "
            "vLLM's TPOT.")},
        {QStringLiteral("E2E"), tr("E2E latency: end-to-end request latency"),
         tr("From sending a request to receiving its last token: TTFT + (output tokens \u2212 1) \u00b7 TPOT.")},
        {QStringLiteral("Goodput"), tr("Goodput"),
         tr("The requests per second that meet every SLO set (TTFT, TPOT or ITL, E2E), as vLLM's --goodput counts "
            "them; requests that finish but miss an SLO count towards throughput, not goodput.")},
    };
    return terms;
}

QString glossaryTip(const QString& key)
{
    for (const GlossaryTerm& term : glossary())
        if (term.key == key)
            return term.name + QStringLiteral(": ") + term.definition;
    return QString();
}

QDialog* createGlossaryDialog(QWidget* parent)
{
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("glossaryDialog"));
    dialog->setWindowTitle(tr("Glossary: latency and throughput terms"));
    auto* text = new QTextBrowser(dialog);
    text->setObjectName(QStringLiteral("glossaryText"));
    QString html = QStringLiteral("<p>%1</p><dl>").arg(tr("As vLLM's serving benchmark measures them; Ridgeline's "
                                                          "figures are their floors from the cost model."));
    for (const GlossaryTerm& term : glossary())
        html += QStringLiteral("<dt><b>%1</b></dt><dd>%2</dd>").arg(term.name.toHtmlEscaped(), term.definition.toHtmlEscaped());
    html += QStringLiteral("</dl>");
    text->setHtml(html);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(text);
    layout->addWidget(buttons);
    dialog->resize(560, 420);
    return dialog;
}

} // namespace ridgeline::views
