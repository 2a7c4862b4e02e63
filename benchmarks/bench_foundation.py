"""Foundation benchmarks (figures, not tests): start-up, border derivation, hit-testing, repaint.

    python benchmarks/bench_foundation.py [--runs N] [--modes]

Start-up is a ratio to a bare PySide6 window showing a label, started in the same run.
Each process quits one turn of its event loop after its first paint (the app: of the
map), and two figures are taken of each run:
- launch to exit, the process's wall time, as issue 11 measured it (so the app's exit is
  in it too: it ends at once, see run_app's quick_exit; the bare window tears down);
- launch to painted: from just before the launch to the moment, one turn after its
  first paint, that the process writes the time (`painted <epoch seconds>`) to stdout.
The per-mode section (`--modes`: each game opened first, its map painted before its
mode is built) and its figures before and after that change are in FOUNDATION.md.
It is measured with the install this Python has (an editable one in a checkout) and
with a regular install (the package copied into a fresh virtual environment that
reuses this one's dependencies, as `pip install .` would lay it out).
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BARE = """
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv[:1])
label = QLabel("Stateside")
def painted():
    print("painted", time.time(), flush=True)
    app.quit()
class W(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Paint:
            QTimer.singleShot(0, painted)
        return False
w = W(); label.installEventFilter(w); label.resize(1280, 800); label.show()
app.exec()
"""


CPU: list[float] = []   # CPU seconds (user + system) of each timed process, in order
PAINTED: list[float] = []   # seconds from launch to the process's "painted" line, in order


def time_process(args: list[str], env: dict, painted: bool = True) -> float:
    """Wall time of one run; its CPU time goes to CPU (steadier on a busy machine), and
    (with `painted`) the time to its first paint to PAINTED."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    launched = time.time()   # the clock the child writes
    t0 = time.perf_counter()
    out = subprocess.run(args, env=env, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True).stdout
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if not painted:
        return wall
    stamp = next((line.split()[1] for line in out.splitlines() if line.startswith("painted ")), None)
    if stamp is None:
        raise SystemExit(f"{' '.join(args[:3])}: wrote no 'painted' line")
    PAINTED.append(float(stamp) - launched)
    return wall


def install_kind() -> str:
    import stateside

    editable = not any(part == "site-packages" for part in os.path.abspath(stateside.__file__).split(os.sep))
    return "editable install" if editable else "regular install"


def regular_install() -> str:
    """A Python that has stateside as a regular install: a new venv whose site-packages
    holds a copy of the package (compiled, as pip does) and a .pth to this venv's
    dependencies. Copying is cheap; a real `pip install .` would need a newer setuptools."""
    import compileall
    import site
    import sysconfig

    import stateside

    root = tempfile.mkdtemp(prefix="stateside-regular-")
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", root],
                   check=True)
    python = os.path.join(root, "bin", "python")
    target = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                            check=True, capture_output=True, text=True).stdout.strip()
    package = os.path.dirname(stateside.__file__)
    from stateside.paths import resources_dir

    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(package, os.path.join(target, "stateside"), ignore=skip)
    resources = os.path.join(target, "stateside", "resources")   # pyproject maps it from resources/
    if not os.path.isdir(resources):
        shutil.copytree(resources_dir(), resources, ignore=skip)
    compileall.compile_dir(os.path.join(target, "stateside"), quiet=1)
    ours = sysconfig.get_path("purelib")
    with open(os.path.join(target, "deps.pth"), "w") as f:   # PySide6 and the rest, not the editable finder
        f.write("\n".join(p for p in {ours, *site.getsitepackages()} if "site-packages" in p) + "\n")
    return python


def startup_env() -> dict:
    # Bytecode caches as a person's Python keeps them (pip writes them at install; a
    # checkout's at the first start), in a folder of their own: with PYTHONDONTWRITEBYTECODE
    # set (as in some sandboxes) every start would compile the app's modules again,
    # about 60 ms that no installed copy pays. The warm-up runs write them.
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_QUIT_AFTER_PAINT="1",
               STATESIDE_CONFIG_DIR=tempfile.mkdtemp(), PYTHONPYCACHEPREFIX=tempfile.mkdtemp())
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def bench_startup(runs: int, python: str = sys.executable) -> tuple[float, float, float]:
    """Medians of launch to exit (app, bare, ratio); prints the CPU and launch-to-painted
    figures."""
    env = startup_env()
    app_cmd = [python, "-m", "stateside", "--mode", "explorer"]
    bare_cmd = [python, "-c", BARE]
    time_process(app_cmd, env)   # warm the file cache for both
    time_process(bare_cmd, env)
    app, bare, app_cpu, bare_cpu, app_paint, bare_paint = [], [], [], [], [], []
    for _ in range(runs):   # alternate, so that machine load hits both alike
        bare.append(time_process(bare_cmd, env))
        bare_cpu.append(CPU[-1])
        bare_paint.append(PAINTED[-1])
        app.append(time_process(app_cmd, env))
        app_cpu.append(CPU[-1])
        app_paint.append(PAINTED[-1])
    a, b = statistics.median(app), statistics.median(bare)
    ca, cb = statistics.median(app_cpu), statistics.median(bare_cpu)
    pa, pb = statistics.median(app_paint), statistics.median(bare_paint)
    print(f"  (CPU time: app {ca * 1000:.0f} ms, bare {cb * 1000:.0f} ms, ratio {ca / cb:.2f}; "
          f"launch to painted: app {pa * 1000:.0f} ms, bare {pb * 1000:.0f} ms, ratio {pa / pb:.2f})")
    return a, b, a / b


def bench_modes(runs: int, maps_only: bool = False) -> None:
    """Each mode opened first (a person's last game is the one the app opens), as a ratio
    to the bare label started in the same round (the median of the rounds' ratios):
    - map: launch to painted, the map (Carcassonne: its table's colour) that the window
      paints before it builds the mode (MainWindow.open_mode_painting_first);
    - whole: launch to the mode's own paint once it is built, panels and all
      (STATESIDE_QUIT_AFTER_PAINT=panels);
    - `--screenshot`: launch to exit (it builds the whole window and writes a PNG).
    `maps_only`: only the map runs (quicker). CPU time (user + system) is paired likewise:
    steadier than wall time on a shared machine."""
    from stateside.app.main import EXPLORER
    from stateside.games import discover_games

    env = startup_env()
    whole_env = dict(env, STATESIDE_QUIT_AFTER_PAINT="panels")
    shot_env = {k: v for k, v in env.items() if k != "STATESIDE_QUIT_AFTER_PAINT"}
    shot = os.path.join(tempfile.mkdtemp(), "shot.png")
    bare_cmd = [sys.executable, "-c", BARE]
    runs_of: dict[str, tuple[list[str], dict, bool]] = {}   # name -> (command, environment, painted line)
    for game in (EXPLORER, *discover_games()):
        cmd = [sys.executable, "-m", "stateside", "--mode", game.id]
        runs_of[f"{game.id} map"] = (cmd, env, True)
        if not maps_only:
            runs_of[f"{game.id} whole"] = (cmd, whole_env, True)
    if not maps_only:
        runs_of["--screenshot"] = ([sys.executable, "-m", "stateside", "--screenshot", shot], shot_env, False)
    time_process(bare_cmd, env)   # warm-up: caches and bytecode
    for cmd, e, painted in runs_of.values():
        time_process(cmd, e, painted=painted)
    times: dict[str, list[float]] = {name: [] for name in ["bare label", *runs_of]}
    ratios: dict[str, list[float]] = {name: [] for name in runs_of}
    cpu_ratios: dict[str, list[float]] = {name: [] for name in runs_of}
    for _ in range(runs):   # a round: the bare label, then each mode, each paired with it
        for name, (cmd, e, painted) in runs_of.items():
            time_process(bare_cmd, env)
            bare, bare_cpu = PAINTED[-1], CPU[-1]
            times["bare label"].append(bare)
            wall = time_process(cmd, e, painted=painted)
            t = PAINTED[-1] if painted else wall
            times[name].append(t)
            ratios[name].append(t / bare)
            cpu_ratios[name].append(CPU[-1] / bare_cpu)
    print(f"opening each mode first: launch to painted (--screenshot: to exit), ms min/median, and the "
          f"median of {runs} ratios to the bare label run just before")
    bare = times["bare label"]
    print(f"  {'bare label':24s} {min(bare) * 1000:5.0f} {statistics.median(bare) * 1000:5.0f}")
    explorer = statistics.median(ratios[f"{EXPLORER.id} map"])
    for name in runs_of:
        ratio = statistics.median(ratios[name])
        print(f"  {name:24s} {min(times[name]) * 1000:5.0f} {statistics.median(times[name]) * 1000:5.0f}"
              f"  ratio {ratio:.2f} (min {min(ratios[name]):.2f}; {ratio / explorer:.2f} of the explorer's map)"
              f"  CPU ratio {statistics.median(cpu_ratios[name]):.2f}")


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--modes", action="store_true", help="only the per-mode section (opening each mode first)")
    parser.add_argument("--maps-only", action="store_true", help="in the per-mode section, only the maps' first paint")
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    if args.modes:
        bench_modes(args.runs, args.maps_only)
        return

    app_s, bare_s, ratio = bench_startup(args.runs)
    print(f"start-up to painted map ({install_kind()}): {app_s * 1000:.0f} ms; bare PySide6 label: "
          f"{bare_s * 1000:.0f} ms; ratio {ratio:.2f} (target <= 1.5; median of {args.runs} paired runs)")
    python = regular_install()
    try:
        app_s, bare_s, ratio = bench_startup(args.runs, python)
    finally:
        shutil.rmtree(os.path.dirname(os.path.dirname(python)), ignore_errors=True)
    print(f"start-up to painted map (regular install): {app_s * 1000:.0f} ms; bare PySide6 label: "
          f"{bare_s * 1000:.0f} ms; ratio {ratio:.2f}")
    bench_modes(args.runs)

    from stateside.geo.atlas import load_atlas
    from stateside.geo.borders import derive_pairs

    atlas = load_atlas()
    print(f"border derivation: {median_ms(lambda: derive_pairs(atlas), 15):.1f} ms median (target <= 30 ms)")

    from PySide6.QtCore import QPointF
    from PySide6.QtWidgets import QApplication

    from stateside.board.view import BoardView

    app = QApplication.instance() or QApplication([])
    board = BoardView()
    board.resize(1920, 1080)
    board.show()
    app.processEvents()
    rng = random.Random(1)
    rect = board.map_rect()
    points = [QPointF(rng.uniform(rect.left(), rect.right()), rng.uniform(rect.top(), rect.bottom()))
              for _ in range(2000)]
    t0 = time.perf_counter()
    for p in points:
        board.state_at(p)
    per = (time.perf_counter() - t0) * 1000 / len(points)
    print(f"state lookup at a point: {per:.3f} ms per lookup (target <= 0.2 ms)")

    viewport = board.viewport()
    repaint = median_ms(viewport.repaint, 30)
    print(f"full repaint at 1920x1080 offscreen: {repaint:.2f} ms median (target <= 8 ms)")
    board.close()

    # Click response: a click on a state in the Map explorer until the window has repainted
    # with the state, its neighbours and its facts shown.
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from stateside.app.main import MainWindow

    window = MainWindow(persist=False)
    window.resize(1280, 800)
    window.open_mode("explorer")
    window.show()
    app.processEvents()
    explorer = window.current
    codes = ["TX", "CA", "RI", "MO", "ME", "AK", "CO", "TN"]

    def click(code):
        QTest.mouseClick(window.board.viewport(), Qt.LeftButton, pos=window.board.state_view_point(code).toPoint())
        window.repaint()
        assert explorer.selected == code

    click("KS")   # first click derives the borders once (about 15 ms)
    times = []
    for i in range(40):
        code = codes[i % len(codes)]
        t0 = time.perf_counter()
        click(code)
        times.append((time.perf_counter() - t0) * 1000)
    print(f"click response (explorer, click to repainted window): {statistics.median(times):.1f} ms median")
    window.close()


if __name__ == "__main__":
    main()
