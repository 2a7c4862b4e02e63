"""10 Days in the USA: plan a ten-day journey across the states, one card at a time."""
from stateside.games import GameInfo

GAME = GameInfo(
    id="ten-days",
    title="10 Days in the USA",
    summary="Draw and swap state, airplane and automobile cards until your ten days make one"
            " continuous journey: walk across borders, drive through a state, fly between states of one colour.",
    players="2-4 players",
    mode="stateside.games.ten_days.mode:TenDaysMode",
    rules="stateside.games.ten_days.rules:TenDaysState",
    ai="stateside.games.ten_days.ai:make_player",
    legacy_save="stateside.games.ten_days.legacy:legacy_save",
    cli="stateside.games.ten_days.cli:main",
    data_check="stateside.games.ten_days.cards:check_data",
    order=50,
)
