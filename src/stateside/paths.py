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


_cache_dir: Path | None = None


def use_cache_dir(folder: Path | None) -> None:
    """Where what is worked out from the bundled data may be kept from one run to the
    next (the app passes a folder of its settings; None, the default: nowhere)."""
    global _cache_dir
    _cache_dir = folder


def cache_file(name: str) -> Path | None:
    """A file in that folder, or None when nothing is kept."""
    return _cache_dir / name if _cache_dir is not None else None
