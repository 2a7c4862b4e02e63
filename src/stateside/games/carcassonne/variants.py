"""The rules the registry names for Carcassonne: the open table's Game, with every map's
rules loaded so that Game.new plays a setup's variant by the class that variant registered
(the base game in engine.py knows no map; each map's module registers itself there)."""
from . import usa  # noqa: F401  (registers the USA maps' rules)
from .engine import Game

__all__ = ["Game"]
