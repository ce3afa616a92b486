"""Section 12: the end of the game and its length."""

from __future__ import annotations

import random

import pytest

from rlyeh_env.engine import MIDNIGHT, EndReason, GameConfig, Phase, Winner
from rlyeh_env.engine import actions as A


def test_r12_fourth_sigil_wins_for_investigators(eng):
    """R12.1, R5.6."""
    state, rng = eng.make(seed=2, num_players=5, phobia_sanity_loss=0)
    state.activated = [True, False, True, True]
    eng.turn(state, 3, watch=0, target=1)
    eng.set_pool(state, [(1, 0)] * 4 + [(3, 2)] * 2)
    eng.set_hand(state, 3, [0, 1, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    assert state.activated == [True] * 4
    assert state.game_over and state.phase == Phase.GAME_OVER and state.decider == -1
    assert state.winner == Winner.INVESTIGATORS and state.end_reason == EndReason.FOUR_SIGILS
    assert eng.legal(state) == []
    ev = [e for e in state.events if e.kind == "game_over"]
    assert len(ev) == 1 and ev[0].value == Winner.INVESTIGATORS


def test_r12_midnight_wins_for_cultists(eng):
    """R12.2."""
    state, rng = eng.make(seed=2, num_players=4, phobia_sanity_loss=0)
    state.activated = [True, True, True, False]
    eng.turn(state, 3, watch=0, target=3)
    state.hour = MIDNIGHT - 1
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.winner == Winner.CULTISTS and state.end_reason == EndReason.MIDNIGHT


def test_r12_state_well_formed_after_midnight(eng):
    """R12.2 (the finished State stays well formed)."""
    state, rng = eng.make(seed=2, num_players=4, phobia_sanity_loss=0)
    eng.turn(state, 3, watch=0)
    state.hour = MIDNIGHT - 1
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.game_over
    assert 0 <= state.turn_index < state.num_players
    assert state.turn_player in range(4)


def test_r12_no_draw_every_game_has_one_winner(eng):
    """R12.3."""
    r = random.Random(5)
    for g in range(60):
        state, _ = eng.play(eng.random_config(r), g)
        assert state.winner in (Winner.INVESTIGATORS, Winner.CULTISTS)
        assert state.end_reason != EndReason.NONE


def test_r12_bound_formulas_match_the_rule_book(eng):
    """R12.6, R12.7."""
    cfg = GameConfig(start_hour=1, necronomicon_hours_back=3)
    assert eng.max_rounds(cfg) == 15
    assert eng.max_rounds(GameConfig(num_players=4)) == 14 and eng.max_rounds(GameConfig(num_players=8)) == 7
    assert eng.max_decisions_per_turn(GameConfig(num_players=8)) == 19
    assert eng.max_rounds(GameConfig(start_hour=0, necronomicon_hours_back=0)) == 14
    assert eng.max_decisions_per_turn(GameConfig(num_players=4, hand_size=6)) == 4 + 4 + 7


def test_r12_longest_possible_clock(eng):
    """R12.6, R2.5. Turn back time at the last hour plus a Cthugha success: the game still ends within the
    round bound, and takes every hour of it."""
    cfg = dict(num_players=4, start_hour=11, extra_gods=True, phobia_sanity_loss=0,
               necronomicon_earliest_hour=0, necronomicon_pages=(1, 0, 0), necronomicon_offer=1,
               necronomicon_sanity_loss=0)
    state, rng = eng.make(seed=1, **cfg)
    state.gods = [6, 4, 5, 7]  # Cthugha behind Ithaqua
    eng.step(state, rng, A.DECLARE + 0)
    seat = state.decider
    eng.step(state, rng, A.PROPOSE_NECRONOMICON)
    while state.phase == Phase.VOTE:
        eng.step(state, rng, A.VOTE_YES)
    eng.step(state, rng, A.PAGE + 0)
    assert state.hour == 8
    eng.set_pool(state, [(0, 1)] * 6)
    eng.set_hand(state, seat, [1, 0, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 0, A.DECLARE + 1)
    assert state.hour == 7
    rounds = 1
    while not state.game_over:
        before = state.round
        eng.step(state, rng, A.RESEARCH)
        if state.phase == Phase.RESEARCH_DISCARD:
            eng.step(state, rng, A.STOP_DISCARDING)
        rounds += state.round != before
    assert state.round + 1 == rounds == 12 - 11 + 3 + 1 == eng.max_rounds(state.config)


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8])
def test_r12_random_games_within_bound(eng, n):
    """R12.6, R12.7."""
    r = random.Random(100 + n)
    for g in range(30):
        cfg = eng.random_config(r, n)
        state, decisions = eng.play(cfg, 1000 * n + g, bias=(g % 3) / 2)
        assert decisions <= eng.upper_bound_decisions(cfg)
        assert state.round < eng.max_rounds(cfg)
