// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include <QByteArray>
#include <QString>

namespace ridgeline::model {

/** Largest input file Ridgeline reads (scenarios, configs, tickets, measurements, simulations, traces). */
inline constexpr qint64 kMaxInputFileBytes = 64LL * 1024 * 1024;

/**
 * Reads @p path whole into @p out when it is a regular file of at most @p maxBytes bytes.
 * Refuses directories, devices (/dev/zero) and FIFOs (which would block or never end), empty
 * names and larger files, so no input can exhaust memory or hang. Returns "" on success, else a
 * message such as "cannot open: No such file or directory" or "is larger than 64 MiB".
 */
std::string readInputFile(const QString& path, QByteArray& out, qint64 maxBytes = kMaxInputFileBytes);

/**
 * Whether @p path is a symbolic link whose chain of targets (QFileInfo::symLinkTarget(), link by link) comes back to a
 * link already seen, or runs past 40 links as the kernel's ELOOP does: it names no file, and is not a link to a missing
 * target either (issue 14, h14g: a loop read "a symbolic link to a missing target"). False for a path that is no link.
 */
bool isSymlinkLoop(const QString& path);

/**
 * Why @p path names nothing when it is a symbolic link that does not resolve: "is a symbolic link loop (a -> b -> a)"
 * or "is a symbolic link to a missing target (/x/y)"; "" when @p path exists or is no link.
 */
std::string brokenSymlinkText(const QString& path);

} // namespace ridgeline::model
