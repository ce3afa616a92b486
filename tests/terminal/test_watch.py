"""`rlyeh watch`: bots against bots with the full truth and the checkpoint bots' suspicions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rlyeh_env.engine.config import GameConfig
from rlyeh_env.terminal import watch as watch_command
from rlyeh_env.replays import load_replay
from rlyeh_env.terminal.seats import BotSeats
from terminal_testkit import only_replay, run_rlyeh, scripted_screen


def test_watching_the_shipped_bots_from_the_command_line(tmp_path):
    done = run_rlyeh(["watch", "--players", "4", "--seed", "2", "--instant", "--replays", str(tmp_path)])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Suspicions of the checkpoint bots" in out
    assert "GAME OVER" in out and "privately]" in out  # private events are shown, labelled
    replay = load_replay(only_replay(tmp_path))
    assert replay.finished and replay.seats == ["checkpoint"] * 4 and replay.human_seat is None


@pytest.mark.parametrize("fancy", [False, True])
def test_scripted_bots_have_no_suspicions_to_show(tmp_path, fancy):
    screen = scripted_screen([], fancy=fancy)
    args = watch_command.parse_args(["--players", "6", "--seed", "4", "--instant", "--bots", "heuristic", "--bot", "3=random",
                                     "--board", "end", "--replays", str(tmp_path)])
    assert watch_command.watch(args, screen) == 0
    out = screen.out.getvalue()
    truth_title = "The full truth" if fancy else "== the full truth =="
    assert out.count(truth_title) == 1 and "Suspicions" not in out
    assert load_replay(only_replay(tmp_path)).seats == ["heuristic"] * 3 + ["random"] + ["heuristic"] * 2


class _Believer:
    """A bot whose belief about the seat k places to its left is k / 10."""

    def beliefs(self):
        return np.arange(1, 8, dtype=np.float32) / 10


def test_suspicions_are_turned_from_offsets_into_seats():
    seats = BotSeats(GameConfig(num_players=5), {}, seed=0)
    seats.bots, seats.checkpoint_seats = {3: _Believer()}, {3}
    row = seats.suspicions()[3]
    assert math.isnan(row[3])
    # seat 4 is 1 place to the left of seat 3, seat 0 two places, ..., seat 2 four places
    assert [round(row[s], 2) for s in (4, 0, 1, 2)] == [0.1, 0.2, 0.3, 0.4]
