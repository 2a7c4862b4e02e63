"""Before Qt opens a window on Linux: can its X11 (xcb) window-system plugin load?

When a library the plugin links is missing, Qt prints a paragraph and aborts with a core
dump. `missing_window_libraries()` finds that out first (a dlopen of the plugin, and `ldd`
for the complete list when it fails), so that `stateside` says in one line what is missing
and the apt-get command that installs it. No Qt here beyond QLibraryInfo (where the plugins
are): it runs before the QApplication exists.

DEBIAN_PACKAGES maps each shared library the plugin of the PySide6 wheel links (directly
or through the libraries it pulls in) and that a bare Debian lacks to its Debian package;
README.md's apt-get line names every one of them (tests/test_desktop_libs.py checks both
against `ldd` on the real plugin). How it was made: `ldd` on
PySide6/Qt/plugins/platforms/libqxcb.so (PySide6 6.x wheel), then `dpkg -S` on each library
found on Debian 12; the two that were missing there (libxcb-icccm, libxcb-keysyms) follow
Debian's naming of library packages (libfoo.so.N is in libfooN), as does `apt-cache show`.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

DEBIAN_PACKAGES = {
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libbrotlicommon.so.1": "libbrotli1",
    "libbrotlidec.so.1": "libbrotli1",
    "libbsd.so.0": "libbsd0",
    "libdbus-1.so.3": "libdbus-1-3",
    "libexpat.so.1": "libexpat1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
}

# What a bare Debian 12 has of what the plugin links: the libraries of its minimal system
# (`debootstrap --variant=minbase`, the official container image too), i.e. the packages
# that are Essential or of Priority "required" and everything they depend on. Worked out
# from Debian 12's package index (`apt-cache dumpavail`: Essential/Priority, Depends and
# Pre-Depends, followed to the end): libc6, libgcc-s1, libstdc++6, zlib1g, libzstd1,
# liblzma5, liblz4-1, libgcrypt20, libgpg-error0, libsystemd0, libcap2, libmd0 and
# libpcre2-8-0 are in it; none of the packages above is. linux-vdso is the kernel's. The
# second group: the other libraries of that minimal system, which the plugin's libraries
# may link where they were built otherwise (an Ubuntu's glib links libmount, say).
BASE_LIBRARIES = frozenset({
    "linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
    "librt.so.1", "libgcc_s.so.1", "libstdc++.so.6", "libz.so.1", "libzstd.so.1", "liblzma.so.5",
    "liblz4.so.1", "libgcrypt.so.20", "libgpg-error.so.0", "libsystemd.so.0", "libcap.so.2", "libmd.so.0",
    "libpcre2-8.so.0",
    "libacl.so.1", "libattr.so.1", "libaudit.so.1", "libblkid.so.1", "libbz2.so.1.0", "libcap-ng.so.0",
    "libcom_err.so.2", "libcrypt.so.1", "libffi.so.8", "libgmp.so.10", "libgnutls.so.30", "libhogweed.so.6",
    "libidn2.so.0", "libmount.so.1", "libnettle.so.8", "libp11-kit.so.0", "libpam.so.0", "libseccomp.so.2",
    "libselinux.so.1", "libsemanage.so.2", "libsepol.so.2", "libsmartcols.so.1", "libtasn1.so.6",
    "libtinfo.so.6", "libudev.so.1", "libunistring.so.2", "libuuid.so.1", "libxxhash.so.0",
})


def package_for(soname: str) -> str:
    """The Debian package of a shared library: from the table, else by Debian's rule
    (libfoo.so.N is in libfooN, libfoo-1.so.N and libfoo2.so.N in libfoo-1-N, libfoo2-N)."""
    if soname in DEBIAN_PACKAGES:
        return DEBIAN_PACKAGES[soname]
    m = re.match(r"(.+?)\.so\.(\d+)", soname)
    if not m:
        return soname
    name, major = m.group(1).lower().replace("_", "-"), m.group(2)
    return f"{name}-{major}" if name[-1].isdigit() else f"{name}{major}"


def xcb_plugin(environ=os.environ) -> Path | None:
    """The xcb platform plugin Qt would load, if there is one: in QT_PLUGIN_PATH's folders
    (a PyInstaller build sets it), else in Qt's own plugin folder."""
    from PySide6.QtCore import QLibraryInfo

    folders = [f for f in environ.get("QT_PLUGIN_PATH", "").split(os.pathsep) if f]
    folders.append(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath))
    for folder in folders:
        path = Path(folder) / "platforms" / "libqxcb.so"
        if path.is_file():
            return path
    return None


def uses_xcb(environ=os.environ, platform: str = sys.platform) -> bool:
    """Will Qt open its window through X11 here? On Linux with a DISPLAY, when
    QT_QPA_PLATFORM asks for xcb or asks nothing and no Wayland session is there
    (Qt would take Wayland first, and fall back to xcb only if that fails)."""
    if not platform.startswith("linux") or not environ.get("DISPLAY"):
        return False
    asked = environ.get("QT_QPA_PLATFORM", "")
    if asked:
        return asked.split(":")[0].split(";")[0] == "xcb"
    return not environ.get("WAYLAND_DISPLAY")


def not_found_by_ldd(library: Path) -> list[str] | None:
    """The libraries `ldd` cannot find for `library` (None: no ldd here)."""
    import subprocess

    try:
        out = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>" and parts[2] == "not" and parts[0] not in found:
            found.append(parts[0])
    return found


def _load(library: Path) -> str | None:
    """dlopen the library as Qt would: None when it loads, else the loader's message."""
    import ctypes

    try:
        ctypes.CDLL(str(library))
    except OSError as e:
        return str(e)
    return None


def missing_window_libraries(environ=os.environ, platform: str = sys.platform, plugin: Path | None = None,
                             load=None, ldd=None) -> str | None:
    """One line saying what the window-system plugin lacks and how to install it, or None
    when it loads (or will not be used). `load` and `ldd` are the loader and the lister
    (tests give stand-ins)."""
    if platform.startswith("linux") and not environ.get("QT_QPA_PLATFORM") \
            and not environ.get("DISPLAY") and not environ.get("WAYLAND_DISPLAY"):
        return ("stateside: there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY "
                "is set); `stateside --screenshot out.png` needs none.")
    if not uses_xcb(environ, platform):
        return None
    plugin = plugin or xcb_plugin(environ)
    if plugin is None:
        return None   # Qt says itself that it has no plugin; nothing of ours to add
    load, ldd = load or _load, ldd or not_found_by_ldd
    error = load(plugin)
    if error is None:
        return None
    missing = ldd(plugin) or re.findall(r"(lib[\w.+-]+\.so[\w.]*): cannot open", error)
    if not missing:
        return (f"stateside: Qt's X11 window-system plugin cannot load ({error}); on Debian or Ubuntu the "
                f"libraries it needs are listed in README.md under \"Set up\".")
    packages = list(dict.fromkeys(package_for(s) for s in missing))
    return (f"stateside: Qt's X11 window-system plugin cannot load: {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing. On Debian or Ubuntu install "
            f"{'it' if len(missing) == 1 else 'them'} with: sudo apt-get install {' '.join(packages)}")
