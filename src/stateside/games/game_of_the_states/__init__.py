"""Game of the States: three ways to play with one board, 50 state cards and a spinner:
Buy and Sell (trucks buy product disks and deliver them across the map), Trivia (ask
each other the facts on the state cards) and Junior (drive to four states and home)."""
from stateside.games import GameInfo

GAME = GameInfo(
    id="game-of-the-states",
    title="Game of the States",
    summary="Buy and Sell: drive your truck across the map, buy your rivals' products at the spinner's "
            "price and deliver them for a profit. Also Trivia on the state cards and a Junior version.",
    players="2-4 players",
    mode="stateside.games.game_of_the_states.mode:GameOfTheStatesMode",
    rules="stateside.games.game_of_the_states.rules:GameOfTheStates",
    ai="stateside.games.game_of_the_states.ai:make_player",
    data_check="stateside.games.game_of_the_states.parts:check_data",
    order=20,
)
