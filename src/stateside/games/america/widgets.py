"""America's Qt helpers around the game: the topics already played (remembered between
games, so that no card comes back before the box has gone round), and the decks a player
adds (Game > Add deck... / Remove deck...: checked card by card, copied into the config
folder, their cards joining the box of new games)."""
from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtGui import QAction

from stateside.app.main import config_dir
from stateside.board.plain import literal
from stateside.data.saves import move_aside, read_json_file, write_json_atomic
from stateside.errors import DataError, SaveError
from stateside.games.america import deck as decks
from stateside.games.america import rules
from stateside.games.america.rules import AmericaGame

HISTORY_FILE = "america-used-topics.json"


def history_path() -> Path:
    """Where the topics already played are remembered between games."""
    base = os.environ.get("STATESIDE_CONFIG_DIR") or QStandardPaths.writableLocation(
        QStandardPaths.AppDataLocation) or str(Path.home() / ".stateside")
    return Path(base) / HISTORY_FILE


MAX_TOPIC_ID = 64   # "family-trivia:1999B" and the like; longer is no topic of ours


def read_history(report: Callable[[str], None] | None = None) -> list[str]:
    """The topics already played, [] when there are none yet. A file that cannot be read
    (damaged, hostile, of another shape) is moved aside and `report` told why: every
    topic then counts as fresh, and the game starts all the same."""
    path = history_path()
    if not path.exists() and not path.is_symlink():
        return []
    try:
        data = read_json_file(path, "list of topics played")
        used = data.get("used") if isinstance(data, dict) else None
        if not isinstance(used, list) or not all(
                isinstance(t, str) and 0 < len(t) <= MAX_TOPIC_ID for t in used):
            raise SaveError(f"{path}: not a list of topics played (expected {{\"used\": [topic ids]}})")
    except SaveError as e:
        kept = move_aside(path)
        if report is not None:
            where = f" It is kept as {kept}." if kept else ""
            report(f"The America topics already played could not be read: {e}.{where} Every topic counts as fresh.")
        return []
    return used


def write_history(used: list[str]) -> None:
    try:
        write_json_atomic(history_path(), {"used": used}, "list of topics played")
    except (OSError, SaveError):
        pass        # the history only avoids repeats; a game never fails over it


# --- user decks ---------------------------------------------------------------------------

def decks_dir() -> Path:
    """Where added decks are kept (copies of the players' files), one file per deck."""
    return config_dir() / "decks"


def install_user_decks() -> list[str]:
    """Register every deck in decks_dir() with the deck module, so that new games and
    computer players look their cards up; a deck that no longer loads, or that would take
    the added cards past decks.MAX_USER_CARDS, is left out and its error returned."""
    found, errors, total = {}, [], 0
    folder = decks_dir()
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        try:
            cards = decks.load_user_deck(path, path.stem)
        except DataError as e:
            errors.append(str(e))
            continue
        if total + len(cards) > decks.MAX_USER_CARDS:
            errors.append(f"{path}: left out: the decks added may hold {decks.MAX_USER_CARDS} cards in all")
            continue
        found[path.stem] = cards
        total += len(cards)
    _register(found)
    return errors


def _register(found: dict) -> None:
    if found != decks.user_decks():
        decks.set_user_decks(found)
        # the rules and computer players cache the deck they look topics up in
        rules.bundled_deck.cache_clear()
        rules.bundled_topics.cache_clear()
        rules.bundled_box_plan.cache_clear()


def rules_on(cards: tuple) -> type[AmericaGame]:
    """AmericaGame bound to one deck: a game keeps the deck it began with when it is
    replayed (undo), even if a deck is added or removed meanwhile."""
    class OnDeck(AmericaGame):
        @classmethod
        def new(cls, setup: dict) -> AmericaGame:
            return cls(setup, deck=cards)
    return OnDeck


class DeckMenu:
    """The deck commands of the America mode's Game menu (mixed into the mode: a QWidget
    with a `status` signal and `game`)."""

    # --- user decks ---------------------------------------------------------------------
    def game_menu_actions(self) -> list:
        if not self._menu_actions:
            add = QAction("Add deck\u2026", self)
            add.setToolTip("Add your own America cards (a YAML file in the deck format)")
            add.triggered.connect(self.ask_add_deck)
            remove = QAction("Remove deck\u2026", self)
            remove.triggered.connect(self.ask_remove_deck)
            self._menu_actions = [add, remove]
        self._menu_actions[1].setEnabled(bool(decks.user_decks()))
        return list(self._menu_actions)

    def ask_add_deck(self) -> None:
        from PySide6.QtWidgets import QFileDialog, QMessageBox

        path, _ = QFileDialog.getOpenFileName(self, "Add an America deck", str(Path.home()),
                                              "America decks (*.yaml *.yml);;All files (*)")
        if not path:
            return
        try:
            self.add_deck(path)
        except DataError as e:
            QMessageBox.warning(self, "Cannot add this deck", literal(str(e)))   # the file's own words in it

    def add_deck(self, path) -> str:
        """Check a deck file and install a copy; new games draw its cards too. Raises
        DataError naming the file, card and field of the first problem (a file that is not
        a regular one, over decks.MAX_DECK_BYTES or decks.MAX_DECK_CARDS, is refused first)."""
        path = Path(path)
        name = decks.deck_name(path)
        cards = decks.load_user_deck(path, name)
        target = decks_dir() / f"{name}.yaml"
        if target.exists():
            raise DataError(f"{path}: a deck called '{name}' is already installed; remove it first "
                            f"(Game > Remove deck\u2026) or give the file another name")
        added = decks.user_decks()
        if sum(map(len, added.values())) + len(cards) > decks.MAX_USER_CARDS:
            raise DataError(f"{path}: its {len(cards)} cards would take the decks added past "
                            f"{decks.MAX_USER_CARDS} cards in all; remove a deck first (Game > Remove deck\u2026)")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)   # the copy is checked again at every start
        except (OSError, shutil.Error) as e:
            raise DataError(f"{path}: cannot be copied to {target} ({e.strerror or e})") from None
        _register({**added, name: cards})   # read once: not every deck again
        self.game_menu_actions()
        text = (f"Added the deck '{name}': {len(cards)} card{'s' if len(cards) != 1 else ''}. "
                f"New games draw from it and the bundled deck.")
        self.status.emit(text)
        return text

    def ask_remove_deck(self) -> None:
        from PySide6.QtWidgets import QInputDialog, QMessageBox

        names = sorted(decks.user_decks())
        if not names:
            QMessageBox.information(self, "Remove a deck", "No deck has been added.")
            return
        name, ok = QInputDialog.getItem(self, "Remove a deck", "Deck to remove:", names, 0, False)
        if ok and name:
            self.remove_deck(name)

    def remove_deck(self, name: str) -> str:
        target = decks_dir() / f"{name}.yaml"
        if name not in decks.user_decks() and not target.exists():
            raise DataError(f"no deck called '{name}' is installed")
        try:
            target.unlink(missing_ok=True)
        except OSError as e:
            raise DataError(f"{target}: cannot be removed ({e.strerror or e})") from None
        install_user_decks()
        self.game_menu_actions()
        text = f"Removed the deck '{name}'."
        if self.game is not None and any(decks.user_deck_of(t) == name for t in self.game.drawn):
            text += " This game plays on with its cards; once closed it opens only with the deck added again."
        self.status.emit(text)
        return text
