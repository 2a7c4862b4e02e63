"""Carcassonne: lay land tiles, place followers, score roads, cities, cloisters and fields.
Played here on an open table with the base game and two expansions' tiles (114 tiles);
the engine also takes printed squares for the USA maps."""
from stateside.games import GameInfo

GAME = GameInfo(
    id="carcassonne",
    title="Carcassonne",
    summary="Build a landscape tile by tile and score roads, cities, cloisters and fields "
    "with your followers (base game with the Inns & Cathedrals and Traders & Builders tiles).",
    players="2-5 players",
    mode="stateside.games.carcassonne.mode:CarcassonneMode",
    rules="stateside.games.carcassonne.engine:Game",
    ai="stateside.games.carcassonne.ai:make_player",
    legacy_save="stateside.games.carcassonne.legacy:legacy_save",
    data_check="stateside.games.carcassonne.data_check:check_data",
    order=40,
)
