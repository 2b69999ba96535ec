// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/groundfill.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <QChildEvent>
#include <QEvent>
#include <QImage>
#include <QPaintEvent>
#include <QPainter>
#include <QPen>
#include <QRegion>
#include <QWidget>

namespace ridgeline::views {

namespace {

bool groundFillEnabled = true;
long long groundFillPaints = 0;
std::vector<GroundFill*> groundFills; ///< every live GroundFill, for setEnabled()

/** True when every pixel of @p rect (device pixels of @p image) is @p colour. */
bool groundIsUniform(const QImage& image, const QRect& rect, QRgb colour)
{
    for (int y = rect.top(); y <= rect.bottom(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        if (!std::all_of(row + rect.left(), row + rect.right() + 1, [colour](QRgb pixel) { return pixel == colour; }))
            return false;
    }
    return true;
}

} // namespace

GroundFill::GroundFill(QWidget* ground, PaintGround paintGround)
    : QObject(ground)
    , m_ground(ground)
    , m_paintGround(std::move(paintGround))
{
    groundFills.push_back(this);
}

GroundFill::~GroundFill()
{
    std::erase(groundFills, this);
}

GroundFill* GroundFill::install(QWidget* ground, PaintGround paintGround)
{
    auto* fill = new GroundFill(ground, std::move(paintGround));
    ground->installEventFilter(fill);
    for (QWidget* child : ground->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        fill->adopt(child);
    return fill;
}

void GroundFill::adopt(QWidget* widget)
{
    if (widget->isWindow() || find(widget))
        return;
    m_children.push_back({widget, 0, false});
    widget->installEventFilter(this);
}

GroundFill::Child* GroundFill::find(const QObject* widget)
{
    const auto it = std::find_if(m_children.begin(), m_children.end(),
                                 [widget](const Child& child) { return child.widget == widget; });
    return it == m_children.end() ? nullptr : &*it;
}

const GroundFill::Child* GroundFill::find(const QObject* widget) const
{
    return const_cast<GroundFill*>(this)->find(widget);
}

bool GroundFill::fills(const QWidget* child, QRgb* colour) const
{
    const Child* found = find(child);
    if (!found || !found->filled)
        return false;
    if (colour)
        *colour = found->colour;
    return true;
}

void GroundFill::unfill(Child& child)
{
    if (child.filled && child.widget)
        child.widget->setAttribute(Qt::WA_OpaquePaintEvent, false);
    child.filled = false;
}

void GroundFill::schedule()
{
    if (m_scheduled)
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &GroundFill::measure, Qt::QueuedConnection);
}

void GroundFill::setEnabled(bool on)
{
    groundFillEnabled = on;
    for (GroundFill* fill : groundFills) {
        for (Child& child : fill->m_children)
            fill->unfill(child);
    }
}

long long GroundFill::fills()
{
    return groundFillPaints;
}

bool GroundFill::eligible(const Child& child) const
{
    const QWidget* widget = child.widget;
    if (!widget)
        return false;
    // Another's opacity (an auto-filled or opaque child) is left alone; so are hidden children and any not wholly
    // inside the ground.
    const bool othersOpaque = !child.filled && (widget->testAttribute(Qt::WA_OpaquePaintEvent)
                                                || widget->autoFillBackground()
                                                || widget->testAttribute(Qt::WA_PaintOnScreen));
    return groundFillEnabled && !othersOpaque && !widget->isHidden() && !widget->isWindow()
           && !widget->geometry().isEmpty() && m_ground->rect().contains(widget->geometry());
}

void GroundFill::measure()
{
    m_scheduled = false;
    for (QWidget* widget : m_ground->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        adopt(widget);
    std::erase_if(m_children, [](const Child& child) { return child.widget.isNull(); });
    const qreal ratio = m_ground->devicePixelRatioF();
    const bool wholeRatio = ratio >= 1 && std::floor(ratio) == ratio;
    QRegion under;
    std::vector<Child*> measured; // the eligible children, whose rects the image covers
    for (Child& child : m_children) {
        if (!wholeRatio || !eligible(child)) {
            unfill(child);
            continue;
        }
        under += child.widget->geometry();
        measured.push_back(&child);
    }
    if (under.isEmpty() || !m_ground->isVisible())
        return;
    const QRect bounds = under.boundingRect();
    const int scale = int(ratio);
    QImage image(bounds.size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(ratio);
    // What Qt paints there: the window's colour (the panel under the ground), then the ground's own paint. Not
    // QWidget::render(): it first sends every pending move and resize event to the ground's descendants, hidden ones
    // included (14 M instructions on a model-size step, laying out the collapsed controls' texts).
    image.fill(m_ground->palette().color(m_ground->backgroundRole()));
    {
        QPainter painter(&image);
        painter.translate(-bounds.topLeft());
        painter.setClipRegion(under);
        painter.setFont(m_ground->font());
        painter.setPen(QPen(m_ground->palette().brush(m_ground->foregroundRole()), 1));
        painter.setLayoutDirection(m_ground->layoutDirection());
        m_paintGround(painter);
    }
    for (Child* measuredChild : measured) {
        Child& child = *measuredChild;
        QWidget* widget = child.widget;
        const QRect logical = widget->geometry().translated(-bounds.topLeft());
        const QRect device(logical.topLeft() * scale, logical.size() * scale);
        const QRgb colour = reinterpret_cast<const QRgb*>(image.constScanLine(device.top()))[device.left()];
        // An opaque child is not repainted when its parents are (Qt leaves its pixels to it): one filled with another
        // colour than now repaints itself.
        const bool stale = child.filled && child.colour != colour;
        if (qAlpha(colour) == 255 && groundIsUniform(image, device, colour)) {
            child.colour = colour;
            child.filled = true;
            widget->setAttribute(Qt::WA_OpaquePaintEvent, true);
        } else {
            unfill(child);
        }
        if (stale)
            widget->update();
    }
}

bool GroundFill::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if (watched == m_ground) {
        switch (type) {
        case QEvent::ChildPolished: // (constructed by now, unlike at ChildAdded)
            if (auto* widget = qobject_cast<QWidget*>(static_cast<QChildEvent*>(event)->child()))
                adopt(widget);
            break;
        case QEvent::Paint:
            // Painted only under children not filled (their own repaints, e.g. the first slider step after start-up or
            // after a change): measure, so that the next ones leave the ground alone. A whole paint (start-up, a
            // resize) asks for nothing.
            if (!m_scheduled && groundFillEnabled) {
                QRegion unfilled;
                for (const Child& child : m_children)
                    if (!child.filled && eligible(child))
                        unfilled += child.widget->geometry();
                if (!unfilled.isEmpty() && (static_cast<QPaintEvent*>(event)->region() - unfilled).isEmpty())
                    schedule();
            }
            break;
        case QEvent::ChildRemoved: {
            QObject* removed = static_cast<QChildEvent*>(event)->child();
            for (Child& child : m_children)
                if (child.widget == removed) {
                    unfill(child);
                    removed->removeEventFilter(this);
                }
            std::erase_if(m_children, [removed](const Child& child) {
                return child.widget.isNull() || child.widget == removed;
            });
            break;
        }
        case QEvent::Resize:
        case QEvent::Show:
        case QEvent::PaletteChange:
        case QEvent::StyleChange:
        case QEvent::FontChange:
        case QEvent::LayoutDirectionChange:
        case QEvent::ActivationChange:
            // The frame's edges, colours or title may have moved: no child is filled until measured again.
            for (Child& child : m_children)
                unfill(child);
            break;
        default:
            break;
        }
        return false;
    }
    Child* child = find(watched);
    if (!child)
        return false;
    switch (type) {
    case QEvent::Paint:
        if (child->filled && groundFillEnabled) {
            // Clipped by the paint engine to the paint's region (the system clip): the children outside it keep their
            // pixels.
            QPainter painter(child->widget);
            painter.fillRect(static_cast<QPaintEvent*>(event)->rect(), QColor::fromRgba(child->colour));
            ++groundFillPaints;
        }
        break;
    case QEvent::Move:
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Hide:
        unfill(*child);
        break;
    default:
        break;
    }
    return false;
}

} // namespace ridgeline::views
