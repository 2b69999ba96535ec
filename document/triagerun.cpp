// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/triagerun.h"

#include <QObject>

#include "document/scenariodocument.h"
#include "model/files/inputfile.h"

namespace ridgeline::document {

QString TriageRun::loadTicket(const QString& path)
{
    model::TriageInput ticket;
    QByteArray bytes;
    if (const std::string message = model::readInputFile(path, bytes); !message.empty())
        return QObject::tr("Cannot read %1: %2").arg(path, QString::fromStdString(message));
    if (const std::string message = model::parseTriageInput(bytes, ticket); !message.empty())
        return QObject::tr("%1: %2").arg(path, QString::fromStdString(message));
    m_input = ticket;
    return {};
}

const model::TriageResult& TriageRun::run()
{
    m_result = model::triage(scenario(), m_input);
    return m_result;
}

const model::Scenario& TriageRun::scenario() const
{
    return m_document->evaluatedScenario();
}

} // namespace ridgeline::document
