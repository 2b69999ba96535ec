// SPDX-License-Identifier: GPL-3.0-or-later
#include "document/scenariohistory.h"

#include <algorithm>

#include <QRegularExpression>
#include <QUndoCommand>
#include <QUndoStack>

#include "model/cost/scenariokeys.h"
#include "document/scenariodocument.h"

namespace ridgeline::views {

namespace {

constexpr int kSnapshotCommandId = 0x5ce1;

/** One key a step changed: its index in model::scenarioKeys() and its value as text (model::getKey) before and after. */
struct KeyChange {
    size_t key = 0;
    std::string before;
    std::string after;
};

/**
 * A key's value as an undo entry shows it: numbers to 10 significant digits, so that the binary
 * remainder of a spin-box step (0.71 - 0.7 = 0.00999999999999856) reads as the control shows it
 * ("0.01"), while every digit of a real figure (8030261248 parameters) stays.
 */
QString shownValue(const model::KeyInfo& info, const std::string& value)
{
    const QString text = QString::fromStdString(value);
    if (info.kind != model::KeyKind::Number && info.kind != model::KeyKind::NumberList)
        return text;
    QStringList parts = text.split(QLatin1Char(','));
    for (QString& part : parts) {
        bool ok = false;
        const double number = part.trimmed().toDouble(&ok);
        if (!ok)
            continue;
        QString shown = QString::number(number, 'g', 10);
        // 3.35e+12 -> 3.35e12, 1e-06 -> 1e-6 (as scenario files and --set write them)
        static const QRegularExpression exponent(QStringLiteral("e([+-])0*(\\d)"));
        shown.replace(exponent, QStringLiteral("e\\1\\2"));
        shown.replace(QStringLiteral("e+"), QStringLiteral("e"));
        part = shown;
    }
    return parts.join(QStringLiteral(", "));
}

QString describe(const std::vector<KeyChange>& changes)
{
    const std::vector<model::KeyInfo>& keys = model::scenarioKeys();
    auto name = [&keys](size_t i) { return QString::fromUtf8(keys[i].key.data(), qsizetype(keys[i].key.size())); };
    if (changes.empty())
        return ScenarioHistory::tr("no change");
    if (changes.size() == 1) {
        QString value = shownValue(keys[changes.front().key], changes.front().after);
        if (value.size() > 24)
            value = value.left(23) + QChar(0x2026);
        return ScenarioHistory::tr("%1 = %2").arg(name(changes.front().key), value);
    }
    QStringList names;
    for (size_t i = 0; i < changes.size() && i < 3; ++i)
        names << name(changes[i].key);
    if (changes.size() > 3)
        names << QString(QChar(0x2026));
    return ScenarioHistory::tr("%1 inputs (%2)").arg(changes.size()).arg(names.join(QStringLiteral(", ")));
}

} // namespace

/**
 * Whole-scenario snapshot: the scenario before and after one step (what undo and redo put back,
 * exactly), and the keys the step changed (what its text names and what tells a drag back to
 * where it started). It keeps the changed keys' values only, not every key's: a step is about
 * 1.7 KB, not 7 KB (docs/performance.md, "Issue 16, twenty-first stop ... (h16af)").
 */
class SnapshotCommand final : public QUndoCommand {
public:
    SnapshotCommand(ScenarioHistory* history, model::Scenario before, model::Scenario after, std::vector<KeyChange> changes,
                    int token)
        : m_history(history)
        , m_before(std::move(before))
        , m_after(std::move(after))
        , m_changes(std::move(changes))
        , m_token(token)
    {
        setText(describe(m_changes));
    }

    int id() const override { return kSnapshotCommandId; }

    bool mergeWith(const QUndoCommand* other) override
    {
        if (other->id() != id())
            return false;
        const auto* next = static_cast<const SnapshotCommand*>(other);
        if (next->m_token != m_token)
            return false;
        m_after = next->m_after;
        // The next step starts where this one ends: a key it changes keeps this step's value before
        // (or, if this step left it alone, the next step's before, the same value) and takes the next's after.
        for (const KeyChange& change : next->m_changes) {
            auto at = std::lower_bound(m_changes.begin(), m_changes.end(), change.key,
                                       [](const KeyChange& c, size_t key) { return c.key < key; });
            if (at != m_changes.end() && at->key == change.key)
                at->after = change.after;
            else
                m_changes.insert(at, change);
        }
        std::erase_if(m_changes, [](const KeyChange& c) { return c.before == c.after; });
        setObsolete(m_changes.empty()); // a drag back to where it started
        setText(describe(m_changes));
        return true;
    }

    void undo() override { m_history->apply(m_before); }

    void redo() override
    {
        if (m_first) { // the change has already happened in the document
            m_first = false;
            return;
        }
        m_history->apply(m_after);
    }

private:
    ScenarioHistory* m_history;
    model::Scenario m_before;
    model::Scenario m_after;
    std::vector<KeyChange> m_changes; ///< in scenarioKeys() order, each with before != after
    int m_token;
    bool m_first = true;
};

ScenarioHistory::ScenarioHistory(ScenarioDocument* document, QObject* parent)
    : QObject(parent)
    , m_document(document)
    , m_stack(new QUndoStack(this))
    , m_last(document->scenario())
    , m_lastValues(keyValues(m_last))
    , m_cleanScenario(m_last)
{
    m_stack->setObjectName(QStringLiteral("undoStack"));
    // Undo or redo back to the saved step: the document holds that step's scenario by now (QUndoStack::setIndex()
    // undoes or redoes the commands, which apply() their scenarios, before it signals).
    connect(m_stack, &QUndoStack::cleanChanged, this, [this](bool clean) {
        if (clean)
            m_cleanScenario = m_document->scenario();
    });
    m_stack->setUndoLimit(kUndoLimitSteps); // the oldest step goes when one more is pushed
    m_passTimer.setSingleShot(true);
    m_passTimer.setInterval(0);
    connect(m_document, &ScenarioDocument::scenarioChanged, this, &ScenarioHistory::onScenarioChanged);
}

std::vector<std::string> ScenarioHistory::keyValues(const model::Scenario& scenario)
{
    std::vector<std::string> values;
    values.reserve(model::scenarioKeys().size());
    for (const model::KeyInfo& info : model::scenarioKeys())
        values.push_back(model::getKey(scenario, info.key));
    return values;
}

std::vector<std::string> ScenarioHistory::changedKeys(const model::Scenario& a, const model::Scenario& b)
{
    std::vector<std::string> keys;
    for (const model::KeyInfo& info : model::scenarioKeys())
        if (model::getKey(a, info.key) != model::getKey(b, info.key))
            keys.emplace_back(info.key);
    return keys;
}

void ScenarioHistory::beginGesture()
{
    if (m_gestureDepth++ == 0)
        m_gestureToken = m_nextToken++;
}

void ScenarioHistory::endGesture()
{
    if (m_gestureDepth > 0 && --m_gestureDepth == 0)
        m_gestureToken = 0;
}

void ScenarioHistory::reset()
{
    m_stack->clear();
    m_last = m_document->scenario();
    m_lastValues = keyValues(m_last);
    m_stack->setClean();
    m_cleanScenario = m_last;
}

void ScenarioHistory::setClean()
{
    m_stack->setClean();
    m_cleanScenario = m_document->scenario();
}

void ScenarioHistory::resetClean()
{
    m_stack->resetClean();
    m_cleanScenario.reset();
}

void ScenarioHistory::apply(const model::Scenario& scenario)
{
    m_applying = true;
    m_document->setScenario(scenario);
    m_applying = false;
    m_last = scenario;
    m_lastValues = keyValues(scenario); // undo and redo only: a pass over the keys, as an edit takes
}

void ScenarioHistory::onScenarioChanged()
{
    if (m_applying)
        return;
    const model::Scenario& now = m_document->scenario();
    std::vector<std::string> values = keyValues(now); // one pass over the keys per edit
    if (values == m_lastValues)
        return;
    int token = m_gestureToken;
    if (token == 0) {
        if (!m_passTimer.isActive())
            m_passToken = m_nextToken++;
        token = m_passToken;
    }
    m_passTimer.start(); // changes until the event loop turns belong to this step
    std::vector<KeyChange> changes;
    for (size_t i = 0; i < values.size() && i < m_lastValues.size(); ++i)
        if (values[i] != m_lastValues[i])
            changes.push_back(KeyChange{i, std::move(m_lastValues[i]), values[i]});
    model::Scenario before = std::move(m_last);
    m_last = now;
    m_lastValues = std::move(values);
    m_stack->push(new SnapshotCommand(this, std::move(before), now, std::move(changes), token));
}

} // namespace ridgeline::views
