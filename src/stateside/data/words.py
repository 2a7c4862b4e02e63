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


def as_object(name: str) -> str:
    """A player's name where it is not the subject: the seat called You is "you"."""
    return "you" if name == YOU else name


def their(name: str) -> str:
    """"their" for a named player, "your" for the player called You ("delivers their own disk")."""
    return "your" if name == YOU else "their"


_SECOND_PERSON = {"has": "have", "goes": "go", "does": "do", "is": "are"}


def acts(name: str, third_person: str) -> str:
    """"Ann pays Bo" / "You pay Bo": the name and what it does, its first word the verb
    that agrees with the name."""
    if name not in (YOU, "you"):   # "you" where the name is not the sentence's start
        return f"{name} {third_person}"
    word, _, rest = third_person.partition(" ")
    return " ".join(filter(None, (name, _SECOND_PERSON.get(word, word[:-1]), rest)))
