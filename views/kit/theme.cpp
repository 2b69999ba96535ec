// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/theme.h"

#include "views/kit/card.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPalette>
#include <QRegularExpression>
#include <QWidget>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

Theme& current()
{
    static Theme theme = Theme::light();
    return theme;
}

QColor rgb(unsigned value)
{
    return QColor::fromRgb(QRgb(value));
}

/** Per-repaint re-colouring and re-scaling of everything one QCustomPlot draws. */
class PlotRestyler {
public:
    PlotRestyler(const Theme& from, const Theme& to)
        : m_from(from)
        , m_to(to)
        , m_font(to.fontScale / from.fontScale)
        , m_line(to.lineScale / from.lineScale)
    {
    }

    QColor color(const QColor& c) const { return mapColor(c, m_from, m_to); }

    QPen pen(QPen p) const
    {
        if (p.style() == Qt::NoPen)
            return p;
        p.setColor(color(p.color()));
        if (p.widthF() > 0)
            p.setWidthF(p.widthF() * m_line);
        return p;
    }

    QBrush brush(QBrush b) const
    {
        if (b.style() != Qt::NoBrush)
            b.setColor(color(b.color()));
        return b;
    }

    QFont font(QFont f) const
    {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * m_font);
        else if (f.pixelSize() > 0)
            f.setPixelSize(qMax(1, qRound(f.pixelSize() * m_font)));
        return f;
    }

    void restyle(QCustomPlot* plot) const
    {
        plot->setBackground(QBrush(m_to.color(Theme::Card)));
        for (QCPAxisRect* rect : plot->axisRects()) {
            for (QCPAxis* axis : rect->axes()) {
                axis->setBasePen(pen(axis->basePen()));
                axis->setTickPen(pen(axis->tickPen()));
                axis->setSubTickPen(pen(axis->subTickPen()));
                axis->setLabelColor(color(axis->labelColor()));
                axis->setTickLabelColor(color(axis->tickLabelColor()));
                axis->setLabelFont(font(axis->labelFont()));
                axis->setTickLabelFont(font(axis->tickLabelFont()));
                axis->grid()->setPen(pen(axis->grid()->pen()));
                axis->grid()->setSubGridPen(pen(axis->grid()->subGridPen()));
            }
        }
        if (QCPLegend* legend = plot->legend) {
            legend->setTextColor(color(legend->textColor()));
            legend->setFont(font(legend->font()));
            legend->setBrush(brush(legend->brush()));
            legend->setBorderPen(pen(legend->borderPen()));
            const QSize icon = legend->iconSize();
            legend->setIconSize(qRound(icon.width() * m_font), qRound(icon.height() * m_font));
        }
        for (int i = 0; i < plot->plottableCount(); ++i) {
            QCPAbstractPlottable* plottable = plot->plottable(i);
            plottable->setPen(pen(plottable->pen()));
            plottable->setBrush(brush(plottable->brush()));
            if (auto* graph = qobject_cast<QCPGraph*>(plottable)) {
                QCPScatterStyle style = graph->scatterStyle();
                if (!style.isNone()) {
                    style.setPen(pen(style.pen()));
                    style.setBrush(brush(style.brush()));
                    style.setSize(style.size() * m_font);
                    graph->setScatterStyle(style);
                }
            }
        }
        for (int i = 0; i < plot->itemCount(); ++i) {
            QCPAbstractItem* item = plot->item(i);
            if (auto* text = qobject_cast<QCPItemText*>(item)) {
                text->setColor(color(text->color()));
                text->setBrush(brush(text->brush()));
                text->setPen(pen(text->pen()));
                text->setFont(font(text->font()));
            } else if (auto* line = qobject_cast<QCPItemStraightLine*>(item)) {
                line->setPen(pen(line->pen()));
            } else if (auto* segment = qobject_cast<QCPItemLine*>(item)) {
                segment->setPen(pen(segment->pen()));
            } else if (auto* rect = qobject_cast<QCPItemRect*>(item)) {
                rect->setPen(pen(rect->pen()));
                rect->setBrush(brush(rect->brush()));
            } else if (auto* tracer = qobject_cast<QCPItemTracer*>(item)) {
                tracer->setPen(pen(tracer->pen()));
                tracer->setBrush(brush(tracer->brush()));
            }
        }
        // A plot of a fixed height (the KV share's bar) grows with the font, as a Qt Charts view below does.
        if (plot->minimumHeight() == plot->maximumHeight() && plot->minimumHeight() > 0)
            plot->setFixedHeight(qRound(plot->minimumHeight() * m_font));
        plot->replot(QCustomPlot::rpQueuedReplot);
    }

    void restyle(QChartView* view) const
    {
        QChart* chart = view->chart();
        if (!chart)
            return;
        chart->setBackgroundBrush(brush(chart->backgroundBrush()));
        chart->legend()->setLabelColor(color(chart->legend()->labelColor()));
        chart->legend()->setFont(font(chart->legend()->font()));
        for (QAbstractAxis* axis : chart->axes()) {
            axis->setLabelsColor(color(axis->labelsColor()));
            axis->setLabelsFont(font(axis->labelsFont()));
            axis->setGridLineColor(color(axis->gridLineColor()));
            axis->setLinePenColor(color(axis->linePenColor()));
        }
        for (QAbstractSeries* series : chart->series()) {
            if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
                for (QBarSet* set : bars->barSets()) {
                    set->setColor(color(set->color()));
                    set->setBorderColor(color(set->borderColor()));
                    set->setLabelColor(color(set->labelColor()));
                }
            }
        }
        if (view->minimumHeight() == view->maximumHeight() && view->minimumHeight() > 0)
            view->setFixedHeight(qRound(view->minimumHeight() * m_font));
    }

private:
    const Theme& m_from;
    const Theme& m_to;
    double m_font;
    double m_line;
};

} // namespace

Theme Theme::light()
{
    Theme t;
    t.kind = Kind::Light;
    t.colors = {rgb(0x1f6fb4), rgb(0xb0600d), rgb(0x7b3fb0), rgb(0x248548), rgb(0x262b36), rgb(0xc62828),
                rgb(0x6f757f), rgb(0x5f6b7a), rgb(0xe3e6eb), rgb(0xf1f3f6), rgb(0x5a606b), rgb(0x1d222b),
                rgb(0xffffff), rgb(0xd5dae1), rgb(0xeef1f5), rgb(0xb71c1c), rgb(0xfdecea), rgb(0xe8f1fb),
                // Pinned B to F: Paul Tol's "muted" wine, teal, indigo, olive and rose, darkened to 4.5:1 on the card.
                rgb(0x882255), rgb(0x117a6e), rgb(0x332288), rgb(0x7a6a00), rgb(0xb04a5a)};
    return t;
}

Theme Theme::dark()
{
    Theme t;
    t.kind = Kind::Dark;
    t.colors = {rgb(0x5aa9f0), rgb(0xf5a04a), rgb(0xb58be0), rgb(0x4cc47a), rgb(0xe6e9ef), rgb(0xef5350),
                rgb(0x8f96a0), rgb(0xb4bcc8), rgb(0x353b45), rgb(0x2a2f37), rgb(0xaab1bc), rgb(0xe8ebf0),
                rgb(0x1f2329), rgb(0x3a404a), rgb(0x15181d), rgb(0xff8a80), rgb(0x3b1f1f), rgb(0x1d2b3a),
                rgb(0xe06c9f), rgb(0x4fd1bd), rgb(0xa99cf5), rgb(0xd9c24f), rgb(0xf0a8a0)};
    return t;
}

Theme Theme::presentation()
{
    Theme t;
    t.kind = Kind::Presentation;
    t.colors = {rgb(0x0050c8), rgb(0xc15300), rgb(0x6a1b9a), rgb(0x00802b), rgb(0x000000), rgb(0xd00000),
                rgb(0x555555), rgb(0x6e6e6e), rgb(0xc4c4c4), rgb(0xe4e4e4), rgb(0x111111), rgb(0x0a0a0a),
                rgb(0xfffffe), rgb(0x202020), rgb(0xf2f2f2), rgb(0xb00000), rgb(0xffe8e8), rgb(0xe6efff),
                rgb(0x7a1a4a), rgb(0x0b6b60), rgb(0x2a1c80), rgb(0x6b5c00), rgb(0xa03a4c)};
    t.fontScale = 1.3;
    t.lineScale = 1.8;
    return t;
}

Theme Theme::system()
{
    return QApplication::palette().color(QPalette::Window).lightness() < 128 ? Theme::dark() : Theme::light();
}

const Theme& currentTheme()
{
    return current();
}

void setCurrentTheme(const Theme& theme)
{
    current() = theme;
}

QColor mapColor(const QColor& color, const Theme& from, const Theme& to)
{
    if (!color.isValid())
        return color;
    const QRgb value = color.rgb();
    for (size_t i = 0; i < size_t(Theme::RoleCount); ++i) {
        if (from.colors[i].rgb() == value) {
            QColor mapped = to.colors[i];
            mapped.setAlpha(color.alpha());
            return mapped;
        }
    }
    return color;
}

void applyTheme(QWidget* root, const Theme& theme)
{
    const Theme from = currentTheme();
    setCurrentTheme(theme);
    const PlotRestyler restyler(from, theme);

    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    static const QRegularExpression hex(QStringLiteral("#[0-9a-fA-F]{6}\\b"));
    for (QWidget* widget : widgets) {
        const QString sheet = widget->styleSheet();
        if (!sheet.isEmpty()) {
            QString mapped;
            qsizetype last = 0;
            for (auto it = hex.globalMatch(sheet); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                mapped += sheet.mid(last, m.capturedStart() - last);
                mapped += restyler.color(QColor(m.captured())).name(QColor::HexRgb);
                last = m.capturedEnd();
            }
            mapped += sheet.mid(last);
            if (mapped != sheet)
                widget->setStyleSheet(mapped);
        }
        if (widget->testAttribute(Qt::WA_SetPalette) && !holdsApplicationPalette(widget)) { // the system's colours, not the theme's
            QPalette p = widget->palette();
            for (QPalette::ColorRole role : {QPalette::Window, QPalette::Base, QPalette::Button, QPalette::WindowText, QPalette::Text})
                p.setColor(role, restyler.color(p.color(role)));
            widget->setPalette(p);
        }
    }
    for (QCustomPlot* plot : root->findChildren<QCustomPlot*>())
        restyler.restyle(plot);
    for (QChartView* view : root->findChildren<QChartView*>())
        restyler.restyle(view);
}

void scaleFonts(QWidget* root, double ratio)
{
    if (ratio == 1.0)
        return;
    // Every font first, then set them all: a parent's new font must not reach a child twice.
    QList<QWidget*> widgets = root->findChildren<QWidget*>();
    widgets.prepend(root);
    QList<QFont> fonts;
    fonts.reserve(widgets.size());
    for (QWidget* widget : widgets) {
        QFont font = widget->font();
        if (font.pointSizeF() > 0)
            font.setPointSizeF(font.pointSizeF() * ratio);
        else if (font.pixelSize() > 0)
            font.setPixelSize(qMax(1, qRound(font.pixelSize() * ratio)));
        fonts.append(font);
    }
    for (qsizetype i = 0; i < widgets.size(); ++i)
        widgets[i]->setFont(fonts[i]);
}

} // namespace ridgeline::views
