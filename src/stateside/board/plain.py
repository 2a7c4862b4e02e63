"""Text from a save, a deck or the network, shown as exactly that text.

Qt guesses whether a text is HTML wherever a format is not set: a QLabel (its default
Qt.AutoText), a tooltip, a message box. A player called `<img src="/dev/zero">` would
make Qt read that file as an image until memory runs out. So every text that did not
come from our own code is shown through one of these:

- `plain_label()` for a label that shows such a text (or set Qt.PlainText on it);
- `html.escape` for such a text placed inside our own rich text;
- `literal()` for a tooltip or a message box (places that guess the format);
- `button_text()` for a button's or a menu entry's text, where "&" marks a shortcut.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from stateside.board.qt_lazy import Qt  # the map's first paint must not wait for Qt's namespace


def plain_label(text: str = "", parent: QWidget | None = None) -> QLabel:
    """A QLabel that shows its text as plain text, whatever it looks like."""
    label = QLabel(parent)
    label.setTextFormat(Qt.PlainText)
    label.setText(text)
    return label


def literal(text: str) -> str:
    """`text` as a tooltip or a message box shows it unchanged: as it is when Qt would not
    take it for HTML, else as HTML that reads as the text."""
    if "<" not in text and "&lt;" not in text:   # Qt takes nothing else for HTML; asked for nothing
        return text
    from PySide6.QtGui import Qt as text_functions  # Qt's namespace with its text functions

    if not text_functions.mightBeRichText(text):
        return text
    return text_functions.convertFromPlainText(text, Qt.WhiteSpaceNormal)


def button_text(text: str) -> str:
    """`text` for a button, a check box or a menu entry: an "&" is shown, not a shortcut."""
    return text.replace("&", "&&")
