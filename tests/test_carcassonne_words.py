"""The move log in a player's words (issue 25): tiles by what is on them, squares by the
nearest town or the start tile, turns as a person says them, and grammar for every chip
colour and for the seat called "You"."""
from __future__ import annotations

import pytest

from stateside.games.carcassonne.engine import Game, ScoreEvent, Setup, draw
from stateside.games.carcassonne.maps import COLOURS, load_maps
from stateside.games.carcassonne.tiles import tile_by_id
from stateside.games.carcassonne.usa import ChipDraw, Reveal
from stateside.games.carcassonne.words import (
    article,
    map_place,
    squares_away,
    table_place,
    tile_words,
    verb,
)

# The base game's 24 tiles as the rulebook's tile list lettered them (A to X), by their
# features: written from that list, not from our tile files.
BASE = {"A": "a cloister-and-road tile", "B": "a cloister tile", "C": "a city tile with a pennant",
        "D": "a city-and-road tile", "E": "a city tile", "F": "a city tile with a pennant", "G": "a city tile",
        "H": "a two-city tile", "I": "a two-city tile", "J": "a city-and-road tile", "K": "a city-and-road tile",
        "L": "a city-and-crossroads tile", "M": "a city tile with a pennant", "N": "a city tile",
        "O": "a city-and-road tile with a pennant", "P": "a city-and-road tile",
        "Q": "a city tile with a pennant", "R": "a city tile", "S": "a city-and-road tile with a pennant",
        "T": "a city-and-road tile", "U": "a road tile", "V": "a road tile", "W": "a crossroads tile",
        "X": "a crossroads tile"}


@pytest.mark.parametrize("letter", sorted(BASE))
def test_a_base_tile_is_named_by_its_features(letter):
    assert tile_words(tile_by_id()[f"B-{letter}"]) == BASE[letter]


def test_no_tile_is_named_by_its_id():
    for tile in tile_by_id().values():
        words = tile_words(tile)
        assert tile.id not in words and words.startswith(("a ", "an ")) and " tile" in words


def test_squares_are_told_by_direction_and_distance():
    # y grows southwards, as on the screen
    assert table_place((1, 0), (0, 0)) == "just east of the start tile"
    assert table_place((0, -2), (0, 0)) == "two squares north of the start tile"
    assert table_place((-3, 3), (0, 0)) == "three squares south-west of the start tile"
    assert table_place((2, -1), (0, 0)) == "two squares east and one north of the start tile"
    assert squares_away(-1, 4) == "four squares south and one west"


def test_a_map_square_is_told_by_its_nearest_town():
    board = load_maps()["usa-east"]
    for town in board.towns.values():
        assert map_place(board, town.square) == f"on {town.name}"
        below = (town.square[0], town.square[1] + 1)
        if board.town_near(below) is town:
            assert map_place(board, below) == f"south of {town.name}"


def test_grammar_for_every_chip_colour_and_for_you():
    assert [article(c) for c in COLOURS] == ["a violet", "an orange", "a light blue"]
    g = Game.new({"players": ["You", "Ann"], "variant": "usa-west"})
    for chip in ("violet-1", "orange-2", "light blue-1"):
        colour, points = chip.rsplit("-", 1)
        said = g.action_to_string(ChipDraw(chip))
        assert said == f"You took {article(colour)} chip worth {points} point{'s' * (points != '1')}"
    assert verb(["You"], "wins", "win") == "win" and verb(["Ann"], "wins", "win") == "wins"
    assert verb(["Ann", "Bo"], "holds", "hold") == "hold"
    e = ScoreEvent(text="", kind="goods", seats=(0,), points=10, bonus="cloth")
    assert e.describe(["You", "Ann"]).startswith("You hold the most cloth")
    assert e.describe(["Ann", "You"]).startswith("Ann holds the most cloth")


def test_a_look_by_the_seat_called_you_reads_you():
    g = Game.new({"players": ["You", "Ann"], "variant": "usa-east"})
    pos = min(g.covert)
    g.step, g.revealing = "reveal", (pos, "look")      # as after a chip: You look at this tile
    assert g.action_to_string(Reveal("B-E")) == "the face-down tile was shown to you only"
    assert g.describe(Reveal("B-E"), 0).endswith(" was shown to you only: a city tile")
    assert g.describe(Reveal("B-E"), 1) == g.describe(Reveal("B-K"), 1) == "the face-down tile was shown to you only"


def test_the_table_log_reads_as_a_player_would_say_it():
    g = Game.new(Setup(players=["Ada", "Bo"], sets=["base"]).to_json())
    assert g.action_to_string(draw("B-D")) == "Ada drew a city-and-road tile"
    g.apply_action(draw("B-D"))
    city = [i for i, s in enumerate(g.tiles[g.drawn].segments) if s.kind == "city"]
    x, y, rot, seg = next(a for a in g.legal_actions() if a[2] == 2 and a[3] in city and max(map(abs, a[:2])) == 1)
    said = g.action_to_string((x, y, rot, seg))
    assert g.fits(g.tiles[g.drawn], (x, y))
    assert said.startswith("Ada laid a city-and-road tile just ") and said.endswith(
        "of the start tile, turned round, and placed a knight in the city")      # two quarter turns
