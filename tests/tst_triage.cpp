// SPDX-License-Identifier: GPL-3.0-or-later
// Incident triage (seed 000): the drill's five tickets classify as its answers say, and
// variations that must change the class do.

#include <QFile>
#include <QtTest>

#include "model/costmodel.h"
#include "model/presets.h"
#include "model/triage.h"

using namespace ridgeline::model;

namespace {

Scenario drill()
{
    for (const ScenarioPreset& p : scenarioPresets())
        if (p.id == "incident-drill-13b-a100")
            return p.scenario;
    qFatal("shipped scenario incident-drill-13b-a100 is missing");
}

TriageInput ticket(const QString& name)
{
    QFile f(QStringLiteral(":/tickets/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing ticket %s", qPrintable(name));
    TriageInput in;
    const std::string err = parseTriageInput(f.readAll(), in);
    if (!err.empty())
        qFatal("ticket %s: %s", qPrintable(name), err.c_str());
    return in;
}

} // namespace

Q_DECLARE_METATYPE(TicketClass)

class TestTriage final : public QObject {
    Q_OBJECT

private slots:
    void drillTickets_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<TicketClass>("expected");
        QTest::newRow("B1 prefill / TTFT") << "b1-ttft.json" << TicketClass::Prefill;
        QTest::newRow("B2 decode") << "b2-itl.json" << TicketClass::Decode;
        QTest::newRow("B3 admission / concurrency") << "b3-concurrency.json" << TicketClass::Admission;
        QTest::newRow("B4 noisy-neighbour prefill") << "b4-batch-job.json" << TicketClass::NoisyNeighbourPrefill;
        QTest::newRow("B5 KV capacity") << "b5-oom.json" << TicketClass::KvCapacity;
    }
    void drillTickets()
    {
        QFETCH(QString, file);
        QFETCH(TicketClass, expected);
        const TriageResult r = triage(drill(), ticket(file));
        QCOMPARE(ticketClassId(r.ticketClass), ticketClassId(expected));
        QVERIFY(!r.reasoning.empty());
        QVERIFY(!r.metricToPlot.empty());
        QVERIFY(!r.fixesThatCanWork.empty());
        QVERIFY(!r.fixesThatCannot.empty());
        const QString standup = QString::fromStdString(r.standup.text());
        for (const char* line : {"Symptom: ", "Phase: ", "Floor we compared against: ", "What is actually happening: ",
                                 "Change we will try: ", "How we will know in 30 minutes: "})
            QVERIFY2(standup.contains(QLatin1String(line)), line);
        QCOMPARE(standup.count(QLatin1Char('\n')), 6);
    }

    /** The drill's floor: 13.0 ms/token; B2's 95 ms is about 7x it, so not "we need H100". */
    void b2ComparesAgainstTheFloor()
    {
        const TriageResult r = triage(drill(), ticket(QStringLiteral("b2-itl.json")));
        QVERIFY(std::abs(r.decodeFloorMs - 13.0) < 0.065);
        QVERIFY(QString::fromStdString(r.plausibleCause).contains(QStringLiteral("Host")));
        QVERIFY(QString::fromStdString(r.standup.floor).contains(QStringLiteral("13.0 ms/token")));
        bool sevenX = false;
        for (const auto& line : r.reasoning)
            sevenX = sevenX || QString::fromStdString(line).contains(QStringLiteral("7.3x the floor"));
        QVERIFY(sevenX);
    }

    /** B3's standup names the queue wait, not FlashAttention. */
    void b3NamesQueueWait()
    {
        const TriageResult r = triage(drill(), ticket(QStringLiteral("b3-concurrency.json")));
        QVERIFY(QString::fromStdString(r.standup.happening).contains(QStringLiteral("queue")));
        QVERIFY(!QString::fromStdString(r.standup.change).contains(QStringLiteral("FlashAttention")));
        bool named = false;
        for (const auto& f : r.fixesThatCannot)
            named = named || QString::fromStdString(f).contains(QStringLiteral("FlashAttention"));
        QVERIFY(named);
    }

    void variationsChangeTheClass_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("change");
        QTest::addColumn<TicketClass>("expected");
        QTest::newRow("B2 at concurrency 48 is no longer pure decode") << "b2-itl.json" << "concurrency=48" << TicketClass::Admission;
        QTest::newRow("B2 with ITL near the floor is within SLO") << "b2-itl.json" << "itl=15" << TicketClass::WithinSlo;
        QTest::newRow("B1 with a batch job running is noisy neighbour") << "b1-ttft.json" << "batch" << TicketClass::NoisyNeighbourPrefill;
        QTest::newRow("B1 with OOM errors is KV capacity") << "b1-ttft.json" << "oom" << TicketClass::KvCapacity;
        QTest::newRow("B3 without queue wait is still concurrency") << "b3-concurrency.json" << "noqueue" << TicketClass::Admission;
        QTest::newRow("B4 with chat TTFT in SLO is within SLO") << "b4-batch-job.json" << "ttft=300" << TicketClass::WithinSlo;
        QTest::newRow("B5 without OOM, latencies fine") << "b5-oom.json" << "nooom" << TicketClass::WithinSlo;
    }
    void variationsChangeTheClass()
    {
        QFETCH(QString, file);
        QFETCH(QString, change);
        QFETCH(TicketClass, expected);
        TriageInput in = ticket(file);
        if (change == QLatin1String("concurrency=48"))
            in.concurrency = 48;
        else if (change == QLatin1String("itl=15"))
            in.p95ItlMs = 15;
        else if (change == QLatin1String("batch"))
            in.batchJobRunning = true;
        else if (change == QLatin1String("oom"))
            in.outOfMemory = true;
        else if (change == QLatin1String("noqueue"))
            in.queueWaitMs.reset();
        else if (change == QLatin1String("ttft=300"))
            in.p95TtftMs = 300;
        else if (change == QLatin1String("nooom"))
            in.outOfMemory = false;
        QCOMPARE(ticketClassId(triage(drill(), in).ticketClass), ticketClassId(expected));
    }

    void badTickets_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("truncated") << QByteArray(R"({"p95_itl_ms": )") << "not valid JSON";
        QTest::newRow("negative") << QByteArray(R"({"p95_itl_ms": -3})") << "p95_itl_ms";
        QTest::newRow("text number") << QByteArray(R"({"concurrency": "lots"})") << "concurrency";
        QTest::newRow("utilization over 1") << QByteArray(R"({"gpu_utilization": 90})") << "gpu_utilization";
        QTest::newRow("unknown error kind") << QByteArray(R"({"error": "segfault"})") << "error";
        QTest::newRow("unknown field") << QByteArray(R"({"p99_itl": 3})") << "p99_itl";
    }
    void badTickets()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, phrase);
        TriageInput in;
        in.symptom = "kept";
        const QString err = QString::fromStdString(parseTriageInput(json, in));
        QVERIFY2(err.contains(phrase), qPrintable(err));
        QCOMPARE(in.symptom, std::string("kept"));
    }
};

QTEST_APPLESS_MAIN(TestTriage)
#include "tst_triage.moc"
