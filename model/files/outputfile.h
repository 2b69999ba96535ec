// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>

#include <QByteArray>
#include <QIODevice>
#include <QString>

namespace ridgeline::model {

/**
 * Writes a file whole or not at all: the one way Ridgeline writes any file (scenarios, the user
 * catalogue, exported images, CSVs and reports, screenshots).
 *
 * @p writeBody writes the content to the device it is given (a QSaveFile's temporary file beside
 * @p path) and returns "" or its own reason for failing (for example "cannot encode the PNG").
 * Then the buffer is flushed and checked before the rename: Qt 6.4's QSaveFile notices a failed
 * write() but not a failure in the final flush that commit() does, and would rename a truncated
 * file over the target on a full disk (ENOSPC, EFBIG, EDQUOT). On any failure the temporary file
 * is removed and the file at @p path, if there was one, is left exactly as it was.
 *
 * Returns "" on success, else the reason: Qt's error text, or the system's (strerror) when Qt has
 * none, for example "No space left on device".
 */
QString writeFileAtomically(const QString& path, const std::function<QString(QIODevice&)>& writeBody);

/** writeFileAtomically() of @p bytes as they are. */
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

} // namespace ridgeline::model
