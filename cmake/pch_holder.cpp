// SPDX-License-Identifier: GPL-3.0-or-later
// Not a test: the source of the targets that hold the precompiled headers the test executables reuse
// (tests/CMakeLists.txt); no code of its own.
