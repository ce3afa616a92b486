"""Text helpers: legal_moves, render (the full truth) and render_seat (one seat's view)."""

from __future__ import annotations

import random
import re

import pytest

from rlyeh_env import env, raw_env
from rlyeh_env.engine import Phase, Winner, legal_actions
from rlyeh_env.engine.cards import Role, label
from rlyeh_env.text import render_seat
from rlyeh_env_testkit import policy, sample_states

ROLE_WORDS = {label(r) for r in Role} | {label(r).upper() for r in Role}


def _random_envs(games, seed=0, **config):
    r = random.Random(seed)
    for g in range(games):
        e = raw_env(num_players=4 + g % 5, render_mode="ansi", **config)
        e.reset(seed=seed * 100 + g)
        yield e
        while not e.game.over:
            e.step(policy(e.game.state, e.game.legal_actions(), r))
            yield e


def test_legal_moves_are_exactly_the_legal_ids():
    checked = 0
    for e in _random_envs(8):
        state = e.game.state
        for agent in e.agents:
            moves = e.legal_moves(agent)
            if state.game_over or agent != e.agent_selection:
                assert moves == []
                continue
            ids = [a for a, _ in moves]
            assert ids == legal_actions(state)
            assert all(isinstance(text, str) and text for _, text in moves)
            assert len({text for _, text in moves}) == len(moves), "descriptions tell the moves apart"
            assert e.legal_moves() == moves  # default: the agent to act
            checked += 1
    assert checked > 100


def test_legal_moves_name_players_by_absolute_name():
    e = raw_env(num_players=5)
    e.reset(seed=0)
    e.step(e.game.legal_actions()[0])  # declare: now a main action with accusations
    seat = e.game.state.decider
    moves = dict(e.legal_moves())
    for k in range(1, 5):
        text = moves.get(7 + k - 1)
        if text is not None:
            assert f"player_{(seat + k) % 5}" in text


def test_render_ansi_shows_every_secret_role():
    for e in _random_envs(5, seed=1):
        text = e.render()
        assert isinstance(text, str) and text.startswith("== the full truth ==")
        for seat, p in enumerate(e.game.state.players):
            m = re.search(rf"  player_{seat}\b.*\n      SECRET: (\w+);", text)
            assert m and m[1] == label(Role(p.role)), seat


def test_render_human_prints_and_none_warns(capsys):
    e = raw_env(num_players=4, render_mode="human")
    e.reset(seed=0)
    assert e.render() is None
    assert "SECRET:" in capsys.readouterr().out
    e = raw_env(num_players=4)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render mode"):
        assert e.render() is None


def _player_line(text: str, seat: int) -> str:
    lines = [line for line in text.splitlines() if line.startswith(f"  player_{seat}:") or line.startswith(f"  player_{seat} ")]
    assert len(lines) == 1, text
    return lines[0]


def check_seat_text(state, seat):
    text = render_seat(state, seat)
    me = state.players[seat]
    mem = me.memory
    assert f"You are {label(Role(me.role)).upper()};" in text
    assert "SECRET" not in text
    for q, p in enumerate(state.players):
        line = _player_line(text, q)
        if p.revealed:
            assert f"revealed {label(Role(p.role))}" in line
        else:
            assert "role hidden" in line
            assert not any(word in line for word in ROLE_WORDS), line
        stated = re.findall(rf"player_{q} is (\w+)", text)
        if q == seat:
            assert stated == []
        elif mem.known_roles[q] >= 0 and not p.revealed:
            assert stated == [label(Role(p.role))]  # learnt through the Ouija board
        elif mem.known_roles[q] < 0:
            assert stated == []
    # no line other than the observer's own and what it knows mentions a role word
    allowed = {f"You are {label(Role(me.role)).upper()}"} | {
        f"player_{q} is {label(Role(state.players[q].role))}" for q, r in enumerate(mem.known_roles) if r >= 0
    } | {f"revealed {label(Role(p.role))}" for p in state.players if p.revealed}
    if state.game_over:
        allowed.add(f"GAME OVER: {label(Winner(state.winner))} win")
    stripped = text
    for phrase in sorted(allowed, key=len, reverse=True):
        stripped = stripped.replace(phrase, "")
    assert not any(word in stripped for word in ROLE_WORDS), stripped
    return text


def test_render_seat_shows_own_role_but_no_unknown_role():
    states = sample_states(seeds=[11], per_phase=1)
    ouija = 0
    for state in states:
        for seat in range(state.num_players):
            check_seat_text(state, seat)
            ouija += any(r >= 0 and q != seat and not state.players[q].revealed
                         for q, r in enumerate(state.players[seat].memory.known_roles))
    assert ouija, "an Ouija-known role was checked"


def test_render_seat_decision_context_only_for_the_decider():
    for state in sample_states(seeds=[12], sizes=[5, 7], per_phase=1):
        for seat in range(state.num_players):
            text = render_seat(state, seat)
            deciding = seat == state.decider and not state.game_over
            assert ("Your choices:" in text) == deciding
            assert ("You drew:" in text) == (deciding and state.phase == Phase.GAMBLE_PLAY and bool(state.pending.gamble_cards))
            assert ("The pages show:" in text) == (deciding and state.phase == Phase.NECRONOMICON_PAGE)


def test_env_render_seat_is_the_text_helper():
    e = env(num_players=6)
    e.reset(seed=3)
    for agent in e.possible_agents:
        seat = int(agent.split("_")[1])
        assert e.unwrapped.render_seat(agent) == render_seat(e.unwrapped.game.state, seat)


def test_descriptions_take_the_right_article():
    from rlyeh_env.engine import actions as A
    from rlyeh_env.engine.actions import describe
    from rlyeh_env.engine.cards import Sigil

    assert describe(A.CONTRIBUTE + Sigil.ITHAQUA) == "Contribute an Ithaqua card to the incantation"
    assert describe(A.TAKE + Sigil.ZHAR) == "Take a Zhar card from the pool"
