// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/presentation.h"

#include <QAction>
#include <QDockWidget>
#include <QStatusBar>

#include "app/mainwindow.h"
#include "views/kit/theme.h"

namespace ridgeline::app {

Presentation::Presentation(MainWindow* window)
    : QObject(window)
    , m_window(window)
{
    m_action = new QAction(tr("&Presentation"), this);
    m_action->setObjectName(QStringLiteral("presentationAction"));
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::Key_F11));
    m_action->setShortcutContext(Qt::ApplicationShortcut);
    m_action->setStatusTip(tr("Full screen, high contrast, large fonts and thick lines for a projector (F11 or Esc leaves)"));
    connect(m_action, &QAction::toggled, this, &Presentation::setActive);
    m_leave = new QAction(tr("Leave presentation"), this);
    m_leave->setShortcut(QKeySequence(Qt::Key_Escape));
    m_leave->setShortcutContext(Qt::WindowShortcut);
    m_leave->setEnabled(false);
    connect(m_leave, &QAction::triggered, this, [this] { setActive(false); });
    m_window->addAction(m_leave);
}

void Presentation::setActive(bool active)
{
    if (active == m_active)
        return;
    m_active = active;
    m_action->setChecked(active);
    m_leave->setEnabled(active);
    const views::Theme theme = active ? views::Theme::presentation() : views::Theme::system();
    QWidget* central = m_window->centralWidget();
    if (active) {
        m_previousState = m_window->windowState();
        m_window->setWindowState((m_previousState & ~(Qt::WindowMinimized | Qt::WindowMaximized)) | Qt::WindowFullScreen);
        m_window->statusBar()->showMessage(tr("Presentation: F11 or Esc leaves; Ctrl+1 shows or hides the controls; "
                                              "Tab reaches every slider, arrows nudge, Page Up / Page Down move a decade."),
                                           10000);
    } else {
        m_window->setWindowState(m_previousState & ~Qt::WindowFullScreen);
    }
    const double ratio = theme.fontScale / views::currentTheme().fontScale;
    views::scaleFonts(central, ratio);
    views::scaleFonts(m_window->controlsDock(), ratio); // the sliders and their labels, as large as the rest
    views::applyTheme(m_window, theme);
    m_window->refreshAll();
    emit activeChanged(active);
}

} // namespace ridgeline::app
