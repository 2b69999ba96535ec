// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QWidget;

namespace ridgeline::views {

/**
 * The mouse wheel moves a value control (spin box, combo box, slider; not a scroll bar) only while
 * that control has keyboard focus. Over an unfocused one the wheel scrolls the enclosing scroll
 * area instead (the controls dock, the capacity side panel), so scrolling a panel never edits
 * the scenario under the pointer. Every such control under the window gets Qt::StrongFocus (a
 * click or Tab focuses it; the wheel does not), including controls created later.
 *
 * An application event filter, scoped to the widgets inside @p window; owned by @p window.
 */
class WheelGuard final : public QObject {
    Q_OBJECT

public:
    /** Guards every value control inside @p window, now and later. */
    static WheelGuard* install(QWidget* window);

    /** True for the controls the guard applies to: spin boxes, combo boxes, sliders (not scroll bars). */
    static bool isValueControl(const QObject* object);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit WheelGuard(QWidget* window);

    QWidget* m_window;
};

} // namespace ridgeline::views
