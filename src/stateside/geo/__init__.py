"""Pure-Python geography: the atlas of the 50 states and the borders graph. Never imports Qt."""
