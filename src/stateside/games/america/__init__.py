"""America: a trivia game on the map. Each card asks a year, a state and a number about
one topic; players place markers on the year bar, the map and the number bar, and score
7 for the exact space and 3 for a space next to it."""
from stateside.games import GameInfo

GAME = GameInfo(
    id="america",
    title="America",
    summary="Trivia on the map: guess a year, a state and a number for each topic; "
    "7 points for the exact space, 3 for a neighbour.",
    players="2-6 players",
    mode="stateside.games.america.mode:AmericaMode",
    rules="stateside.games.america.rules:AmericaGame",
    ai="stateside.games.america.ai:make_player",
    legacy_save="stateside.games.america.legacy:legacy_save",
    data_check="stateside.games.america.bars:check_data",
    order=10,
)
