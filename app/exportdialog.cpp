// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/exportdialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ridgeline::app {

ExportDialog::ExportDialog(const ExportOptions& options, QWidget* parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export plots, data and summary"));

    m_folder = new QLineEdit(options.folder, this);
    m_folder->setObjectName(QStringLiteral("exportFolderEdit"));
    m_folder->setAccessibleName(tr("Export folder"));
    m_folder->setMinimumWidth(280);
    auto* browse = new QPushButton(tr("&Browse\u2026"), this);
    browse->setAccessibleName(tr("Choose the export folder"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Export into"), m_folder->text());
        if (!folder.isEmpty())
            m_folder->setText(folder);
    });
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);

    auto check = [this](const QString& name, const QString& text, const QString& tip, bool on) {
        auto* box = new QCheckBox(text, this);
        box->setObjectName(name);
        box->setToolTip(tip);
        box->setAccessibleDescription(tip);
        box->setChecked(on);
        connect(box, &QCheckBox::toggled, this, &ExportDialog::updateSummary);
        return box;
    };
    m_png = check(QStringLiteral("exportPngCheck"), tr("&PNG"), tr("Raster images at the DPI below"), bool(options.formats & ExportFormat::Png));
    m_pdf = check(QStringLiteral("exportPdfCheck"), tr("P&DF"), tr("Vector, for documents and slides"), bool(options.formats & ExportFormat::Pdf));
    m_svg = check(QStringLiteral("exportSvgCheck"), tr("&SVG"), tr("Vector, for editing and the web"), bool(options.formats & ExportFormat::Svg));
    m_csv = check(QStringLiteral("exportCsvCheck"), tr("&CSV data"), tr("Every curve's values, one file per plot of every tab, units in the header"),
                  bool(options.formats & ExportFormat::Csv));
    m_markdown = check(QStringLiteral("exportMarkdownCheck"), tr("&Markdown summary"),
                       tr("summary.md: the scenario, every tab's takeaway and the headline figures"),
                       bool(options.formats & ExportFormat::Markdown));
    auto* formats = new QHBoxLayout;
    for (QCheckBox* box : {m_png, m_pdf, m_svg, m_csv, m_markdown})
        formats->addWidget(box);
    formats->addStretch(1);

    auto spin = [this](const QString& name, int minimum, int maximum, int value, const QString& suffix, const QString& accessible) {
        auto* box = new QSpinBox(this);
        box->setObjectName(name);
        box->setRange(minimum, maximum);
        box->setValue(value);
        box->setSuffix(suffix);
        box->setAccessibleName(accessible);
        connect(box, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);
        return box;
    };
    m_width = spin(QStringLiteral("exportWidthSpinBox"), 240, 4000, options.size.width(), tr(" px"), tr("Plot width"));
    m_height = spin(QStringLiteral("exportHeightSpinBox"), 180, 4000, options.size.height(), tr(" px"), tr("Plot height"));
    m_dpi = spin(QStringLiteral("exportDpiSpinBox"), 48, 600, options.dpi, tr(" dpi"), tr("PNG resolution"));
    m_dpi->setToolTip(tr("96 dpi: one pixel per pixel; 192 dpi: twice as sharp for print and high-density screens"));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->addWidget(m_width);
    sizeRow->addWidget(new QLabel(QStringLiteral("\u00d7"), this));
    sizeRow->addWidget(m_height);
    sizeRow->addStretch(1);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("exportSummary"));
    m_summary->setWordWrap(true);

    // A row whose field is a layout gets no buddy from QFormLayout, and its "&" would show as a
    // literal ampersand: label those rows here, with the shortcut going to the row's first field.
    auto label = [this](const QString& text, QWidget* buddy, const QString& name) {
        auto* l = new QLabel(text, this);
        l->setObjectName(name);
        l->setBuddy(buddy);
        return l;
    };
    auto* form = new QFormLayout;
    form->addRow(label(tr("&Folder:"), m_folder, QStringLiteral("exportFolderLabel")), folderRow);
    form->addRow(tr("Formats:"), formats);
    form->addRow(label(tr("Plot &size:"), m_width, QStringLiteral("exportSizeLabel")), sizeRow);
    form->addRow(tr("PNG &resolution:"), m_dpi);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_folder, &QLineEdit::textChanged, this, [buttons, this] {
        buttons->button(QDialogButtonBox::Ok)->setEnabled(!m_folder->text().trimmed().isEmpty() && bool(this->options().formats));
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_summary);
    layout->addWidget(buttons);
    updateSummary();
}

ExportOptions ExportDialog::options() const
{
    ExportOptions o;
    o.folder = m_folder->text().trimmed();
    o.formats = {};
    if (m_png->isChecked())
        o.formats |= ExportFormat::Png;
    if (m_pdf->isChecked())
        o.formats |= ExportFormat::Pdf;
    if (m_svg->isChecked())
        o.formats |= ExportFormat::Svg;
    if (m_csv->isChecked())
        o.formats |= ExportFormat::Csv;
    if (m_markdown->isChecked())
        o.formats |= ExportFormat::Markdown;
    o.size = QSize(m_width->value(), m_height->value());
    o.dpi = m_dpi->value();
    return o;
}

void ExportDialog::updateSummary()
{
    const ExportOptions o = options();
    const QSize dashboard = dashboardSize(o.size);
    const double scale = o.dpi / 96.0;
    m_summary->setText(tr("Each of the five plots, the dashboard (%1 \u00d7 %2 px) and the plots of the other tabs "
                          "(capacity, workload, speculative; simulation after a run, calibration with measurements) in "
                          "every image format chosen; PNG plots are %3 \u00d7 %4 pixels. Files that exist are listed "
                          "before anything is overwritten.")
                           .arg(dashboard.width())
                           .arg(dashboard.height())
                           .arg(qRound(o.size.width() * scale))
                           .arg(qRound(o.size.height() * scale)));
}

} // namespace ridgeline::app
