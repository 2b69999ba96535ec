// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/textimage.h"

#include <cmath>

#include <QFontMetrics>
#include <QPainter>
#include <QTransform>

#include <qcustomplot.h>

namespace ridgeline::views {

namespace {

bool g_textImageEnabled = true;

/** True when a pixel on the edge of @p image is not transparent (the text may reach past it). */
bool touchesEdge(const QImage& image)
{
    const int w = image.width(), h = image.height();
    if (w == 0 || h == 0)
        return false;
    for (int y = 0; y < h; ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(image.constScanLine(y));
        if (y == 0 || y == h - 1) {
            for (int x = 0; x < w; ++x)
                if (qAlpha(row[x]))
                    return true;
        } else if (qAlpha(row[0]) || qAlpha(row[w - 1])) {
            return true;
        }
    }
    return false;
}

/** The painter's world transform is a translation by whole pixels (or none). */
bool wholePixelTranslation(const QPainter* painter)
{
    const QTransform& t = painter->worldTransform();
    return t.type() <= QTransform::TxTranslate && t.dx() == std::floor(t.dx()) && t.dy() == std::floor(t.dy());
}

} // namespace

void TextImage::setEnabled(bool on)
{
    g_textImageEnabled = on;
}

bool TextImage::enabled()
{
    return g_textImageEnabled;
}

void TextImage::draw(QCPPainter* painter, QPoint at, int degrees, QSize box, int flags, const QString& text)
{
    const QPen pen = painter->pen();
    const bool cacheable = g_textImageEnabled && !painter->modes().testFlag(QCPPainter::pmVectorized)
        && !painter->modes().testFlag(QCPPainter::pmNoCaching) && (degrees == 0 || degrees == 90 || degrees == -90)
        && painter->device() && wholePixelTranslation(painter) && painter->opacity() == 1.0
        && painter->compositionMode() == QPainter::CompositionMode_SourceOver && pen.style() != Qt::NoPen
        && pen.brush().style() == Qt::SolidPattern && pen.brush().transform().isIdentity();
    if (!cacheable) {
        // What QCustomPlot does: the text itself, every glyph at the painter's (export's) scale.
        if (degrees == 0) {
            painter->drawText(QRect(at, box), flags, text);
            return;
        }
        const QTransform old = painter->transform();
        painter->translate(at);
        painter->rotate(degrees);
        painter->drawText(QRect(QPoint(0, 0), box), flags, text);
        painter->setTransform(old);
        return;
    }

    const QFont font = painter->font();
    const double ratio = painter->device()->devicePixelRatioF();
    const int hints = int(painter->renderHints());
    const QRgb color = pen.color().rgba();
    if (!m_valid || text != m_text || font != m_font || color != m_color || box != m_box || flags != m_flags
        || degrees != m_degrees || ratio != m_ratio || hints != m_hints) {
        ++m_renders;
        m_valid = true;
        m_text = text;
        m_font = font;
        m_color = color;
        m_box = box;
        m_flags = flags;
        m_degrees = degrees;
        m_ratio = ratio;
        m_hints = hints;
        // The text's box where drawText() lays it out, padded for glyphs that reach past their line box (bearings,
        // accents); padded more, and drawn again, while ink touches the image's edge.
        const QFontMetrics metrics(font, painter->device());
        const QRect laidOut = metrics.boundingRect(QRect(QPoint(0, 0), box), flags, text) | QRect(QPoint(0, 0), box);
        int pad = std::max(2, metrics.height() / 4);
        QTransform rotation;
        rotation.rotate(degrees);
        for (int attempt = 0; attempt < 4; ++attempt, pad *= 3) {
            const QRect area = rotation.mapRect(QRectF(laidOut.adjusted(-pad, -pad, pad, pad))).toAlignedRect();
            m_offset = area.topLeft();
            m_image = QImage(area.size() * ratio, QImage::Format_ARGB32_Premultiplied);
            m_image.setDevicePixelRatio(ratio);
            m_image.fill(Qt::transparent);
            QPainter picture(&m_image);
            picture.setRenderHints(QPainter::RenderHints(~0), false);
            picture.setRenderHints(painter->renderHints(), true);
            picture.translate(-m_offset);
            picture.rotate(degrees);
            picture.setFont(font);
            picture.setPen(pen);
            picture.drawText(QRect(QPoint(0, 0), box), flags, text);
            picture.end();
            if (!touchesEdge(m_image))
                break;
        }
    }
    ++m_blends;
    painter->drawImage(at + m_offset, m_image);
}

} // namespace ridgeline::views
