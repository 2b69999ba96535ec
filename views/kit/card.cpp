// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/card.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QEvent>
#include <QFrame>
#include <QPainter>
#include <QPainterPath>

#include "views/kit/palette.h"
#include "views/kit/theme.h"

namespace ridgeline::views {

namespace {

constexpr char kCardRadiusProperty[] = "ridgelineCardRadius";
constexpr char kApplicationPaletteProperty[] = "ridgelineApplicationPalette";

/** The background's outline: a 1 px border's centre line with rounded corners (the style-sheet engine's border
 *  clip for a border of 1 px: the left corners start on the rect's edge, the others half a pixel in). */
QPainterPath cardOutline(const QRectF& rect, qreal radius)
{
    const qreal half = 0.5;
    const qreal diameter = 2 * radius - 1;
    QPainterPath path;
    qreal y = rect.y() + half;
    path.moveTo(rect.x() + radius, y);
    path.lineTo(rect.right() - radius, y);
    qreal x = rect.right() - half;
    path.arcTo(x - 2 * radius + 1, y, diameter, diameter, 90, -90);
    path.lineTo(x, rect.bottom() - radius);
    y = rect.bottom() - half;
    path.arcTo(x - 2 * radius + 1, y - 2 * radius + 1, diameter, diameter, 0, -90);
    path.lineTo(rect.x() + radius, y);
    x = rect.left() + half;
    path.arcTo(x, rect.bottom() - 2 * radius + half, diameter, diameter, 270, -90);
    path.lineTo(x, rect.top() + radius);
    path.arcTo(x, rect.top() + half, diameter, diameter, 180, -90);
    path.closeSubpath();
    return path;
}

/** Paints its frame as a card (makeCard()) in place of QFrame's paint, which draws nothing at NoFrame. */
class CardPainter final : public QObject {
public:
    explicit CardPainter(QFrame* frame)
        : QObject(frame)
    {
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) {
            auto* frame = static_cast<QFrame*>(watched);
            QPainter painter(frame);
            paintCard(painter, frame->rect(), palette::card(), palette::cardBorder(),
                      frame->property(kCardRadiusProperty).toInt());
            return true;
        }
        return false;
    }
};

/** Fills its widget with a theme colour before the widget's own paint (paintThemeBackground()). */
class ThemeBackgroundPainter final : public QObject {
public:
    ThemeBackgroundPainter(QWidget* widget, int role)
        : QObject(widget)
        , m_role(Theme::Role(role))
    {
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint) {
            auto* widget = static_cast<QWidget*>(watched);
            QPainter painter(widget);
            painter.fillRect(widget->rect(), currentTheme().color(m_role));
        }
        return false; // the widget paints itself after
    }

private:
    Theme::Role m_role;
};

/** Sets the application's palette on its widget again when the application's changes (holdApplicationPalette()). */
class ApplicationPaletteKeeper final : public QObject {
public:
    explicit ApplicationPaletteKeeper(QWidget* widget)
        : QObject(widget)
    {
        apply(widget);
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::ApplicationPaletteChange)
            apply(static_cast<QWidget*>(watched));
        return false;
    }

private:
    static void apply(QWidget* widget)
    {
        QPalette p = QApplication::palette(widget);
        p.setResolveMask(~QPalette::ResolveMask(0)); // every role of every group: nothing left to inherit
        widget->setPalette(p);
    }
};

} // namespace

void paintCard(QPainter& painter, const QRect& rect, const QColor& fill, const QColor& border, int radiusPx)
{
    const QRectF r(rect);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    if (radiusPx <= 0 || 2 * radiusPx > rect.width() || 2 * radiusPx > rect.height()) {
        painter.fillRect(rect, fill);
        painter.setPen(Qt::NoPen);
        painter.setBrush(border);
        painter.drawRect(QRectF(r.x(), r.bottom() - 1, r.width(), 1));
        painter.drawRect(QRectF(r.right() - 1, r.y(), 1, r.height()));
        painter.drawRect(QRectF(r.x(), r.y(), 1, r.height()));
        painter.drawRect(QRectF(r.x(), r.y(), r.width(), 1));
        painter.restore();
        return;
    }
    const qreal radius = radiusPx;
    painter.fillPath(cardOutline(r, radius), fill);

    // Each edge a 1 px rect between its corners, then its two corner arcs (an eighth of a circle each, drawn with a
    // 1 px square-capped pen), in the style-sheet engine's order: bottom, right, left, top.
    const QPen arcPen(QBrush(border), 1, Qt::SolidLine, Qt::SquareCap);
    const qreal d = 2 * radius - 1;
    const auto edge = [&](qreal x1, qreal y1, qreal x2, qreal y2) {
        painter.setPen(Qt::NoPen);
        painter.setBrush(border);
        painter.drawRect(QRectF(x1, y1, x2 - x1, y2 - y1));
        painter.setBrush(Qt::NoBrush);
        painter.setPen(arcPen);
    };
    {
        const qreal x1 = r.x() + radius, y2 = r.y() + r.height(), x2 = r.x() + r.width() - radius;
        edge(x1, y2 - 1, x2, y2);
        painter.drawArc(QRectF(x1 - radius + 0.5, y2 - 2 * radius + 0.5, d, d), -90 * 16, -45 * 16);
        painter.drawArc(QRectF(x2 - radius + 0.5, y2 - 2 * radius + 0.5, d, d), -90 * 16, 45 * 16);
    }
    {
        const qreal x2 = r.x() + r.width(), y1 = r.y() + radius, y2 = r.y() + r.height() - radius;
        edge(x2 - 1, y1, x2, y2);
        painter.drawArc(QRectF(x2 - 2 * radius + 0.5, y1 - radius + 0.5, d, d), 45 * 16, -45 * 16);
        painter.drawArc(QRectF(x2 - 2 * radius + 0.5, y2 - radius + 0.5, d, d), 315 * 16, 45 * 16);
    }
    {
        const qreal x1 = r.x(), y1 = r.y() + radius, y2 = r.y() + r.height() - radius;
        edge(x1, y1, x1 + 1, y2);
        painter.drawArc(QRectF(x1 + 0.5, y1 - radius + 0.5, d, d), 135 * 16, 45 * 16);
        painter.drawArc(QRectF(x1 + 0.5, y2 - radius + 0.5, d, d), 180 * 16, 45 * 16);
    }
    {
        const qreal x1 = r.x() + radius, y1 = r.y(), x2 = r.x() + r.width() - radius;
        edge(x1, y1, x2, y1 + 1);
        painter.drawArc(QRectF(x1 - radius + 0.5, y1 + 0.5, d, d), 135 * 16, -45 * 16);
        painter.drawArc(QRectF(x2 - radius + 0.5, y1 + 0.5, d, d), 45 * 16, 45 * 16);
    }
    painter.restore();
}

void makeCard(QFrame* frame, int radiusPx)
{
    frame->setFrameShape(QFrame::NoFrame);
    frame->setContentsMargins(1, 1, 1, 1); // the border's width, as the style sheet's frame width was
    frame->setProperty(kCardRadiusProperty, radiusPx);
    frame->installEventFilter(new CardPainter(frame));
}

bool isPaintedCard(const QWidget* widget)
{
    return widget && widget->property(kCardRadiusProperty).isValid();
}

void setTransparentBackground(QWidget* widget)
{
    widget->setAutoFillBackground(false);
    if (auto* area = qobject_cast<QAbstractScrollArea*>(widget))
        area->viewport()->setAutoFillBackground(false);
}

void paintThemeBackground(QWidget* widget, int role)
{
    widget->setAutoFillBackground(false);
    widget->setAttribute(Qt::WA_OpaquePaintEvent); // as an automatic fill made it: nothing under it is painted first
    widget->installEventFilter(new ThemeBackgroundPainter(widget, role));
}

void holdApplicationPalette(QWidget* widget)
{
    if (holdsApplicationPalette(widget))
        return;
    widget->setProperty(kApplicationPaletteProperty, true);
    widget->installEventFilter(new ApplicationPaletteKeeper(widget));
}

bool holdsApplicationPalette(const QWidget* widget)
{
    return widget && widget->property(kApplicationPaletteProperty).isValid();
}

void setLabelColor(QWidget* label, const QColor& color)
{
    QPalette p = label->palette();
    p.setColor(QPalette::WindowText, color);
    p.setColor(QPalette::Text, color);
    label->setPalette(p);
}

} // namespace ridgeline::views
