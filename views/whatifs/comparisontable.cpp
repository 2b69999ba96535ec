// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/comparisontable.h"

#include <cmath>

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

    auto* scroll = new QScrollArea(this);
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
}

void ComparisonTable::setPinned(const document::PinnedScenarios& pinned)
{
    m_columns.clear();
    for (const document::PinnedScenario& p : pinned.items())
        m_columns.push_back(Column{p.slot, pinnedLetter(p.slot), scenarioName(p.baseline.scenario()),
                                   headlineFigures(p.baseline.scenario(), p.baseline.evaluation())});
    m_gridStale = true;
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
    // Every cell anew: the pinned set changed (once per pin) or the live scenario's number of figures did.
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
    const int spanned = ab ? 3 : valueColumns;
    const QString live = liveColumn();
    const QString reference = m_columns.empty() ? QStringLiteral("A") : m_columns.front().letter;
    auto header = [this](const QString& text, const QColor& colour, int column) {
        QLabel* label = cellLabel(Qt::AlignRight);
        label->setText(QStringLiteral("<b style=\"color:%1\">%2</b>").arg(palette::css(colour), text.toHtmlEscaped()));
        label->setProperty("heading", text);
        m_grid->addWidget(label, 0, column);
        m_headers << label;
    };
    for (int c = 0; c < pinnedCount; ++c)
        header(m_columns[size_t(c)].letter, palette::pinned(m_columns[size_t(c)].slot), c);
    header(ab ? live : tr("live"), palette::text(), pinnedCount);
    if (ab)
        header(tr("%1 \u00f7 %2").arg(live, reference), palette::text(), 2);
    for (int c = 0; c < spanned; ++c)
        m_grid->setColumnStretch(c, ab && c == 2 ? 2 : 3);

    const int linesPerFigure = ab ? 2 : 3; // name; values (and the ratio, A/B); ratios to the reference
    // Four columns and more: a smaller font and tighter spacing, so the live column fits beside them in a
    // narrow cell (the table scrolls sideways beyond that).
    const double narrow = valueColumns >= 4 ? 0.86 : 1.0;
    m_grid->setHorizontalSpacing(valueColumns >= 4 ? 3 : 6);
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
        for (int c = 0; c < pinnedCount; ++c) {
            QLabel* value = cellLabel(Qt::AlignRight);
            value->setFont(valueFont);
            m_grid->addWidget(value, first + 1, c);
            row.pinned << value;
            QLabel* ratio = nullptr;
            if (c > 0) {
                ratio = cellLabel(Qt::AlignRight);
                ratio->setTextFormat(Qt::RichText);
                QFont ratioFont = small;
                ratioFont.setPointSizeF(ratioFont.pointSizeF() * narrow);
                ratio->setFont(ratioFont);
                m_grid->addWidget(ratio, first + 2, c);
            }
            row.pinnedRatios << ratio;
        }
        row.live = cellLabel(Qt::AlignRight);
        row.live->setFont(bold);
        m_grid->addWidget(row.live, first + 1, pinnedCount);
        row.liveRatio = cellLabel(Qt::AlignRight);
        row.liveRatio->setTextFormat(Qt::RichText);
        if (ab) {
            row.liveRatio->setFont(bold);
            m_grid->addWidget(row.liveRatio, first + 1, 2);
        } else {
            QFont ratioFont = small;
            ratioFont.setPointSizeF(ratioFont.pointSizeF() * narrow);
            row.liveRatio->setFont(ratioFont);
            m_grid->addWidget(row.liveRatio, first + 2, pinnedCount);
        }
        m_rows.push_back(row);
    }
    m_grid->setRowStretch(1 + linesPerFigure * rowCount, 1);
    m_gridStale = false;
}

void ComparisonTable::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const std::vector<HeadlineFigure> b = headlineFigures(scenario, evaluation);
    const double scale = currentTheme().fontScale;
    const bool ab = twoWay();
    const QString live = liveColumn();
    QStringList names;
    for (const Column& c : m_columns)
        names << tr("%1: %2").arg(c.letter, c.name);
    names << (ab ? tr("%1: %2 (live)").arg(live, scenarioName(scenario)) : tr("live: %1").arg(scenarioName(scenario)));
    const QString reference = m_columns.empty() ? QStringLiteral("A") : m_columns.front().letter;
    const QString title = ab ? tr("Numbers: A / B") : tr("Numbers: %1 pinned and live, ratios to %2").arg(m_columns.size()).arg(reference);
    const QString subtitle = ab ? tr("A: %1 (dashed in the plots) \u00b7 B: %2 (live)").arg(m_columns.front().name, scenarioName(scenario))
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

} // namespace ridgeline::views
