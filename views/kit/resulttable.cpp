// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/resulttable.h"

#include <QFontMetrics>
#include <QHeaderView>
#include <QTableWidget>

#include "document/format.h"

namespace ridgeline::views {

QTableWidget* resultTable(const QString& objectName, int rows, int columns)
{
    auto* table = new QTableWidget(rows, columns);
    table->setObjectName(objectName);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    table->setFocusPolicy(Qt::NoFocus);
    table->setAlternatingRowColors(true);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setWordWrap(false);
    QFont font = table->font();
    font.setPointSizeF(8.5);
    table->setFont(font);
    table->horizontalHeader()->setFont(font);
    table->verticalHeader()->setFont(font);
    const int row = QFontMetrics(font).height() + 5;
    table->verticalHeader()->setDefaultSectionSize(row);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table->horizontalHeader()->setFixedHeight(row + 2);
    table->setFixedHeight(row * rows + row + 6);
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) {
            auto* item = new QTableWidgetItem(QStringLiteral("\u2013"));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(r, c, item);
        }
    }
    return table;
}

} // namespace ridgeline::views
