"""Pure-Python data layer: state facts, saved games. Never imports Qt."""
