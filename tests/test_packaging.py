"""The desktop binary (issue 6): built with packaging/build.sh, run with no network.

The tests that build and run the binary are marked `packaging` and run only with
STATESIDE_PACKAGING=1 (.ci/run does that after the normal suite):

    STATESIDE_PACKAGING=1 .venv/bin/python -m pytest -m packaging -q

A build newer than every file in src/, resources/ and packaging/ is reused. The desktop
entry and icon checks at the end need no build and run in the normal suite.
"""
from __future__ import annotations

import configparser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist" / "stateside"
BINARY = DIST / "stateside"
ICONS = ROOT / "resources" / "icons"
ICON_SIZES = (16, 32, 48, 64, 128, 256)
SIZE_LIMIT_MB = 220   # 172 MB before online play; nats-server (19 MB) and TLS for nats-py (5 MB) came with it

needs_build = [
    pytest.mark.packaging,
    pytest.mark.skipif(os.environ.get("STATESIDE_PACKAGING") != "1",
                       reason="builds the binary: set STATESIDE_PACKAGING=1 (as .ci/run does)"),
]


def _report(request, line: str) -> None:
    """A figure worth seeing in CI's log, whatever pytest's verbosity."""
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        print(f"packaging: {line}")
        return
    with capture.global_and_fixture_disabled():   # past pytest's output capture
        reporter.write_line(f"\npackaging: {line}")


def _newest_input() -> float:
    newest = 0.0
    for folder in ("src", "resources", "packaging"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.name != "screenshot.png":
                newest = max(newest, path.stat().st_mtime)
    return newest


@pytest.fixture(scope="module")
def binary(request) -> Path:
    if BINARY.exists() and BINARY.stat().st_mtime > _newest_input():
        _report(request, f"reusing the fresh build in {DIST.relative_to(ROOT)}/")
        return BINARY
    env = dict(os.environ)
    if importlib.util.find_spec("PyInstaller") is not None:
        env["STATESIDE_BUILD_PYTHON"] = sys.executable   # build with the Python running the tests
    start = time.perf_counter()
    proc = subprocess.run(["bash", str(ROOT / "packaging" / "build.sh")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert proc.returncode == 0, f"packaging/build.sh failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    assert BINARY.is_file()
    _report(request, f"packaging/build.sh took {time.perf_counter() - start:.0f} s")
    return BINARY


@pytest.fixture(scope="module")
def offline(request) -> list[str]:
    """Command prefix that cuts the network: a network namespace with no interface up
    when we may make one (root with unshare), else nothing (proxies are removed below)."""
    if shutil.which("unshare") and os.geteuid() == 0 \
            and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0:
        _report(request, "binary run with no network: unshare -n (network namespace, no interfaces)")
        return ["unshare", "-n"]
    _report(request, "binary run with proxy variables removed (no network namespace available here)")
    return []


def run_binary(offline: list[str], *args: str, config_dir: Path, timeout: float = 120):
    """Run the binary as a person would in a terminal with no display and no network."""
    env = {k: v for k, v in os.environ.items()
           if k.lower() not in {"http_proxy", "https_proxy", "all_proxy", "ftp_proxy", "no_proxy"}
           and k not in {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "PYTHONPATH", "PYTHONHOME"}}
    env["STATESIDE_CONFIG_DIR"] = str(config_dir)
    return subprocess.run([*offline, str(BINARY), *args], env=env, cwd=config_dir,
                          capture_output=True, text=True, timeout=timeout)


def source_modules() -> set[str]:
    """Every module of the stateside package in this checkout, by its file."""
    src = ROOT / "src"
    names = set()
    for path in (src / "stateside").rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names.add(".".join(parts))
    return names - {"stateside.geo.build_atlas"}   # map-data tool, needs geopandas: left out


LIST_ARCHIVE = """
import sys
from PyInstaller.archive.readers import CArchiveReader
archive = CArchiveReader(sys.argv[1])
pyz = next(name for name in archive.toc if name.endswith(".pyz"))
print("\\n".join(archive.open_embedded_archive(pyz).toc))
"""


def bundled_modules() -> set[str]:
    """The Python modules in the binary's archive, read with PyInstaller's own reader (from
    the Python running the tests, or else the build venv that packaging/build.sh made)."""
    python = sys.executable
    if importlib.util.find_spec("PyInstaller") is None:
        python = str(ROOT / "build" / "venv" / "bin" / "python")
    proc = subprocess.run([python, "-c", LIST_ARCHIVE, str(BINARY)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


def mode_ids() -> list[str]:
    """The modes of the app in this checkout's src/ (what the spec bundles), whichever copy
    of stateside the tests import."""
    script = ("import sys; sys.path.insert(0, sys.argv[1]); from stateside.games import discover_games; "
              "print(' '.join(g.id for g in discover_games() if g.mode))")
    proc = subprocess.run([sys.executable, "-c", script, str(ROOT / "src")], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split() + ["explorer"]


def picture_stats(path: Path) -> tuple[int, int, int, float]:
    """(width, height, distinct colours, share of the commonest colour), on a 2-pixel grid."""
    from PySide6.QtGui import QImage

    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable picture"
    counts = Counter(image.pixel(x, y) for y in range(0, image.height(), 2)
                     for x in range(0, image.width(), 2))
    return image.width(), image.height(), len(counts), counts.most_common(1)[0][1] / sum(counts.values())


# ------------------------------------------------------------------ the binary


@pytest.mark.usefixtures("binary")
class TestBinary:
    pytestmark = needs_build

    def test_bundles_every_stateside_module(self):
        """The games are imported by name at run time: every module must be in the archive."""
        bundled = bundled_modules()
        missing = source_modules() - bundled
        assert not missing, f"modules missing from the binary (do they import?): {sorted(missing)}"
        assert "stateside.geo.build_atlas" not in bundled
        assert not {m for m in bundled if m.split(".")[0] in {"geopandas", "pandas", "pyogrio", "pyproj"}}

    def test_borders_offline(self, offline, tmp_path):
        proc = run_binary(offline, "borders", config_dir=tmp_path)
        assert proc.returncode == 0, proc.stderr
        lines = proc.stdout.splitlines()
        assert len(lines) == 105
        assert all(re.fullmatch(r"[A-Z]{2}-[A-Z]{2}", line) for line in lines)
        assert "AZ-CO" not in lines and "MI-WI" in lines and not any("AK" in line for line in lines)

    def test_borders_with_a_games_rules_offline(self, offline, tmp_path):
        proc = run_binary(offline, "borders", "--rules", "america", config_dir=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert "AK-HI" in proc.stdout.splitlines()

    def test_screenshot_offline_is_a_real_picture(self, offline, tmp_path, qapp, request):
        shot = tmp_path / "explorer.png"
        proc = run_binary(offline, "--screenshot", str(shot), "--mode", "explorer", "--size", "1280x800",
                          config_dir=tmp_path)
        assert proc.returncode == 0, proc.stderr
        width, height, colours, commonest = picture_stats(shot)
        _report(request, f"--screenshot: {width}x{height}, {colours} colours, "
                         f"commonest colour {commonest:.0%} of the picture")
        assert (width, height) == (1280, 800)
        assert colours >= 200          # a map of 50 filled states with labels, not a blank window
        assert commonest < 0.6

    def test_every_mode_opens_offline(self, offline, tmp_path, qapp, request):
        """Each game's mode is imported by name: open every one in the binary."""
        modes, failures = mode_ids(), []
        for mode in modes:
            shot = tmp_path / f"{mode}.png"
            proc = run_binary(offline, "--screenshot", str(shot), "--mode", mode, "--size", "1024x700",
                              config_dir=tmp_path)
            if proc.returncode != 0 or "Traceback" in proc.stderr:
                failures.append(f"--mode {mode}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
                continue
            width, height, colours, _ = picture_stats(shot)
            if (width, height) != (1024, 700) or colours < 100:
                failures.append(f"--mode {mode}: a {width}x{height} picture of {colours} colours")
        _report(request, f"--screenshot opened {len(modes) - len(failures)} of {len(modes)} modes: "
                         f"{', '.join(modes)}")
        assert not failures, "\n".join(failures)

    def test_the_binary_hosts_an_online_table_to_the_end(self, tmp_path, request):
        """`stateside server` from the binary: its bundled nats-server and referee (nats-py
        inside the binary) host a game of 10 Days that a client plays to the end. Loopback
        only, so no network namespace here (it would have no loopback either)."""
        pytest.importorskip("nats", reason="the test's own client needs nats-py")
        import asyncio
        import random
        import signal

        from stateside.online import client as C
        from stateside.online.server import free_port

        assert (DIST / "_internal" / "nats-server").is_file() or (DIST / "nats-server").is_file()
        assert {"nats.aio.client", "nats.js.client", "ssl"} <= bundled_modules()
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME", "DISPLAY"}}
        env["STATESIDE_CONFIG_DIR"] = str(tmp_path)
        proc = subprocess.Popen([str(BINARY), "server", "--port", str(port), "--data", str(tmp_path / "data")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            first = proc.stdout.readline()
            while first and "ready" not in first:
                first = proc.stdout.readline()
            assert "ready" in first, proc.stderr.read()[-2000:] if proc.poll() is not None else first
            guest = f"nats://guest:guest@127.0.0.1:{port}"

            async def go():
                host = await C.host_table(guest, "ten-days", ["human", "ai:easy"], ["Ada", "Computer"])
                creds = await C.join_table(guest, host["table"])
                seat = await C.SeatClient(guest, creds).connect()
                rng = random.Random(7)
                start = time.perf_counter()
                await seat.play(lambda c: c.legal[rng.randrange(len(c.legal))], timeout=120)
                match = seat.verify()
                await seat.close()
                return match, time.perf_counter() - start
            match, seconds = asyncio.run(go())
            assert match.is_over() and len(match.log) > 40
            _report(request, f"the binary's server hosted a whole game of 10 Days: {len(match.log)} actions "
                             f"in {seconds:.1f} s")
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0

    def test_folder_size(self, request):
        files = [p for p in DIST.rglob("*") if p.is_file() and not p.is_symlink()]
        total = sum(p.stat().st_size for p in files)
        mb = total / 1e6
        _report(request, f"dist/stateside/ is {mb:.1f} MB in {len(files)} files (limit {SIZE_LIMIT_MB} MB)")
        assert mb <= SIZE_LIMIT_MB

    def test_install_script_uses_xdg_places(self, tmp_path):
        prefix = tmp_path / ".local"
        env = {**os.environ, "HOME": str(tmp_path), "PREFIX": str(prefix)}
        env.pop("XDG_DATA_HOME", None)
        install = [str(ROOT / "packaging" / "install.sh")]
        proc = subprocess.run(install, env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        desktop = prefix / "share" / "applications" / "stateside.desktop"
        entry = configparser.ConfigParser(interpolation=None)
        entry.optionxform = str
        entry.read(desktop)
        exe = entry["Desktop Entry"]["Exec"]
        assert exe == str(prefix / "lib" / "stateside" / "stateside") + " %f"
        assert (prefix / "share" / "mime" / "packages" / "stateside.xml").is_file()
        for size in ICON_SIZES:
            assert (prefix / "share" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "stateside.png").is_file()
        assert (prefix / "share" / "icons" / "hicolor" / "scalable" / "apps" / "stateside.svg").is_file()
        run = subprocess.run([str(prefix / "bin" / "stateside"), "borders"], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 0 and len(run.stdout.splitlines()) == 105
        proc = subprocess.run([*install, "--uninstall"], env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert not desktop.exists() and not (prefix / "lib" / "stateside").exists()
        assert not (prefix / "bin" / "stateside").exists()
        assert not (prefix / "share" / "mime" / "packages" / "stateside.xml").exists()


# ------------------------------------------------------------------ desktop entry and icons (no build)


def test_desktop_entry_names_the_app_and_its_icon():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(ROOT / "packaging" / "stateside.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert section["Name"] == "Stateside"
    assert section["Exec"].split()[0] == "stateside"
    assert section["Icon"] == "stateside"
    assert {"Game", "BoardGame"} <= set(filter(None, section["Categories"].split(";")))
    # The window's class and Wayland app id must match, or the dock shows a second icon.
    from stateside.app.main import APP_NAME

    assert section["StartupWMClass"] == APP_NAME


def test_saved_games_open_from_the_desktop():
    """A double-click on a save opens it: the entry takes a file and names the save
    type, which packaging/stateside-mime.xml defines for *.stateside.json."""
    import xml.etree.ElementTree as ET

    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(ROOT / "packaging" / "stateside.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Exec"] == "stateside %f"
    assert section["MimeType"] == "application/x-stateside-save;"
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    mime = ET.parse(ROOT / "packaging" / "stateside-mime.xml").getroot().find("m:mime-type", ns)
    assert mime.get("type") == "application/x-stateside-save"
    assert mime.find("m:glob", ns).get("pattern") == "*.stateside.json"


def test_icons_are_there_at_every_size(qapp):
    from PySide6.QtGui import QImage

    for size in ICON_SIZES:
        image = QImage(str(ICONS / f"stateside-{size}.png"))
        assert (image.width(), image.height()) == (size, size), size
        assert image.hasAlphaChannel()
        # not blank: the tile, the land and the star
        colours = {image.pixel(x, y) for x in range(size) for y in range(size)}
        assert len(colours) >= 3
    svg = (ICONS / "stateside.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg") and 'viewBox="0 0 256 256"' in svg


def test_app_icon_loads_every_png_size(qapp):
    from stateside.app.main import app_icon

    sizes = {(s.width(), s.height()) for s in app_icon().availableSizes()}
    assert {(n, n) for n in ICON_SIZES} <= sizes
