"""Every count typed on the command line has a range (issue 27, finding 12's last
sentence): out of range is one line and exit 2, never a run without end or a traceback."""
import pytest

from stateside.__main__ import MAX_GAMES, main


@pytest.mark.parametrize("option, value, expected", [
    ("--games", "99999999999999999999", f"selfplay: --games must be a whole number from 1 to {MAX_GAMES}, "
                                        "not 99999999999999999999"),
    ("--games", "0", f"--games must be a whole number from 1 to {MAX_GAMES}, not 0"),
    ("--games", "1" * 5000, "--games must be a whole number from 1 to"),
    ("--games", "ten", "--games must be a whole number from 1 to"),
    ("--seed", "9" * 30, "--seed must be a whole number from 0 to 4611686018427387904, not 999"),
    ("--seed", "-3", "--seed must be a whole number from 0 to"),
])
def test_selfplay_counts_out_of_range_are_one_line_and_exit_2(capsys, option, value, expected):
    args = ["selfplay", "ten-days", "--players", "random,random", "--games", "1", option, value]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert expected in err and err.startswith("stateside: selfplay: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_selfplay_counts_in_range_still_play(capsys):
    assert main(["selfplay", "ten-days", "--players", "random,random", "--games", "1", "--seed", "0"]) == 0
    assert "1 games, seed 0" in capsys.readouterr().out
