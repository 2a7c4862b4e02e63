"""The games. Each game is one subpackage whose __init__ defines ``GAME = GameInfo(...)``.

The package __init__ must stay light (no Qt, no heavy imports): the app and the CLI
import every game package to list them, and load a game's mode, self-play or CLI
module only when it is used. One game never imports another.
"""
from __future__ import annotations

# The registry lives below the games (stateside.registry) so that the engine can look a
# game up without importing this package; these names stay here for the games and the app.
from stateside.registry import GameInfo, discover_games, game_by_id, load_object

__all__ = ["GameInfo", "discover_games", "game_by_id", "load_object"]
