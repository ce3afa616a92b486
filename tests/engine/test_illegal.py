"""Illegal actions are refused (R6.0.3): IllegalActionError listing the legal ones, nothing changed."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rlyeh_env.engine import IllegalActionError, NUM_ACTIONS, Phase, apply_action, legal_actions
from rlyeh_env.engine import actions as A


def _snapshot(state, rng):
    return state.to_dict(), rng.getstate()


def test_illegal_is_a_value_error():
    """R6.0.3."""
    assert issubclass(IllegalActionError, ValueError)


def test_illegal_message_lists_legal_actions(eng):
    """R6.0.3."""
    state, rng = eng.make(seed=1)
    before = _snapshot(state, rng)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, A.RESEARCH, rng)
    msg = str(info.value)
    assert "DECLARE_TARGET" in msg and f"seat {state.decider}" in msg
    for a in legal_actions(state):
        assert f"{a} = {A.describe(a, actor=state.decider)}" in msg
    assert _snapshot(state, rng) == before


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 1000, "4", None, 4.5, [4]])
def test_illegal_non_action_ids_refused(eng, bad):
    """R6.0.3."""
    state, rng = eng.make(seed=1)
    eng.step(state, rng, A.DECLARE)
    before = _snapshot(state, rng)
    with pytest.raises(IllegalActionError) as info:
        apply_action(state, bad, rng)
    assert "legal actions" in str(info.value)
    assert _snapshot(state, rng) == before


@pytest.mark.parametrize("bad", [True, 4.0])
def test_illegal_bool_and_float_not_turned_into_actions(eng, bad):
    """R6.0.3."""
    state, rng = eng.make(seed=1)
    eng.step(state, rng, A.DECLARE)
    eng.set_hand(state, state.decider, [1, 1, 1, 0])
    with pytest.raises(IllegalActionError):
        apply_action(state, bad, rng)


def test_illegal_numpy_int_accepted(eng):
    """R6.0.3 (a numpy integer id is the same action)."""
    state, rng = eng.make(seed=1)
    apply_action(state, np.int64(A.DECLARE + 2), rng)
    assert state.target == 2 and isinstance(state.events[-1].value, int)


def test_illegal_after_game_over(eng):
    """R6.0.3, R12.2."""
    state, rng = eng.make(seed=1)
    eng.step(state, rng, A.DECLARE)
    state.hour = 11
    state.turn_index = state.num_players - 1
    state.decider = state.turn_player
    while not state.game_over:
        eng.step(state, rng, A.RESEARCH)
        if state.phase == Phase.RESEARCH_DISCARD:
            eng.step(state, rng, A.STOP_DISCARDING)
    before = _snapshot(state, rng)
    for a in (0, A.RESEARCH, A.VOTE_YES):
        with pytest.raises(IllegalActionError, match="game is over"):
            apply_action(state, a, rng)
    assert _snapshot(state, rng) == before


def test_illegal_every_phase_refuses_all_other_ids(eng):
    """R6.0.3. In states from random games (every phase), every id outside the legal set is refused
    and leaves the state and the generator untouched."""
    r = random.Random(3)
    phases_seen = set()
    for g in range(25):
        state, rng = eng.make(seed=g, num_players=4 + g % 5, extra_gods=g % 2 == 1)
        pick = random.Random(g)
        while not state.game_over:
            legal = legal_actions(state)
            if state.phase not in phases_seen or r.random() < 0.05:
                phases_seen.add(state.phase)
                before = _snapshot(state, rng)
                for bad in range(NUM_ACTIONS):
                    if bad in legal:
                        continue
                    with pytest.raises(IllegalActionError):
                        apply_action(state, bad, rng)
                assert _snapshot(state, rng) == before
            apply_action(state, pick.choice(legal), rng)
    assert phases_seen >= set(Phase) - {Phase.GAME_OVER}


def test_illegal_passing_legal_list_still_checks(eng):
    """R6.0.3."""
    state, rng = eng.make(seed=1)
    with pytest.raises(IllegalActionError):
        apply_action(state, A.RESEARCH, rng, legal_actions(state))
