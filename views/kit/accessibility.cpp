// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/accessibility.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLayout>
#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QApplication>
#include <QFocusFrame>
#include <QPointer>
#include <QTabBar>
#include <QTabWidget>
#include <QTextDocumentFragment>
#include <QWidget>

namespace ridgeline::views {

namespace {

bool focusable(const QWidget* widget)
{
    if (auto* area = qobject_cast<const QAbstractScrollArea*>(widget->parentWidget()); area && area->viewport() == widget)
        return false; // the scroll area (chart view, text browser) carries the name
    return (widget->focusPolicy() & Qt::TabFocus) && !widget->isWindow()
        && !widget->inherits("QScrollBar") && !widget->inherits("QAbstractScrollArea")
        && !(widget->parentWidget() && widget->parentWidget()->inherits("QAbstractSpinBox")); // the spin box's line edit
}

/** Plain text of a label (rich text stripped, mnemonic and trailing colon removed). */
QString labelText(const QLabel* label)
{
    QString text = Qt::mightBeRichText(label->text()) ? QTextDocumentFragment::fromHtml(label->text()).toPlainText() : label->text();
    // Each '&' not followed by another, as the pattern "&(?!&)" removed them: a QRegularExpression made per
    // label was JIT-compiled each time, 2.7 M instructions of start-up for 23 labels (issue 16, ninth stop
    // in docs/performance.md).
    QString stripped;
    stripped.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i)
        if (text[i] != QLatin1Char('&') || (i + 1 < text.size() && text[i + 1] == QLatin1Char('&')))
            stripped.append(text[i]);
    text = stripped;
    text = text.simplified();
    if (text.endsWith(QLatin1Char(':')))
        text.chop(1);
    return text;
}

/** The QFormLayout label of @p widget, searching the form layouts of its ancestors. */
QString formLabel(QWidget* widget)
{
    for (QWidget* parent = widget->parentWidget(); parent; parent = parent->parentWidget()) {
        for (QFormLayout* form : parent->findChildren<QFormLayout*>()) {
            QWidget* field = widget;
            // The field may be a container holding the widget (a spin box beside a button).
            while (field && form->indexOf(field) < 0)
                field = field->parentWidget() == parent ? nullptr : field->parentWidget();
            if (!field)
                continue;
            if (auto* label = qobject_cast<QLabel*>(form->labelForField(field)))
                return labelText(label);
        }
        if (parent->isWindow())
            break;
    }
    return {};
}

} // namespace

void fillAccessibleNames(QWidget* root)
{
    const QList<QLabel*> labels = root->findChildren<QLabel*>();
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        if (!focusable(widget))
            continue;
        if (widget->accessibleName().isEmpty()) {
            QString name = formLabel(widget);
            if (name.isEmpty())
                for (QLabel* label : labels)
                    if (label->buddy() == widget)
                        name = labelText(label);
            if (name.isEmpty())
                if (auto* button = qobject_cast<QAbstractButton*>(widget))
                    name = button->text().remove(QLatin1Char('&')).simplified();
            if (name.isEmpty()) {
                QTabBar* bar = qobject_cast<QTabBar*>(widget);
                if (auto* tabs = qobject_cast<QTabWidget*>(widget))
                    bar = tabs->tabBar();
                if (bar) {
                    QStringList tabs;
                    for (int i = 0; i < bar->count(); ++i)
                        tabs << bar->tabText(i).remove(QLatin1Char('&'));
                    name = QWidget::tr("Tabs: %1").arg(tabs.join(QStringLiteral(", ")));
                }
            }
            if (name.isEmpty() && !widget->toolTip().isEmpty())
                name = QTextDocumentFragment::fromHtml(widget->toolTip()).toPlainText().section(QLatin1Char('\n'), 0, 0).left(80);
            if (!name.isEmpty())
                widget->setAccessibleName(name);
        }
        if (widget->accessibleDescription().isEmpty() && !widget->toolTip().isEmpty())
            widget->setAccessibleDescription(QTextDocumentFragment::fromHtml(widget->toolTip()).toPlainText());
    }
}

void installSliderFocusFrame(QWidget* window)
{
    auto* frame = new QFocusFrame(window);
    frame->setObjectName(QStringLiteral("sliderFocusFrame"));
    frame->hide();
    QPointer<QFocusFrame> guard(frame);
    QObject::connect(qApp, &QApplication::focusChanged, frame, [guard, window](QWidget*, QWidget* now) {
        if (!guard)
            return;
        auto* slider = qobject_cast<QAbstractSlider*>(now);
        const bool ours = slider && !slider->inherits("QScrollBar") && window->isAncestorOf(slider);
        guard->setWidget(ours ? slider : nullptr);
        guard->setVisible(ours);
    });
}

QList<QWidget*> unnamedFocusableWidgets(QWidget* root)
{
    QList<QWidget*> out;
    for (QWidget* widget : root->findChildren<QWidget*>())
        if (focusable(widget) && widget->accessibleName().isEmpty())
            out.append(widget);
    return out;
}

} // namespace ridgeline::views
