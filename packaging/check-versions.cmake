# SPDX-License-Identifier: GPL-3.0-or-later
# Checks that the metainfo's first <release> and the Debian changelog's top entry carry VERSION,
# the project's version. Run: cmake -DVERSION=.. -DMETAINFO=.. -DCHANGELOG=.. -P check-versions.cmake
file(READ "${METAINFO}" metainfo)
string(REGEX MATCH "<release version=\"([^\"]*)\"" _ "${metainfo}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "${METAINFO}: the first <release> is '${CMAKE_MATCH_1}', the project is ${VERSION}: "
                      "add a <release version=\"${VERSION}\" date=\"YYYY-MM-DD\"> at the top of <releases>")
endif()
file(READ "${CHANGELOG}" changelog)
string(REGEX MATCH "\nridgeline \\(([^)]*)\\)" _ "\n${changelog}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "${CHANGELOG}: the top entry is '${CMAKE_MATCH_1}', the project is ${VERSION}: "
                      "add an entry 'ridgeline (${VERSION}) unstable; urgency=medium' at the top")
endif()
message(STATUS "metainfo and changelog are at ${VERSION}")
