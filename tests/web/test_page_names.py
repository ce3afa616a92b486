"""The page names the game's integers as the engine and the terminal table do: every name table of
rlyeh_env/web/static/app.js is read from the file and compared with its Python source, so a card,
god or rule renamed in the engine cannot leave the browser table behind."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rlyeh_env.engine.cards import Character, Equipment, God, Insanity, Page, Phobia, Role, Sigil, label
from rlyeh_env.engine.state import Phase, Winner
from rlyeh_env.terminal import glossary
from rlyeh_env.terminal.views import PHASE_TEXT

APP = Path(__file__).resolve().parents[2] / "rlyeh_env" / "web" / "static" / "app.js"


def js_constant(name: str):
    """The value of `const NAME = [...];` in app.js (its arrays are JSON once comments are gone)."""
    source = APP.read_text()
    match = re.search(rf"^const {name} = (\[.*?\]);$", source, re.MULTILINE | re.DOTALL)
    assert match, f"app.js has no const {name} = [...];"
    without_comments = re.sub(r"//[^\n]*", "", match.group(1))
    return json.loads(re.sub(r",\s*\]", "]", without_comments))  # JS allows a trailing comma


def labels(enum) -> list[str]:
    return [label(member) for member in enum]


@pytest.mark.parametrize("name, expected", [
    ("SIGILS", labels(Sigil)),
    ("ROLES", labels(Role)),
    ("CHARACTERS", labels(Character)),
    ("WINNERS", ["Nobody"] + labels(Winner)[1:]),  # the page never shows Winner.NONE by its name
    ("PHOBIAS", [[label(p), glossary.PHOBIA[p]] for p in Phobia]),
    ("EQUIPMENT", [[label(e), glossary.EQUIPMENT[e]] for e in Equipment]),
    ("INSANITY", [[label(i), glossary.INSANITY[i]] for i in Insanity]),
    ("GODS", [[label(g), "" if glossary.GOD[g] == "no special rule" else glossary.GOD[g]] for g in God]),
    ("PAGES", [[label(p), glossary.PAGE[p]] for p in Page]),
])
def test_the_pages_names_are_the_engines(name, expected):
    assert js_constant(name) == expected


def test_the_pages_phases_say_what_the_terminal_says():
    phases = js_constant("PHASES")
    assert [what for what, _ in phases] == [PHASE_TEXT[phase] for phase in Phase if phase != Phase.GAME_OVER]
    assert re.search(rf"^const GAME_OVER = {int(Phase.GAME_OVER)}\b", APP.read_text(), re.MULTILINE)
