"""Words about a player by name, right when the player is called "You" (the name a game
gives the one person at the screen): "your ten days", not "You's ten days"."""
from __future__ import annotations

YOU = "You"


def possessive(name: str, start: bool = False) -> str:
    """"Ann's", or "your" ("Your" at the start of a sentence) for the player called You."""
    if name == YOU:
        return "Your" if start else "your"
    return f"{name}'s"


def verb(name: str, third_person: str, second_person: str) -> str:
    """"Ann goes" / "You go": the verb that agrees with the name."""
    return second_person if name == YOU else third_person
