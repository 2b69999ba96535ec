// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/commandline.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    // Under a file-size limit (ulimit -f) a write past it then fails with EFBIG, which every writer
    // reports with the file's name (model::writeFileAtomically), instead of SIGXFSZ killing the
    // program without a word. The previous file stays either way.
    std::signal(SIGXFSZ, SIG_IGN);
    const int code = ridgeline::app::run(argc, argv);
    // Every mode's output on standard output (a report, JSON, CSV, --help): a write that failed (a full disk,
    // > /dev/full, a closed pipe) is a failure, not success with the output lost. --plan says so itself.
    errno = 0;
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        if (code == 0) {
            const int why = errno;
            std::fprintf(stderr, "ridgeline: cannot write to standard output: %s\n", why != 0 ? std::strerror(why) : "write error");
            return 1;
        }
    }
    return code;
}
