"""The one list of border rulesets: ruleset id -> the game it corrects the map for.
Kept apart from borders.py so the app can list them without loading the map."""

RULESETS = {"america": "America", "game-of-the-states": "Game of the States", "ten-days": "10 Days in the USA"}
