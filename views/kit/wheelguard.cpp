// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QScrollBar>
#include <QWheelEvent>
#include <QWidget>

namespace ridgeline::views {

WheelGuard::WheelGuard(QWidget* window)
    : QObject(window)
    , m_window(window)
{
    setObjectName(QStringLiteral("wheelGuard"));
}

WheelGuard* WheelGuard::install(QWidget* window)
{
    auto* guard = new WheelGuard(window);
    for (QWidget* widget : window->findChildren<QWidget*>())
        if (isValueControl(widget))
            widget->setFocusPolicy(Qt::StrongFocus);
    qApp->installEventFilter(guard);
    return guard;
}

bool WheelGuard::isValueControl(const QObject* object)
{
    if (!object || !object->isWidgetType())
        return false;
    if (qobject_cast<const QAbstractSpinBox*>(object) || qobject_cast<const QComboBox*>(object))
        return true;
    return qobject_cast<const QAbstractSlider*>(object) && !qobject_cast<const QScrollBar*>(object);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (type != QEvent::Wheel && type != QEvent::Polish)
        return false;
    if (!isValueControl(watched))
        return false;
    auto* control = static_cast<QWidget*>(watched);
    if (!m_window->isAncestorOf(control))
        return false;
    if (type == QEvent::Polish) { // a control created after install()
        control->setFocusPolicy(Qt::StrongFocus);
        return false;
    }
    if (control->hasFocus())
        return false; // the control the user chose: the wheel edits it
    // Not focused: scroll the nearest scroll area instead, and never let the control see the wheel.
    for (QWidget* parent = control->parentWidget(); parent && parent != m_window; parent = parent->parentWidget()) {
        auto* area = qobject_cast<QAbstractScrollArea*>(parent);
        if (!area)
            continue;
        QScrollBar* bar = static_cast<QWheelEvent*>(event)->angleDelta().y() != 0 ? area->verticalScrollBar()
                                                                                 : area->horizontalScrollBar();
        if (bar && bar->isVisible()) {
            QCoreApplication::sendEvent(bar, event);
            break;
        }
    }
    event->accept();
    return true;
}

} // namespace ridgeline::views
