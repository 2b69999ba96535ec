// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QSize>
#include <QString>
#include <QStringList>

#include "app/export.h"
#include "app/simulatecommand.h"
#include "model/analysis/benchmarkpredict.h"

namespace ridgeline::app {

/**
 * The command line, parsed and checked (parseCommandLine() in app/commandline.cpp): which modes were asked for
 * and their values. Empty strings mean "not given". run() calls one function per mode with it; the options, their
 * messages and exit codes are the contract of tests/app/tst_commandline.cpp and `ridgeline --help`.
 */
struct Options {
    bool help = false;    ///< -h, --help
    bool version = false; ///< -v, --version

    QString planFile;          ///< --plan FILE (alone, with --format text|json|csv)
    bool listHardware = false; ///< --list-hardware (alone, with --format text|json|csv)
    QString simulateFile;      ///< --simulate FILE (its own scenario), or with --export / --screenshot: run in the Simulation tab first
    SimulateOptions simulateOptions; ///< --simulate's --format, --rate-sweep and --attainment

    QString scenarioFile;    ///< FILE or --scenario FILE
    QString modelConfigFile; ///< --model-config FILE
    QStringList assignments; ///< --efficiency PRESET's coefficients, then each --set KEY=VALUE, in order
    /** No --scenario / FILE, --set, --model-config or --efficiency: the window may restore the last session. */
    bool restoreSession = false;

    QString format = QStringLiteral("text"); ///< --format: text|json (report, triage, simulate), also csv (predict, plan, list)
    bool report = false;        ///< --report
    QString compareFile;        ///< --compare FILE (with --report): the first one given
    QStringList compareFiles;   ///< every --compare FILE in order (repeatable: an N-way comparison)
    QString triageFile;         ///< --triage FILE
    QByteArray ticket;          ///< the ticket's bytes, read and checked while parsing
    QByteArray ticketScenario;  ///< the ticket's "scenario" object (JSON), applied after the model config
    QString calibrateFile;      ///< --calibrate DATA
    QString predictFile;        ///< --predict FILE
    model::BenchmarkOptions benchmarkOptions; ///< --scheduler, --token-budget, --max-sequences (with --predict)
    QString screenshotFile;     ///< --screenshot FILE.png
    QSize size = QSize(1600, 1000); ///< --size WxH (screenshot and export)
    bool exportMode = false;    ///< --export DIR
    ExportOptions exportOptions; ///< --export's folder, formats, size, dpi and the files to load first
};

} // namespace ridgeline::app
