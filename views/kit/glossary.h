// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>

class QDialog;
class QWidget;

namespace ridgeline::views {

/** One latency or throughput term as the serving field measures it. */
struct GlossaryTerm {
    QString key;        ///< "TTFT", "TPOT", "ITL", "E2E", "Goodput"
    QString name;       ///< "TTFT: time to first token"
    QString definition; ///< one paragraph, plain text
};

/**
 * TTFT, TPOT, ITL, E2E latency and goodput as vLLM's serving benchmark (benchmark_serving.py,
 * `vllm bench serve`) defines them, with how they map onto this cost model (t_step, t_pre) and
 * the one name clash to know: genai-perf's "inter token latency" is a per-request average, what
 * vLLM calls TPOT.
 */
const QList<GlossaryTerm>& glossary();

/** "<name>: <definition>" of @p key ("TTFT", "ITL", ...), for a tooltip; empty for an unknown key. */
QString glossaryTip(const QString& key);

/** Help > Glossary: the terms in a dialog (object name "glossaryDialog", text "glossaryText"). */
QDialog* createGlossaryDialog(QWidget* parent);

} // namespace ridgeline::views
