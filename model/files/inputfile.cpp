// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/inputfile.h"

#include <QFile>
#include <QFileInfo>

namespace ridgeline::model {

std::string readInputFile(const QString& path, QByteArray& out, qint64 maxBytes)
{
    if (path.isEmpty())
        return "empty file name";
    const QFileInfo info(path);
    if (!info.exists())
        return "cannot open: no such file";
    if (info.isDir())
        return "is a folder, not a file";
    if (!info.isFile())
        return "is not a regular file (a device or a pipe)";
    if (info.size() > maxBytes)
        return "is larger than " + std::to_string(maxBytes / (1024 * 1024)) + " MiB";
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return "cannot open: " + file.errorString().toStdString();
    QByteArray bytes = file.read(maxBytes + 1);
    if (bytes.size() > maxBytes)
        return "is larger than " + std::to_string(maxBytes / (1024 * 1024)) + " MiB";
    if (file.error() != QFileDevice::NoError)
        return "cannot read: " + file.errorString().toStdString();
    out = std::move(bytes);
    return {};
}

} // namespace ridgeline::model
