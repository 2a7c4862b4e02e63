"""Draw Stateside's app icon: the lower 48 as one silhouette with a star on it, on a navy
tile (the colours of the game chooser bar). Our own design, drawn from the app's map.

    python packaging/make_icons.py        # writes resources/icons/stateside.svg and
                                          # stateside-{16,32,48,64,128,256}.png

Run it again only when the design changes; the files it writes are committed. It needs
the app's own dependencies (shapely to merge the states, PySide6's QtSvg to render).
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import shapely
from shapely import affinity

ROOT = Path(__file__).resolve().parent.parent
GEOJSON = ROOT / "resources" / "geo" / "states.geojson"
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 32, 48, 64, 128, 256)

CANVAS = 256
TILE = "#1d3557"       # navy, as the chooser bar
LAND = "#f1faee"       # off-white, as the chooser's text
STAR = "#e63946"       # red, as the chosen game's button
MAP_WIDTH = 212        # the silhouette's width on the 256 canvas
STAR_AT = "KS"         # the star sits on Kansas, near the middle of the lower 48


def lower48_outline() -> tuple[shapely.Geometry, tuple[float, float]]:
    """The lower 48 merged into one shape, fitted to the canvas; and the star's centre."""
    data = json.loads(GEOJSON.read_text(encoding="utf-8"))
    shapes, star_at = [], None
    for feature in data["features"]:
        props = feature["properties"]
        if props.get("inset"):            # Alaska and Hawaii: too small to read on an icon
            continue
        geom = shapely.geometry.shape(feature["geometry"])
        shapes.append(geom)
        if props["code"] == STAR_AT:
            star_at = geom.centroid
    land = shapely.union_all(shapes).buffer(0.6).buffer(-0.6)   # close hairline seams
    # Drop islands and lakes too small to show at 256 px, then smooth the coast.
    land = shapely.simplify(land, 2.5)
    parts = [p for p in getattr(land, "geoms", [land]) if p.area > 300]
    land = shapely.MultiPolygon([shapely.Polygon(p.exterior, [i for i in p.interiors
                                                              if shapely.Polygon(i).area > 400])
                                 for p in parts])
    x0, y0, x1, y1 = land.bounds
    k = MAP_WIDTH / (x1 - x0)
    dx = (CANVAS - (x1 - x0) * k) / 2 - x0 * k
    dy = (CANVAS - (y1 - y0) * k) / 2 - y0 * k + 6    # a little low: the star reaches up
    land = affinity.translate(affinity.scale(land, k, k, origin=(0, 0)), dx, dy)
    return land, (star_at.x * k + dx, star_at.y * k + dy)


def path_data(geom: shapely.Geometry) -> str:
    def ring(coords) -> str:
        pts = [f"{x:.1f},{y:.1f}" for x, y in list(coords)[:-1]]
        return "M" + " L".join(pts) + " Z"

    out = []
    for poly in getattr(geom, "geoms", [geom]):
        out.append(ring(poly.exterior.coords))
        out.extend(ring(i.coords) for i in poly.interiors)
    return " ".join(out)


def star_points(cx: float, cy: float, outer: float) -> str:
    inner = outer * 0.42
    pts = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        pts.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(pts)


def svg() -> str:
    land, (sx, sy) = lower48_outline()
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{CANVAS}" height="{CANVAS}" viewBox="0 0 {CANVAS} {CANVAS}">
  <title>Stateside</title>
  <rect x="4" y="4" width="248" height="248" rx="44" fill="{TILE}"/>
  <path d="{path_data(land)}" fill="{LAND}" fill-rule="evenodd" stroke="{LAND}" stroke-width="3" stroke-linejoin="round"/>
  <polygon points="{star_points(sx, sy - 4, 50)}" fill="{STAR}" stroke="{TILE}" stroke-width="7" stroke-linejoin="round" paint-order="stroke"/>
</svg>
"""


def render_pngs(svg_file: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication(["make_icons", "-platform", "offscreen"])
    renderer = QSvgRenderer(str(svg_file))
    if not renderer.isValid():
        raise SystemExit(f"{svg_file}: Qt cannot read the SVG it just wrote")
    for size in SIZES:
        image = QImage(size, size, QImage.Format_ARGB32_Premultiplied)
        image.fill(Qt.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.Antialiasing)
        renderer.render(painter)
        painter.end()
        image.save(str(ICONS / f"stateside-{size}.png"), "PNG")
    del app


def main() -> int:
    ICONS.mkdir(parents=True, exist_ok=True)
    svg_file = ICONS / "stateside.svg"
    svg_file.write_text(svg(), encoding="utf-8")
    render_pngs(svg_file)
    print(f"wrote {svg_file} and {len(SIZES)} PNGs ({', '.join(map(str, SIZES))} px)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
