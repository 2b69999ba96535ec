// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/kit/fontsetup.h"

#include <cstdlib>
#include <mutex>
#include <system_error>
#include <thread>

#if __has_include(<fontconfig/fontconfig.h>) && defined(RIDGELINE_HAVE_FONTCONFIG)
#include <fontconfig/fontconfig.h>
#define RL_FONTCONFIG 1
#else
#define RL_FONTCONFIG 0
#endif

namespace ridgeline::views {

namespace {

/** The set-up thread; joined by waitForFontSetUp() or, never waited for (a window that was not built), at exit. */
struct SetUp {
    std::mutex mutex;
    std::thread thread; // guarded by mutex
    bool started = false;
    ~SetUp()
    {
        if (thread.joinable())
            thread.join();
    }
};

SetUp& setUp()
{
    static SetUp s;
    return s;
}

} // namespace

void startFontSetUp()
{
#if RL_FONTCONFIG
    SetUp& s = setUp();
    const std::lock_guard lock(s.mutex);
    if (s.started)
        return;
    s.started = true;
    // QApplication unsets these beside the thread's getenv() (fontsetup.h): no thread then.
    if (std::getenv("DESKTOP_STARTUP_ID") != nullptr || std::getenv("XDG_ACTIVATION_TOKEN") != nullptr)
        return;
    try {
        s.thread = std::thread([] { FcInit(); });
    } catch (const std::system_error&) {
        // No thread to be had: Qt does the set-up on the main thread, as without this.
    }
#endif
}

void waitForFontSetUp()
{
    SetUp& s = setUp();
    const std::lock_guard lock(s.mutex);
    if (s.thread.joinable())
        s.thread.join();
}

bool isFontSetUpPending()
{
    SetUp& s = setUp();
    const std::lock_guard lock(s.mutex);
    return s.thread.joinable();
}

} // namespace ridgeline::views
