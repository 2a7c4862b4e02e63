"""Foundation benchmarks (figures, not tests): start-up, border derivation, hit-testing, repaint.

    python benchmarks/bench_foundation.py [--runs N]

Start-up is a ratio to a bare PySide6 window showing a label, started in the same run,
both measured from process launch to the first paint with the event loop running.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

BARE = """
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication(sys.argv[:1])
label = QLabel("Stateside")
class W(QObject):
    def eventFilter(self, o, e):
        if e.type() == QEvent.Paint:
            QTimer.singleShot(0, app.quit)
        return False
w = W(); label.installEventFilter(w); label.resize(1280, 800); label.show()
app.exec()
"""


def time_process(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def bench_startup(runs: int) -> tuple[float, float, float]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_QUIT_AFTER_PAINT="1",
               STATESIDE_CONFIG_DIR=tempfile.mkdtemp())
    app_cmd = [sys.executable, "-m", "stateside", "--mode", "explorer"]
    bare_cmd = [sys.executable, "-c", BARE]
    time_process(app_cmd, env)   # warm the file cache for both
    time_process(bare_cmd, env)
    app, bare = [], []
    for _ in range(runs):   # alternate, so that machine load hits both alike
        bare.append(time_process(bare_cmd, env))
        app.append(time_process(app_cmd, env))
    a, b = statistics.median(app), statistics.median(bare)
    return a, b, a / b


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
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    app_s, bare_s, ratio = bench_startup(args.runs)
    print(f"start-up to painted map: {app_s * 1000:.0f} ms; bare PySide6 label: {bare_s * 1000:.0f} ms; "
          f"ratio {ratio:.2f} (target <= 1.5)")

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
