"""The terminal table, driven with piped input as a person would type it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rlyeh_env.engine.game import Game


def _play(tmp_path: Path, lines: list[str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "rlyeh_env.play", "--replays", str(tmp_path), *args],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_whole_game_with_typos_among_the_choices(tmp_path):
    typed = ["x", "0", "99", ""] + ["1"] * 600
    done = _play(tmp_path, typed, "--seed", "3", "--players", "4", "--seat", "0")
    assert done.returncode == 0, done.stderr
    assert "is not a choice" in done.stdout
    assert "You win!" in done.stdout or "You lose." in done.stdout
    assert "the full truth" in done.stdout  # every role is revealed at the end
    game = Game.load(tmp_path / "game_3.json")
    assert game.over


def test_end_of_input_leaves_cleanly_and_the_replay_loads(tmp_path):
    done = _play(tmp_path, ["1", "2"], "--seed", "5", "--players", "5", "--seat", "2")
    assert done.returncode == 0, done.stderr
    assert "Left the table" in done.stdout
    game = Game.load(tmp_path / "game_5.json")
    assert not game.over and game.actions


def test_a_bad_option_gets_a_clear_message(tmp_path):
    done = _play(tmp_path, [], "--players", "9")
    assert done.returncode == 2
    assert "num_players" in done.stderr
