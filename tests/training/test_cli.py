"""The `rlyeh` command (`rlyeh_env.cli.main`): its help, unknown commands, and the dispatch to
`play`, `train` and `eval`."""

from __future__ import annotations

import subprocess
import sys

import pytest

import training
from rlyeh_env import cli
from rlyeh_env.cli import COMMANDS, main


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_lists_every_command(flag, capsys):
    """`rlyeh --help` exits 0 and lists play, train and eval on stdout."""
    assert main([flag]) == 0
    out, err = capsys.readouterr()
    assert "usage: rlyeh COMMAND" in out and err == ""
    for command in ("play", "train", "eval"):
        assert f"  {command} " in out and COMMANDS[command] in out


def test_unknown_command_is_a_usage_error(capsys):
    """An unknown command exits 2 with a message and the usage on stderr."""
    assert main(["bogus", "--help"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "unknown command 'bogus'" in err and "usage: rlyeh COMMAND" in err


@pytest.mark.parametrize("command", ["train", "eval"])
def test_subcommand_help_names_the_subcommand(command, capsys):
    """`rlyeh train --help` / `rlyeh eval --help` exit 0 with usage `rlyeh COMMAND`."""
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: rlyeh {command} ")


def test_play_help_names_the_subcommand(monkeypatch, capsys):
    """`rlyeh play --help` shows usage `rlyeh play ...` like the other commands."""
    monkeypatch.setattr(sys, "argv", ["rlyeh", "play", "--help"])
    with pytest.raises(SystemExit) as info:
        main(["play", "--help"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("usage: rlyeh play ")


def test_dispatch_passes_the_options_on(capsys):
    """Options after the command reach it: a bad one is reported by that command."""
    with pytest.raises(SystemExit) as info:
        main(["eval", "--lineup", "nobody"])
    assert info.value.code == 2 and "INVESTIGATORS,CULTISTS" in capsys.readouterr().err
    assert main(["play", "--players", "9"]) == 2
    assert "num_players" in capsys.readouterr().err
    assert main(["train", "--resume", "/nonexistent/checkpoint.pt"]) == 2
    assert "no checkpoint file" in capsys.readouterr().err


def test_missing_training_extra_is_explained(monkeypatch, capsys):
    """Without the training package, `train` and `eval` say which extra to install."""
    monkeypatch.delattr(training, "commands", raising=False)
    monkeypatch.setitem(sys.modules, "training.commands", None)
    for command in ("train", "eval"):
        assert main([command]) == 2
        assert "pip install -e '.[train]'" in capsys.readouterr().err


def test_module_entry_point():
    """`python -m rlyeh_env.cli --help` exits 0; an unknown command exits 2."""
    ok = subprocess.run([sys.executable, "-m", "rlyeh_env.cli", "--help"], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "train" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "rlyeh_env.cli", "nope"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown command 'nope'" in bad.stderr
    assert cli.__doc__ and "rlyeh train" in cli.__doc__
