// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/controls/hardwarecataloguedialog.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "model/cost/hardwarecatalogue.h"

namespace ridgeline::views {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::views::HardwareCatalogue", text);
}

/** A numeric cell: shows its text, sorts by the value in Qt::UserRole. */
class CatalogueNumberItem : public QTableWidgetItem {
public:
    CatalogueNumberItem(const QString& text, double value) : QTableWidgetItem(text)
    {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem& other) const override
    {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

} // namespace

QDialog* createHardwareCatalogueDialog(QWidget* parent)
{
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(QStringLiteral("hardwareCatalogueDialog"));
    dialog->setWindowTitle(tr("Hardware catalogue"));
    auto* intro = new QLabel(tr("Dense peaks (no 2:4 sparsity) per device; \u201c-\u201d: none published (those matmuls fall "
                                "back to bf16) or not verified. Memory is the datasheet capacity the cost model uses, "
                                "\u201creported\u201d what the device reports. Ridge point = bf16 peak / HBM bandwidth; link per "
                                "GPU, one direction. Click a header to sort; hover a source to read it whole."),
                             dialog);
    intro->setWordWrap(true);

    const auto& columns = model::catalogueColumns();
    const auto& presets = model::hardwarePresets();
    auto* table = new QTableWidget(int(presets.size()), int(columns.size()), dialog);
    table->setObjectName(QStringLiteral("hardwareCatalogueTable"));
    QStringList headers;
    for (const model::CatalogueColumn& c : columns)
        headers << (*c.unit ? QStringLiteral("%1\n%2").arg(QLatin1String(c.header), QLatin1String(c.unit))
                            : QString::fromLatin1(c.header));
    table->setHorizontalHeaderLabels(headers);
    for (int r = 0; r < int(presets.size()); ++r) {
        for (int c = 0; c < int(columns.size()); ++c) {
            const QVariant v = model::catalogueCell(presets[size_t(r)], c);
            QTableWidgetItem* item = nullptr;
            if (columns[size_t(c)].numeric) {
                const double x = v.toDouble();
                const QString text = x > 0 ? (QLatin1String(columns[size_t(c)].jsonKey) == QLatin1String("ridge_flop_per_byte")
                                                  ? QString::number(x, 'f', 0)
                                                  : QString::number(x, 'g', 6))
                                           : QStringLiteral("-");
                item = new CatalogueNumberItem(text, x > 0 ? x : 0.0);
            } else {
                item = new QTableWidgetItem(v.toString());
                item->setToolTip(v.toString());
            }
            item->setFlags(item->flags() & ~Qt::ItemIsEditable);
            table->setItem(r, c, item);
        }
    }
    // Sortable by a click, but open in the catalogue's own order (no section sorted yet).
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->verticalHeader()->setVisible(false);
    table->resizeColumnsToContents();
    const int sourceColumn = int(columns.size()) - 1;
    table->setColumnWidth(sourceColumn, 480);
    table->horizontalHeader()->setStretchLastSection(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(intro);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    dialog->resize(1200, 640);
    return dialog;
}

} // namespace ridgeline::views
