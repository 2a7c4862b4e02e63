"""Errors that carry a message meant for a person: the CLI and the app print them
as they are, without a traceback."""


class StatesideError(Exception):
    """Base of every error whose text is fit to show a player."""


class DataError(StatesideError):
    """A bundled or user-supplied data file is malformed; the text names file and entry."""


class SaveError(StatesideError):
    """A saved game cannot be read (corrupted, truncated, foreign or from another game)."""


class InvalidActionError(StatesideError, ValueError):
    """An action that is no action of the game at all (a malformed save entry or message:
    the wrong shape, an unknown card, a number out of range); action_from_json raises it.
    A ValueError too, so the callers that refuse any bad value still catch it."""


class IllegalActionError(StatesideError, ValueError):
    """An engine was asked to apply an action that is well formed but not legal now;
    apply_action raises it and changes nothing."""
