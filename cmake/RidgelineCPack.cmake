# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package: `cpack -G DEB` in the build directory writes ridgeline_<version>_<arch>.deb.
# It installs to /usr what `cmake --install` installs (the binary, packaging/ and the scenarios);
# dpkg-shlibdeps (package dpkg-dev) reads the binary's libraries and writes the Depends line.

set(CPACK_PACKAGE_NAME "ridgeline")
set(CPACK_PACKAGE_VENDOR "The Ridgeline developers")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${PROJECT_HOMEPAGE_URL}")
set(CPACK_PACKAGE_CONTACT "The Ridgeline developers <ridgeline@example.invalid>")
set(CPACK_RESOURCE_FILE_LICENSE "${PROJECT_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
# A RelWithDebInfo build carries its debug information; the package does not.
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_NAME "ridgeline")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Without Qt's Wayland plugin the window opens through XWayland.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-wayland")
# The window icon is SVG: Qt loads its SVG icon engine as a plugin, which dpkg-shlibdeps cannot see.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6")
# The synopsis line is CPACK_PACKAGE_DESCRIPTION_SUMMARY (the project's DESCRIPTION); this is
# the extended description: CPack indents it and turns empty lines into " .".
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
"Ridgeline is a Qt desktop application. Sliders for model size, grouped-query
KV heads, batch, context, memory bandwidth and peak FLOP/s drive one
analytical cost model, and every plot follows at once: the decode floor, the
roofline and its ridge point, the KV-cache share of each decode read, the
prefill crossover, and the step time against batch size with inter-token
latency SLO lines. Every figure states its unit, and its formula on hover.

The same binary prints a text or JSON report of a scenario from the command
line, without a display, and renders the window to a PNG file. Example
scenarios are installed in /usr/share/ridgeline/scenarios.")

include(CPack)
