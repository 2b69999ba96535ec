// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/whatifs/comparisontable.h"

#include <cmath>

#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "views/floors/headlinefigures.h"
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

} // namespace

ComparisonTable::ComparisonTable(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("comparisonTable"));
    setStyleSheet(QStringLiteral("QFrame#comparisonTable { background: %1; border: 1px solid %2; border-radius: 6px; }"
                                 " QLabel { color: %3; background: transparent; border: none; }")
                      .arg(palette::css(palette::card()), palette::css(palette::cardBorder()), palette::css(palette::text())));
    setAccessibleName(tr("A / B comparison of the headline figures"));

    m_heading = new QLabel(this);
    m_heading->setObjectName(QStringLiteral("comparisonTitle"));
    m_heading->setWordWrap(true);
    m_heading->setTextFormat(Qt::RichText);

    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setStyleSheet(QStringLiteral("QScrollArea { background: transparent; border: none; }"));
    auto* content = new QWidget;
    content->setObjectName(QStringLiteral("comparisonContent"));
    content->setStyleSheet(QStringLiteral("QWidget#comparisonContent { background: %1; }").arg(palette::css(palette::card())));
    m_grid = new QGridLayout(content);
    m_grid->setContentsMargins(0, 0, 4, 0);
    m_grid->setHorizontalSpacing(6);
    m_grid->setVerticalSpacing(0);
    m_grid->setColumnStretch(0, 3);
    m_grid->setColumnStretch(1, 3);
    m_grid->setColumnStretch(2, 2);
    scroll->setWidget(content);

    auto header = [](const QString& text) {
        auto* label = cellLabel(Qt::AlignRight);
        label->setText(QStringLiteral("<b>%1</b>").arg(text));
        return label;
    };
    m_grid->addWidget(header(tr("A")), 0, 0);
    m_grid->addWidget(header(tr("B")), 0, 1);
    m_grid->addWidget(header(tr("B \u00f7 A")), 0, 2);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 8, 6, 6);
    layout->setSpacing(4);
    layout->addWidget(m_heading);
    layout->addWidget(scroll, 1);
}

void ComparisonTable::rebuildRows(int count)
{
    // Two lines per figure, so the three values keep their width in a narrow cell (1280 px windows):
    // the figure's name, then A, B and B / A under their headings.
    while (m_names.size() < count) {
        const int row = 1 + 2 * int(m_names.size());
        QLabel* name = cellLabel(Qt::AlignLeft);
        name->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(palette::css(palette::axis())));
        QFont small = name->font();
        small.setPointSizeF(small.pointSizeF() * 0.92);
        name->setFont(small);
        QLabel* a = cellLabel(Qt::AlignRight);
        QLabel* b = cellLabel(Qt::AlignRight);
        QLabel* ratio = cellLabel(Qt::AlignRight);
        ratio->setTextFormat(Qt::RichText);
        QFont bold = ratio->font();
        bold.setWeight(QFont::DemiBold);
        b->setFont(bold);
        ratio->setFont(bold);
        m_grid->addWidget(name, row, 0, 1, 3);
        m_grid->addWidget(a, row + 1, 0);
        m_grid->addWidget(b, row + 1, 1);
        m_grid->addWidget(ratio, row + 1, 2);
        m_names << name;
        m_a << a;
        m_b << b;
        m_ratio << ratio;
    }
    for (int i = 0; i < m_names.size(); ++i)
        for (QLabel* label : {m_names[i], m_a[i], m_b[i], m_ratio[i]})
            label->setVisible(i < count);
    m_grid->setRowStretch(1 + 2 * int(m_names.size()), 1);
}

void ComparisonTable::setBaseline(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    m_baseline = scenario;
    m_baselineFigures = headlineFigures(scenario, evaluation);
}

QLabel* ComparisonTable::cell(const QString& key, const QString& column) const
{
    for (QLabel* label : findChildren<QLabel*>(key + column))
        return label;
    return nullptr;
}

void ComparisonTable::refresh(const model::Scenario& scenario, const model::Evaluation& evaluation)
{
    const std::vector<HeadlineFigure>& a = m_baselineFigures;
    const std::vector<HeadlineFigure> b = headlineFigures(scenario, evaluation);
    const double scale = currentTheme().fontScale;
    m_heading->setText(QStringLiteral("<span style=\"font-size:%1pt; font-weight:600;\">%3</span>"
                                      "<br><span style=\"font-size:%2pt;\">%4</span>")
                           .arg(10.5 * scale, 0, 'f', 1)
                           .arg(9.0 * scale, 0, 'f', 1)
                           .arg(tr("Numbers: A / B").toHtmlEscaped(),
                                tr("A: %1 (dashed in the plots) \u00b7 B: %2 (live)")
                                    .arg(scenarioName(m_baseline), scenarioName(scenario))
                                    .toHtmlEscaped()));
    rebuildRows(int(b.size()));
    for (size_t i = 0; i < b.size(); ++i) {
        const HeadlineFigure& fb = b[i];
        const HeadlineFigure* fa = nullptr;
        for (const HeadlineFigure& f : a)
            if (f.key == fb.key)
                fa = &f;
        const int row = int(i);
        m_names[row]->setText(fb.label);
        m_names[row]->setToolTip(fb.label + QStringLiteral(" (") + fb.unit + QLatin1Char(')'));
        m_a[row]->setObjectName(fb.key + QStringLiteral("A"));
        m_b[row]->setObjectName(fb.key + QStringLiteral("B"));
        m_ratio[row]->setObjectName(fb.key + QStringLiteral("Ratio"));
        m_a[row]->setText(fa ? fa->text : QStringLiteral("\u2013"));
        m_b[row]->setText(fb.text);
        const double va = fa ? fa->value : std::nan("");
        QColor colour = palette::text();
        if (fa && fb.better != 0 && std::isfinite(va) && std::isfinite(fb.value) && va != 0) {
            const double r = fb.value / va;
            if (std::abs(r - 1.0) >= 5e-4)
                colour = (r > 1.0) == (fb.better > 0) ? palette::throughput() : palette::slo();
        }
        const QString ratio = QStringLiteral("<span style=\"color:%1\">%2</span>")
                                  .arg(palette::css(colour), ratioText(va, fb.value).toHtmlEscaped());
        if (m_ratio[row]->text() != ratio)
            m_ratio[row]->setText(ratio);
        m_ratio[row]->setAccessibleName(tr("%1, B divided by A").arg(fb.label));
    }
}

} // namespace ridgeline::views
