"""Game > Play online…'s host form offers each game's own computer levels and ways to play,
and hosts with the chosen one (no server needed: the session is stood in for)."""
import pytest

pytest.importorskip("nats", reason="online play needs nats-py (pip install '.[online]')")

from stateside.app.online import OnlineDialog, online_games, variant_title  # noqa: E402


class Window:   # what online_games reads of the main window
    def __init__(self):
        from stateside.games import discover_games
        self.games = discover_games()


class FakeSession:
    def __init__(self):
        self.hosted = None

    def host(self, game, kinds, names, options=None, seed=None, public=False):
        self.hosted = (game, kinds, names, options)
        self.public = public


def test_every_turn_based_game_is_offered_with_its_levels_and_variants(qtbot):
    games = {g[0]: g for g in online_games(Window())}
    assert {"america", "ten-days", "carcassonne", "game-of-the-states"} <= set(games)
    assert games["scrambled-states"][4] == ("beginner", "easy", "medium", "hard")   # real time too (issue 15)
    assert games["carcassonne"][4] == ("easy", "hard")
    assert games["game-of-the-states"][5] == ("buy-and-sell", "trivia", "junior")


def test_hosting_sends_the_chosen_way_to_play_and_levels(qtbot):
    games = [g for g in online_games(Window()) if g[0] in ("ten-days", "carcassonne")]
    dialog = OnlineDialog(games)
    qtbot.addWidget(dialog)
    dialog.game.setCurrentIndex([g[0] for g in games].index("carcassonne"))
    labels = [dialog.kinds[1].itemText(i) for i in range(dialog.kinds[1].count())]
    assert labels == ["You", "Another person", "Computer (easy)", "Computer (hard)"]
    assert [dialog.variant.itemText(i) for i in range(dialog.variant.count())] == \
        ["Table", "USA West", "USA East", "USA"]
    dialog.variant.setCurrentIndex(1)
    dialog.kinds[1].setCurrentIndex(3)
    fake = FakeSession()
    dialog._session = lambda: fake
    dialog._host()
    assert fake.hosted == ("carcassonne", ["you", "ai:hard"], ["You", "Computer 1"], {"variant": "usa-west"})
    # A game without variants hosts with no options, and its form hides the row.
    dialog.game.setCurrentIndex([g[0] for g in games].index("ten-days"))
    assert dialog.variant.count() == 0
    dialog._host()
    assert fake.hosted[0] == "ten-days" and fake.hosted[3] == {} and fake.public is False
    dialog.public.setChecked(True)   # listed in the lobby
    dialog._host()
    assert fake.public is True


def test_variant_titles():
    assert variant_title("buy-and-sell") == "Buy and Sell"
    assert variant_title("usa-east") == "USA East"
