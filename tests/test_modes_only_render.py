"""A mode renders what it is given and turns input into actions: no Qt module writes a
game's fields or calls its private methods (issue 21; the online world is dealt by
engine.following, not rebuilt by hand). Read from the source with ast, so every Qt module
of the app and of every game is checked, including ones written after this test."""
from __future__ import annotations

import ast
from pathlib import Path

import stateside

SRC = Path(stateside.__file__).parent
# Names the house gives a game's state in the modes (a local bound from one of the
# expressions below is tracked too).
GAME_NAMES = {"g", "game", "state", "world", "before", "after"}
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "add",
            "discard", "setdefault", "sort", "reverse"}


def qt_modules() -> list[Path]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "PySide6" in text or "qt_lazy" in text or "stateside.app" in text or "stateside.board" in text:
            found.append(path)
    return found


def _chain(node) -> tuple[ast.AST, list[str]]:
    """The root of an attribute/subscript chain and the attribute names along it."""
    names = []
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
        node = node.func if isinstance(node, ast.Call) else node.value
    return node, names[::-1]


def _is_game_expr(node, games: set[str]) -> bool:
    """Whether `node` (a value, not a field of it) is a game's state."""
    root, names = _chain(node)
    if not isinstance(root, ast.Name):
        return False
    if root.id == "self":
        return names in (["game"], ["match", "state"]) or (
            bool(names) and names[-1] in ("state_before", "state_after", "clone", "_before"))
    return (root.id in games and not names) or (bool(names) and names[-1] in ("clone", "consistent_with"))


def _field_of_game(target, games: set[str]) -> bool:
    """Whether `target` (a write or a call's function) is a field of a game, at any depth."""
    node = target
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Attribute) and _is_game_expr(node.value, games):
            return True
        node = node.value
    return False


def findings(source: str, where: str = "<source>") -> list[str]:
    found = []
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            continue
        games = set(GAME_NAMES)
        for node in ast.walk(func):   # locals bound from a game's state (g2 = self.game.clone())
            if isinstance(node, ast.Assign) and _is_game_expr(node.value, games):
                games |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(func):
            targets = []
            if isinstance(node, ast.Assign):
                targets = [e for t in node.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])]
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = node.targets
            for t in targets:
                if isinstance(t, (ast.Attribute, ast.Subscript)) and _field_of_game(t, games):
                    found.append(f"{where}:{node.lineno}: writes {ast.unparse(t)}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                name = node.func.attr
                private = name.startswith("_") and not name.startswith("__")
                if private and _is_game_expr(node.func.value, games):
                    found.append(f"{where}:{node.lineno}: calls {ast.unparse(node.func)}")
                elif name in MUTATORS and _field_of_game(node.func.value, games):
                    found.append(f"{where}:{node.lineno}: changes {ast.unparse(node.func.value)}")
    return sorted(set(found))


def test_the_scan_finds_what_it_looks_for():
    """The scan itself: each way of writing a game's fields is found, reading is not."""
    source = '''
class Mode:
    def one(self):
        g = self.game
        g.deck = []
        g.journeys[0][3] = "VA"
        self.game.held = None
        self.match.state.turns += 1
        g._draw("VA")
        g.piles[0].append("VA")
        copy = self.game.clone()
        copy.current = 2
        del self.state_before(3).covert[(0, 0)]
        x, self.game.phase = 1, "place"
    def fine(self):
        g = self.game
        self.highlight = g.deck
        self.rows = [g.piles[0], g.held]
        self.cache[g.current] = 1
        self.match.apply(g.legal_actions()[0])
        self._draw("VA")
        names = list(g.names); names.append("x")
'''
    found = findings(source)
    assert len(found) == 9, found
    for text in ("g.deck", "g.journeys[0][3]", "self.game.held", "self.match.state.turns", "g._draw",
                 "g.piles[0]", "copy.current", "self.state_before(3).covert[0, 0]", "self.game.phase"):
        assert any(text in f for f in found), (text, found)


def test_no_qt_module_writes_or_calls_a_games_fields():
    modules = qt_modules()
    assert len(modules) >= 20 and any(p.name == "mode.py" for p in modules)
    assert {p.parent.name for p in modules if p.name == "mode.py"} >= {
        "america", "carcassonne", "game_of_the_states", "scrambled_states", "ten_days"}
    found = [f for p in modules for f in findings(p.read_text(encoding="utf-8"), str(p.relative_to(SRC)))]
    assert not found, "\n".join(found)
