"""Carcassonne's data check for the app: every tile set loads (tiles.py checks each one
and names the file and tile of a problem)."""
from __future__ import annotations


def check_data() -> None:
    """Raises DataError naming the first broken tile-set file and tile."""
    from stateside.games.carcassonne.tiles import SET_NAMES, catalogue, load_tile_set

    for name in SET_NAMES:
        load_tile_set(name)
    catalogue()
