"""The README's desktop libraries and the one-line message when Qt's X11 plugin cannot load
(issue 26, item 1)."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stateside.app import desktop_libs
from stateside.app.desktop_libs import BASE_LIBRARIES, DEBIAN_PACKAGES, missing_window_libraries, package_for

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_apt_packages() -> tuple[int, set[str]]:
    """Where the README's `sudo apt-get install` block starts, and the packages it names."""
    m = re.search(r"```sh\nsudo apt-get install ((?:[^`])*?)\n```", README)
    assert m, "README.md has no ```sh block with `sudo apt-get install ...`"
    return m.start(), set(m.group(1).replace("\\", " ").split())


def test_the_libraries_come_before_the_two_commands():
    start, _ = readme_apt_packages()
    assert start < README.index("pip install . && .venv/bin/stateside") < README.index("<!-- test-command")


def test_every_package_of_the_readme_is_one_the_plugin_needs():
    _, packages = readme_apt_packages()
    assert packages == set(DEBIAN_PACKAGES.values())


def ldd_lines(library: Path) -> list[tuple[str, str]]:
    out = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=60).stdout
    pairs = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>":
            pairs.append((parts[0], parts[2]))   # path, or "not" (found)
        elif parts and parts[0].startswith("/"):
            pairs.append((Path(parts[0]).name, parts[0]))   # the dynamic loader itself
        elif parts:
            pairs.append((parts[0], ""))   # linux-vdso: the kernel's
    return pairs


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the X11 plugin is Linux's")
@pytest.mark.skipif(shutil.which("ldd") is None, reason="no ldd on this machine to read the plugin's libraries")
@pytest.mark.skipif(not Path("/etc/debian_version").exists(),
                    reason="the README's list is of Debian's packages: read against a Debian or Ubuntu system")
def test_the_readme_names_every_library_the_real_plugin_links_that_a_bare_debian_lacks():
    plugin = desktop_libs.xcb_plugin()
    if plugin is None:
        pytest.skip("this PySide6 has no xcb platform plugin")
    wheel = plugin.parents[3]   # .../PySide6/Qt: the libraries the wheel carries
    _, packages = readme_apt_packages()
    pairs = ldd_lines(plugin)
    assert any(name.startswith("libxcb") for name, _ in pairs), "ldd listed nothing like the xcb plugin's libraries"
    needed = {name for name, where in pairs
              if not where.startswith(str(wheel)) and name not in BASE_LIBRARIES}
    unknown = sorted(needed - set(DEBIAN_PACKAGES))
    assert not unknown, (f"the xcb plugin links {unknown}, which desktop_libs.DEBIAN_PACKAGES does not map to "
                         "a Debian package: add them there and to README.md's apt-get line")
    absent = sorted({DEBIAN_PACKAGES[n] for n in needed} - packages)
    assert not absent, f"README.md's apt-get line leaves out {absent}"
    # What the wheel carries is never asked of the system (Qt's own libraries).
    assert any(where.startswith(str(wheel)) for _, where in pairs)
    assert not any(n.startswith("libQt6") for n in needed)


def test_debian_naming_rule_for_a_library_not_in_the_table():
    assert package_for("libxcb-foo.so.7") == "libxcb-foo7"
    assert package_for("libfoo2.so.3") == "libfoo2-3"
    assert package_for("libxcb-icccm.so.4") == "libxcb-icccm4"   # the table agrees with the rule
    for soname, package in DEBIAN_PACKAGES.items():
        assert package.startswith("lib") and soname.startswith("lib"), soname


X11 = {"DISPLAY": ":1"}


def refuse(missing: str):
    return lambda path: f"{missing}: cannot open shared object file: No such file or directory"


def test_a_missing_library_is_named_with_its_apt_command(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"")
    line = missing_window_libraries(X11, "linux", plugin, load=refuse("libxcb-foo.so.7"), ldd=lambda p: [])
    assert line == ("stateside: Qt's X11 window-system plugin cannot load: libxcb-foo.so.7 is missing. "
                    "On Debian or Ubuntu install it with: sudo apt-get install libxcb-foo7")
    assert "\n" not in line


def test_ldd_lists_every_missing_library_not_only_the_loaders_first(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    line = missing_window_libraries(X11, "linux", plugin, load=refuse("libxcb-icccm.so.4"),
                                    ldd=lambda p: ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    assert line.endswith("are missing. On Debian or Ubuntu install them with: "
                         "sudo apt-get install libxcb-icccm4 libxcb-keysyms1")


def test_nothing_said_when_the_plugin_loads_or_is_not_used(tmp_path):
    plugin = tmp_path / "libqxcb.so"
    fails = refuse("libxcb-foo.so.7")
    assert missing_window_libraries(X11, "linux", plugin, load=lambda p: None, ldd=lambda p: []) is None
    for env, platform in (({"DISPLAY": ":1", "QT_QPA_PLATFORM": "offscreen"}, "linux"),
                          ({"DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-0"}, "linux"),   # Qt takes Wayland
                          ({"DISPLAY": ":1"}, "darwin"), ({"QT_QPA_PLATFORM": "offscreen"}, "linux")):
        assert missing_window_libraries(env, platform, plugin, load=fails, ldd=lambda p: []) is None, env
    forced = {"DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-0", "QT_QPA_PLATFORM": "xcb"}
    assert "libxcb-foo.so.7" in missing_window_libraries(forced, "linux", plugin, load=fails, ldd=lambda p: [])


def test_no_display_at_all_is_said_in_one_line():
    line = missing_window_libraries({}, "linux", None, load=None, ldd=None)
    assert line.startswith("stateside: there is no display") and "--screenshot" in line


def test_the_stateside_command_says_it_and_stops_before_qt_aborts(tmp_path):
    """The real start-up path (run_app) with a loader that cannot find a library: one line
    on stderr, exit code 1, and no QApplication (which would abort on a real desktop)."""
    script = (
        "import sys; from stateside.app import desktop_libs\n"
        "desktop_libs._load = lambda p: 'libxcb-foo.so.7: cannot open shared object file'\n"
        "desktop_libs.not_found_by_ldd = lambda p: ['libxcb-foo.so.7']\n"
        "from stateside.__main__ import main\n"
        "code = main([])\n"
        "from PySide6.QtWidgets import QApplication\n"
        "print('app' if QApplication.instance() else 'no app')\n"
        "sys.exit(code)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=":99", PYTHONPATH=str(ROOT / "src"), STATESIDE_CONFIG_DIR=str(tmp_path))
    plugin = desktop_libs.xcb_plugin()
    if plugin is None:
        pytest.skip("this PySide6 has no xcb platform plugin")
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert done.stdout.strip() == "no app"
    assert done.stderr.strip() == ("stateside: Qt's X11 window-system plugin cannot load: libxcb-foo.so.7 is "
                                   "missing. On Debian or Ubuntu install it with: sudo apt-get install libxcb-foo7")


def test_the_plugin_is_looked_for_in_qt_plugin_path_first(tmp_path):
    (tmp_path / "platforms").mkdir()
    (tmp_path / "platforms" / "libqxcb.so").write_bytes(b"")
    assert desktop_libs.xcb_plugin({"QT_PLUGIN_PATH": f"/nowhere{os.pathsep}{tmp_path}"}) == \
        tmp_path / "platforms" / "libqxcb.so"
    real = desktop_libs.xcb_plugin({})
    assert real is None or real.name == "libqxcb.so"
