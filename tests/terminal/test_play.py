"""`rlyeh play`: a person at a table, driven with typed lines as the tests of issue 4 ask."""

from __future__ import annotations

import re

import pytest

from rlyeh_env.engine import Role
from rlyeh_env.terminal import play as play_command
from rlyeh_env.terminal import replay as replay_command
from rlyeh_env.replays import load_replay
from rlyeh_env.text import render_truth
from terminal_testkit import only_replay, run_rlyeh, scripted_screen

TYPOS = ["x", "0", "99", "", "?"]


def _play(tmp_path, lines, *args, fancy=False):
    screen = scripted_screen(lines, fancy=fancy)
    argv = ["--replays", str(tmp_path), "--instant", *args]
    code = play_command.play(play_command.parse_args(argv), screen)
    return code, screen.out.getvalue()


def test_a_whole_game_with_typos_among_the_choices(tmp_path):
    code, out = _play(tmp_path, TYPOS + ["1"] * 800, "--seed", "3", "--players", "4", "--seat", "0", "--bots", "heuristic")
    assert code == 0
    assert out.count("is not a choice") == 4  # x, 0, 99 and the empty line; ? shows the table again
    assert out.count("== player_0's view ==") >= 2
    assert "You win!" in out or "You lose." in out
    replay = load_replay(only_replay(tmp_path))
    assert replay.finished and replay.human_seat == 0
    assert replay.seats == ["human", "heuristic", "heuristic", "heuristic"]
    # every secret revealed at the end is the truth the replay rebuilds, card for card
    assert render_truth(replay.game.state) in out
    assert "Incantation 1 on" in out and "(player_" in out


def test_the_shipped_bots_sit_by_default_and_the_command_line_works_end_to_end(tmp_path):
    done = run_rlyeh(["play", "--players", "4", "--seat", "1", "--seed", "8", "--replays", str(tmp_path)],
                     ["hello"] + ["2"] * 800)
    assert done.returncode == 0, done.stderr
    assert "player_0 checkpoint, player_2 checkpoint, player_3 checkpoint" in done.stdout
    assert "'hello' is not a choice" in done.stdout
    assert "You win!" in done.stdout or "You lose." in done.stdout
    replay = load_replay(only_replay(tmp_path))
    assert replay.finished and replay.seats == ["checkpoint", "human", "checkpoint", "checkpoint"]
    assert "\x1b[" not in done.stdout  # plain text when stdout is not a terminal


def test_the_same_seed_and_the_same_typing_give_the_same_game(tmp_path):
    games = []
    for run in ("a", "b"):
        folder = tmp_path / run
        _play(folder, ["3", "1", "2"] * 300, "--seed", "21", "--players", "6", "--seat", "2", "--bots", "checkpoint",
              "--sample")
        games.append(load_replay(only_replay(folder)).game.actions)
    assert games[0] == games[1] and len(games[0]) > 20


def test_end_of_input_leaves_cleanly_and_the_game_so_far_is_saved(tmp_path):
    code, out = _play(tmp_path, ["1", "2"], "--seed", "5", "--players", "5", "--seat", "2", "--bots", "random")
    assert code == 0
    assert "Left the table" in out
    replay = load_replay(only_replay(tmp_path))
    assert not replay.finished and replay.game.actions
    assert "rlyeh replay " + str(only_replay(tmp_path)) in out
    # the saved game opens in the replay viewer, at its last step
    viewer = scripted_screen(["e", "q"])
    assert replay_command.run(only_replay(tmp_path), None, viewer) == 0
    shown = viewer.out.getvalue()
    assert "(unfinished)" in shown and f"--- step {len(replay.game.actions)}/{len(replay.game.actions)}" in shown


def test_q_leaves_the_table(tmp_path):
    code, out = _play(tmp_path, ["1", "q", "1"], "--seed", "5", "--players", "5", "--seat", "0", "--bots", "random")
    assert code == 0 and "Left the table" in out
    assert not load_replay(only_replay(tmp_path)).finished


def test_ctrl_c_leaves_cleanly_and_saves(tmp_path):
    screen = scripted_screen(["1"] * 50)
    calls = {"n": 0}
    ask = screen.ask

    def interrupted(prompt):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return ask(prompt)

    screen.ask = interrupted
    args = play_command.parse_args(["--replays", str(tmp_path), "--seed", "4", "--seat", "0", "--bots", "heuristic"])
    assert play_command.play(args, screen) == 0
    assert "Left the table" in screen.out.getvalue()
    replay = load_replay(only_replay(tmp_path))
    assert not replay.finished and len(replay.game.actions) >= 2


def test_choose_your_role(tmp_path):
    for role in ("cultist", "investigator"):
        folder = tmp_path / role
        _play(folder, ["q"], "--seed", "11", "--players", "6", "--role", role, "--bots", "random")
        replay = load_replay(only_replay(folder))
        assert replay.game.state.players[replay.human_seat].role == Role[role.upper()]


def test_the_coloured_table_renders_a_whole_game(tmp_path):
    code, out = _play(tmp_path, ["1"] * 800, "--seed", "2", "--players", "5", "--seat", "3", "--bots", "heuristic",
                      fancy=True)
    assert code == 0
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    assert "You: player_3" in plain and "Players" in plain and "Clock" in plain
    assert "Incantations" in plain  # the final reveal: every incantation's cards and who played them
    assert "\x1b[" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--players", "9"], "num_players"),
        (["--players", "5", "--seat", "5"], "--seat must be between 0 and 4"),
        (["--seat", "0", "--bot", "0=random"], "seat 0 is yours"),
        (["--bot", "two=random"], "SEAT=BOT"),
        (["--bot", "9=random"], "between 0 and 4"),
        (["--seat", "1", "--role", "cultist"], "not both"),
        (["--delay", "-1"], "--delay"),
    ],
)
def test_bad_options_get_a_clear_message(tmp_path, args, message, capsys):
    code = play_command.main(["--replays", str(tmp_path), "--seed", "1", "--bots", "random", *args])
    assert code == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.glob("*.json"))  # nothing was played, nothing saved


def test_a_bot_that_does_not_exist_is_refused_before_the_game(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        play_command.parse_args(["--bots", "heuristc"])
    assert exit_info.value.code == 2
    assert "is not a bot" in capsys.readouterr().err


def test_a_corrupt_checkpoint_gets_a_clear_message(tmp_path, capsys):
    broken = tmp_path / "broken.pt"
    broken.write_bytes(b"not a checkpoint at all")
    code = play_command.main(["--replays", str(tmp_path), "--seed", "1", "--bots", str(broken)])
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "broken.pt" in err and "Traceback" not in err


def test_the_variants_reach_the_game_and_its_replay(tmp_path):
    code, out = _play(tmp_path, ["1"] * 800, "--seed", "6", "--players", "7", "--seat", "1", "--bots", "heuristic",
                      "--extra-gods", "--hidden-cultists")
    assert code == 0
    config = load_replay(only_replay(tmp_path)).game.config
    assert config.extra_gods and config.hidden_cultist_count
    from rlyeh_env.engine.cards import EXTRA_GODS, label

    assert any(f"({label(god)})" in out for god in EXTRA_GODS)  # the view names the gods behind the sigils
