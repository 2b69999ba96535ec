// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/files/outputfile.h"

#include <cerrno>
#include <cstring>

#include <QFileInfo>
#include <QSaveFile>

namespace ridgeline::model {

namespace {

/** Why @p file failed: Qt's error string, or the system's (errno) when Qt has none to give. */
QString failure(const QSaveFile& file, int code)
{
    const QString qt = file.errorString();
    if (file.error() != QFileDevice::NoError && !qt.isEmpty() && qt != QLatin1String("Unknown error"))
        return qt;
    return code != 0 ? QString::fromLocal8Bit(std::strerror(code)) : QStringLiteral("the write failed");
}

/** Discards the temporary file of @p file (the target stays as it was) and returns @p why. */
QString abandon(QSaveFile& file, const QString& why)
{
    file.cancelWriting();
    file.commit(); // with writing cancelled, commit() only removes the temporary file
    return why;
}

} // namespace

QString writeFileAtomically(const QString& path, const std::function<QString(QIODevice&)>& writeBody)
{
    // QSaveFile writes a temporary file and renames it over the target: over a device, a pipe or a socket
    // (--screenshot /dev/full, a trial found) that replaced the node itself. Only regular files are replaced.
    if (const QFileInfo target(path); target.exists() && !target.isFile())
        return target.isDir() ? QStringLiteral("is a folder; give a file name")
                              : QStringLiteral("is not a regular file (a device, a pipe or a socket); nothing was written");
    QSaveFile file(path);
    errno = 0;
    if (!file.open(QIODevice::WriteOnly))
        return failure(file, errno);
    errno = 0;
    if (const QString why = writeBody(file); !why.isEmpty() || file.error() != QFileDevice::NoError) {
        const int code = errno;
        return abandon(file, file.error() != QFileDevice::NoError || why.isEmpty() ? failure(file, code) : why);
    }
    errno = 0;
    if (!file.flush())
        return abandon(file, failure(file, errno));
    errno = 0;
    if (!file.commit())
        return failure(file, errno);
    return {};
}

QString writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    return writeFileAtomically(path, [&bytes](QIODevice& device) -> QString {
        if (device.write(bytes) == bytes.size())
            return {};
        const int code = errno; // QSaveFile leaves "Unknown error" for EFBIG and ENOSPC
        return code != 0 ? QString::fromLocal8Bit(std::strerror(code)) : device.errorString();
    });
}

} // namespace ridgeline::model
