"""Carcassonne: lay land tiles, place followers, score roads, cities, cloisters and fields.
Played on an open table with the base game and two expansions' tiles (114 tiles), or on
the maps of Carcassonne Maps: USA West, USA East or both (covert tiles and map-chips)."""
from stateside.games import GameInfo

GAME = GameInfo(
    id="carcassonne",
    title="Carcassonne",
    summary="Build a landscape tile by tile and score roads, cities, cloisters and fields "
    "with your followers, on an open table or on the maps of the USA (West, East or both).",
    players="2-5 players",
    mode="stateside.games.carcassonne.mode:CarcassonneMode",
    rules="stateside.games.carcassonne.variants:Game",
    ai="stateside.games.carcassonne.ai:make_player",
    legacy_save="stateside.games.carcassonne.legacy:legacy_save",
    data_check="stateside.games.carcassonne.data_check:check_data",
    order=40,
    table_colour="#2f4f3a",   # the open table's felt (table.py)
)
