"""Every card a player meets has its line of rules; the `rlyeh` command lists the terminal commands."""

from __future__ import annotations

import pytest

from rlyeh_env import cli
from rlyeh_env.engine.cards import Equipment, God, Insanity, Page, Phobia
from rlyeh_env.terminal import glossary


@pytest.mark.parametrize(
    "enum, table",
    [(Insanity, glossary.INSANITY), (Equipment, glossary.EQUIPMENT), (Phobia, glossary.PHOBIA),
     (God, glossary.GOD), (Page, glossary.PAGE)],
)
def test_every_card_is_described(enum, table):
    assert set(table) == set(enum)
    assert all(isinstance(text, str) and len(text) > 10 for text in table.values())


def test_the_rlyeh_command_lists_play_watch_and_replay(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("play", "watch", "replay", "train", "eval"):
        assert f"  {command}" in out
    assert cli.main(["plya"]) == 2
    assert "unknown command 'plya'" in capsys.readouterr().err
