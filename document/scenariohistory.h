// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QObject>
#include <QTimer>

#include "model/cost/scenario.h"

class QUndoStack;

namespace ridgeline::views {

class ScenarioDocument;

/**
 * Undo and redo for every input change, without touching the controls: listens to the document's
 * scenarioChanged() and pushes one snapshot command (the whole model::Scenario before and after)
 * onto a QUndoStack. Undo and redo put a snapshot back with ScenarioDocument::setScenario().
 *
 * One step per gesture, not per signal:
 * - every change made while a tracked slider is held down (beginGesture() /
 *   endGesture(); the main window calls them from each QSlider's press and release) merges into one command, so a drag is one step;
 * - changes within one pass of the event loop merge (a control that edits twice for one action);
 * - otherwise each change is its own step (a typed spin-box commit, an arrow-key nudge).
 * A merged command whose before and after are equal (a drag back to where it started) is dropped.
 * A change that leaves every key as it was pushes nothing.
 *
 * The stack's clean state is the saved file: setClean() after saving, reset() after opening.
 *
 * The history is bounded: it keeps the last kUndoLimitSteps steps (QUndoStack::setUndoLimit), so
 * the window's memory stays flat however long it runs (issue 16). A step keeps the scenario before
 * and after (two model::Scenario) and the changed keys' values, about 1.7 KB for a one-key step.
 * When the saved step falls off the bottom, the stack is never clean again until the next save.
 */
class ScenarioHistory final : public QObject {
    Q_OBJECT

public:
    /** Steps kept for undo: the oldest goes when one more is pushed (about 1.7 MB at most for one-key steps). */
    static constexpr int kUndoLimitSteps = 1000;

    explicit ScenarioHistory(ScenarioDocument* document, QObject* parent = nullptr);

    /** The stack (its undo / redo actions go in the Edit menu). Owned by this object. */
    QUndoStack* stack() const { return m_stack; }

    /** Starts merging every change into one command until endGesture() (nests). */
    void beginGesture();
    /** Ends the gesture begun by beginGesture(). */
    void endGesture();

    /** Forgets every step and takes the document's scenario as the clean starting point. */
    void reset();

    /** Marks the current step as saved (QUndoStack::setClean). */
    void setClean();

    /** Marks the history unsaved with no saved step to go back to (QUndoStack::resetClean): a session restored as
     *  unsaved. cleanScenario() is then none. */
    void resetClean();

    /** The scenario of the saved state (as last saved, loaded or started; taken whenever the stack turns clean), or none
     *  after resetClean(). Kept apart from the steps: once kUndoLimitSteps steps have been pushed after a save, the saved
     *  step has left the stack (its clean index is -1) and only this tells what Discard goes back to. */
    const std::optional<model::Scenario>& cleanScenario() const { return m_cleanScenario; }

    /** The dotted keys (model::scenarioKeys()) whose values differ between @p a and @p b. */
    static std::vector<std::string> changedKeys(const model::Scenario& a, const model::Scenario& b);

    /** Every key's value as text (model::getKey), in scenarioKeys() order: what a step compares. */
    static std::vector<std::string> keyValues(const model::Scenario& scenario);

private:
    friend class SnapshotCommand;
    void onScenarioChanged();
    void apply(const model::Scenario& scenario);

    ScenarioDocument* m_document = nullptr;
    QUndoStack* m_stack = nullptr;
    model::Scenario m_last;     ///< the scenario as of the last recorded step
    std::vector<std::string> m_lastValues; ///< keyValues(m_last)
    std::optional<model::Scenario> m_cleanScenario; ///< see cleanScenario()
    bool m_applying = false;    ///< undo / redo is setting the scenario: do not record
    int m_gestureDepth = 0;
    int m_gestureToken = 0;     ///< merge token of the running gesture
    int m_passToken = 0;        ///< merge token of the current event-loop pass
    int m_nextToken = 1;
    QTimer m_passTimer;         ///< running until the current event-loop pass ends
};

} // namespace ridgeline::views
