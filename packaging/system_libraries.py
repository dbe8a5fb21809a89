"""Shared libraries the bundle leaves to the system, and the Debian packages that provide them.

Every Linux desktop that can show a Qt window has these (X11, fontconfig, FreeType, GLib, D-Bus
and what they link). PyInstaller would copy the build machine's versions into the bundle (10.5
MB); the spec drops them, the .deb depends on their packages, and ``install.sh`` checks that
they resolve. Libraries that desktops often lack (``libxcb-cursor0`` and the other xcb-util
libraries Qt's xcb plugin needs) and the C++ runtime stay bundled.
"""

from __future__ import annotations

# soname (up to ".so") → the Debian package that ships it. The packages in DEPENDS pull in the
# rest (libsystemd0, libgcrypt20, libpng16-16, libbrotli1, … are their dependencies).
SYSTEM_LIBRARIES: dict[str, str] = {
    "libX11": "libx11-6",
    "libX11-xcb": "libx11-xcb1",
    "libxkbcommon": "libxkbcommon0",
    "libxkbcommon-x11": "libxkbcommon-x11-0",
    "libfontconfig": "libfontconfig1",
    "libfreetype": "libfreetype6",
    "libpng16": "libpng16-16",
    "libbrotlicommon": "libbrotli1",
    "libbrotlidec": "libbrotli1",
    "libexpat": "libexpat1",
    "libz": "zlib1g",
    "libbz2": "libbz2-1.0",
    "libglib-2.0": "libglib2.0-0",
    "libgthread-2.0": "libglib2.0-0",
    "libpcre2-8": "libpcre2-8-0",
    "libffi": "libffi8",
    "libdbus-1": "libdbus-1-3",
    "libsystemd": "libsystemd0",
    "libgcrypt": "libgcrypt20",
    "libgpg-error": "libgpg-error0",
    "liblz4": "liblz4-1",
    "liblzma": "liblzma5",
    "libzstd": "libzstd1",
    "libcap": "libcap2",
    "libuuid": "libuuid1",
    "libgcc_s": "libgcc-s1",
}


def is_system_library(filename: str) -> bool:
    """``libX11.so.6`` yes; ``libxcb-cursor.so.0`` or Pillow's ``libfreetype-57f805ba.so.6`` no."""
    return filename.split(".so", 1)[0] in SYSTEM_LIBRARIES and ".so" in filename


def debian_depends() -> list[str]:
    """The packages to depend on, sorted and without repeats."""
    return sorted(set(SYSTEM_LIBRARIES.values()))
