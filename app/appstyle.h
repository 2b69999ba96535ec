// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace ridgeline::app {

/**
 * Wraps the application's style (QApplication::style(), as the platform or -style chose it) in a QProxyStyle that
 * draws everything as that style does but hands out the toolbar-extension icons (QStyle::SP_ToolBarHorizontalExtensionButton,
 * SP_ToolBarVerticalExtensionButton) as icons that load their pictures on first need.
 *
 * Every QMenuBar makes a hidden extension button in its constructor and sets that icon on it: QCommonStyle loads
 * the icon's three PNG files from Qt's resources at once, and the first image read loads the image-format plugins'
 * metadata (QImageReader::format(): 3.1 M instructions of the 261 M to the first painted window, issue 16,
 * twenty-first stop in docs/performance.md). The button shows only when the menus do not fit the menu bar; the icon
 * then draws the same pixmaps as the style's own. Call once, after the QApplication is made and before any window;
 * does nothing when the style is already wrapped or cannot be made again by its name.
 */
void installDeferredIconStyle();

/** How many of the deferred icons installDeferredIconStyle()'s style handed out have made their pictures (been drawn,
 *  sized or asked whether null) since the process started: for tests. */
int deferredIconsMade();

} // namespace ridgeline::app
