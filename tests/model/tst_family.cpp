// SPDX-License-Identifier: GPL-3.0-or-later
// The model-size slider's dense-family rule (design/cost-model.md section 2).

#include <QtTest>

#include "model/family.h"
#include "model/presets.h"

using namespace ridgeline::model;

class TestFamily final : public QObject {
    Q_OBJECT

private slots:
    /** At each real member's N, the rule gives that member's L and d exactly. */
    void reproducesTheMembers_data()
    {
        QTest::addColumn<QString>("presetId");
        QTest::newRow("Llama 3.2 1B") << "llama-3.2-1b";
        QTest::newRow("Llama 3.2 3B") << "llama-3.2-3b";
        QTest::newRow("Llama 3.1 8B") << "llama-3.1-8b";
        QTest::newRow("Llama 3.1 70B") << "llama-3.1-70b";
        QTest::newRow("Llama 3.1 405B") << "llama-3.1-405b";
    }
    void reproducesTheMembers()
    {
        QFETCH(QString, presetId);
        const ModelPreset* preset = nullptr;
        for (const ModelPreset& p : modelPresets())
            if (p.id == presetId.toStdString())
                preset = &p;
        QVERIFY(preset);
        const FamilyShape shape = denseFamilyShape(preset->shape.params);
        QCOMPARE(shape.layers, preset->shape.layers);
        QCOMPARE(shape.hidden, preset->shape.hidden);
    }

    void monotoneAndWellFormed()
    {
        FamilyShape previous{0, 0};
        for (double n = 0.3e9; n < 3e12; n *= 1.07) {
            ModelShape m;
            m.kvHeads = 8;
            m.vocab = 128256;
            m = applyDenseFamily(m, n);
            QVERIFY(m.layers >= previous.layers);
            QVERIFY(m.hidden >= previous.hidden);
            QCOMPARE(m.hidden % 128, 0);
            QCOMPARE(m.heads * 128, m.hidden);
            QCOMPARE(m.heads % m.kvHeads, 0);
            QCOMPARE(m.params, n);
            QCOMPARE(m.activeParamsOrTotal(), n);
            previous = {m.layers, m.hidden};
        }
    }

    void interpolatesBetweenMembers()
    {
        // 13B lies between 8B (32, 4096) and 70B (80, 8192).
        const FamilyShape s = denseFamilyShape(13e9);
        QVERIFY(s.layers > 32 && s.layers < 80);
        QVERIFY(s.hidden > 4096 && s.hidden < 8192);
    }

    void keepsKvHeadsWhenTheyDivide()
    {
        ModelShape m;
        m.kvHeads = 8;
        m = applyDenseFamily(m, 70e9);
        QCOMPARE(m.kvHeads, 8);
        m.kvHeads = 5; // does not divide 64 heads
        m = applyDenseFamily(m, 70.55e9);
        QCOMPARE(m.heads, 64);
        QCOMPARE(m.kvHeads, 4);
    }
};

QTEST_APPLESS_MAIN(TestFamily)
#include "tst_family.moc"
