// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/cost/hardwarecatalogue.h"

#include <algorithm>
#include <cmath>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace ridgeline::model {

namespace {

enum Column {
    Id, Name, Memory, MemoryReported, Bandwidth, Bf16, Fp8, Int8, Fp4, Ridge, Power, Link, LinkName, Source, ScaleUp, ColumnCount
};

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/** Display text of a numeric cell: "-" for 0 (none published), the ridge point to whole FLOP/byte. */
QString numberText(double v, int column)
{
    if (!(v > 0) || !std::isfinite(v))
        return QStringLiteral("-");
    return column == Ridge ? QString::number(v, 'f', 0) : QString::number(v, 'g', 6);
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString quoted = s;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

QString cellText(const HardwarePreset& p, int column)
{
    const QVariant v = catalogueCell(p, column);
    return catalogueColumns()[size_t(column)].numeric ? numberText(v.toDouble(), column) : v.toString();
}

} // namespace

const std::vector<CatalogueColumn>& catalogueColumns()
{
    static const std::vector<CatalogueColumn> columns = {
        {"id", "", "id", false},
        {"device", "", "name", false},
        {"memory", "GB", "memory_bytes", true},
        {"reported", "GiB", "memory_reported_bytes", true},
        {"HBM", "TB/s", "bandwidth_bytes_per_second", true},
        {"bf16", "TFLOP/s", "peak_flops_bf16", true},
        {"fp8", "TFLOP/s", "peak_flops_fp8", true},
        {"int8", "TOP/s", "peak_ops_int8", true},
        {"fp4", "TFLOP/s", "peak_flops_fp4", true},
        {"ridge", "FLOP/B", "ridge_flop_per_byte", true},
        {"power", "W", "board_power_watts", true},
        {"link", "GB/s", "link_bandwidth_bytes_per_second", true},
        {"link name", "", "link", false},
        {"source", "", "source", false},
        // Added last (issue 14 trial: not listed): GPUs one scale-up domain joins at the link's bandwidth; wider TP / EP
        // groups cross nodes at hardware.inter_node_bandwidth (0 = unbounded: "-", null).
        {"scale-up", "GPUs", "scale_up_domain", true},
    };
    return columns;
}

QVariant catalogueCellSi(const HardwarePreset& p, int column)
{
    const Hardware& h = p.hardware;
    auto orNull = [](double v) { return v > 0 && std::isfinite(v) ? QVariant(v) : QVariant(); };
    switch (column) {
    case Id: return QString::fromStdString(p.id);
    case Name: return QString::fromStdString(h.name);
    case Memory: return orNull(h.memoryBytes);
    case MemoryReported: return orNull(p.memoryReportedGib * kGiB);
    case Bandwidth: return orNull(h.bandwidthBytesPerSecond);
    case Bf16: return orNull(h.peakFlopsPerSecond);
    case Fp8: return orNull(h.peakFlopsFp8);
    case Int8: return orNull(h.peakOpsInt8);
    case Fp4: return orNull(h.peakFlopsFp4);
    case Ridge:
        return h.bandwidthBytesPerSecond > 0 ? orNull(h.peakFlopsPerSecond / h.bandwidthBytesPerSecond) : QVariant();
    case Power: return orNull(h.boardPowerWatts);
    case Link: return orNull(h.linkBandwidthBytesPerSecond);
    case LinkName: return QString::fromStdString(p.link);
    case Source: return QString::fromStdString(p.source);
    case ScaleUp: return orNull(double(h.scaleUpDomainGpus));
    default: return {};
    }
}

QVariant catalogueCell(const HardwarePreset& p, int column)
{
    const QVariant si = catalogueCellSi(p, column);
    if (column < 0 || column >= ColumnCount || !catalogueColumns()[size_t(column)].numeric)
        return si;
    const double v = si.isValid() ? si.toDouble() : 0.0;
    switch (column) {
    case Memory: return v / 1e9;
    case MemoryReported: return p.memoryReportedGib;
    case Bandwidth: return v / 1e12;
    case Bf16: case Fp8: case Int8: case Fp4: return v / 1e12;
    case Link: return v / 1e9;
    default: return v; // ridge (FLOP/byte), power (W)
    }
}

QString catalogueText()
{
    const auto& columns = catalogueColumns();
    const std::vector<int> shown = {Name, Memory, MemoryReported, Bandwidth, Bf16, Fp8, Int8, Fp4, Ridge, Power, Link, ScaleUp};
    std::vector<QStringList> rows;
    QStringList header, units;
    for (int c : shown) {
        header << QString::fromLatin1(columns[size_t(c)].header);
        units << QString::fromLatin1(columns[size_t(c)].unit);
    }
    rows.push_back(header);
    rows.push_back(units);
    for (const HardwarePreset& p : hardwarePresets()) {
        QStringList row;
        for (int c : shown)
            row << cellText(p, c);
        rows.push_back(row);
    }
    std::vector<qsizetype> width(shown.size(), 0);
    for (const QStringList& row : rows)
        for (size_t i = 0; i < shown.size(); ++i)
            width[i] = std::max(width[i], row.at(qsizetype(i)).size());
    QString out = QStringLiteral("Hardware catalogue: dense peaks (no 2:4 sparsity), per device; \"-\" = none published "
                                 "(those matmuls fall back to bf16) or not verified.\n"
                                 "memory: datasheet GB (what the cost model uses); reported: GiB as the device reports it; "
                                 "ridge: bf16 peak / HBM bandwidth; link: per GPU, one direction; scale-up: GPUs one link domain joins (wider\n"
                                 "tensor- or expert-parallel groups cross nodes at hardware.inter_node_bandwidth); sources, with their dates, below the table.\n\n");
    for (const QStringList& row : rows) {
        QStringList cells;
        for (size_t i = 0; i < shown.size(); ++i)
            cells << (columns[size_t(shown[i])].numeric ? row.at(qsizetype(i)).rightJustified(width[i])
                                                         : row.at(qsizetype(i)).leftJustified(width[i]));
        QString line = cells.join(QStringLiteral("  "));
        while (line.endsWith(QLatin1Char(' ')))
            line.chop(1);
        out += line + QLatin1Char('\n');
    }
    out += QStringLiteral("\nSources\n");
    for (const HardwarePreset& p : hardwarePresets())
        out += QStringLiteral("  %1 (%2; link: %3): %4\n")
                   .arg(QString::fromStdString(p.hardware.name), QString::fromStdString(p.id),
                        p.link.empty() ? QStringLiteral("-") : QString::fromStdString(p.link), QString::fromStdString(p.source));
    out.chop(1);
    return out;
}

QByteArray catalogueJson()
{
    const auto& columns = catalogueColumns();
    QJsonArray devices;
    for (const HardwarePreset& p : hardwarePresets()) {
        QJsonObject o;
        for (int c = 0; c < ColumnCount; ++c)
            o.insert(QString::fromLatin1(columns[size_t(c)].jsonKey), QJsonValue::fromVariant(catalogueCellSi(p, c)));
        devices.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("format_version"), 1);
    root.insert(QStringLiteral("note"), QStringLiteral("Dense peaks (no 2:4 sparsity), per device, SI units (B, B/s, FLOP/s, W). "
                                                       "null: none published (those matmuls fall back to bf16) or not verified. "
                                                       "memory_bytes is the datasheet capacity the cost model uses; "
                                                       "memory_reported_bytes what the device reports. ridge = bf16 peak / bandwidth. "
                                                       "link_bandwidth is per GPU, one direction. scale_up_domain: GPUs joined at that link "
                                                       "(null: unbounded); wider groups cross nodes."));
    root.insert(QStringLiteral("devices"), devices);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString catalogueCsv()
{
    const auto& columns = catalogueColumns();
    QStringList header;
    for (const CatalogueColumn& c : columns)
        header << csvField(*c.unit ? QStringLiteral("%1 [%2]").arg(QLatin1String(c.header), QLatin1String(c.unit))
                                   : QString::fromLatin1(c.header));
    QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (const HardwarePreset& p : hardwarePresets()) {
        QStringList row;
        for (int c = 0; c < ColumnCount; ++c) {
            const QVariant v = catalogueCell(p, c);
            row << csvField(columns[size_t(c)].numeric ? (v.toDouble() > 0 ? QString::number(v.toDouble(), 'g', 10) : QString())
                                                       : v.toString());
        }
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    out.chop(1);
    return out;
}

} // namespace ridgeline::model
