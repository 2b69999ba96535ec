// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotdamage.h"

#include <algorithm>
#include <cstring>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

bool s_enabled = true;

// QCustomPlot keeps its paint buffers, background brush and the pixmap of a QCPPaintBufferPixmap protected, with no
// reader. A class derived from each names them, which yields pointers to the base's members that read any object of
// the base (standard C++: the access check is on the name, the pointer's class is the base).
struct PlotMembers : QCustomPlot {
    static auto buffers() { return &PlotMembers::mPaintBuffers; }
    static auto backgroundBrush() { return &PlotMembers::mBackgroundBrush; }
};
struct PixmapBufferMembers : QCPPaintBufferPixmap {
    static auto pixmap() { return &PixmapBufferMembers::mBuffer; }
};

} // namespace

PlotDamage* PlotDamage::install(QCustomPlot* plot)
{
    if (PlotDamage* existing = of(plot))
        return existing;
    return new PlotDamage(plot);
}

PlotDamage* PlotDamage::of(const QCustomPlot* plot)
{
    if (!plot)
        return nullptr;
    for (QObject* child : plot->children()) // no Q_OBJECT here, so no qobject_cast (findChild) either
        if (auto* damage = dynamic_cast<PlotDamage*>(child))
            return damage;
    return nullptr;
}

void PlotDamage::setEnabled(bool on)
{
    s_enabled = on;
}

bool PlotDamage::isEnabled()
{
    return s_enabled;
}

PlotDamage::PlotDamage(QCustomPlot* plot)
    : QObject(plot)
    , m_plot(plot)
{
    // Connected now; beforeReplot() runs among the plot's other beforeReplot slots, all before the replot's update().
    connect(plot, &QCustomPlot::beforeReplot, this, &PlotDamage::beforeReplot);
    connect(plot, &QCustomPlot::afterReplot, this, &PlotDamage::afterReplot);
}

void PlotDamage::beforeReplot()
{
    // Held only when updates are on: with them off (a parent's setUpdatesEnabled(false)) the replot's update is
    // dropped anyway, and turning them on repaints the whole plot.
    m_held = s_enabled && m_plot->updatesEnabled();
    if (m_held)
        m_plot->setAttribute(Qt::WA_UpdatesDisabled, true);
}

void PlotDamage::afterReplot()
{
    const bool held = m_held;
    m_held = false;
    if (held)
        m_plot->setAttribute(Qt::WA_UpdatesDisabled, false);
    if (!s_enabled) {
        m_previous = QImage();
        return;
    }
    QRect damage;
    const bool partial = compareAndKeep(&damage);
    if (!held)
        return;
    if (partial) {
        ++m_partial;
        m_lastDamage = damage;
        if (!damage.isEmpty())
            m_plot->update(damage);
    } else {
        ++m_whole;
        m_lastDamage = m_plot->rect();
        m_plot->update();
    }
}

bool PlotDamage::compareAndKeep(QRect* damage)
{
    const auto& buffers = m_plot->*PlotMembers::buffers();
    const QBrush& background = m_plot->*PlotMembers::backgroundBrush();
    const auto* buffer = buffers.size() == 1 ? dynamic_cast<const QCPPaintBufferPixmap*>(buffers.first().data()) : nullptr;
    const QImage now = buffer ? (buffer->*PixmapBufferMembers::pixmap()).toImage() : QImage(); // shared, not copied
    const bool sameFrame = !m_previous.isNull() && !now.isNull() && now.devicePixelRatio() == 1.0
        && now.format() == QImage::Format_ARGB32_Premultiplied && now.size() == m_previous.size()
        && now.size() == m_plot->size() && m_plot->viewport() == m_plot->rect() && m_viewport == m_plot->viewport()
        && background == m_background && m_plot->background().isNull() && m_backgroundPixmapKey == 0;
    m_background = background;
    m_viewport = m_plot->viewport();
    m_backgroundPixmapKey = m_plot->background().cacheKey();
    if (!sameFrame) {
        m_previous = now.isNull() ? QImage() : now.copy();
        return false;
    }
    const int width = now.width();
    const int height = now.height();
    const size_t rowBytes = size_t(width) * sizeof(quint32);
    int left = width;
    int right = -1;
    int top = height;
    int bottom = -1;
    for (int y = 0; y < height; ++y) {
        const auto* a = reinterpret_cast<const quint32*>(now.constScanLine(y));
        auto* b = reinterpret_cast<quint32*>(m_previous.scanLine(y));
        if (std::memcmp(a, b, rowBytes) == 0)
            continue;
        int first = 0;
        while (a[first] == b[first])
            ++first;
        int last = width - 1;
        while (a[last] == b[last])
            --last;
        std::memcpy(b + first, a + first, size_t(last - first + 1) * sizeof(quint32));
        left = std::min(left, first);
        right = std::max(right, last);
        top = std::min(top, y);
        bottom = y;
    }
    *damage = right < 0 ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
    return true;
}

} // namespace ridgeline::views
