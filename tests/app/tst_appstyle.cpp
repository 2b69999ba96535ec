// SPDX-License-Identifier: GPL-3.0-or-later
// The application's style wrapper (app/appstyle.h): the menu bar's hidden extension icon is read on first need.
#include <memory>

#include <QApplication>
#include <QDataStream>
#include <QIcon>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTest>
#include <QToolButton>

#include "app/appstyle.h"

using namespace ridgeline;

class TestAppStyle : public QObject {
    Q_OBJECT
private slots:
    void menuBarExtensionIconReadOnFirstNeed();
};

/** The key of @p icon's engine, as QIcon streams it (its first field). */
static QString engineKey(const QIcon& icon)
{
    QByteArray bytes;
    {
        QDataStream out(&bytes, QIODevice::WriteOnly);
        out << icon;
    }
    QDataStream in(bytes);
    QString key;
    in >> key;
    return key;
}

void TestAppStyle::menuBarExtensionIconReadOnFirstNeed()
{
    // Issue 16, twenty-first stop (h16ae): every QMenuBar sets the style's toolbar-extension icon on its hidden extension
    // button, and QCommonStyle read the icon's three PNG files there, the first image read of the process loading the
    // image-format plugins' metadata (3.1 M instructions before the first paint). The wrapped style hands out an icon
    // that reads them when first drawn; drawn, it is the style's own, pixel for pixel.
    QStyle* before = QApplication::style();
    const QString styleName = before->name();
    app::installDeferredIconStyle();
    QStyle* wrapped = QApplication::style();
    QVERIFY(wrapped != before);
    app::installDeferredIconStyle(); // once only
    QCOMPARE(QApplication::style(), wrapped);

    QMainWindow window;
    window.menuBar()->addMenu(QStringLiteral("&File"));
    window.resize(400, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* extension = window.menuBar()->findChild<QToolButton*>(QStringLiteral("qt_menubar_ext_button"));
    QVERIFY(extension);
    QVERIFY(!extension->isVisible());
    QCOMPARE(app::deferredIconsMade(), 0); // shown, and nothing read

    // Drawn, the icon is the one the unwrapped style gives.
    std::unique_ptr<QStyle> reference(QStyleFactory::create(styleName));
    QVERIFY(reference);
    for (const auto pixmapId : {QStyle::SP_ToolBarHorizontalExtensionButton, QStyle::SP_ToolBarVerticalExtensionButton}) {
        const QIcon expected = reference->standardIcon(pixmapId);
        const QIcon deferred = pixmapId == QStyle::SP_ToolBarHorizontalExtensionButton ? extension->icon()
                                                                                       : wrapped->standardIcon(pixmapId);
        QCOMPARE(engineKey(deferred), QStringLiteral("ridgeline-deferred"));
        QCOMPARE(deferred.availableSizes(), expected.availableSizes());
        for (const int px : {8, 16, 24, 32})
            for (const QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled, QIcon::Active})
                QCOMPARE(deferred.pixmap(QSize(px, px), mode).toImage(), expected.pixmap(QSize(px, px), mode).toImage());
    }
    QCOMPARE(app::deferredIconsMade(), 2);
}

QTEST_MAIN(TestAppStyle)
#include "tst_appstyle.moc"
