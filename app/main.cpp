// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/commandline.h"

#include <csignal>

int main(int argc, char** argv)
{
    // Under a file-size limit (ulimit -f) a write past it then fails with EFBIG, which every writer
    // reports with the file's name (model::writeFileAtomically), instead of SIGXFSZ killing the
    // program without a word. The previous file stays either way.
    std::signal(SIGXFSZ, SIG_IGN);
    return ridgeline::app::run(argc, argv);
}
