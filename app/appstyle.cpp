// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/appstyle.h"

#include <functional>
#include <memory>
#include <utility>

#include <QApplication>
#include <QIcon>
#include <QIconEngine>
#include <QPainter>
#include <QPointer>
#include <QProxyStyle>
#include <QStyleFactory>
#include <QStyleOption>
#include <QWidget>

namespace ridgeline::app {

namespace {

int g_deferredIconsMade = 0; ///< see deferredIconsMade()

/** The style's icon, made on first need and shared by the engine's clones. */
struct DeferredIcon {
    std::function<QIcon()> make;
    QIcon icon;
    bool made = false;

    const QIcon& get()
    {
        if (!made) {
            icon = make();
            made = true;
            ++g_deferredIconsMade;
        }
        return icon;
    }
};

/** A QIconEngine that draws a QIcon made on first need (see installDeferredIconStyle()). */
class DeferredIconEngine final : public QIconEngine {
public:
    explicit DeferredIconEngine(std::shared_ptr<DeferredIcon> icon)
        : m_icon(std::move(icon))
    {
    }

    void paint(QPainter* painter, const QRect& rect, QIcon::Mode mode, QIcon::State state) override
    {
        m_icon->get().paint(painter, rect, Qt::AlignCenter, mode, state);
    }
    // As the made icon's engine answers: QIcon::pixmap() at a device pixel ratio of 1 asks its engine for @p size
    // and nothing more (the caller's QIcon applies its own ratio to what this returns).
    QPixmap pixmap(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return m_icon->get().pixmap(size, 1.0, mode, state);
    }
    QPixmap scaledPixmap(const QSize& size, QIcon::Mode mode, QIcon::State state, qreal scale) override
    {
        Q_UNUSED(scale); // as QIconEngine's and QPixmapIconEngine's (Qt 6.4): the pixmap for the size
        return m_icon->get().pixmap(size, 1.0, mode, state);
    }
    QSize actualSize(const QSize& size, QIcon::Mode mode, QIcon::State state) override
    {
        return m_icon->get().actualSize(size, mode, state);
    }
    QList<QSize> availableSizes(QIcon::Mode mode, QIcon::State state) override
    {
        return m_icon->get().availableSizes(mode, state);
    }
    bool isNull() override { return m_icon->get().isNull(); }
    QString key() const override { return QStringLiteral("ridgeline-deferred"); }
    QIconEngine* clone() const override { return new DeferredIconEngine(m_icon); }

private:
    std::shared_ptr<DeferredIcon> m_icon;
};

/** The application's style, its toolbar-extension icons made on first need. */
class DeferredIconStyle final : public QProxyStyle {
public:
    using QProxyStyle::QProxyStyle;

    QIcon standardIcon(StandardPixmap standardIcon, const QStyleOption* option, const QWidget* widget) const override
    {
        if (standardIcon != SP_ToolBarHorizontalExtensionButton && standardIcon != SP_ToolBarVerticalExtensionButton)
            return QProxyStyle::standardIcon(standardIcon, option, widget);
        // What the base style would return, asked when first drawn (the widget may be gone by then: not passed on;
        // QCommonStyle reads only its layout direction, which the option or the application gives as well).
        auto icon = std::make_shared<DeferredIcon>();
        const bool rightToLeft = (option && option->direction == Qt::RightToLeft)
                                 || (!option && (widget ? widget->isRightToLeft() : QGuiApplication::isRightToLeft()));
        QPointer<QStyle> base(baseStyle());
        icon->make = [base, standardIcon, rightToLeft] {
            if (!base)
                return QIcon();
            QStyleOption directed;
            directed.direction = rightToLeft ? Qt::RightToLeft : Qt::LeftToRight;
            return base->standardIcon(standardIcon, &directed, nullptr);
        };
        return QIcon(new DeferredIconEngine(std::move(icon)));
    }
};

} // namespace

int deferredIconsMade()
{
    return g_deferredIconsMade;
}

void installDeferredIconStyle()
{
    QStyle* current = QApplication::style();
    if (!current || dynamic_cast<DeferredIconStyle*>(current))
        return;
    QStyle* base = QStyleFactory::create(current->name());
    if (!base)
        return;
    // (Its name() is empty: a QProxyStyle made from it, the what-if tabs' tab bar style, then wraps the style
    // QProxyStyle picks by default, the -style override or the platform's, which is the one wrapped here.)
    QApplication::setStyle(new DeferredIconStyle(base)); // takes base
}

} // namespace ridgeline::app
