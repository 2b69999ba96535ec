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

} // namespace ridgeline::model
