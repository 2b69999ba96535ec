// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/plotinteraction.h"

#include <algorithm>
#include <cmath>

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QMetaMethod>
#include <QMouseEvent>
#include <QSaveFile>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QToolButton>
#include <QWheelEvent>

#include "document/format.h"
#include "views/kit/palette.h"
#include "views/kit/plotkit.h"

namespace ridgeline::views {

namespace {

/** The text in the last parentheses of an axis label ("time per decode step (ms)" -> "ms"), or "". */
QString unitOf(const QString& label)
{
    const qsizetype open = label.lastIndexOf(QLatin1Char('('));
    const qsizetype close = label.lastIndexOf(QLatin1Char(')'));
    return open >= 0 && close > open ? label.mid(open + 1, close - open - 1) : QString();
}

/** An axis label without its unit: "batch B (sequences)" -> "batch B". */
QString nameOf(const QString& label)
{
    const qsizetype open = label.lastIndexOf(QLatin1Char('('));
    return (open > 0 ? label.left(open) : label).trimmed();
}

/** @p value on @p axis's scale: its logarithm on a log axis. */
double scaled(const QCPAxis* axis, double value)
{
    return axis->scaleType() == QCPAxis::stLogarithmic ? std::log(value) : value;
}

QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

/** Diameter (px) of the read-out's marker on each curve. */
constexpr int kMarkerSize = 9;

} // namespace

QString Readout::text() const
{
    QStringList parts;
    for (const ReadoutValue& value : values)
        parts << (value.name.isEmpty() ? value.text : value.name + QLatin1Char(' ') + value.text);
    QString out = keyText + QStringLiteral(": ") + parts.join(QStringLiteral(", "));
    if (values.isEmpty())
        out += PlotInteraction::tr("no curve here");
    else if (interpolated)
        out += PlotInteraction::tr(" (interpolated between points)");
    return out;
}

PlotInteraction::PlotInteraction(QCustomPlot* plot, const QString& formula)
    : QObject(plot)
    , m_plot(plot)
    , m_formula(formula)
{
    setObjectName(QStringLiteral("plotInteraction"));
    plot->setInteractions(QCP::iRangeZoom); // Ctrl+wheel (the plain wheel never reaches it) and the zoom box
    plot->setSelectionRectMode(QCP::srmZoom);
    if (QCPSelectionRect* box = plot->selectionRect()) {
        QColor fill = palette::memory();
        fill.setAlpha(40);
        box->setPen(QPen(palette::memory(), 1, Qt::DashLine));
        box->setBrush(fill);
    }
    QCPAxisRect* rect = plot->axisRect();
    const QList<QCPAxis*> horizontal{plot->xAxis, plot->xAxis2};
    const QList<QCPAxis*> vertical{plot->yAxis, plot->yAxis2};
    rect->setRangeZoomAxes(horizontal, vertical);
    rect->setRangeDragAxes(horizontal, vertical);
    for (QCPAxis* axis : axes()) {
        m_autoRanges.insert(axis, axis->range());
        connect(axis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this, axis](const QCPRange& range) { onRangeChanged(axis, range); });
    }
    // Values stay those of the scenario drawn: a replot with the read-out shown re-reads them.
    connect(plot, &QCustomPlot::beforeReplot, this, [this] {
        if (m_visible)
            placeItems();
    });
    connect(plot, &QCustomPlot::afterLayout, this, [this] { placeResetButton(); });
    plot->setMouseTracking(true);
    plot->setFocusPolicy(Qt::StrongFocus); // a click or Tab, then the arrow keys move the read-out
    plot->installEventFilter(this);

    m_resetButton = new QToolButton(plot);
    m_resetButton->setObjectName(QStringLiteral("resetViewButton"));
    m_resetButton->setText(tr("Reset view"));
    m_resetButton->setToolTip(tr("Back to the whole curves; the axes follow the data again"));
    m_resetButton->setCursor(Qt::ArrowCursor);
    m_resetButton->setFocusPolicy(Qt::NoFocus);
    m_resetButton->hide();
    connect(m_resetButton, &QToolButton::clicked, this, &PlotInteraction::resetView);
}

PlotInteraction* PlotInteraction::install(QCustomPlot* plot, const QString& formula)
{
    if (PlotInteraction* existing = of(plot)) {
        existing->setFormula(formula);
        return existing;
    }
    return new PlotInteraction(plot, formula);
}

PlotInteraction* PlotInteraction::of(const QCustomPlot* plot)
{
    return plot ? plot->findChild<PlotInteraction*>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
}

void PlotInteraction::setReadout(ReadoutFunction function)
{
    m_function = std::move(function);
}

Readout PlotInteraction::readoutAt(double key) const
{
    return m_function ? m_function(key) : interpolatedReadout(key);
}

Readout PlotInteraction::interpolatedReadout(double key) const
{
    Readout out;
    out.key = key;
    out.interpolated = true;
    const QCPAxis* keyAxis = m_plot->xAxis;
    const QString keyUnit = unitOf(plotkit::axisTitle(keyAxis));
    out.keyText = nameOf(plotkit::axisTitle(keyAxis)) + QStringLiteral(" = ") + format::approximate(key)
        + (keyUnit.isEmpty() ? QString() : QLatin1Char(' ') + keyUnit);
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph* graph = m_plot->graph(i);
        if (!graph->visible() || graph->keyAxis() != keyAxis || graph->data()->isEmpty())
            continue;
        const QCPGraphDataContainer& data = *graph->data();
        const QString unit = unitOf(plotkit::axisTitle(graph->valueAxis()));
        if (graph->lineStyle() == QCPGraph::lsNone) {
            // Points (measurements, residuals, markers): the nearest one within a few pixels, as it is.
            const double pixel = keyAxis->coordToPixel(key);
            const QCPGraphData* nearest = nullptr;
            double distance = 8.0;
            for (auto it = data.constBegin(); it != data.constEnd(); ++it) {
                const double d = std::abs(keyAxis->coordToPixel(it->key) - pixel);
                if (std::isfinite(it->value) && d <= distance) {
                    distance = d;
                    nearest = &*it;
                }
            }
            if (nearest)
                out.values.append({graph->name().isEmpty() ? tr("point") : graph->name(), nearest->value,
                                   tr("%1%2 at %3").arg(format::approximate(nearest->value),
                                                        unit.isEmpty() ? QString() : QLatin1Char(' ') + unit,
                                                        format::approximate(nearest->key)),
                                   graph});
            continue;
        }
        if (graph->name().isEmpty() || data.size() < 2)
            continue;
        auto after = data.findBegin(key, false); // first point with key >= key
        if (after == data.constEnd() || (after == data.constBegin() && after->key > key))
            continue;
        double value = after->value;
        if (after->key > key) {
            auto before = after - 1;
            const QCPAxis* valueAxis = graph->valueAxis();
            const double x0 = scaled(keyAxis, before->key), x1 = scaled(keyAxis, after->key);
            const double y0 = scaled(valueAxis, before->value), y1 = scaled(valueAxis, after->value);
            const double t = (scaled(keyAxis, key) - x0) / (x1 - x0);
            // A step (the same value at both ends) stays exact; a log axis interpolates in its scale.
            const double y = before->value == after->value ? y0 : y0 + t * (y1 - y0);
            value = valueAxis->scaleType() == QCPAxis::stLogarithmic && before->value != after->value ? std::exp(y) : y;
        }
        if (!std::isfinite(value))
            continue;
        out.values.append({graph->name(), value,
                           format::approximate(value) + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit), graph});
    }
    return out;
}

void PlotInteraction::ensureItems()
{
    if (m_layer)
        return;
    QCPLayer* top = m_plot->layer(m_plot->layerCount() - 1);
    m_plot->addLayer(QStringLiteral("readout"), top, QCustomPlot::limAbove);
    m_layer = m_plot->layer(QStringLiteral("readout"));
    m_layer->setMode(QCPLayer::lmBuffered);
    m_line = new QCPItemStraightLine(m_plot);
    m_line->setLayer(m_layer);
    m_line->point1->setAxes(m_plot->xAxis, m_plot->yAxis);
    m_line->point2->setAxes(m_plot->xAxis, m_plot->yAxis);
    m_box = new QCPItemText(m_plot);
    m_box->setLayer(m_layer);
    m_box->position->setType(QCPItemPosition::ptAbsolute);
    m_box->setTextAlignment(Qt::AlignLeft);
    m_box->setPadding(QMargins(6, 4, 6, 4));
    m_box->setClipToAxisRect(false);
}

void PlotInteraction::placeItems()
{
    if (!m_layer)
        return;
    m_readout = readoutAt(m_readout.key);
    const double key = m_readout.key;
    plotkit::placeVertical(m_line, key);
    m_line->setPen(plotkit::pen(palette::axis(), 1, Qt::DashLine));

    int used = 0;
    for (const ReadoutValue& value : m_readout.values) {
        if (!value.graph)
            continue;
        if (used == m_markers.size()) {
            auto* marker = new QCPItemTracer(m_plot);
            marker->setLayer(m_layer);
            marker->setStyle(QCPItemTracer::tsCircle);
            marker->setSize(kMarkerSize);
            m_markers.append(marker);
        }
        QCPItemTracer* marker = m_markers.at(used++);
        marker->position->setAxes(value.graph->keyAxis(), value.graph->valueAxis());
        marker->position->setCoords(key, value.value);
        const bool drawable = std::isfinite(value.value)
            && (value.graph->valueAxis()->scaleType() != QCPAxis::stLogarithmic || value.value > 0);
        marker->setVisible(drawable);
        QColor color = value.graph->pen().color();
        color.setAlpha(255);
        marker->setPen(QPen(color, 2));
        marker->setBrush(palette::card());
    }
    for (int i = used; i < m_markers.size(); ++i)
        m_markers.at(i)->setVisible(false);

    QStringList lines{m_readout.keyText};
    for (const ReadoutValue& value : m_readout.values)
        lines << (value.name.isEmpty() ? value.text : value.name + QStringLiteral(": ") + value.text);
    if (m_readout.values.isEmpty())
        lines << tr("no curve here");
    if (m_readout.interpolated && !m_readout.values.isEmpty())
        lines << tr("(interpolated between points)");
    m_box->setText(lines.join(QLatin1Char('\n')));
    QFont font = m_plot->xAxis->tickLabelFont();
    m_box->setFont(font);
    m_box->setColor(palette::text());
    QColor fill = palette::card();
    fill.setAlpha(235);
    m_box->setBrush(fill);
    m_box->setPen(QPen(palette::cardBorder(), 1));
    // Beside the line at the top of the axis rect: right of it when the box fits there, else left,
    // else against the side with more room; never over the axes.
    const QRect area = m_plot->axisRect()->rect();
    const double pixel = std::clamp(m_plot->xAxis->coordToPixel(key), double(area.left()), double(area.right()));
    const QMargins padding = m_box->padding();
    const double width = QFontMetrics(font).boundingRect(QRect(), Qt::AlignLeft, m_box->text()).width()
        + padding.left() + padding.right() + 2;
    constexpr double gap = 8;
    double left = pixel + gap;
    if (left + width > area.right()) {
        left = pixel - gap - width;
        if (left < area.left())
            left = pixel < area.center().x() ? area.right() - width - 2 : area.left() + 2;
    }
    left = std::max(left, double(area.left()) + 2);
    m_box->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Below the "Reset view" button while it shows.
    const double top = area.top() + 6 + (m_zoomed ? m_resetButton->sizeHint().height() + 4 : 0);
    m_box->position->setCoords(left, top);
}

void PlotInteraction::showReadoutAt(double key)
{
    ensureItems();
    m_readout.key = key;
    m_visible = true;
    placeItems();
    m_layer->setVisible(true);
    m_layer->replot(); // the read-out layer alone, unless the plot's buffers need a full replot
}

void PlotInteraction::hideReadout()
{
    if (!m_visible)
        return;
    m_visible = false;
    m_layer->setVisible(false);
    m_layer->replot();
}

QList<QCPAxis*> PlotInteraction::axes() const
{
    return {m_plot->xAxis, m_plot->yAxis, m_plot->xAxis2, m_plot->yAxis2};
}

void PlotInteraction::onRangeChanged(QCPAxis* axis, const QCPRange& range)
{
    if (m_restoring)
        return;
    if (m_userInput) {
        m_userRanges.insert(axis, range);
        if (!m_zoomed) {
            m_zoomed = true;
            placeResetButton();
            emit zoomChanged(true);
        }
        return;
    }
    // The plot's own code: remember the range for Reset view; while zoomed keep showing the user's.
    m_autoRanges.insert(axis, range);
    if (m_zoomed && m_userRanges.contains(axis)) {
        QScopedValueRollback<bool> restoring(m_restoring, true);
        axis->setRange(m_userRanges.value(axis));
    }
}

void PlotInteraction::resetView()
{
    if (!m_zoomed)
        return;
    m_zoomed = false;
    m_userRanges.clear();
    {
        QScopedValueRollback<bool> restoring(m_restoring, true);
        for (auto it = m_autoRanges.cbegin(); it != m_autoRanges.cend(); ++it)
            it.key()->setRange(it.value());
    }
    placeResetButton();
    emit zoomChanged(false);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void PlotInteraction::placeResetButton()
{
    m_resetButton->setVisible(m_zoomed);
    if (!m_zoomed)
        return;
    m_resetButton->adjustSize();
    const QRect area = m_plot->axisRect()->rect();
    m_resetButton->move(area.right() - m_resetButton->width() - 4, area.top() + 4);
    m_resetButton->raise();
}

void PlotInteraction::dispatchAsUser(QEvent* event)
{
    QScopedValueRollback<bool> user(m_userInput, true);
    QScopedValueRollback<bool> again(m_redispatching, true);
    QCoreApplication::sendEvent(m_plot, event);
}

void PlotInteraction::scrollPage(QEvent* event)
{
    for (QWidget* parent = m_plot->parentWidget(); parent; parent = parent->parentWidget()) {
        auto* area = qobject_cast<QAbstractScrollArea*>(parent);
        if (!area)
            continue;
        QScrollBar* bar = static_cast<QWheelEvent*>(event)->angleDelta().y() != 0 ? area->verticalScrollBar()
                                                                                 : area->horizontalScrollBar();
        if (bar && bar->isVisible()) {
            QCoreApplication::sendEvent(bar, event);
            return;
        }
    }
}

void PlotInteraction::stepReadout(int steps)
{
    const QRect area = m_plot->axisRect()->rect();
    QCPAxis* x = m_plot->xAxis;
    if (!m_visible) {
        showReadoutAt(x->pixelToCoord(area.center().x()));
        return;
    }
    const double from = x->coordToPixel(m_readout.key);
    const double step = std::max(1.0, area.width() / 100.0);
    for (int i = 1; i <= 400; ++i) {
        const double pixel = std::clamp(from + steps * step * i, double(area.left()), double(area.right()));
        const double key = x->pixelToCoord(pixel);
        if (readoutAt(key).key != m_readout.key) {
            showReadoutAt(key);
            return;
        }
        if (pixel <= area.left() || pixel >= area.right())
            return;
    }
}

bool PlotInteraction::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_plot || m_redispatching)
        return false;
    switch (event->type()) {
    case QEvent::Wheel:
    case QEvent::MouseButtonPress:
    case QEvent::MouseMove:
    case QEvent::MouseButtonRelease:
    case QEvent::Leave:
    case QEvent::KeyPress:
    case QEvent::ContextMenu:
        break;
    default:
        return false;
    }
    if (m_plot->axisRectCount() == 0) // the plot is being destroyed
        return false;
    const QRect area = m_plot->axisRect()->rect();
    switch (event->type()) {
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->modifiers() & Qt::ControlModifier) {
            dispatchAsUser(event);
            if (m_visible)
                showReadoutAt(m_plot->xAxis->pixelToCoord(wheel->position().x()));
        } else {
            scrollPage(event); // the page scrolls as if the plot were not there
        }
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const bool pan = mouse->button() == Qt::MiddleButton
            || (mouse->button() == Qt::LeftButton && (mouse->modifiers() & Qt::AltModifier));
        if (pan && area.contains(mouse->position().toPoint())) {
            m_panning = true;
            m_panStart = mouse->position().toPoint();
            m_panRanges.clear();
            for (QCPAxis* axis : axes())
                m_panRanges.insert(axis, axis->range());
            m_plot->setCursor(Qt::ClosedHandCursor);
            return true;
        }
        // The left button starts QCustomPlot's zoom box; no other button may (the right one opens the menu).
        return mouse->button() != Qt::LeftButton;
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const QPointF pos = mouse->position();
        if (m_panning) {
            QScopedValueRollback<bool> user(m_userInput, true);
            for (QCPAxis* axis : axes()) {
                const bool horizontal = axis->orientation() == Qt::Horizontal;
                const double start = horizontal ? m_panStart.x() : m_panStart.y();
                const double now = horizontal ? pos.x() : pos.y();
                const QCPRange range = m_panRanges.value(axis);
                // As QCPAxisRect's own drag: shift (linear) or scale (log) the range at the start.
                if (axis->scaleType() == QCPAxis::stLinear) {
                    const double diff = axis->pixelToCoord(start) - axis->pixelToCoord(now);
                    axis->setRange(range.lower + diff, range.upper + diff);
                } else {
                    const double ratio = axis->pixelToCoord(start) / axis->pixelToCoord(now);
                    axis->setRange(range.lower * ratio, range.upper * ratio);
                }
                m_panRanges.insert(axis, axis->range());
            }
            m_panStart = pos.toPoint();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
            return true;
        }
        if (mouse->buttons() == Qt::NoButton) {
            if (area.contains(pos.toPoint()))
                showReadoutAt(m_plot->xAxis->pixelToCoord(pos.x()));
            else
                hideReadout();
        }
        return false;
    }
    case QEvent::MouseButtonRelease: {
        if (m_panning) {
            m_panning = false;
            m_plot->unsetCursor();
            return true;
        }
        dispatchAsUser(event); // the zoom box applies on release
        return true;
    }
    case QEvent::Leave:
        if (!m_menu || !m_menu->isVisible()) // the menu's values are those at the click
            hideReadout();
        return false;
    case QEvent::KeyPress: {
        auto* key = static_cast<QKeyEvent*>(event);
        const int big = (key->modifiers() & Qt::ShiftModifier) ? 10 : 1;
        switch (key->key()) {
        case Qt::Key_Left:
            stepReadout(-big);
            return true;
        case Qt::Key_Right:
            stepReadout(big);
            return true;
        case Qt::Key_Escape:
            if (!m_visible)
                return false;
            hideReadout();
            return true;
        default:
            return false;
        }
    }
    case QEvent::ContextMenu: {
        auto* menuEvent = static_cast<QContextMenuEvent*>(event);
        if (area.contains(menuEvent->pos()))
            showReadoutAt(m_plot->xAxis->pixelToCoord(menuEvent->pos().x()));
        contextMenu()->popup(menuEvent->globalPos());
        return true;
    }
    default:
        return false;
    }
}

QMenu* PlotInteraction::contextMenu()
{
    if (m_menu)
        return m_menu;
    m_menu = new QMenu(m_plot);
    m_menu->setObjectName(QStringLiteral("plotContextMenu"));
    auto add = [this](const QString& name, const QString& text, auto slot) {
        QAction* action = m_menu->addAction(text);
        action->setObjectName(name);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    add(QStringLiteral("copyValuesAction"), tr("Copy values at cursor"), &PlotInteraction::copyValues);
    add(QStringLiteral("copyImageAction"), tr("Copy plot as image"), &PlotInteraction::copyImage);
    add(QStringLiteral("exportPlotAction"), tr("Export this plot\u2026"), &PlotInteraction::exportWithDialog);
    m_menu->addSeparator();
    QAction* reset = add(QStringLiteral("resetViewAction"), tr("Reset view"), &PlotInteraction::resetView);
    add(QStringLiteral("showFormulaAction"), tr("Show formula"), &PlotInteraction::showFormula);
    connect(m_menu, &QMenu::aboutToShow, this, [this, reset] { reset->setEnabled(m_zoomed); });
    connect(m_menu, &QMenu::aboutToHide, this, [this] {
        if (!m_plot->underMouse() && !m_plot->hasFocus())
            hideReadout();
    });
    return m_menu;
}

void PlotInteraction::copyValues()
{
    // The values last read out (at the right click), else those in the middle of the view.
    Readout readout = m_readout;
    if (readout.keyText.isEmpty())
        readout = readoutAt(m_plot->xAxis->pixelToCoord(m_plot->axisRect()->rect().center().x()));
    QGuiApplication::clipboard()->setText(readout.text());
}

void PlotInteraction::copyImage()
{
    const bool shown = m_layer && m_layer->visible();
    if (shown)
        m_layer->setVisible(false);
    const QPixmap pixmap = m_plot->toPixmap();
    if (shown)
        m_layer->setVisible(true);
    QGuiApplication::clipboard()->setImage(pixmap.toImage());
}

QString PlotInteraction::formula() const
{
    const QString numbers = m_formulaNumbers ? m_formulaNumbers() : QString();
    return numbers.isEmpty() ? m_formula : m_formula + tr("\n\nWith this scenario's numbers:\n") + numbers;
}

void PlotInteraction::showFormula()
{
    auto* box = new QMessageBox(QMessageBox::Information, tr("Formula"), formula(), QMessageBox::Close, m_plot);
    box->setObjectName(QStringLiteral("plotFormulaBox"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

QByteArray PlotInteraction::csv() const
{
    const QLocale c = QLocale::c();
    QString out = QStringLiteral("curve,%1,value,value axis\n").arg(csvField(plotkit::axisTitle(m_plot->xAxis)));
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        const QCPGraph* graph = m_plot->graph(i);
        if (graph->name().isEmpty() || graph->data()->isEmpty())
            continue;
        const QString name = csvField(graph->name());
        const QString axis = csvField(plotkit::axisTitle(graph->valueAxis()));
        for (const QCPGraphData& point : *graph->data()) {
            if (!std::isfinite(point.key) || !std::isfinite(point.value))
                continue;
            out += name + QLatin1Char(',') + c.toString(point.key, 'g', QLocale::FloatingPointShortest)
                + QLatin1Char(',') + c.toString(point.value, 'g', QLocale::FloatingPointShortest) + QLatin1Char(',')
                + axis + QLatin1Char('\n');
        }
    }
    return out.toUtf8();
}

QString PlotInteraction::exportPlot(const QString& path) const
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) {
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(csv()) < 0 || !file.commit())
            return file.errorString();
        return {};
    }
    const bool shown = m_layer && m_layer->visible();
    if (shown)
        m_layer->setVisible(false);
    bool ok = false;
    if (suffix == QLatin1String("png")) {
        ok = m_plot->savePng(path);
    } else if (suffix == QLatin1String("pdf")) {
        ok = m_plot->savePdf(path);
    } else if (suffix == QLatin1String("svg")) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(m_plot->size());
        generator.setViewBox(QRect(QPoint(0, 0), m_plot->size()));
        generator.setTitle(m_plot->accessibleName());
        QCPPainter painter;
        if (painter.begin(&generator)) {
            m_plot->toPainter(&painter, m_plot->width(), m_plot->height());
            ok = painter.end();
        }
    } else {
        if (shown)
            m_layer->setVisible(true);
        return tr("Unknown format \u201c%1\u201d: use .png, .pdf, .svg or .csv").arg(suffix);
    }
    if (shown)
        m_layer->setVisible(true);
    if (!ok || QFileInfo(path).size() <= 0)
        return tr("Could not write %1").arg(QDir::toNativeSeparators(path));
    return {};
}

void PlotInteraction::exportWithDialog()
{
    if (isSignalConnected(QMetaMethod::fromSignal(&PlotInteraction::exportRequested))) {
        emit exportRequested(m_plot);
        return;
    }
    const QString stem = m_plot->objectName().isEmpty() ? QStringLiteral("plot") : m_plot->objectName();
    const QString path = QFileDialog::getSaveFileName(m_plot, tr("Export this plot"), stem + QStringLiteral(".png"),
                                                      tr("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg);;CSV data (*.csv)"));
    if (path.isEmpty())
        return;
    const QString error = exportPlot(path);
    if (!error.isEmpty())
        QMessageBox::warning(m_plot, tr("Export this plot"), error);
}

} // namespace ridgeline::views
