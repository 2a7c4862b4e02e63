"""Game of the States on the shared map: the Qt mode over a Match (pytest-qt, offscreen)."""
from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF

from stateside.engine.match import Match
from stateside.errors import SaveError
from stateside.games.game_of_the_states.mode import GameOfTheStatesMode
from stateside.games.game_of_the_states.rules import GameOfTheStates
from stateside.games.game_of_the_states.trivia import truth


@pytest.fixture
def mode(show_mode):
    m = show_mode(GameOfTheStatesMode)
    m.spinner.spin_ms = 0
    m.ai_delay_ms = 0
    return m


def buttons(mode):
    out = []
    lay = mode.buttons_layout
    for i in range(lay.count()):
        item = lay.itemAt(i)
        if item.widget() is not None:
            out.append(item.widget())
        elif item.layout() is not None:
            out += [item.layout().itemAt(j).widget() for j in range(item.layout().count())]
    return out


def until_my_move(mode, seat=0):
    """Spin for `seat`, let the computer play, answer other questions with the first
    legal action, until `seat` must move its truck."""
    for _ in range(500):
        g = mode.game
        if g.engine.phase == "move" and g.current_player() == seat:
            return
        actor = mode.next_actor()
        if mode._spin_seat() is not None and mode.match.is_human(actor):
            mode.spin()
        elif mode.match.waiting_for_human():
            assert mode.act(g.legal_actions(g.current_player())[0])
        else:
            mode.computer_turn(actor)
    raise AssertionError("never my move")


def test_default_game_is_buy_and_sell_against_the_computer(mode):
    g = mode.game
    assert g.variant == "buy-and-sell" and mode.match.seats == ["human", "ai:medium"]
    # the setup's cards are drawn at once: disks and trucks are on the map
    assert sum(len(mode.board.tokens_on(c)) for c in mode.board.codes()) == 8 + 2
    assert mode._spin_seat() == 0 and mode.spinner.ready and "Space" in mode.prompt.text()
    assert mode.space.isEnabled()


def test_the_space_key_spins(qtbot, mode):
    from PySide6.QtCore import Qt

    mode.board.setFocus()
    n = len(mode.match.log)
    qtbot.keyClick(mode.board, Qt.Key_Space)
    assert len(mode.match.log) == n + 1 and mode.match.log[-1].action.startswith("spin:")
    assert not mode.platform.isHidden() and mode.answer_row.isHidden()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_space_spins_and_a_click_moves_the_truck_along_a_drawn_route(qtbot, mode, seed):
    mode.start_game({"variant": "buy-and-sell", "seats": ["human", "ai:medium"], "names": ["R", "B"]}, seed=seed)
    mode.ai_delay_ms = 10_000
    until_my_move(mode)
    e = mode.game.engine
    assert e.phase == "move" and e.turn == 0
    ends = [a[5:] for a in mode.game.legal_actions(0)]
    start = e.truck[0]
    mode.on_state_hovered(ends[-1])
    if ends[-1] != start:
        assert mode.hover_route     # the route is drawn while hovering
    far = next(c for c in mode.board.codes() if c not in ends)
    mode.on_state_clicked(far)
    assert e.phase == "move" and not mode.notice.isHidden()     # refused, said why
    mode.on_state_clicked(ends[-1])
    assert mode.game.engine.truck[0] == ends[-1]
    if ends[-1] != start and mode.game.engine.last_move:
        assert mode.board._paths    # the last move's route stays drawn


def test_accept_or_spin_again_prompt_for_the_seller(qtbot, mode):
    match = Match(GameOfTheStates, ["ai:easy", "human"], 3, {"players": ["Ann", "Bo"], "variant": "buy-and-sell"})
    g = match.state
    for code in ["WA", "OR", "ID", "MT", "GA", "FL", "TX", "NM", "AZ", "CA"]:
        match.apply(f"card:{code}")
    match.apply("spin:9")
    match.apply("spin:0")          # Ann goes first
    match.apply("spin:0")          # Ann spins 1
    match.apply("move:FL")
    match.apply("product:oranges")
    match.apply("spin:4")          # $300
    mode.ai_delay_ms = 10_000
    mode.install(match)
    assert g.current_player() == 1
    texts = [b.text() for b in buttons(mode)]
    assert texts == ["Accept $300", "Spin again"]
    assert "second price must be taken" in mode.prompt.text()
    buttons(mode)[1].click()       # spin again: Ann (a computer) spins the second price
    assert mode.game.engine.spin_for == "price again"


def test_trivia_typed_answer_forgives_a_typo(qtbot, mode):
    match = Match(GameOfTheStates, ["ai:easy", "human"], 3,
                  {"players": ["Ann", "Bo"], "variant": "trivia", "answers": "typed"})
    match.apply("card:AL")
    match.apply("ask:capital")
    mode.ai_delay_ms = 10_000
    mode.install(match)
    assert not mode.answer_row.isHidden() and mode.spinner.isHidden()
    assert not mode.space.isEnabled()          # Space is typed into the answer, not a spin
    qtbot.keyClicks(mode.answer_edit, "St Paul")
    assert mode.answer_edit.text() == "St Paul"
    assert "Montgomery" not in mode.prompt.text()          # the answerer does not see the card
    mode.answer_edit.setText("montgomary")
    mode._typed_answer()
    assert mode.game.engine.won[1] == ["AL"]


def test_trivia_four_choices(qtbot, mode):
    match = Match(GameOfTheStates, ["ai:easy", "human"], 3,
                  {"players": ["Ann", "Bo"], "variant": "trivia", "answers": "choices"})
    match.apply("card:CA")
    match.apply("ask:capital")
    mode.ai_delay_ms = 10_000
    mode.install(match)
    choice = [b for b in buttons(mode) if b.text() == truth("CA", "capital")]
    assert len(buttons(mode)) == 4 and len(choice) == 1
    choice[0].click()
    assert mode.game.engine.won[1] == ["CA"]


def test_junior_and_trivia_start_from_new_game_settings(mode):
    mode.start_game({"variant": "junior", "seats": ["human", "ai:hard"], "names": ["A", "B"]}, seed=2)
    assert mode.game.variant == "junior" and mode.platform.isHidden()
    assert mode.game.engine.home[0] is not None and mode._spin_seat() == 0
    mode.start_game({"variant": "trivia", "seats": ["human", "human"], "names": ["A", "B"]}, seed=2)
    assert mode.game.variant == "trivia"
    # two people at one screen: the pass screen comes before the asker's card
    assert mode.pass_screen.isVisible() and mode.waiting_for == 0 and not buttons(mode)
    card = mode.game.engine.card
    assert truth(card, "capital") not in mode.prompt.text()
    mode.pass_screen.button.click()
    assert mode.viewer == 0 and truth(card, "capital") in mode.prompt.text()
    assert [b.text() for b in buttons(mode)][0].startswith("Ask the ")


def test_save_load_and_a_bad_save_leaves_the_game(mode):
    mode.spin()
    data = mode.save_state()
    assert data["game"] == "game-of-the-states" and data["setup"]["variant"] == "buy-and-sell"
    before = mode.save_state()
    with pytest.raises(SaveError):
        mode.load_state({**data, "actions": data["actions"] + ["move:ZZ"]})
    assert mode.save_state() == before
    other = GameOfTheStatesMode(mode.board)
    other.load_state(data)
    assert other.save_state() == data


def test_undo_takes_back_a_move_while_nothing_followed(qtbot, mode):
    mode.ai_delay_ms = 10_000
    until_my_move(mode)
    n = len(mode.match.log)
    assert not mode.can_undo()          # the last action was a spin
    ends = [a[5:] for a in mode.game.legal_actions(0)]
    mode.on_state_clicked(ends[0])
    if len(mode.match.log) == n + 1:
        assert mode.can_undo()
        mode.undo()
        assert len(mode.match.log) == n and mode.game.engine.phase == "move"


def test_help_names_our_parts_and_the_special_rule(mode):
    text = mode.help_html()
    for words in ("Special Rule #3", "sells back for no more than was paid", "our own", "Traffic Jam", "four choices", "Oranges",
                  "USDA NASS", "Moves: 0: 10%", "two $1,000, five $500 and five $100"):
        assert words in text, words


@pytest.mark.parametrize("size,grows", [((1024, 700), True), ((1920, 1080), False)])
def test_product_icons_stay_readable_at_the_minimum_window_size(qtbot, size, grows):
    """Issue 11, item 5: at 1024x700 the map is small and the icons' letters were too
    small to read; there they grow to 11 pixels a side (the tabs' icons, in their box,
    stay as they are), and on a big map they are drawn as they are."""
    from stateside.app.main import MainWindow
    from stateside.board.view import CALLOUT_STATES
    from stateside.games.game_of_the_states.widgets import ProductIcons

    window = MainWindow(persist=False)
    qtbot.addWidget(window)
    window.resize(*size)
    window.open_mode("game-of-the-states")
    window.show()
    qtbot.waitExposed(window)
    board = window.board
    scale = board.transform().m11()
    icons = [item for item in board.scene().items() if isinstance(item, ProductIcons)]
    assert len(icons) == 50
    on_map = {code: board.state_anchor(code) for code in board.codes() if code not in CALLOUT_STATES}
    growing = [item for item in icons if item.grow]
    assert len(growing) == len(on_map)
    for item in growing:
        code = next(c for c, at in on_map.items() if item.pos() == at - QPointF(0, 6))
        k = item.growth(scale)
        assert (k > 1.0) == grows, code
        if grows:
            assert item.SIZE * k * scale >= 10.5, code   # pixels a side
        assert item.mapRectToScene(item.boundingRect()).bottom() < on_map[code].y(), code   # above the label
