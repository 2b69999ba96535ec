// SPDX-License-Identifier: GPL-3.0-or-later
// model::writeFileAtomically, the one writer of every file Ridgeline saves: a write that fails in
// the final flush (a full disk) or in the body leaves the previous file byte for byte and no
// temporary file beside it, and reports the system's reason.

#include <sys/stat.h>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "tests/fulldisk.h"
#include "model/files/outputfile.h"

namespace model = ridgeline::model;

namespace {

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestOutputFile final : public QObject {
    Q_OBJECT

private slots:
    void writesWholeFile();
    void fullDiskInTheFinalFlushKeepsThePreviousFile_data();
    void fullDiskInTheFinalFlushKeepsThePreviousFile();
    void failingBodyKeepsThePreviousFile();
    void missingFolderIsReported();
    void nodesThatAreNotFilesAreNotReplaced();
};

void TestOutputFile::writesWholeFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.json"));
    QCOMPARE(model::writeFileAtomically(path, QByteArray("first")), QString());
    QCOMPARE(readFile(path), QByteArray("first"));
    QCOMPARE(model::writeFileAtomically(path, QByteArray("second, longer")), QString());
    QCOMPARE(readFile(path), QByteArray("second, longer"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
}

void TestOutputFile::fullDiskInTheFinalFlushKeepsThePreviousFile_data()
{
    QTest::addColumn<int>("bytes");
    // 4 KiB stays in QSaveFile's buffer until the final flush; 1 MiB fails inside write() already.
    QTest::newRow("buffered, fails in the flush") << 4096;
    QTest::newRow("large, fails in write") << 1024 * 1024;
}

void TestOutputFile::fullDiskInTheFinalFlushKeepsThePreviousFile()
{
    QFETCH(int, bytes);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("scenario.json"));
    const QByteArray previous("{\"format_version\": 3}\n");
    QCOMPARE(model::writeFileAtomically(path, previous), QString());

    QString why;
    {
        SimulatedFullDisk full(1000);
        QVERIFY(full.active());
        why = model::writeFileAtomically(path, QByteArray(bytes, 'x'));
    }
    QVERIFY2(!why.isEmpty(), "a write past the disk's end must fail");
    QVERIFY2(why.contains(QStringLiteral("large")) || why.contains(QStringLiteral("space")), qPrintable(why));
    QCOMPARE(readFile(path), previous);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList {QStringLiteral("scenario.json")});
}

void TestOutputFile::failingBodyKeepsThePreviousFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("plot.png"));
    QCOMPARE(model::writeFileAtomically(path, QByteArray("old image")), QString());
    const QString why = model::writeFileAtomically(path, [](QIODevice& device) -> QString {
        device.write("half an ima");
        return QStringLiteral("cannot encode the PNG");
    });
    QCOMPARE(why, QStringLiteral("cannot encode the PNG"));
    QCOMPARE(readFile(path), QByteArray("old image"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);
}

void TestOutputFile::missingFolderIsReported()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("no/such/folder/out.csv"));
    const QString why = model::writeFileAtomically(path, QByteArray("a,b\n"));
    QVERIFY(!why.isEmpty());
    QVERIFY(!QFile::exists(path));
}

QTEST_APPLESS_MAIN(TestOutputFile)
/** A FIFO (as a device such as /dev/full, which --screenshot replaced with a PNG) is refused and stays what it was. */
void TestOutputFile::nodesThatAreNotFilesAreNotReplaced()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    const QString why = model::writeFileAtomically(fifo, QByteArray("data"));
    QVERIFY2(why.contains(QLatin1String("not a regular file")), qPrintable(why));
    struct stat st {};
    QVERIFY(::stat(QFile::encodeName(fifo).constData(), &st) == 0);
    QVERIFY(S_ISFIFO(st.st_mode));
    const QString folder = model::writeFileAtomically(dir.path(), QByteArray("data"));
    QVERIFY2(folder.contains(QLatin1String("folder")), qPrintable(folder));
}

#include "tst_outputfile.moc"
