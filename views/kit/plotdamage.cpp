// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotdamage.h"

#include <algorithm>
#include <cstring>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

bool s_enabled = true;

// The first and last pixel where two rows differ, at least one of [from, to) differing: 16 pixels (64 bytes) at a time
// with memcmp, then pixel by pixel inside the first block that differs.
int firstDifference(const quint32* a, const quint32* b, int from, int to)
{
    while (to - from >= 16 && std::memcmp(a + from, b + from, 16 * sizeof(quint32)) == 0)
        from += 16;
    while (a[from] == b[from])
        ++from;
    return from;
}

int lastDifference(const quint32* a, const quint32* b, int from, int to)
{
    while (to - from >= 16 && std::memcmp(a + to - 16, b + to - 16, 16 * sizeof(quint32)) == 0)
        to -= 16;
    int last = to - 1;
    while (a[last] == b[last])
        --last;
    return last;
}

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
    // A plot that changed (nearly) whole at its last comparison (every plot on a model-size step; the roofline on a batch
    // step) is repainted whole on its next kSkippedAfterWhole replots without a comparison (which would cost as much as
    // the paint it spares), its copy dropped; the replot after takes a new copy, the one after that compares again.
    if (m_skip > 0) {
        --m_skip;
        m_previous = QImage();
        if (held) {
            ++m_whole;
            m_lastDamage = m_plot->rect();
            m_plot->update();
        }
        return;
    }
    QRect damage;
    const bool partial = compareAndKeep(&damage);
    if (partial && qint64(damage.width()) * damage.height() * 4 >= qint64(m_plot->width()) * m_plot->height() * 3)
        m_skip = kSkippedAfterWhole;
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
    // Each row: one memcmp; a row that differs is then compared outside the rect found so far (two memcmps), and
    // scanned pixel by pixel only where it differs there (the rect grows). What differs lies inside the rect, so the
    // rect's span of the row is copied, whatever it holds.
    const int width = now.width();
    const int height = now.height();
    const qsizetype nowStride = now.bytesPerLine();
    const qsizetype keptStride = m_previous.bytesPerLine();
    const uchar* nowRow = now.constBits();
    uchar* keptRow = m_previous.bits();
    int left = width; // the rect's columns [left, right], rows [top, bottom]; empty while right < left
    int right = -1;
    int top = -1;
    int bottom = -1;
    for (int y = 0; y < height; ++y, nowRow += nowStride, keptRow += keptStride) {
        const auto* a = reinterpret_cast<const quint32*>(nowRow);
        auto* b = reinterpret_cast<quint32*>(keptRow);
        if (std::memcmp(a, b, size_t(width) * sizeof(quint32)) == 0)
            continue;
        if (right < left) { // the first row that differs
            left = firstDifference(a, b, 0, width);
            right = lastDifference(a, b, left, width);
            top = y;
        } else {
            if (left > 0 && std::memcmp(a, b, size_t(left) * sizeof(quint32)) != 0) {
                left = firstDifference(a, b, 0, left);
            }
            if (right < width - 1 && std::memcmp(a + right + 1, b + right + 1, size_t(width - 1 - right) * sizeof(quint32)) != 0) {
                right = lastDifference(a, b, right + 1, width);
            }
        }
        bottom = y;
        std::memcpy(b + left, a + left, size_t(right - left + 1) * sizeof(quint32));
    }
    *damage = right < left ? QRect() : QRect(QPoint(left, top), QPoint(right, bottom));
    return true;
}

} // namespace ridgeline::views
