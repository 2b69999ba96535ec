// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/comparisontable.h"

#include <cmath>

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

#include "views/floors/headlinefigures.h"
#include "views/kit/baselinelayer.h"
#include "views/kit/palette.h"

namespace ridgeline::views {

namespace {

QLabel* cellLabel(Qt::Alignment alignment)
{
    auto* label = new QLabel;
    label->setAlignment(alignment | Qt::AlignVCenter);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

const HeadlineFigure* findFigure(const std::vector<HeadlineFigure>& figures, const QString& key)
{
    for (const HeadlineFigure& f : figures)
        if (f.key == key)
            return &f;
    return nullptr;
}

/** @p b ÷ @p a as shown, green where @p b is better than the reference @p a, red where worse (@p better: HeadlineFigure::better). */
QString ratioHtml(double a, double b, int better)
{
    QColor colour = palette::text();
    if (better != 0 && std::isfinite(a) && std::isfinite(b) && a != 0) {
        const double r = b / a;
        if (std::abs(r - 1.0) >= 5e-4)
            colour = (r > 1.0) == (better > 0) ? palette::throughput() : palette::slo();
    }
    return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(palette::css(colour), ratioText(a, b).toHtmlEscaped());
}

} // namespace

ComparisonTable::ComparisonTable(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("comparisonTable"));
    setStyleSheet(QStringLiteral("QFrame#comparisonTable { background: %1; border: 1px solid %2; border-radius: 6px; }"
                                 " QLabel { color: %3; background: transparent; border: none; }")
                      .arg(palette::css(palette::card()), palette::css(palette::cardBorder()), palette::css(palette::text())));
    setAccessibleName(tr("Comparison of the headline figures of the pinned scenarios and the live one"));

    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("comparisonTitle"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::RichText);

    auto* scroll = m_scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded); // six pinned scenarios may not fit a narrow cell
    scroll->setStyleSheet(QStringLiteral("QScrollArea { background: transparent; border: none; }"));
    m_content = new QWidget;
    m_content->setObjectName(QStringLiteral("comparisonContent"));
    m_content->setStyleSheet(QStringLiteral("QWidget#comparisonContent { background: %1; }").arg(palette::css(palette::card())));
    m_grid = new QGridLayout(m_content);
    m_grid->setContentsMargins(0, 0, 4, 0);
    m_grid->setHorizontalSpacing(6);
    m_grid->setVerticalSpacing(0);
    scroll->setWidget(m_content);
    // Wider than its view (many pinned, a narrow cell): it scrolls, and each time the widths change the live column,
    // the one the controls move, is brought into view rather than left cut off at the right edge.
    connect(scroll->horizontalScrollBar(), &QScrollBar::rangeChanged, this, [this, scroll](int, int maximum) {
        if (maximum > 0 && !m_headers.isEmpty()) {
            const int live = twoWay() ? 1 : int(m_columns.size());
            if (QLabel* header = m_headers.value(live))
                scroll->ensureWidgetVisible(header, 0, 0);
        }
    });

    scroll->viewport()->installEventFilter(this); // its width decides between columns and stacked figures

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_heading);
    layout->addWidget(scroll, 1);
}

void ComparisonTable::setBaseline(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    m_columns.clear();
    m_columns.push_back(Column{0, pinnedLetter(0), scenarioName(scenario), headlineFigures(scenario, evaluation)});
    m_gridStale = true;
    m_stacked = false;
    m_columnsWidth = 0;
}

void ComparisonTable::setPinned(const document::PinnedScenarios& pinned)
{
    m_columns.clear();
    for (const document::PinnedScenario& p : pinned.items())
        m_columns.push_back(Column{p.slot, pinnedLetter(p.slot), scenarioName(p.baseline.scenario()),
                                   headlineFigures(p.baseline.scenario(), p.baseline.evaluation())});
    m_gridStale = true;
    m_stacked = false; // side by side first; fitToWidth() decides once the cells are written
    m_columnsWidth = 0;
}

QString ComparisonTable::liveColumn() const
{
    return twoWay() && m_columns.front().slot == 0 ? QStringLiteral("B") : QStringLiteral("Live");
}

QStringList ComparisonTable::headings() const
{
    QStringList out;
    for (const QLabel* header : m_headers)
        out << header->property("heading").toString();
    return out;
}

QLabel* ComparisonTable::cell(const QString& key, const QString& column) const
{
    return m_content->findChild<QLabel*>(key + column);
}

void ComparisonTable::rebuildGrid(int rowCount)
{
    // Every cell anew: the pinned set changed (once per pin), the live scenario's number of figures did, or the
    // table went from columns to stacked figures or back.
    while (QLayoutItem* item = m_grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_headers.clear();
    m_rows.clear();
    for (int c = 0; c < m_grid->columnCount(); ++c)
        m_grid->setColumnStretch(c, 0);
    for (int r = 0; r < m_grid->rowCount(); ++r)
        m_grid->setRowStretch(r, 0);

    const int pinnedCount = int(m_columns.size());
    const bool ab = twoWay();
    const int valueColumns = pinnedCount + 1;
    const int spanned = m_stacked ? 3 : ab ? 3 : valueColumns;
    const QString live = liveColumn();
    const QString reference = m_columns.empty() ? QStringLiteral("A") : m_columns.front().letter;
    auto headingLabel = [](const QString& text, const QColor& colour) {
        QLabel* label = cellLabel(Qt::AlignRight);
        label->setText(QStringLiteral("<b style=\"color:%1\">%2</b>").arg(palette::css(colour), text.toHtmlEscaped()));
        label->setProperty("heading", text);
        return label;
    };
    auto header = [this, &headingLabel](const QString& text, const QColor& colour, int column) {
        QLabel* label = headingLabel(text, colour);
        m_grid->addWidget(label, 0, column);
        m_headers << label;
    };
    QLabel* ratioHeader = nullptr;
    if (m_stacked) {
        // One header over the ratios; each scenario's letter starts its line (the first figure's letters are the headings).
        ratioHeader = headingLabel(ab ? tr("%1 \u00f7 %2").arg(live, reference) : tr("\u00f7 %1").arg(reference), palette::text());
        m_grid->addWidget(ratioHeader, 0, 2);
        m_grid->setColumnStretch(0, 0);
        m_grid->setColumnStretch(1, 3);
        m_grid->setColumnStretch(2, 2);
        if (!ab)
            ratioHeader->setProperty("heading", QVariant()); // beside several, the headings are the letters
    } else {
        for (int c = 0; c < pinnedCount; ++c)
            header(m_columns[size_t(c)].letter, palette::pinned(m_columns[size_t(c)].slot), c);
        header(ab ? live : tr("live"), palette::text(), pinnedCount);
        if (ab)
            header(tr("%1 \u00f7 %2").arg(live, reference), palette::text(), 2);
        for (int c = 0; c < spanned; ++c)
            m_grid->setColumnStretch(c, ab && c == 2 ? 2 : 3);
    }

    // Lines per figure: name; values (and the ratio, A/B); ratios to the reference. Stacked: name, one line per scenario.
    const int linesPerFigure = m_stacked ? 1 + valueColumns : ab ? 2 : 3;
    // Four columns and more: a smaller font and tighter spacing, so the live column fits beside them in a
    // narrow cell (stacked, or the table scrolls sideways beyond that).
    const double narrow = valueColumns >= 4 && !m_stacked ? 0.86 : 1.0;
    m_grid->setHorizontalSpacing(valueColumns >= 4 && !m_stacked ? 3 : 6);
    QFont bold;
    bold.setWeight(QFont::DemiBold);
    bold.setPointSizeF(bold.pointSizeF() * narrow);
    QFont valueFont;
    valueFont.setPointSizeF(valueFont.pointSizeF() * narrow);
    for (int i = 0; i < rowCount; ++i) {
        Row row;
        const int first = 1 + linesPerFigure * i;
        row.name = cellLabel(Qt::AlignLeft);
        row.name->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(palette::css(palette::axis())));
        QFont small = row.name->font();
        small.setPointSizeF(small.pointSizeF() * 0.92);
        row.name->setFont(small);
        m_grid->addWidget(row.name, first, 0, 1, spanned);
        QFont ratioFont = small;
        ratioFont.setPointSizeF(ratioFont.pointSizeF() * narrow);
        // Stacked: each scenario's line starts with its letter.
        auto letter = [&](int line, const QString& text, const QColor& colour) {
            QLabel* label = cellLabel(Qt::AlignLeft);
            label->setText(QStringLiteral("<b style=\"color:%1\">%2</b>").arg(palette::css(colour), text.toHtmlEscaped()));
            label->setFont(small);
            if (i == 0) {
                label->setProperty("heading", text);
                m_headers << label;
            }
            m_grid->addWidget(label, line, 0);
        };
        for (int c = 0; c < pinnedCount; ++c) {
            const int line = m_stacked ? first + 1 + c : first + 1;
            if (m_stacked)
                letter(line, m_columns[size_t(c)].letter, palette::pinned(m_columns[size_t(c)].slot));
            QLabel* value = cellLabel(Qt::AlignRight);
            value->setFont(valueFont);
            m_grid->addWidget(value, line, m_stacked ? 1 : c);
            row.pinned << value;
            QLabel* ratio = nullptr;
            if (c > 0) {
                ratio = cellLabel(Qt::AlignRight);
                ratio->setTextFormat(Qt::RichText);
                ratio->setFont(ratioFont);
                if (m_stacked)
                    m_grid->addWidget(ratio, line, 2);
                else
                    m_grid->addWidget(ratio, first + 2, c);
            }
            row.pinnedRatios << ratio;
        }
        const int liveLine = m_stacked ? first + 1 + pinnedCount : first + 1;
        if (m_stacked)
            letter(liveLine, ab ? live : tr("live"), palette::text());
        row.live = cellLabel(Qt::AlignRight);
        row.live->setFont(bold);
        m_grid->addWidget(row.live, liveLine, m_stacked ? 1 : pinnedCount);
        row.liveRatio = cellLabel(Qt::AlignRight);
        row.liveRatio->setTextFormat(Qt::RichText);
        if (m_stacked) {
            row.liveRatio->setFont(ab ? bold : ratioFont);
            m_grid->addWidget(row.liveRatio, liveLine, 2);
        } else if (ab) {
            row.liveRatio->setFont(bold);
            m_grid->addWidget(row.liveRatio, first + 1, 2);
        } else {
            row.liveRatio->setFont(ratioFont);
            m_grid->addWidget(row.liveRatio, first + 2, pinnedCount);
        }
        m_rows.push_back(row);
    }
    if (ratioHeader && ab)
        m_headers << ratioHeader; // "A", "B", "B ÷ A" as side by side
    m_grid->setRowStretch(1 + linesPerFigure * rowCount, 1);
    // Shown now, not on the next event-loop pass (the layout queues it): a rebuild from fitToWidth() may come just
    // before a grab (--screenshot, the export's dashboard).
    for (int i = 0; i < m_grid->count(); ++i)
        if (QWidget* w = m_grid->itemAt(i)->widget())
            w->setVisible(true);
    m_gridStale = false;
}

void ComparisonTable::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    m_live = headlineFigures(scenario, evaluation);
    m_liveName = scenarioName(scenario);
    showLive(m_live, m_liveName);
    fitToWidth();
}

void ComparisonTable::showLive(const std::vector<HeadlineFigure>& b, const QString& liveName)
{
    const double scale = currentTheme().fontScale;
    const bool ab = twoWay();
    const QString live = liveColumn();
    QStringList names;
    for (const Column& c : m_columns)
        names << tr("%1: %2").arg(c.letter, c.name);
    names << (ab ? tr("%1: %2 (live)").arg(live, liveName) : tr("live: %1").arg(liveName));
    const QString reference = m_columns.empty() ? QStringLiteral("A") : m_columns.front().letter;
    const QString title = ab ? tr("Numbers: A / B") : tr("Numbers: %1 pinned and live, ratios to %2").arg(m_columns.size()).arg(reference);
    const QString subtitle = ab ? tr("A: %1 (dashed in the plots) \u00b7 B: %2 (live)").arg(m_columns.front().name, liveName)
                                : names.join(QStringLiteral(" \u00b7 "));
    m_heading->setText(QStringLiteral("<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                                      "<br><span style=\"font-size:%2pt;\">%4</span>")
                           .arg(10.5 * scale, 0, 'f', 1)
                           .arg(9.0 * scale, 0, 'f', 1)
                           .arg(title.toHtmlEscaped(), subtitle.toHtmlEscaped()));
    const bool rebuilt = m_gridStale || m_rows.size() != b.size();
    if (rebuilt)
        rebuildGrid(int(b.size()));
    for (size_t i = 0; i < b.size(); ++i) {
        const HeadlineFigure& fb = b[i];
        Row& row = m_rows[i];
        const HeadlineFigure* ref = m_columns.empty() ? nullptr : findFigure(m_columns.front().figures, fb.key);
        // No ratio across units (money figures of scenarios in different currencies).
        const double va = ref && ref->unit == fb.unit ? ref->value : std::nan("");
        if (rebuilt || row.live->objectName() != fb.key + live) { // the pinned cells: written once per pin
            row.name->setText(fb.label);
            row.name->setToolTip(fb.label + QStringLiteral(" (") + fb.unit + QLatin1Char(')'));
            for (size_t c = 0; c < m_columns.size(); ++c) {
                const Column& column = m_columns[c];
                const HeadlineFigure* f = findFigure(column.figures, fb.key);
                QLabel* value = row.pinned[qsizetype(c)];
                value->setObjectName(fb.key + column.letter);
                value->setText(f ? f->text : QStringLiteral("\u2013"));
                value->setToolTip(f ? f->toolTip : QString());
                value->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(palette::css(palette::pinned(column.slot))));
                if (QLabel* ratio = row.pinnedRatios[qsizetype(c)]) {
                    ratio->setObjectName(fb.key + QStringLiteral("Ratio") + column.letter);
                    const bool sameUnit = ref && f && ref->unit == f->unit;
                    ratio->setText(ratioHtml(sameUnit ? ref->value : std::nan(""), sameUnit ? f->value : std::nan(""), fb.better));
                    ratio->setAccessibleName(tr("%1, %2 divided by %3").arg(fb.label, column.letter, reference));
                }
            }
            row.live->setObjectName(fb.key + live);
            row.liveRatio->setObjectName(fb.key + QStringLiteral("Ratio"));
            row.liveRatio->setAccessibleName(tr("%1, %2 divided by %3").arg(fb.label, ab ? live : tr("live"), reference));
        }
        row.live->setText(fb.text);
        if (row.live->toolTip() != fb.toolTip)
            row.live->setToolTip(fb.toolTip);
        const QString ratio = ratioHtml(va, fb.value, fb.better);
        if (row.liveRatio->text() != ratio)
            row.liveRatio->setText(ratio);
    }
}

void ComparisonTable::fitToWidth()
{
    // Only while on screen: a hidden viewport's width is stale. Columns side by side when they fit the view, else
    // stacked; the width the columns needed is remembered, to unstack when the view grows past it.
    if (m_fitting || m_rows.empty() || !m_scroll->isVisible())
        return;
    m_fitting = true;
    const int available = m_scroll->viewport()->width();
    if (!m_stacked) {
        const int needed = m_content->minimumSizeHint().width();
        if (needed > available) {
            m_columnsWidth = needed;
            m_stacked = true;
            m_gridStale = true;
            showLive(m_live, m_liveName);
        }
    } else if (m_columnsWidth > 0 && m_columnsWidth <= available) {
        m_stacked = false;
        m_gridStale = true;
        showLive(m_live, m_liveName);
        if (const int needed = m_content->minimumSizeHint().width(); needed > available) { // grown since: stacked again
            m_columnsWidth = needed;
            m_stacked = true;
            m_gridStale = true;
            showLive(m_live, m_liveName);
        }
    }
    m_fitting = false;
}

bool ComparisonTable::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_scroll->viewport() && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        fitToWidth();
    return QFrame::eventFilter(watched, event);
}

} // namespace ridgeline::views
