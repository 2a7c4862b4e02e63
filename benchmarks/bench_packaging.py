"""Packaging benchmark (figures, not tests): the binary's start-up against the same app
from source, and what the one-folder binary weighs.

    python benchmarks/bench_packaging.py [--runs N] [--build] [--cold]

Start-up is measured from process launch to the map's first paint (the app quits there
when STATESIDE_QUIT_AFTER_PAINT=1), offscreen, with a fresh config folder, --mode explorer,
for `dist/stateside/stateside` and for `python -m stateside` (the Python running this
script). The two alternate, so that load on the machine hits both alike; one run of each
first warms the file cache and is reported apart, so the medians are of warm-cache
starts of a new process. With --cold, every start is preceded by dropping the files each
side reads from the page cache (posix_fadvise on those files only, not the whole machine's
cache): the binary's folder; for source, Python's standard library and the installed
packages the app imports. System libraries both load (libc, X11, fontconfig) stay cached.
The target of issue 6: binary <= 1.5x source.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist" / "stateside"
BINARY = DIST / "stateside"
TARGET_RATIO = 1.5
SIZE_LIMIT_MB = 200


def time_process(args: list[str], env: dict) -> float:
    t0 = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def source_files() -> list[Path]:
    """The folders `python -m stateside` reads its code and data from."""
    folders = [Path(sysconfig.get_path("stdlib")), Path(sysconfig.get_path("platstdlib")),
               Path(sys.base_prefix) / "lib"]
    for package in ("stateside", "PySide6", "shiboken6", "shapely", "numpy", "yaml"):
        spec = importlib.util.find_spec(package)
        folders += [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
        libs = Path(spec.origin).parent.parent / f"{package}.libs" if spec and spec.origin else None
        if libs and libs.is_dir():
            folders.append(libs)
    from stateside.paths import resources_dir

    folders.append(resources_dir())
    return folders


def evict(folders: list[Path]) -> None:
    """Drop these files from the page cache, so that the next start reads them from disk."""
    for folder in folders:
        for path in folder.rglob("*") if folder.is_dir() else [folder]:
            if path.is_file() and not path.is_symlink():
                try:
                    fd = os.open(path, os.O_RDONLY)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                finally:
                    os.close(fd)


def bench_startup(runs: int, cold: bool = False) -> dict[str, list[float]]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", STATESIDE_QUIT_AFTER_PAINT="1",
               STATESIDE_CONFIG_DIR=tempfile.mkdtemp(prefix="stateside-bench-"))
    commands = {
        "binary": [str(BINARY), "--mode", "explorer"],
        "source": [sys.executable, "-m", "stateside", "--mode", "explorer"],
    }
    read = {"binary": [DIST], "source": source_files()}
    first = {name: time_process(cmd, env) for name, cmd in commands.items()}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for i in range(runs):
        order = list(commands) if i % 2 == 0 else list(reversed(commands))
        for name in order:
            if cold:
                evict(read[name])
            times[name].append(time_process(commands[name], env))
    return {"first": first, **times}


def folder_figures() -> tuple[float, int, list[tuple[float, str]]]:
    """Size in MB (10^6 bytes), file count, and the heaviest parts of _internal/."""
    files = [p for p in DIST.rglob("*") if p.is_file() and not p.is_symlink()]
    total = sum(p.stat().st_size for p in files) / 1e6
    internal = DIST / "_internal"
    parts: dict[str, float] = {}
    for p in files:
        if internal not in p.parents:
            key = f"{p.name} (the launcher, with the Python code archive)"
        else:
            rel = p.relative_to(internal)
            key = "/".join(rel.parts[:3 if rel.parts[0] == "PySide6" else 2][:len(rel.parts)])
        parts[key] = parts.get(key, 0.0) + p.stat().st_size / 1e6
    heaviest = sorted(((mb, name) for name, mb in parts.items()), reverse=True)[:10]
    return total, len(files), heaviest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="timed starts of each (default 9)")
    parser.add_argument("--build", action="store_true", help="run packaging/build.sh first")
    parser.add_argument("--cold", action="store_true",
                        help="drop each side's files from the page cache before every start")
    args = parser.parse_args()
    if args.build:
        subprocess.run(["bash", str(ROOT / "packaging" / "build.sh")], check=True)
    if not BINARY.exists():
        print("no dist/stateside/stateside: run packaging/build.sh (or pass --build)", file=sys.stderr)
        return 1

    total, count, heaviest = folder_figures()
    print(f"folder: dist/stateside/ {total:.1f} MB in {count} files (limit {SIZE_LIMIT_MB} MB)")
    for mb, name in heaviest:
        print(f"  {mb:6.1f} MB  {name}")

    t = bench_startup(args.runs, cold=args.cold)
    binary, source = statistics.median(t["binary"]), statistics.median(t["source"])
    cache = "cold: files dropped from the page cache before each start" if args.cold else "warm file cache"
    print(f"start-up to the first paint of the map, {args.runs} runs each, {cache} (median, min-max):")
    for name in ("binary", "source"):
        print(f"  {name:6}  {statistics.median(t[name]) * 1000:6.0f} ms  "
              f"({min(t[name]) * 1000:.0f}-{max(t[name]) * 1000:.0f} ms; first run "
              f"{t['first'][name] * 1000:.0f} ms)")
    ratio = binary / source
    print(f"  ratio binary/source: {ratio:.2f} (target <= {TARGET_RATIO})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
