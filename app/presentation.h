// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QAction;

namespace ridgeline::app {

class MainWindow;

/**
 * Presentation mode for a class or a planning review (View > Presentation, F11): full screen, the
 * projector theme (views::Theme::presentation(): high contrast, fonts x1.3 and lines x1.8 in the
 * controls, the plots, the numbers and its heading, and every card's title), the controls dock kept
 * collapsible (View > Controls, Ctrl+1).
 * Leaving it (F11 again, or Esc) restores the window state, the fonts and the system's light or dark
 * theme. The keyboard path stays the same: Tab reaches every slider, arrows nudge, Page Up / Down
 * move a decade on log sliders.
 */
class Presentation final : public QObject {
    Q_OBJECT

public:
    explicit Presentation(MainWindow* window);

    /** The checkable View > Presentation action (F11). */
    QAction* action() const { return m_action; }
    bool isActive() const { return m_active; }

public slots:
    void setActive(bool active);

signals:
    void activeChanged(bool active);

private:
    MainWindow* m_window;
    QAction* m_action = nullptr;
    QAction* m_leave = nullptr;
    bool m_active = false;
    Qt::WindowStates m_previousState;
};

} // namespace ridgeline::app
