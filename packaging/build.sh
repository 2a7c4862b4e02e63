#!/usr/bin/env bash
# Build the one-folder desktop binary: dist/stateside/stateside (Linux).
#
#   packaging/build.sh
#
# Needs only Python 3.11+ and PyPI. The Python used to build:
#   - $STATESIDE_BUILD_PYTHON if set (an interpreter that has '.[package]' installed);
#   - else the project's .venv when it already has PyInstaller and the app's dependencies
#     (CI installs '.[test,package]' there);
#   - else a build venv of its own, build/venv, made here with `pip install '.[package]'`
#     from ${PYTHON:-python3}.
# The code and data always come from this checkout (src/ and resources/), whichever
# copy of stateside that Python has installed.
set -euo pipefail
cd "$(dirname "$0")/.."

has_build_deps() {
  "$1" -c 'import sys, PyInstaller, PySide6.QtWidgets, shapely, yaml; sys.exit(sys.version_info < (3, 11))' \
    >/dev/null 2>&1
}

if [ -n "${STATESIDE_BUILD_PYTHON:-}" ]; then
  py=$STATESIDE_BUILD_PYTHON
  has_build_deps "$py" || { echo "build.sh: $py lacks PyInstaller or the app's dependencies" >&2; exit 1; }
elif [ -x .venv/bin/python ] && has_build_deps .venv/bin/python; then
  py=.venv/bin/python
else
  py=build/venv/bin/python
  if ! has_build_deps "$py"; then
    base=${PYTHON:-python3}
    "$base" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
      { echo "build.sh: $base is older than Python 3.11" >&2; exit 1; }
    echo "build.sh: making the build venv build/venv (pip install '.[package]')"
    "$base" -m venv build/venv
    build/venv/bin/python -m pip install -q --upgrade pip
    build/venv/bin/python -m pip install -q '.[package]'
  fi
fi
echo "build.sh: building with $py ($("$py" -m PyInstaller --version 2>/dev/null | sed 's/^/PyInstaller /'))"

start=$(date +%s)
"$py" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/stateside.spec

# A binary that cannot read its own map is not a build.
pairs=$(dist/stateside/stateside borders | wc -l)
if [ "$pairs" -ne 105 ]; then
  echo "build.sh: dist/stateside/stateside borders printed $pairs pairs, expected 105" >&2
  exit 1
fi
echo "build.sh: dist/stateside/ built in $(( $(date +%s) - start )) s," \
  "$(du -sm dist/stateside | cut -f1) MB; run dist/stateside/stateside," \
  "install with packaging/install.sh"
