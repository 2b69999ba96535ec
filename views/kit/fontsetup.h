// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace ridgeline::views {

/**
 * Starts fontconfig's set-up (FcInit(): its configuration files parsed, the font cache files mapped) on a
 * thread of its own and returns at once, so that it runs while the libraries' start, QApplication and the
 * window's widgets take the main thread. The window's first measured text otherwise pays it on the main
 * thread (about 24 M instructions, 8 % of start-up: docs/performance.md, issue 16, tenth stop). Call it once,
 * before QApplication and after the program's last setenv(); later calls do nothing. Qt's own FcInit() then
 * finds the configuration loaded. Without fontconfig (another platform) it does nothing.
 *
 * The thread reads the environment (fontconfig's getenv() of HOME, XDG_*, FONTCONFIG_*), and glibc's
 * setenv() / unsetenv() are not safe beside getenv(): a variable can be skipped. Qt unsets DESKTOP_STARTUP_ID
 * (xcb) and XDG_ACTIVATION_TOKEN (Wayland) while QApplication starts, so with either set (a launch from a
 * desktop's launcher) no thread is started and Qt does the set-up as before. Thread-safe otherwise: fontconfig
 * publishes its configuration with an atomic compare-and-swap, so a Qt call that comes first loses nothing.
 */
void startFontSetUp();

/**
 * Waits until the set-up startFontSetUp() started has finished (at once if it was never started or is done),
 * so that the main thread does not parse the same configuration beside it. Call it before the first text is
 * measured.
 */
void waitForFontSetUp();

/** Whether a set-up startFontSetUp() started has not yet been waited for (false without fontconfig). For tests. */
bool isFontSetUpPending();

} // namespace ridgeline::views
