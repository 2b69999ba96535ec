// SPDX-License-Identifier: GPL-3.0-or-later
// Holds a precompiled header that the test executables reuse (tests/CMakeLists.txt); no code of its own.
