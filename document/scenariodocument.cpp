// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/scenariodocument.h"

#include <algorithm>

#include <QStringList>

namespace ridgeline::views {

namespace {

QString joinedErrors(const std::vector<model::ScenarioError>& errors)
{
    QStringList lines;
    lines.reserve(int(errors.size()));
    for (const model::ScenarioError& error : errors)
        lines.append(QString::fromStdString(error.message));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

ScenarioDocument::ScenarioDocument(const model::Scenario& initial, QObject* parent)
    : QObject(parent)
    , m_scenario(initial)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer); // the trailing edge of the throttle paces frames
    m_timer.setInterval(0);
    connect(&m_timer, &QTimer::timeout, this, &ScenarioDocument::evaluateNow);

    const std::vector<model::ScenarioError> errors = model::validate(m_scenario);
    m_evaluatedScenario = errors.empty() ? m_scenario : model::defaultScenario();
    m_errorText = joinedErrors(errors);
    model::evaluate(m_evaluatedScenario, m_evaluation);
    ++m_evaluationCount;
}

void ScenarioDocument::setScenario(const model::Scenario& scenario)
{
    m_scenario = scenario;
    emit scenarioChanged();
    scheduleEvaluation();
}

void ScenarioDocument::edit(const std::function<void(model::Scenario&)>& change)
{
    change(m_scenario);
    emit scenarioChanged();
    scheduleEvaluation();
}

void ScenarioDocument::setMinimumInterval(int ms)
{
    m_minimumIntervalMs = std::max(0, ms);
}

void ScenarioDocument::scheduleEvaluation()
{
    if (m_timer.isActive())
        return; // the pending pass evaluates the latest scenario
    // Leading edge: the first edit after a quiet interval is evaluated on the next pass. Trailing
    // edge: within the interval, wait for its end (edits meanwhile only update m_scenario).
    qint64 wait = 0;
    if (m_sinceLastPass.isValid())
        wait = std::max<qint64>(0, m_minimumIntervalMs - m_sinceLastPass.elapsed());
    m_timer.start(int(wait));
}

void ScenarioDocument::evaluateNow()
{
    m_timer.stop();
    m_sinceLastPass.start();
    const std::vector<model::ScenarioError> errors = model::validate(m_scenario);
    const QString errorText = joinedErrors(errors);
    const bool errorChanged = errorText != m_errorText;
    m_errorText = errorText;
    if (!errors.empty()) {
        if (errorChanged)
            emit invalidChanged(m_errorText);
        return;
    }
    model::evaluate(m_scenario, m_evaluation);
    m_evaluatedScenario = m_scenario;
    ++m_evaluationCount;
    if (errorChanged)
        emit invalidChanged(QString());
    emit evaluated();
}

} // namespace ridgeline::views
