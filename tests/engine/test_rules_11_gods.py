"""Section 11: gods behind the sigils (basic and the `extra_gods` variant)."""

from __future__ import annotations

import random

import pytest

from rlyeh_env.engine import MIDNIGHT, EndReason, GameConfig, God, Phase, Winner, new_game
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import EXTRA_GODS


def _resolve(eng, god, cards, target=0, hour=5, seed=1, **cfg):
    """Target sigil `target` ruled by `god`; seat 1 completes a pool of `cards` (7 sigils)."""
    cfg.setdefault("phobia_sanity_loss", 0)
    cfg.setdefault("failed_incantation_sanity_loss", 0)
    state, rng = eng.make(seed=seed, num_players=5, extra_gods=True, **cfg)
    state.gods = [God.HASTUR, God.TSATHOGGUA, God.CTHUGHA, God.NYARLATHOTEP]
    state.gods[target] = god
    eng.turn(state, 1, watch=0, target=target)
    state.hour = hour
    eng.set_pool(state, [(s, 3) for s in cards[:-1]])
    hand = [0, 0, 0, 0]
    hand[cards[-1]] = 1
    eng.set_hand(state, 1, hand)
    eng.step(state, rng, A.CONTRIBUTE + cards[-1])
    return state, rng


def test_r11_basic_gods_by_default():
    """R11.1, R3.1."""
    for seed in range(5):
        assert new_game(GameConfig(), random.Random(seed)).gods == [0, 1, 2, 3]


def test_r11_variant_draws_four_distinct_extra_gods():
    """R11.2, R13.2."""
    seen = set()
    for seed in range(100):
        gods = new_game(GameConfig(extra_gods=True), random.Random(seed)).gods
        assert len(set(gods)) == 4 and set(gods) <= set(EXTRA_GODS)
        seen.add(tuple(gods))
    assert len(seen) > 20


@pytest.mark.parametrize("matches,success", [(4, True), (3, False)])
def test_r11_basic_god_no_special_rule(eng, matches, success):
    """R11.1."""
    cards = [0] * matches + [2] * (7 - matches)
    state, _ = _resolve(eng, God.ITHAQUA, cards)
    assert state.incantations[-1].success is success and state.hour == 5


@pytest.mark.parametrize("matches,success", [(5, True), (4, False)])
def test_r11_hastur_needs_one_more(eng, matches, success):
    """R11.3."""
    state, _ = _resolve(eng, God.HASTUR, [0] * matches + [2] * (7 - matches))
    assert state.incantations[-1].success is success
    assert state.hour == 5


def test_r11_hastur_never_needs_more_than_the_pool(eng):
    """R11.3 (the engine caps Hastur's need at incantation_size; R11.3 does not say so)."""
    state, _ = _resolve(eng, God.HASTUR, [0] * 7, incantation_threshold=7)
    assert state.incantations[-1].success


@pytest.mark.parametrize("matches,success", [(3, True), (2, False)])
def test_r11_tsathoggua_needs_one_fewer_and_costs_an_hour(eng, matches, success):
    """R11.3."""
    state, _ = _resolve(eng, God.TSATHOGGUA, [0] * matches + [2] * (7 - matches))
    assert state.incantations[-1].success is success
    assert state.hour == (6 if success else 5)


def test_r11_tsathoggua_needs_at_least_one(eng):
    """R11.3."""
    state, _ = _resolve(eng, God.TSATHOGGUA, [2] * 7, incantation_threshold=1)
    assert not state.incantations[-1].success
    state, _ = _resolve(eng, God.TSATHOGGUA, [0] + [2] * 6, incantation_threshold=1)
    assert state.incantations[-1].success


def test_r11_tsathoggua_hour_can_strike_midnight(eng):
    """R11.4, R2.6."""
    state, _ = _resolve(eng, God.TSATHOGGUA, [0] * 3 + [2] * 4, hour=MIDNIGHT - 1)
    assert state.activated[0]
    assert state.game_over and state.winner == Winner.CULTISTS and state.end_reason == EndReason.MIDNIGHT


def test_r11_cthugha_turns_clock_back(eng):
    """R11.3, R2.5."""
    state, _ = _resolve(eng, God.CTHUGHA, [0] * 4 + [2] * 3)
    assert state.incantations[-1].success and state.hour == 4
    state, _ = _resolve(eng, God.CTHUGHA, [0] * 3 + [2] * 4)
    assert not state.incantations[-1].success and state.hour == 5
    state, _ = _resolve(eng, God.CTHUGHA, [0] * 4 + [2] * 3, hour=0, start_hour=0)
    assert state.hour == 0


@pytest.mark.parametrize("matches,opposites,success", [(6, 1, True), (5, 1, False), (4, 0, True)])
def test_r11_nyarlathotep_opposites_cancel_double(eng, matches, opposites, success):
    """R11.3."""
    cards = [0] * matches + [1] * opposites + [2] * (7 - matches - opposites)
    state, _ = _resolve(eng, God.NYARLATHOTEP, cards)
    assert state.incantations[-1].success is success


def test_r11_shub_niggurath_refills_every_hand_clockwise_from_completer(eng):
    """R11.3, R3.5."""
    state, rng = eng.make(seed=3, num_players=4, extra_gods=True, phobia_sanity_loss=0)
    state.gods = [God.SHUB_NIGGURATH, God.HASTUR, God.CTHUGHA, God.NYARLATHOTEP]
    eng.turn(state, 2, watch=0, target=0)
    eng.set_pool(state, [(0, 3)] * 6)
    for seat in range(4):
        eng.set_hand(state, seat, [0, 0, 0, 0])
    eng.set_hand(state, 2, [1, 0, 0, 0])
    eng.set_hand(state, 0, [0, 0, 1, 1])
    eng.stack_deck(state, [1, 1, 1, 2, 2, 2, 3, 3, 3, 0])
    eng.step(state, rng, A.CONTRIBUTE + 0)
    assert state.activated[0]
    hands = [p.hand for p in state.players]
    assert hands[2] == [0, 3, 0, 0]
    assert hands[3] == [0, 0, 3, 0]
    assert hands[0] == [0, 0, 1, 2]
    assert hands[1] == [1, 0, 0, 2]
    assert state.phase == Phase.DECLARE_TARGET


def test_r11_effects_skipped_on_fourth_sigil(eng):
    """R11.4, R12.1."""
    state, rng = eng.make(seed=3, num_players=4, extra_gods=True, phobia_sanity_loss=0)
    state.gods = [God.TSATHOGGUA, God.HASTUR, God.CTHUGHA, God.NYARLATHOTEP]
    state.activated = [False, True, True, True]
    eng.turn(state, 2, watch=0, target=0)
    state.hour = MIDNIGHT - 1
    eng.set_pool(state, [(0, 3)] * 6)
    eng.set_hand(state, 2, [1, 0, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 0)
    assert state.winner == Winner.INVESTIGATORS and state.end_reason == EndReason.FOUR_SIGILS
    assert state.hour == MIDNIGHT - 1
