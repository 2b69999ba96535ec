// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

namespace ridgeline::views {

/**
 * A plain-text label of exactly one line whose size hints do not depend on its text: sizeHint() and
 * minimumSizeHint() are one line of the label's font high (QFontMetrics::height(), plus the contents margins) and
 * @p hintWidthPx wide. A text wider than the label is drawn elided at the right ("…"); text() keeps it whole.
 *
 * For a line whose text changes while the user drags a slider (issue 16, h16m in docs/performance.md): in a LabelBox,
 * a new text then costs a repaint of the line and no layout pass (a QLabel's hints follow its text's width, so every
 * new text asked the layouts above it again; a word-wrapped one could also change its height). Only the text is
 * drawn: no rich text, no word wrap, no selection, no buddy or mnemonic; the colour is the palette's WindowText.
 */
class OneLineLabel final : public QLabel {
public:
    explicit OneLineLabel(int hintWidthPx, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    /** The text as painted at the current width: text() elided at the right when it does not fit. */
    QString shownText() const;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    int m_hintWidthPx;
};

} // namespace ridgeline::views
