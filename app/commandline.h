// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdio>

#include <QString>
#include <QStringList>

#include "model/cost/scenario.h"

namespace ridgeline::app {

/** Exit status of a run given bad input (an option, a file or a value that fails its check): `ridgeline --help`
 *  and tests/app/tst_commandline.cpp (1 is any other failure). */
inline constexpr int kExitBadInput = 2;

/**
 * Builds the scenario the command line asks for: the default (Llama 3.1 8B on H100 SXM at the
 * floor), then the scenario file if @p scenarioFile is not empty, then each "KEY=VALUE" of
 * @p assignments in order. Returns an empty string on success, else one line naming the file,
 * option, key and value at fault. The result is validated (model::validate).
 */
QString buildScenario(const QString& scenarioFile, const QStringList& assignments, model::Scenario& out);

/**
 * As above, with a HuggingFace config.json (@p modelConfigFile, may be empty) imported into
 * scenario.model after the scenario file and before the assignments; what the import inferred is
 * appended to @p notes.
 */
QString buildScenario(const QString& scenarioFile, const QString& modelConfigFile, const QStringList& assignments,
                      model::Scenario& out, QStringList& notes);

/** As above, with scenario JSON @p overlay (e.g. a triage ticket's "scenario") applied after the model config. */
QString buildScenario(const QString& scenarioFile, const QString& modelConfigFile, const QByteArray& overlay,
                      const QStringList& assignments, model::Scenario& out, QStringList& notes);

/** Calibration of @p scenario to the measurements in @p data (CSV or vLLM JSON, told by @p path's
 *  ending or the first byte) as indented JSON; on failure "" and @p error set. */
QString calibrationJson(const model::Scenario& scenario, const QByteArray& data, const QString& path, QString* error);

/** The triage report as text (class, reasoning, fixes, the six-line standup) or JSON. */
QString triageText(const model::Scenario& scenario, const QByteArray& ticketJson, bool json, QString* error);

/**
 * Writes @p line and a newline to @p stream (stdout, stderr) in the locale's encoding and flushes.
 * On stderr, control characters (from file names, --set values or file contents echoed in a
 * message) are written as \xNN, so an error stays one line and cannot drive the terminal.
 */
void printLine(FILE* stream, const QString& line);

/**
 * The program: `ridgeline [FILE] [--report [--format text|json]] [--scenario FILE] [--model-config FILE]
 * [--set KEY=VALUE]... [--screenshot FILE.png [--size WxH]] [--export DIR [--format png,pdf,svg,csv,md]
 * [--size WxH] [--dpi N]] [--help] [--version]`.
 * Chooses a QCoreApplication for headless work and a QApplication (offscreen for screenshots)
 * otherwise. Bad options, keys, values or files print one line on stderr and return 2.
 * The command line is parsed into app::Options (app/options.h), then one function per mode runs: plan, hardware
 * list, simulate, export, predict, calibrate, triage, compare, report, screenshot, or the window.
 */
int run(int argc, char** argv);

} // namespace ridgeline::app
