// SPDX-License-Identifier: GPL-3.0-or-later
// The model-size slider's dense-family rule (docs/cost-model.md section 2).

#include <QtTest>

#include "model/cost/family.h"
#include "model/cost/presets.h"

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

    /** The size slider's whole rule (moved from the controls panel): the family member is dense, without MLA or a
     *  sliding window, whatever the anchor had, with the family's L and d. */
    void denseFamilyMemberClearsMoeMlaAndWindow()
    {
        ModelShape anchor = modelPresets().front().shape;
        anchor.experts = 8;
        anchor.expertsPerToken = 2;
        anchor.expertParams = 1e9;
        anchor.kvLoraRank = 512;
        anchor.ropeHeadDim = 64;
        anchor.slidingWindow = 4096;
        anchor.slidingLayers = 4;
        const ModelShape m = denseFamilyMember(anchor, 8e9);
        QCOMPARE(m.experts, 0);
        QCOMPARE(m.expertsPerToken, 0);
        QCOMPARE(m.expertParams, 0.0);
        QCOMPARE(m.kvLoraRank, 0);
        QCOMPARE(m.ropeHeadDim, 0);
        QCOMPARE(m.slidingWindow, 0);
        QCOMPARE(m.slidingLayers, 0);
        const FamilyShape shape = denseFamilyShape(8e9);
        QCOMPARE(m.layers, shape.layers);
        QCOMPARE(m.params, 8e9);
    }

    /** The MoE rule (moved from the controls panel): E and k move N and N_active by whole experts, the shared
     *  parameters stay; E = 0 makes the model dense; a first E on a dense model starts k at min(2, E). */
    void moeExpertsKeepTheSharedParameters()
    {
        ModelShape m = modelPresets().front().shape; // dense
        const double shared = m.params;
        setMoeExperts(m, 8, 0, 1e9);
        QCOMPARE(m.experts, 8);
        QCOMPARE(m.expertsPerToken, 2);
        QCOMPARE(m.params, shared + 8e9);
        setMoeExperts(m, 16, 4, 1e9);
        QCOMPARE(m.params, shared + 16e9);
        if (m.activeParams)
            QCOMPARE(*m.activeParams, shared + 4e9);
        setMoeExperts(m, 0, 4, 1e9);
        QCOMPARE(m.experts, 0);
        QCOMPARE(m.expertsPerToken, 0);
        QCOMPARE(m.expertParams, 0.0);
        QCOMPARE(m.params, shared);
    }
};

QTEST_APPLESS_MAIN(TestFamily)
#include "tst_family.moc"
