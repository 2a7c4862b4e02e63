"""Carcassonne's data check for the app: every tile set, the USA maps and the map-chips
load (their loaders check each one and name the file and entry of a problem)."""
from __future__ import annotations


def check_data() -> None:
    """Raises DataError naming the first broken tile-set file and tile."""
    from stateside.games.carcassonne.maps import load_chips, load_maps
    from stateside.games.carcassonne.tiles import SET_NAMES, catalogue, load_tile_set

    for name in SET_NAMES:
        load_tile_set(name)
    catalogue()
    load_maps()
    load_chips()
