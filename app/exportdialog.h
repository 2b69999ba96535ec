// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include "app/export.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ridgeline::app {

/**
 * File > Export…: the folder, the formats (PNG, PDF, SVG, CSV, Markdown summary), the size of each
 * plot in pixels and the PNG resolution in DPI. The dashboard is 3 x 2 plots. Object names
 * exportFolderEdit, exportPngCheck, exportPdfCheck, exportSvgCheck, exportCsvCheck, exportMarkdownCheck,
 * exportWidthSpinBox, exportHeightSpinBox, exportDpiSpinBox.
 */
class ExportDialog final : public QDialog {
    Q_OBJECT

public:
    explicit ExportDialog(const ExportOptions& options, QWidget* parent = nullptr);

    ExportOptions options() const;

private:
    void updateSummary();

    QLineEdit* m_folder = nullptr;
    QCheckBox* m_png = nullptr;
    QCheckBox* m_pdf = nullptr;
    QCheckBox* m_svg = nullptr;
    QCheckBox* m_csv = nullptr;
    QCheckBox* m_markdown = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QSpinBox* m_dpi = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace ridgeline::app
