"""Observation semantics: what only one seat sees, the decider's context (gambled cards,
discards, the card taken, pages) and what equipment showed its user (Spyglass, Ouija board,
Almanac, Lantern).

Offsets inside rows are taken from the spec (the env module docstring), not from the encoder.
"""

from __future__ import annotations

import numpy as np
import pytest

from observation_testkit import P_EQUIPMENT, P_USED, declared, observe, one_hot, rel
from rlyeh_env.engine import Phase, apply_action
from rlyeh_env.engine import actions as A
from rlyeh_env.observation import SEATS
from rlyeh_env_testkit import sample_states
from scenario import set_pool


def test_gambled_cards_are_seen_only_by_the_gambler():
    state, rng = declared(n=5, seed=2)
    gambler = state.decider
    apply_action(state, A.GAMBLE, rng)
    assert state.phase == Phase.GAMBLE_PLAY and len(state.pending.gamble_cards) == 2
    expected = np.zeros(4, dtype=np.float32)
    for c in state.pending.gamble_cards:
        expected[c] += 0.5
    for seat in range(5):
        v = observe(state, seat)
        assert np.array_equal(v["decision.phase"], one_hot(11, Phase.GAMBLE_PLAY))
        if seat == gambler:
            assert np.array_equal(v["decision.gamble_cards"], expected)
        else:
            assert not v["decision.gamble_cards"].any()


def test_decision_context_only_for_the_decider_in_random_states():
    met = set()
    for state in sample_states(seeds=[3], per_phase=2):
        pending = state.pending
        cfg = state.config
        for seat in range(state.num_players):
            v = observe(state, seat)
            mine = seat == state.decider and not state.game_over
            gamble = np.zeros(4)
            taken = np.zeros(4)
            pages = np.zeros(3)
            discarded = 0.0
            if mine and state.phase == Phase.GAMBLE_PLAY:
                for c in pending.gamble_cards:
                    gamble[c] += 0.5
            if mine and state.phase == Phase.INVESTIGATE_GIVE:
                taken[state.pool[pending.taken].sigil] = 1.0
            if mine and state.phase == Phase.NECRONOMICON_PAGE:
                for p in pending.pages:
                    pages[p] += 1 / cfg.necronomicon_offer
            if mine and state.phase == Phase.RESEARCH_DISCARD:
                discarded = pending.discarded / cfg.hand_size
            assert np.allclose(v["decision.gamble_cards"], gamble)
            assert np.allclose(v["decision.taken"], taken)
            assert np.allclose(v["decision.pages"], pages)
            assert v["decision.discarded"][0] == pytest.approx(discarded)
            assert np.array_equal(v["decision.phase"], one_hot(11, state.phase))
            if pending.vote is None:
                assert not v["decision.vote_kind"].any() and not v["decision.vote_proposer"].any()
            else:
                vote = pending.vote
                assert np.array_equal(v["decision.vote_kind"], one_hot(2, vote.kind))
                assert np.array_equal(v["decision.vote_proposer"], one_hot(SEATS, rel(state, seat, vote.proposer)))
                acc = one_hot(SEATS, rel(state, seat, vote.accused)) if vote.accused >= 0 else np.zeros(SEATS)
                assert np.array_equal(v["decision.vote_accused"], acc)
            met.add(state.phase)
    assert {Phase.GAMBLE_PLAY, Phase.INVESTIGATE_GIVE, Phase.NECRONOMICON_PAGE, Phase.RESEARCH_DISCARD, Phase.VOTE} <= met


def _use_equipment(item, target_offset=None, n=6, seed=8):
    from rlyeh_env.engine.cards import Equipment

    state, rng = declared(n=n, seed=seed)
    seat = state.decider
    state.players[seat].equipment = int(Equipment[item])
    apply_action(state, A.USE_EQUIPMENT, rng)
    if target_offset is not None:
        assert state.phase == Phase.EQUIPMENT_PLAYER
        apply_action(state, A.TARGET_PLAYER + target_offset - 1, rng)
    assert state.phase == Phase.TURN and state.decider == seat
    return state, seat


def test_spyglass_hand_is_seen_by_its_user_only():
    state, seat = _use_equipment("SPYGLASS", target_offset=2)
    target = (seat + 2) % 6
    seen = state.players[target].hand
    for observer in range(6):
        v = observe(state, observer)
        row = v["me.seen_hands"][rel(state, observer, target)]
        if observer == seat:
            assert row[0] == 1.0 and np.allclose(row[1:], np.array(seen) / 3)
        else:
            assert not v["me.seen_hands"].any()
        p = v["players"][rel(state, observer, seat)]
        assert p[P_EQUIPMENT + 4] == 1.0 and p[P_USED] == 1.0  # the use itself is public


def test_ouija_role_is_known_by_its_user_only():
    state, seat = _use_equipment("OUIJA_BOARD", target_offset=3)
    target = (seat + 3) % 6
    role = state.players[target].role
    for observer in range(6):
        row = observe(state, observer)["me.known_roles"][rel(state, observer, target)]
        if observer == seat:
            assert np.array_equal(row, one_hot(3, 1 + role))
        elif observer != target:
            assert np.array_equal(row, one_hot(3, 0))
        assert not state.players[target].revealed


def test_almanac_deck_top_is_seen_by_its_user_only():
    state, seat = _use_equipment("ALMANAC")
    top = state.deck[::-1][:3]
    for observer in range(6):
        v = observe(state, observer)["me.deck_top"]
        if observer == seat:
            for k, card in enumerate(top):
                assert np.array_equal(v[k], np.concatenate([[1.0], one_hot(4, card)]))
        else:
            assert not v.any()


def test_lantern_look_is_seen_by_its_user_only():
    state, rng = declared(n=5, seed=9)
    seat = state.decider
    state.players[seat].equipment = 0  # Lantern
    set_pool(state, [(2, (seat + 1) % 5, False), (3, (seat + 2) % 5, False), (2, (seat + 3) % 5, False)])
    apply_action(state, A.USE_EQUIPMENT, rng)
    look = state.players[seat].memory.pool_look
    assert sum(look) == 2
    for observer in range(5):
        v = observe(state, observer)
        if observer == seat:
            assert np.allclose(v["me.pool_look"], np.array(look) / 7)
            assert v["me.pool_look_size"][0] == pytest.approx(3 / 7) and v["me.pool_look_current"][0] == 1.0
        else:
            assert not v["me.pool_look"].any() and not v["me.pool_look_size"].any()
    # one more card: the look is no longer current
    apply_action(state, A.CONTRIBUTE + state.players[seat].hand.index(max(state.players[seat].hand)), rng)
    v = observe(state, seat)
    assert v["me.pool_look_size"][0] == pytest.approx(3 / 7) and v["me.pool_look_current"][0] == 0.0
