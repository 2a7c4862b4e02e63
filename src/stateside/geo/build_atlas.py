"""Regenerate resources/geo/states.geojson from the Census cartographic boundary file.

    npm pack us-atlas@3.0.1 && tar xzf us-atlas-3.0.1.tgz
    python -m stateside.geo.build_atlas package/states-10m.json resources/geo/states.geojson

Needs the `data` extra (geopandas, pyogrio, pyproj); the app never imports this module.

What it does, and why:
- reads the TopoJSON with GDAL, keeps the 50 states (drops DC and the territories);
- repairs the geometry (the source has a collapsed ring at Delaware and a spike in
  Oregon) with shapely.make_valid(structure, keep_collapsed=False), never simplifying
  states one by one (shared edges would stop matching and borders would vanish);
- projects the lower 48 to the Albers equal-area conic of the contiguous US
  (EPSG:5070), Alaska to Alaska Albers (EPSG:3338) at 35% and Hawaii to Hawaii Albers
  (ESRI:102007), and sets them as insets below the Southwest, as printed boards do;
- writes board coordinates (x to the right, y downwards, the lower 48 about 1000 units
  wide), rounded to 1/1000 unit, so the app needs no projection library. Rounding is per
  vertex, so vertices two states share stay identical and borders are kept.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

STATE_CODES = {  # FIPS -> postal code, the 50 states
    "01": "AL", "02": "AK", "04": "AZ", "05": "AR", "06": "CA", "08": "CO", "09": "CT",
    "10": "DE", "12": "FL", "13": "GA", "15": "HI", "16": "ID", "17": "IL", "18": "IN",
    "19": "IA", "20": "KS", "21": "KY", "22": "LA", "23": "ME", "24": "MD", "25": "MA",
    "26": "MI", "27": "MN", "28": "MS", "29": "MO", "30": "MT", "31": "NE", "32": "NV",
    "33": "NH", "34": "NJ", "35": "NM", "36": "NY", "37": "NC", "38": "ND", "39": "OH",
    "40": "OK", "41": "OR", "42": "PA", "44": "RI", "45": "SC", "46": "SD", "47": "TN",
    "48": "TX", "49": "UT", "50": "VT", "51": "VA", "53": "WA", "54": "WV", "55": "WI",
    "56": "WY",
}
BOARD_WIDTH = 1000.0     # width of the lower 48 in board units
ALASKA_SCALE = 0.35      # Alaska shrunk, as on printed boards
HAWAII_SCALE = 1.0


PALETTE_SIZE = 5


def map_colours(geoms: dict) -> dict[str, int]:
    """A palette index per state, different for states that share a border line
    (greedy, most neighbours first). Stored in the file so the board needs no
    geometry library to draw itself."""
    from shapely import STRtree

    fips = sorted(geoms)
    shapes = [geoms[f] for f in fips]
    neighbours: dict[str, set[str]] = {f: set() for f in fips}
    left, right = STRtree(shapes).query(shapes, predicate="intersects")
    for i, j in zip(left.tolist(), right.tolist()):
        if i < j and shapes[i].boundary.intersection(shapes[j].boundary).length > 0:
            neighbours[fips[i]].add(fips[j])
            neighbours[fips[j]].add(fips[i])
    colour: dict[str, int] = {}
    for f in sorted(fips, key=lambda f: (-len(neighbours[f]), STATE_CODES[f])):
        used = {colour[n] for n in neighbours[f] if n in colour}
        colour[f] = next(i for i in range(PALETTE_SIZE) if i not in used)
    return colour


def build(src: Path, dst: Path) -> None:
    import geopandas as gpd
    import shapely
    from shapely import affinity
    from shapely.ops import polylabel

    gdf = gpd.read_file(src, layer="states")
    if "id" not in gdf.columns:
        raise SystemExit(f"{src}: no 'id' (FIPS) column in layer 'states'")
    gdf = gdf[gdf["id"].isin(STATE_CODES)].copy()
    if len(gdf) != 50:
        raise SystemExit(f"{src}: expected 50 states, found {len(gdf)}")
    gdf = gdf.set_crs(4326, allow_override=True)
    gdf["geometry"] = [
        shapely.make_valid(g, method="structure", keep_collapsed=False) for g in gdf.geometry
    ]

    lower = gdf[~gdf["id"].isin(["02", "15"])].to_crs(5070)
    alaska = gdf[gdf["id"] == "02"].to_crs(3338)
    hawaii = gdf[gdf["id"] == "15"].to_crs("ESRI:102007")

    minx, miny, maxx, maxy = lower.total_bounds
    k = BOARD_WIDTH / (maxx - minx)

    def to_board(geom, scale, dx, dy):
        # metres -> board units, y flipped so that north is up on screen
        g = affinity.scale(geom, xfact=k * scale, yfact=-k * scale, origin=(0, 0))
        return affinity.translate(g, dx, dy)

    def place(frame, scale, left, bottom):
        x0, y0, x1, y1 = frame.total_bounds
        return [
            to_board(g, scale, left - x0 * k * scale, bottom + y0 * k * scale)
            for g in frame.geometry
        ]

    board_height = (maxy - miny) * k
    geoms = {}
    for fips, g in zip(lower["id"], place(lower, 1.0, 0.0, board_height)):
        geoms[fips] = g
    # Insets: Alaska below California/Arizona, Hawaii to its right, as on printed boards.
    geoms["02"] = place(alaska, ALASKA_SCALE, 0.0, board_height + 10)[0]
    ak_right = geoms["02"].bounds[2]
    geoms["15"] = place(hawaii, HAWAII_SCALE, ak_right + 25, board_height + 5)[0]

    colours = map_colours(geoms)
    features = []
    for fips, name in sorted(zip(gdf["id"], gdf["name"]), key=lambda t: STATE_CODES[t[0]]):
        g = shapely.set_precision(geoms[fips], 0.001)
        # Label point: the pole of inaccessibility of the largest part, so that the
        # label (and tokens) sit well inside the state; computed here to keep start-up fast.
        largest = max(getattr(g, "geoms", [g]), key=lambda part: part.area)
        label = polylabel(largest, tolerance=0.05)
        features.append({
            "type": "Feature",
            "properties": {
                "code": STATE_CODES[fips], "name": name, "fips": fips,
                "inset": fips in ("02", "15"),
                "label": [round(label.x, 2), round(label.y, 2)],
                "colour": colours[fips],
            },
            "geometry": json.loads(shapely.to_geojson(shapely.normalize(g))),
        })
    out = {
        "type": "FeatureCollection",
        "name": "states",
        "stateside": {
            "coordinates": "board units: x right, y down; lower 48 in EPSG:5070, "
            "Alaska in EPSG:3338 at 35%, Hawaii in ESRI:102007, as insets",
            "source": "US Census Bureau cartographic boundary file (1:10,000,000), "
            "via the npm package us-atlas@3.0.1 states-10m.json",
            "built_by": "python -m stateside.geo.build_atlas",
        },
        "features": features,
    }
    dst.write_text(json.dumps(out, separators=(",", ":")) + "\n")
    print(f"wrote {dst}: {len(features)} states")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    build(Path(sys.argv[1]), Path(sys.argv[2]))
