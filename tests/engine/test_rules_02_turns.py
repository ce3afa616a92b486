"""Section 2: turn order, the pocket watch, the doom clock and midnight."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rlyeh_env.engine import (
    MIDNIGHT,
    EndReason,
    GameConfig,
    IllegalActionError,
    Phase,
    Winner,
    legal_actions,
    new_game,
)
from rlyeh_env.engine import actions as A


def _research_no_discard(state, rng, eng):
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)


def test_r2_watch_holder_random_and_declares_first():
    """R1.7, R2.1, R4.1."""
    seen = Counter()
    for seed in range(400):
        state = new_game(GameConfig(num_players=5), random.Random(seed))
        assert state.phase == Phase.DECLARE_TARGET and state.decider == state.watch
        assert state.round_order == [(state.watch + k) % 5 for k in range(5)]
        seen[state.watch] += 1
    assert set(seen) == set(range(5)) and min(seen.values()) > 40


def test_r2_first_turn_is_watch_holders(eng):
    """R2.1, R4.1."""
    state, rng = eng.make(seed=2, num_players=5)
    watch = state.watch
    eng.step(state, rng, A.DECLARE + 2)
    assert state.target == 2
    assert state.phase == Phase.TURN and state.decider == watch and state.turn_index == 0
    assert not state.main_action_done


def test_r2_turns_go_clockwise_then_watch_passes_and_clock_advances(eng):
    """R2.1, R2.2, R2.3."""
    state, rng = eng.make(seed=4, num_players=6, phobia_sanity_loss=0)
    watch = state.watch
    hour = state.hour
    eng.step(state, rng, A.DECLARE + 0)
    order = []
    for _ in range(6):
        order.append(state.decider)
        assert state.hour == hour and state.round == 0
        _research_no_discard(state, rng, eng)
    assert order == [(watch + k) % 6 for k in range(6)]
    # end of round: the clock moves one hour, the watch passes one seat clockwise
    assert state.hour == hour + 1 and state.round == 1
    assert state.watch == (watch + 1) % 6
    assert state.round_order == [(watch + 1 + k) % 6 for k in range(6)]
    assert state.phase == Phase.TURN and state.decider == (watch + 1) % 6
    order = []
    for _ in range(6):
        order.append(state.decider)
        _research_no_discard(state, rng, eng)
    assert order == [(watch + 1 + k) % 6 for k in range(6)]
    assert state.hour == hour + 2 and state.watch == (watch + 2) % 6


@pytest.mark.parametrize("start", [None, 0, 4, 11])
def test_r2_clock_starts_at_start_hour(start):
    """R2.4."""
    cfg = GameConfig(num_players=4, start_hour=start)
    state = new_game(cfg, random.Random(0))
    assert state.hour == (2 if start is None else start) == cfg.first_hour


def test_r2_midnight_ends_game_for_cultists(eng):
    """R2.6, R12.2."""
    state, rng = eng.make(seed=1, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 3, watch=0)  # last seat of the round
    state.hour = MIDNIGHT - 1
    _research_no_discard(state, rng, eng)
    assert state.hour == MIDNIGHT
    assert state.game_over and state.phase == Phase.GAME_OVER
    assert state.winner == Winner.CULTISTS and state.end_reason == EndReason.MIDNIGHT
    assert state.decider == -1 and legal_actions(state) == []
    with pytest.raises(IllegalActionError):
        eng.apply(state, A.RESEARCH, rng)


def test_r2_clock_does_not_move_mid_round(eng):
    """R2.3."""
    state, rng = eng.make(seed=1, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 2, watch=0)
    state.hour = MIDNIGHT - 1
    _research_no_discard(state, rng, eng)
    assert state.hour == MIDNIGHT - 1 and not state.game_over
    assert state.decider == 3


def test_r2_game_length_without_clock_changes(eng):
    """R2.3, R2.4, R2.6. With nothing but Research, a game lasts exactly 12 - start_hour rounds."""
    state, rng = eng.make(seed=9, num_players=4, start_hour=8, phobia_sanity_loss=0,
                          necronomicon_earliest_hour=11)
    eng.step(state, rng, A.DECLARE + 1)
    turns = 0
    while not state.game_over:
        # only Research; never propose the Necronomicon or use equipment
        _research_no_discard(state, rng, eng)
        turns += 1
    assert turns == 4 * (12 - 8)
    assert state.end_reason == EndReason.MIDNIGHT
