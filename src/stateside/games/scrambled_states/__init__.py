"""Scrambled States of America 2: a real-time race to slap the face-up state that
matches the center card in the feature the die shows."""
from stateside.games import GameInfo

GAME = GameInfo(
    id="scrambled-states",
    title="Scrambled States",
    summary="Race to slap the face-up state that matches the center card on region, land mass, "
            "population or colour. First to 10 cards wins.",
    players="1 person against 1-5 computers, or 2 people sharing the keyboard",
    mode="stateside.games.scrambled_states.mode:ScrambledStatesMode",
    rules="stateside.games.scrambled_states.rules:ScrambledStates",
    ai="stateside.games.scrambled_states.ai:make_player",
    legacy_save="stateside.games.scrambled_states.legacy:legacy_save",
    data_check="stateside.games.scrambled_states.cards:check_data",
    order=30,
)
