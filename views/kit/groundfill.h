// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

#include <QObject>
#include <QPointer>
#include <QRgb>

class QPainter;
class QWidget;

namespace ridgeline::views {

/**
 * Makes the children of a widget that paints a uniform ground under them (a QGroupBox: Fusion fills its inside from a
 * translucent nine-patch) opaque, each filling what it repaints with the exact pixel its parents paint there, so that a
 * child's repaint (a slider step's new value, unit or note) no longer repaints the box and every widget under it
 * (issue 16, thirty-second stop in docs/performance.md).
 *
 * Qt paints every non-opaque ancestor of a changed widget inside the widget's dirty region. Fusion's combo boxes, spin
 * boxes and sliders, and plain labels, leave pixels of their rect unpainted (rounded corners, the groove's
 * surroundings), so the group box, and the panel under it, were painted on every step of a slider inside the box
 * (QGroupBox::paintEvent: the frame's nine-patch, the title's metrics and text; about 0.6 M instructions a model-size
 * step).
 *
 * The ground is read, not assumed: the ground's own paint (the caller's function, e.g. QGroupBox's complex control
 * drawn by its style, as its paintEvent() does) is drawn over its palette's background colour into an image, clipped to
 * the union of its visible direct children's rects (not through QWidget::render(), which first sends every pending
 * move and resize event to the ground's descendants, hidden ones included). A child is filled only when every device
 * pixel under its rect is one opaque colour; it is then given Qt::WA_OpaquePaintEvent and, in an event filter before
 * its own paintEvent(), fills its paint's rect (the engine clips it to the paint's region) with that colour. Any other
 * child is left as Qt paints it. Precondition (checked by the tests against the window's backing store): what lies
 * under the ground widget is its palette's window colour, opaque. Qt does not repaint an opaque child with its
 * parents, so a filled child whose colour a new measurement changes repaints itself; its grab() shows its fill.
 *
 * The measurement (one paint of the ground into an image) is posted when the ground is painted only under children that
 * are not filled, that is for their own repaints: the first slider step after start-up, or after a change. Start-up,
 * which paints the ground whole, measures nothing. A change of the ground's or a child's geometry or visibility, of the
 * ground's palette, style, font, direction or activation, unfills the children concerned (their old colour may not
 * hold) until the next such paint. Children are adopted when polished or measured. A child that is already opaque
 * (Qt::WA_OpaquePaintEvent, an auto-filled background) or paints on screen is left alone.
 */
class GroundFill final : public QObject {
    Q_OBJECT
public:
    /** Paints @p ground's own look (what its paintEvent() paints, no background) with the painter given, in the
     *  ground's logical coordinates. */
    using PaintGround = std::function<void(QPainter& painter)>;

    /** Fills the direct children of @p ground (now and added later) where its ground, painted by @p paintGround, is
     *  uniform; the GroundFill is a child of @p ground. */
    static GroundFill* install(QWidget* ground, PaintGround paintGround);
    ~GroundFill() override;

    /** Whether @p child is filled now, and with which colour (premultiplied ARGB, opaque) through @p colour. */
    bool fills(const QWidget* child, QRgb* colour = nullptr) const;

    /** Measures the ground now (otherwise posted after a paint of the ground under unfilled children alone). */
    void measure();

    /** With @p on false no child of any ground is filled (all as Qt paints them), for a test's reference; on again,
     *  each ground is measured when next painted under its unfilled children alone, or by measure(). On by default. */
    static void setEnabled(bool on);

    /** Paints of filled children since start-up (each a fill before the child's own paint). For tests. */
    static long long fills();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    GroundFill(QWidget* ground, PaintGround paintGround);
    struct Child {
        QPointer<QWidget> widget;
        QRgb colour = 0;
        bool filled = false;
    };
    Child* find(const QObject* widget);
    const Child* find(const QObject* widget) const;
    void unfill(Child& child);
    /** Whether @p child may be filled: visible, wholly inside the ground, not made opaque by another. */
    bool eligible(const Child& child) const;
    void schedule();
    void adopt(QWidget* widget);

    QWidget* m_ground;
    PaintGround m_paintGround;
    std::vector<Child> m_children;
    bool m_scheduled = false;
};

} // namespace ridgeline::views
