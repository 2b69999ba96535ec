// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>

#include <QFont>
#include <QPaintDevice>
#include <QString>
#include <QTextLayout>

namespace ridgeline::views {

/**
 * @p text in @p font laid out as QPainter::drawText() with a rect lays out a line it does not wrap: left aligned (the
 * rect aligns it), an unbounded width, the line at the origin, in @p direction, for @p device (null: the font's default
 * resolution); its glyphs cached for every draw. Null when the text does not make exactly one line. Shared by the
 * in-plot labels (LaidOutText) and the one-line labels (OneLineLabel): issue 16, docs/performance.md.
 */
inline std::unique_ptr<QTextLayout> layOutOneLine(const QString& text, const QFont& font, const QPaintDevice* device,
                                                  Qt::LayoutDirection direction)
{
    auto layout = std::make_unique<QTextLayout>(text, font, const_cast<QPaintDevice*>(device));
    QTextOption option = layout->textOption();
    option.setTextDirection(direction);
    option.setAlignment(Qt::AlignLeft);
    layout->setTextOption(option);
    layout->setCacheEnabled(true);
    layout->beginLayout();
    QTextLine line = layout->createLine();
    line.setLineWidth(0x01000000);
    line.setPosition(QPointF(0, 0));
    const bool single = !layout->createLine().isValid();
    layout->endLayout();
    if (!single || layout->lineCount() != 1)
        return nullptr;
    return layout;
}

} // namespace ridgeline::views
