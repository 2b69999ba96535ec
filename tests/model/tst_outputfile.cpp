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
#include "model/files/inputfile.h"
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
    void symlinkLoopIsNotAMissingTarget();
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

/** Issue 14, h14g: a symbolic link loop read "a symbolic link to a missing target"; it is named a loop. */
void TestOutputFile::symlinkLoopIsNotAMissingTarget()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString a = dir.filePath(QStringLiteral("a.json")), b = dir.filePath(QStringLiteral("b.json"));
    QVERIFY(QFile::link(b, a));
    QVERIFY(QFile::link(a, b));
    QVERIFY(model::isSymlinkLoop(a));
    QByteArray bytes;
    const std::string loop = model::readInputFile(a, bytes);
    QCOMPARE(loop, std::string("cannot open: is a symbolic link loop (a.json -> b.json -> a.json): it names no file"));
    // A link to nothing is a missing target, not a loop; a plain missing file neither.
    const QString dangling = dir.filePath(QStringLiteral("dangling.json"));
    QVERIFY(QFile::link(dir.filePath(QStringLiteral("gone.json")), dangling));
    QVERIFY(!model::isSymlinkLoop(dangling));
    const std::string missing = model::readInputFile(dangling, bytes);
    QVERIFY2(missing.starts_with("cannot open: is a symbolic link to a missing target (") && missing.find("gone.json") != std::string::npos,
             missing.c_str());
    QCOMPARE(model::readInputFile(dir.filePath(QStringLiteral("none.json")), bytes), std::string("cannot open: no such file"));
}

#include "tst_outputfile.moc"
