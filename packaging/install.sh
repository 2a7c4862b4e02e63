#!/usr/bin/env bash
# Install the built binary for the current user, in the XDG places a Linux desktop's
# menu looks at (no root needed):
#
#   packaging/install.sh               after packaging/build.sh
#   packaging/install.sh --uninstall
#
#   ~/.local/lib/stateside/                          the one-folder binary (dist/stateside/)
#   ~/.local/bin/stateside                           a link to it, for the terminal
#   ~/.local/share/applications/stateside.desktop    the menu entry
#   ~/.local/share/icons/hicolor/*/apps/stateside.*  the icons (PNG sizes and SVG)
#   ~/.local/share/mime/packages/stateside.xml       the saved-game file type (*.stateside.json)
#
# PREFIX (default ~/.local) and XDG_DATA_HOME (default $PREFIX/share) move these.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${PREFIX:-$HOME/.local}
data=${XDG_DATA_HOME:-$prefix/share}
app_dir=$prefix/lib/stateside
bin_link=$prefix/bin/stateside
desktop_file=$data/applications/stateside.desktop
icons=$data/icons/hicolor
mime=$data/mime
sizes=(16 32 48 64 128 256)

# Desktops watch these folders and pick the changes up. No icon cache is written: a cache
# in the user's hicolor folder would hide icons that other programs install there later.
refresh_menus() {
  if [ -d "$icons" ]; then touch "$icons"; fi   # a newer folder time makes GTK look again
  # The file type and which program opens it: the desktop's own tools, where it has them.
  if command -v update-mime-database >/dev/null && [ -d "$mime" ]; then update-mime-database "$mime" || true; fi
  if command -v update-desktop-database >/dev/null; then update-desktop-database "$data/applications" || true; fi
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$app_dir"
  [ -L "$bin_link" ] && rm -f "$bin_link"
  rm -f "$desktop_file" "$icons/scalable/apps/stateside.svg" "$mime/packages/stateside.xml"
  for n in "${sizes[@]}"; do rm -f "$icons/${n}x${n}/apps/stateside.png"; done
  refresh_menus
  echo "install.sh: Stateside removed from $prefix"
  exit 0
fi
if [ $# -gt 0 ]; then
  echo "usage: packaging/install.sh [--uninstall]" >&2
  exit 2
fi
if [ ! -x dist/stateside/stateside ]; then
  echo "install.sh: no dist/stateside/stateside; build it first with packaging/build.sh" >&2
  exit 1
fi

# The binary: replace any older copy whole, so no stale file stays behind.
mkdir -p "$prefix/lib" "$prefix/bin"
rm -rf "$app_dir.new"
cp -a dist/stateside "$app_dir.new"
rm -rf "$app_dir"
mv "$app_dir.new" "$app_dir"
ln -sfn "$app_dir/stateside" "$bin_link"

# The icons, from the copy bundled in the binary (the same files as resources/icons/).
bundled_icons=$app_dir/_internal/stateside/resources/icons
for n in "${sizes[@]}"; do
  install -D -m 644 "$bundled_icons/stateside-$n.png" "$icons/${n}x${n}/apps/stateside.png"
done
install -D -m 644 "$bundled_icons/stateside.svg" "$icons/scalable/apps/stateside.svg"

# The menu entry, pointing at the installed binary by its full path (~/.local/bin is not
# on every desktop session's PATH).
mkdir -p "$(dirname "$desktop_file")"
sed "s|^Exec=stateside|Exec=$app_dir/stateside|" packaging/stateside.desktop > "$desktop_file"
chmod 644 "$desktop_file"
install -D -m 644 packaging/stateside-mime.xml "$mime/packages/stateside.xml"
refresh_menus
echo "install.sh: installed in $app_dir; menu entry $desktop_file; run 'stateside' or pick Stateside in the Games menu"
