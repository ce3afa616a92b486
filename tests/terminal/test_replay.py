"""Replay files and `rlyeh replay`: atomic writes, exact reproduction, stepping forward and back."""

from __future__ import annotations

import json
import os

import pytest

from rlyeh_env.engine.config import GameConfig
from rlyeh_env.engine.game import Game
from rlyeh_env.terminal import replay as replay_command
from rlyeh_env.replays import Frames
from rlyeh_env.terminal.replay import next_step
from rlyeh_env.replays import load_replay, save_replay
from rlyeh_env.text import render_truth
from terminal_testkit import run_rlyeh, scripted_screen


@pytest.fixture
def saved(tmp_path):
    """A finished 5-player game between random bots, saved as a replay."""
    game = Game(GameConfig(num_players=5), seed=12)
    import random

    r = random.Random(3)
    while not game.over:
        game.step(r.choice(game.legal_actions()))
    path = tmp_path / "game.json"
    save_replay(path, game, ["random"] * 5, None)
    return path, game


def test_a_replay_rebuilds_the_game_exactly(saved):
    path, game = saved
    replay = load_replay(path)
    assert replay.game.state.to_dict() == game.state.to_dict()
    frames = Frames(replay)
    assert frames.last == len(game.actions)
    assert frames.states[-1].to_dict() == game.state.to_dict()
    assert frames.states[0].steps == 0


@pytest.mark.parametrize(
    "command, step, expected",
    [("", 3, 4), ("n", 3, 4), ("b", 3, 2), ("b", 0, 0), ("s", 3, 0), ("e", 3, 10), ("n", 10, 10),
     ("g 7", 3, 7), ("G 0", 3, 0)],
)
def test_commands_move_through_the_steps(command, step, expected):
    assert next_step(command, step, 10) == expected


@pytest.mark.parametrize("command, message", [("x", "not a command"), ("g", "not a command"), ("g 11", "past the end")])
def test_a_typo_at_the_replay_prompt_is_explained(command, message):
    assert message in next_step(command, 3, 10)


def test_stepping_forward_and_back_with_piped_commands(saved):
    path, game = saved
    screen = scripted_screen(["n", "n", "b", "oops", "g 5", "e", "n", "s", "q"])
    assert replay_command.run(path, None, screen) == 0
    out = screen.out.getvalue()
    titles = [line.split(":")[0] for line in out.splitlines() if line.startswith("--- step")]
    last = len(game.actions)
    assert titles == [f"--- step {k}/{last}" for k in (0, 1, 2, 1, 5, last, 0)]
    assert "'oops' is not a command" in out and "(already at the end)" in out
    assert render_truth(game.state) in out  # the last step shows the whole final truth


def test_one_step_from_the_command_line(saved):
    path, game = saved
    done = run_rlyeh(["replay", str(path), "--step", "3"])
    assert done.returncode == 0, done.stderr
    assert "--- step 3/" in done.stdout and "the full truth" in done.stdout


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda p: p.write_text("{ not json"), "cannot read the replay"),
        (lambda p: p.write_text(json.dumps({"format": 99})), "not a replay"),
        (lambda p: p.unlink(), "cannot read the replay"),
    ],
)
def test_a_bad_replay_file_gets_a_clear_message(saved, damage, message, capsys):
    path, _ = saved
    damage(path)
    assert replay_command.main([str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and message in err


def test_a_tampered_replay_is_refused_naming_the_illegal_step(saved):
    path, game = saved
    data = json.loads(path.read_text())
    at_step_4 = Game(game.config, game.seed)
    for action in game.actions[:4]:
        at_step_4.step(action)
    data["actions"][4] = next(a for a in range(61) if a not in at_step_4.legal_actions())
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="legal"):
        load_replay(path)


def test_a_replay_write_is_atomic(saved, monkeypatch):
    path, game = saved
    before = path.read_text()

    def crash(*_):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        save_replay(path, game, ["heuristic"] * 5, None)
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left behind
