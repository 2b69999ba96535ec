// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include "model/analysis/triage.h"

namespace ridgeline::views {
class ScenarioDocument;
}

namespace ridgeline::document {

/**
 * One incident ticket and its triage against the document's evaluated scenario (model::triage): what the
 * Incident triage tab shows. The ticket is not part of the scenario; run() classifies it again, on every input
 * change and after each evaluation. No widgets: the panel (views/triage/triagepanel.h) reads its inputs into
 * setInput() and shows result().
 */
class TriageRun {
public:
    /** @p document must outlive this object. */
    explicit TriageRun(const views::ScenarioDocument* document) : m_document(document) {}

    /**
     * Reads the ticket JSON at @p path (a resource or a file: model::readInputFile, model::parseTriageInput).
     * Returns "" and replaces the input, or one message ("Cannot read PATH: why", "PATH: why") and keeps it.
     */
    QString loadTicket(const QString& path);

    void setInput(const model::TriageInput& input) { m_input = input; }
    /** The ticket as entered (0 or unset fields: not measured). */
    const model::TriageInput& input() const { return m_input; }

    /** Classifies input() against the document's evaluated scenario; returns result(). */
    const model::TriageResult& run();
    /** The last classification. */
    const model::TriageResult& result() const { return m_result; }
    /** The scenario the ticket is triaged against: the document's evaluated scenario. */
    const model::Scenario& scenario() const;

private:
    const views::ScenarioDocument* m_document;
    model::TriageInput m_input;
    model::TriageResult m_result;
};

} // namespace ridgeline::document
