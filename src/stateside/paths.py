"""Where the bundled data files live, whether run from a checkout, an installed
wheel or a PyInstaller binary."""
from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache
def resources_dir() -> Path:
    """The folder holding geo/, data/, rules/, decks/, tiles/ ..."""
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:  # PyInstaller one-folder build: data is collected under stateside/resources
        return Path(frozen) / "stateside" / "resources"
    import stateside.resources as pkg  # mapped from the top-level resources/ folder

    return Path(pkg.__file__).resolve().parent


def resource(*parts: str) -> Path:
    """Path of one bundled file, e.g. resource("geo", "states.geojson")."""
    return resources_dir().joinpath(*parts)
