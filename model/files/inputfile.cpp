// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/inputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

namespace ridgeline::model {

std::string readInputFile(const QString& path, QByteArray& out, qint64 maxBytes)
{
    if (path.isEmpty())
        return "empty file name";
    const QFileInfo info(path);
    if (!info.exists()) {
        const std::string link = brokenSymlinkText(path);
        return "cannot open: " + (link.empty() ? std::string("no such file") : link);
    }
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

namespace {

/** The links of @p path's chain, @p path first, up to the first that is no link (or the first seen again); true: a loop. */
bool linkChain(const QString& path, QStringList& chain)
{
    QString at = QFileInfo(path).absoluteFilePath();
    for (int hops = 0; hops <= 40; ++hops) {
        const QFileInfo info(at);
        if (!info.isSymLink())
            return false;
        if (chain.contains(at)) {
            chain.push_back(at);
            return true;
        }
        chain.push_back(at);
        at = info.symLinkTarget();
        if (at.isEmpty())
            return false;
    }
    return true; // past 40 links: ELOOP
}

} // namespace

bool isSymlinkLoop(const QString& path)
{
    QStringList chain;
    return linkChain(path, chain);
}

std::string brokenSymlinkText(const QString& path)
{
    const QFileInfo info(path);
    if (info.exists() || !info.isSymLink())
        return {};
    QStringList chain;
    if (linkChain(path, chain)) {
        QStringList names;
        for (const QString& link : chain)
            names << QFileInfo(link).fileName();
        if (names.size() > 6)
            names = names.mid(0, 3) << QStringLiteral("...") << names.mid(names.size() - 2);
        return "is a symbolic link loop (" + names.join(QStringLiteral(" -> ")).toStdString() + "): it names no file";
    }
    return "is a symbolic link to a missing target (" + info.symLinkTarget().toStdString() + ")";
}

} // namespace ridgeline::model
