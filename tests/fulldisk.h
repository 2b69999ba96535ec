// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A full disk for one scope, without root or a special file system: RLIMIT_FSIZE caps the size of
// any file this process writes, so a write past the cap fails with EFBIG (SIGXFSZ is ignored), as
// a write on a full disk fails with ENOSPC. Writes that QSaveFile buffers fail only in the final
// flush, the case that once renamed a truncated file over the target.

#include <csignal>

#include <sys/resource.h>

class SimulatedFullDisk {
public:
    /** Every file written in this scope fails past @p bytes bytes. */
    explicit SimulatedFullDisk(rlim_t bytes)
    {
        m_previousHandler = std::signal(SIGXFSZ, SIG_IGN);
        m_ok = getrlimit(RLIMIT_FSIZE, &m_previous) == 0;
        rlimit capped = m_previous;
        capped.rlim_cur = bytes;
        m_ok = m_ok && setrlimit(RLIMIT_FSIZE, &capped) == 0;
    }
    ~SimulatedFullDisk()
    {
        setrlimit(RLIMIT_FSIZE, &m_previous);
        std::signal(SIGXFSZ, m_previousHandler);
    }
    SimulatedFullDisk(const SimulatedFullDisk&) = delete;
    SimulatedFullDisk& operator=(const SimulatedFullDisk&) = delete;

    /** False when the limit could not be set (then a test must not rely on it). */
    bool active() const { return m_ok; }

private:
    rlimit m_previous {};
    void (*m_previousHandler)(int) = SIG_DFL;
    bool m_ok = false;
};
