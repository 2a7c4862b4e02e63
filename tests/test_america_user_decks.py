"""America's user decks (issue 14, point 7): a player's own YAML file in the deck format,
checked topic by topic, added from Game > Add deck..., mixed into the box of new games,
kept between runs and removable; saves that drew its cards need it installed."""
import json
import shutil

import pytest
from PySide6.QtCore import Qt

from stateside.engine.match import Match
from stateside.errors import DataError, SaveError
from stateside.games.america import deck as decks
from stateside.games.america import rules
from stateside.paths import resource

EXAMPLE = resource("decks", "america", "example-user-deck.yaml")


@pytest.fixture(autouse=True)
def _no_user_decks_left_behind():
    """The deck registry is process-wide: every test here leaves it empty."""
    yield
    decks.set_user_decks({})
    rules.bundled_deck.cache_clear()
    rules.bundled_topics.cache_clear()
    rules.bundled_box_plan.cache_clear()


def register(cards_by_name):
    decks.set_user_decks(cards_by_name)
    rules.bundled_deck.cache_clear()
    rules.bundled_topics.cache_clear()
    rules.bundled_box_plan.cache_clear()


def write_deck(tmp_path, text, name="family.yaml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def good_topic(title, theme="society", year=1962, state="IA", number=160):
    return f"""    - title: "{title}"
      theme: {theme}
      year: {{question: "In what year?", answer: {year}, background: "A line.", source: "A page"}}
      state: {{question: "In which state?", answer: {state}, background: "A line.", source: "A page"}}
      number: {{question: "How many?", answer: {number}, unit: "acres", background: "A line.", source: "A page"}}
"""


GOOD = "- card: 1\n  topics:\n" + good_topic("Grandma's farm") + good_topic("Uncle Bob's car", "transport") \
    + "- card: 2\n  topics:\n" + good_topic("The old school") + good_topic("The county fair", "sports")


# --- the loader (pure) --------------------------------------------------------------------

def test_the_example_deck_loads_and_is_not_part_of_the_bundled_deck():
    cards = decks.load_user_deck(EXAMPLE)
    assert [t.ref for t in cards[0].topics] == ["example-user-deck:1A", "example-user-deck:1B"]
    assert all(t.theme in decks.THEMES for card in cards for t in card.topics)
    bundled_titles = {t.title for card in decks.load_deck() for t in card.topics}
    assert not bundled_titles & {t.title for card in cards for t in card.topics}
    assert len(decks.load_deck()) == 160     # the bundled deck reads cards*.yaml only


def test_user_card_ids_are_prefixed_and_sort_after_the_bundled_numbers(tmp_path):
    cards = decks.load_user_deck(write_deck(tmp_path, GOOD, "My Family.yaml"))
    assert [c.number for c in cards] == ["my-family:1", "my-family:2"]
    assert cards[1].topics[0].ref == "my-family:2A" and rules.topic_id(cards[1].topics[1]) == "my-family:2B"
    mixed = sorted([cards[1].number, 160, cards[0].number, 3])
    assert mixed == [3, 160, "my-family:1", "my-family:2"]
    assert decks.user_deck_of("my-family:2A") == "my-family" and decks.user_deck_of("12A") is None


@pytest.mark.parametrize("old, new, field", [
    ("answer: 1962", "answer: nineteen", "card 1, topic 'Grandma's farm', year: answer must be a whole year"),
    ("answer: IA", "answer: DC", "card 1, topic 'Grandma's farm', state: answer must be the postal code"),
    ("answer: 160", "answer: -4", "card 1, topic 'Grandma's farm', number: answer must be a number"),
    ("theme: society", "theme: gossip", "card 1, topic 'Grandma's farm', theme: must be one of"),
    ('source: "A page"}', '}', "card 1, topic 'Grandma's farm', year: missing key 'source'"),
    ('unit: "acres", ', 'unit: "acres", colour: red, ',
     "card 1, topic 'Grandma's farm', number: unknown key 'colour'"),
    ("- card: 2", "- card: 1", "card 1: card number already used"),
    ('title: "The county fair"', 'title: "Grandma\'s Farm"', "title already used"),
])
def test_a_bad_user_deck_names_the_file_card_and_field(tmp_path, old, new, field):
    path = write_deck(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(DataError) as error:
        decks.load_user_deck(path)
    message = str(error.value)
    assert str(path) in message and field in message, message
    assert "line " in message


@pytest.mark.parametrize("text, words", [
    ("", "the deck is empty"),
    ("# only a comment\n", "the deck is empty"),
    ("[]\n", "the deck is empty"),
    ("card: 1\n", "expected a list of cards"),
    ("- card: 1\n  topics: [\n", "not valid YAML"),
])
def test_an_empty_or_shapeless_deck_is_refused(tmp_path, text, words):
    path = write_deck(tmp_path, text)
    with pytest.raises(DataError, match=words) as error:
        decks.load_user_deck(path)
    assert str(path) in str(error.value)


def test_a_deck_file_name_must_make_a_name(tmp_path):
    with pytest.raises(DataError, match="must start with a letter"):
        decks.load_user_deck(write_deck(tmp_path, GOOD, "2024.yaml"))


def test_a_game_draws_a_user_card_and_a_computer_knows_it(tmp_path):
    """With every bundled topic played before, the box shows the user deck's cards first
    (fewest sides played); a computer player looks the card up in the same deck."""
    cards = decks.load_user_deck(write_deck(tmp_path, GOOD))
    register({"family": cards})
    used = sorted(rules.topic_id(t) for card in decks.load_deck() if isinstance(card.number, int)
                  for t in card.topics)
    setup = {"players": ["Red", "Blue", "White"], "start_player": 0, "used_topics": used}
    match = Match("america", ["ai:hard", "ai:medium", "ai:easy"], 7, setup)
    match.play_out()
    game = match.state
    assert game.is_terminal()
    drawn_user = [t for t in game.drawn if decks.user_deck_of(t) == "family"]
    assert len(drawn_user) == 2 and set(game.chosen[:2]) <= set(drawn_user) | set(game.chosen)
    assert decks.user_deck_of(game.chosen[0]) == "family"
    # one side of each user card at most (a game draws cards, not topics)
    assert len({game.topics[t].card for t in drawn_user}) == 2
    player = match.players[0]
    assert "family:1A" in player.topics and player.beliefs("family:1A")["state"].probs
    # the history after this game still names the user topics played
    assert set(game.used_topics_after()) >= {t for t in game.chosen if t.startswith("family:")}
    # and the save replays
    again = Match.from_json(json.loads(json.dumps(match.to_json())))
    assert again.state.scores() == game.scores()


# --- the mode (Qt) ------------------------------------------------------------------------

@pytest.fixture
def mode(show_mode):
    from stateside.games.america.mode import AmericaMode

    m = show_mode(AmericaMode)
    m.ai_delay_ms = 0
    m.ask_yes_no = lambda title, text: True
    return m


def test_add_deck_from_the_game_menu_installs_a_copy(qtbot, mode, tmp_path):
    from stateside.games.america.mode import decks_dir

    add, remove = mode.game_menu_actions()
    assert add.text() == "Add deck\u2026" and remove.text() == "Remove deck\u2026"
    assert not remove.isEnabled()
    source = write_deck(tmp_path, GOOD)
    text = mode.add_deck(source)
    assert "Added the deck 'family': 2 cards" in text
    assert (decks_dir() / "family.yaml").read_text(encoding="utf-8") == GOOD
    assert set(decks.user_decks()) == {"family"} and remove.isEnabled()
    assert "family:2B" in rules.bundled_topics()
    source.unlink()                              # the copy is what counts from now on
    with pytest.raises(DataError, match="already installed"):
        mode.add_deck(write_deck(tmp_path, GOOD))


def test_the_shell_shows_the_deck_actions_in_the_game_menu(qtbot, tmp_path):
    from stateside.app.main import MainWindow

    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.open_mode("america")
    titles = [a.text() for a in window.game_menu.actions()]
    assert "Add deck\u2026" in titles and "Remove deck\u2026" in titles


def test_a_bad_deck_is_refused_with_its_file_card_and_field(qtbot, mode, tmp_path):
    from stateside.games.america.mode import decks_dir

    path = write_deck(tmp_path, GOOD.replace("answer: NY", "answer: NY").replace("answer: IA", "answer: Iowa", 1))
    with pytest.raises(DataError) as error:
        mode.add_deck(path)
    assert str(path) in str(error.value) and "card 1, topic 'Grandma's farm', state" in str(error.value)
    empty = write_deck(tmp_path, "", "empty.yaml")
    with pytest.raises(DataError, match="empty"):
        mode.add_deck(empty)
    assert not decks_dir().exists() or not list(decks_dir().iterdir())
    assert decks.user_decks() == {}


def test_an_added_deck_mixes_into_new_games_and_persists(qtbot, mode, tmp_path, show_mode):
    from stateside.games.america.mode import AmericaMode, write_history

    mode.add_deck(EXAMPLE)
    used = sorted(t for t in rules.bundled_topics() if decks.user_deck_of(t) is None)
    write_history(used)                          # every bundled topic played: the example comes first
    mode.start_game(["human", "human"], seed=11)
    offered = mode.game.offered
    assert any(decks.user_deck_of(t) == "example-user-deck" for t in offered)
    # a new run: the registry starts empty and the mode installs the deck from the config folder
    register({})
    again = show_mode(AmericaMode)
    assert set(decks.user_decks()) == {"example-user-deck"}
    assert "example-user-deck:1A" in again.game.topics


def test_a_save_with_user_cards_needs_the_deck(qtbot, mode, tmp_path):
    from stateside.games.america.mode import write_history

    mode.add_deck(EXAMPLE)
    write_history(sorted(t for t in rules.bundled_topics() if decks.user_deck_of(t) is None))
    mode.start_game(["human", "human"], seed=11)
    index = next(i for i, t in enumerate(mode.game.offered) if t.startswith("example-user-deck:"))
    mode.choose_buttons[index].clicked.emit()
    topic = mode.game.topic()
    qtbot.mouseClick(mode.bars, Qt.LeftButton, pos=mode.bars.cell_centre("year", "1900").toPoint())
    save = json.loads(json.dumps(mode.save_state()))
    mode.load_state(save)                        # while installed: it opens
    assert mode.game.topic().title == topic.title and mode.game.occupied() == {("year", "1900"): 1}
    text = mode.remove_deck("example-user-deck")
    assert "plays on" in text and decks.user_decks() == {}
    assert not mode.game_menu_actions()[1].isEnabled()
    mode.undo()                                  # the game in progress keeps its deck
    assert mode.game.topic().title == topic.title
    with pytest.raises(SaveError, match="deck 'example-user-deck', which is not installed") as error:
        mode.load_state(save)
    assert "Add deck" in str(error.value)
    assert mode.game.topic().title == topic.title    # the game on screen is untouched
    mode.add_deck(EXAMPLE)
    mode.load_state(save)
    assert mode.game.occupied() == {("year", "1900"): 1}


def test_a_broken_installed_deck_is_left_out_with_a_message(qtbot, tmp_path, show_mode):
    from stateside.games.america.mode import AmericaMode, decks_dir

    decks_dir().mkdir(parents=True)
    shutil.copyfile(EXAMPLE, decks_dir() / "good.yaml")
    (decks_dir() / "broken.yaml").write_text(GOOD.replace("answer: 1962", "answer: soon"), encoding="utf-8")
    m = show_mode(AmericaMode)
    assert set(decks.user_decks()) == {"good"}
    assert "broken.yaml" in m.last_status and "year" in m.last_status
    assert m.game is not None


def test_an_online_table_s_log_replays_on_the_bundled_deck_with_a_deck_added(qtbot, mode):
    """The referee plays the bundled deck only. A screen with a deck added read the table's
    final log with its own cards mixed in, and the game it showed did not check out."""
    from stateside.games.america.widgets import rules_on

    played = Match(rules_on(decks.load_deck(decks.default_folder())), ["ai:easy", "ai:easy"], 5,
                   {"players": ["Ann", "Bob"]})
    played.play_out()
    mode.add_deck(EXAMPLE)
    mode.install(mode.online_log_match(played.to_json()))   # what the table's end puts on the screen
    assert mode.match.actions == played.actions and mode.game.is_terminal()
    assert [r.points for r in mode.game.results] == [r.points for r in played.state.results]
    assert not any(decks.user_deck_of(t) for t in mode.game.topics)   # the referee's deck


# --- hostile deck files (issue 27, finding 12) --------------------------------------------

def many_cards(count):
    return "".join(f"- card: {n}\n  topics:\n" + good_topic(f"Topic {n} A") + good_topic(f"Topic {n} B", "transport")
                   for n in range(1, count + 1))


@pytest.mark.parametrize("digits, where", [(4000, "number"), (5000, "number"), (5000, "year"), (5000, "card")])
def test_an_answer_with_thousands_of_digits_is_refused_with_its_card_and_field(tmp_path, digits, where):
    huge = "7" * digits
    text = {"number": GOOD.replace("answer: 160", f"answer: {huge}", 1),
            "year": GOOD.replace("answer: 1962", f"answer: {huge}", 1),
            "card": GOOD.replace("- card: 1", f"- card: {huge}", 1)}[where]
    with pytest.raises(DataError) as error:
        decks.load_user_deck(write_deck(tmp_path, text))
    message = str(error.value)
    expected = {"number": "card 1, topic 'Grandma's farm', number: answer must be a number >= 0",
                "year": "card 1, topic 'Grandma's farm', year: answer must be a whole year",
                "card": "card ?: 'card' must be a whole number >= 1"}[where]
    assert expected in message and f"a number of {digits} digits" in message, message
    assert len(message) < 400


def test_a_number_answer_past_its_range_is_refused(tmp_path):
    with pytest.raises(DataError, match=r"number: answer must be a number >= 0 \(at most 1e\+15\)"):
        decks.load_user_deck(write_deck(tmp_path, GOOD.replace("answer: 160", "answer: 1e300", 1)))


def test_a_fifo_named_like_a_deck_is_refused_at_once(tmp_path):
    import os
    import threading

    fifo = tmp_path / "x.yaml"
    os.mkfifo(fifo)
    outcome = []

    def load():
        try:
            decks.load_user_deck(fifo)
        except DataError as e:
            outcome.append(str(e))

    worker = threading.Thread(target=load, daemon=True)
    worker.start()
    worker.join(30)   # a bound, not a wait: it returns at once when it does not block
    assert not worker.is_alive(), "reading a FIFO blocked"
    assert outcome and "not a deck file (not a regular file)" in outcome[0] and str(fifo) in outcome[0]


def test_a_deck_over_the_size_or_the_card_limit_is_refused(tmp_path, monkeypatch):
    big = write_deck(tmp_path, GOOD + "#" * (decks.MAX_DECK_BYTES + 1), "big.yaml")
    with pytest.raises(DataError, match=r"too large for a deck \(2.0 MB; at most 2 MB\)"):
        decks.load_user_deck(big)
    many = write_deck(tmp_path, many_cards(decks.MAX_DECK_CARDS + 1), "many.yaml")
    with pytest.raises(DataError, match=f"{decks.MAX_DECK_CARDS + 1} cards, more than a deck may hold "
                                        f"\\({decks.MAX_DECK_CARDS}\\)"):
        decks.load_user_deck(many)
    folder = tmp_path / "folder.yaml"
    folder.mkdir()
    with pytest.raises(DataError, match="is a folder"):
        decks.load_user_deck(folder)


def test_a_deck_at_the_card_limit_loads(tmp_path):
    cards = decks.load_user_deck(write_deck(tmp_path, many_cards(decks.MAX_DECK_CARDS), "full.yaml"))
    assert len(cards) == decks.MAX_DECK_CARDS


def test_decks_added_together_stay_under_their_card_limit(qtbot, mode, tmp_path, monkeypatch):
    monkeypatch.setattr(decks, "MAX_USER_CARDS", 3)
    mode.add_deck(write_deck(tmp_path, GOOD, "first.yaml"))
    with pytest.raises(DataError, match="would take the decks added past 3 cards in all"):
        mode.add_deck(write_deck(tmp_path, GOOD.replace("Grandma", "Granny").replace("Uncle", "Aunt")
                                 .replace("old school", "new school").replace("county", "state"), "second.yaml"))
    assert set(decks.user_decks()) == {"first"}


def test_add_deck_with_a_bad_file_shows_a_message(qtbot, mode, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append((title, text)))
    for text in (GOOD.replace("answer: 160", "answer: " + "9" * 5000, 1),
                 "- card: 1\n  topics: " + "[" * 3000 + "]" * 3000 + "\n",
                 "- card: 1\n  topics:\n  - title: x\n    when: 2024-13-45\n"):
        path = write_deck(tmp_path, text)
        monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args, p=path: (str(p), ""))
        mode.ask_add_deck()
        assert shown and shown[-1][0] == "Cannot add this deck" and str(path) in shown[-1][1], shown[-1:]
    assert len(shown) == 3 and decks.user_decks() == {}
