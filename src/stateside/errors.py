"""Errors that carry a message meant for a person: the CLI and the app print them
as they are, without a traceback."""


class StatesideError(Exception):
    """Base of every error whose text is fit to show a player."""


class DataError(StatesideError):
    """A bundled or user-supplied data file is malformed; the text names file and entry."""


class SaveError(StatesideError):
    """A saved game cannot be read (corrupted, truncated, foreign or from another game)."""


class IllegalActionError(StatesideError):
    """An engine was asked to apply an action that is not legal now."""
