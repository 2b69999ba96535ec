// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include <QByteArray>
#include <QJsonDocument>

namespace ridgeline::model {

/**
 * The one JSON reader of outside input (scenario files, simulation files, calibration JSON, the user
 * catalogue, config.json imports, triage tickets): QJsonDocument::fromJson, plus a refusal of duplicate
 * keys, which QJsonDocument would silently resolve to the last value.
 *
 * Returns "" and sets @p out, or one message: "not valid JSON at byte 12: unterminated string" or
 * "duplicate key \"simulation.max_sequences\" (line 7): each key may appear once in an object". The key
 * is the dotted path from the top ("classes[2].name"), through printableText(). Cost: one pass over the
 * text besides the parse; no recursion (nesting depth is limited by the parse).
 */
std::string parseJsonInput(const QByteArray& json, QJsonDocument& out);

/**
 * The duplicate-key check of parseJsonInput() alone: "" when every object of @p json gives each key once
 * (or when @p json is not JSON: the parse reports that), else the message above.
 */
std::string findDuplicateJsonKey(const QByteArray& json);

} // namespace ridgeline::model
