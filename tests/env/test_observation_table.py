"""Observation semantics: the observer's own role and hand at the deal, the table's public
blocks (clock, target, gods, Necronomicon), seat-relative rows and their zero padding.

Offsets inside rows are taken from the spec (the env module docstring), not from the encoder.
"""

from __future__ import annotations

import numpy as np
import pytest

from observation_testkit import (
    I_SEATS,
    P_CHARACTER,
    P_EQUIPMENT,
    P_PRESENT,
    P_PROPOSED,
    P_REVEALED,
    P_SANITY,
    SEAT_INDEXED,
    V_ACCUSED,
    V_NO,
    V_PROPOSER,
    V_YES,
    dealt,
    declared,
    observe,
    one_hot,
    rel,
)
from rlyeh_env.engine import actions as A
from rlyeh_env.engine import legal_actions
from rlyeh_env.observation import SEATS
from rlyeh_env_testkit import sample_states
from scenario import set_hand, set_pool


@pytest.mark.parametrize("n", range(4, 9))
def test_own_role_hand_and_knowledge_at_the_deal(n):
    state, _ = dealt(n, seed=n)
    for seat, player in enumerate(state.players):
        v = observe(state, seat)
        assert np.array_equal(v["me.role"], one_hot(2, player.role))
        assert np.allclose(v["me.hand"], np.array(player.hand) / state.config.hand_size)
        known = v["me.known_roles"]
        assert np.array_equal(known[0], one_hot(3, 1 + player.role))
        for k in range(1, n):
            assert np.array_equal(known[k], one_hot(3, 0)), "other roles are unknown at the deal"
        assert not known[n:].any()
        assert np.array_equal(v["table.size"], one_hot(5, n - 4))
        assert np.array_equal(v["table.cultists"], one_hot(5, state.num_cultists))
        assert np.array_equal(v["clock.hour"], one_hot(13, state.hour))


def test_hidden_cultist_count_is_not_shown():
    state, _ = dealt(8, seed=1, hidden_cultist_count=True)
    for seat in range(8):
        assert np.array_equal(observe(state, seat)["table.cultists"], one_hot(5, 0))


def test_seat_relative_rows_and_padding():
    state, _ = declared(n=5, seed=4)
    n = 5
    sanity = [5, 4, 3, 2, 1]
    for s in range(n):
        state.players[s].sanity = sanity[s]
        set_hand(state, s, [[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 2, 0]][s])
    state.pool_investigations = [0, 1, 2, 3, 4]
    state.pool_swaps = [4, 3, 2, 1, 0]
    set_pool(state, [(0, 1, False), (1, 2, False), (1, 2, True), (2, 4, False)])
    for seat in range(n):
        v = observe(state, seat)
        for k in range(n):
            s = (seat + k) % n
            p = state.players[s]
            assert v["players"][k, P_PRESENT] == 1.0
            assert v["players"][k, P_SANITY] == pytest.approx(p.sanity / 5)
            assert v["players"][k, P_CHARACTER + p.character] == 1.0
            assert v["players"][k, P_EQUIPMENT + p.equipment] == 1.0
            assert v["players.hand_size"][k] == pytest.approx(p.hand_count / 3)
            assert v["pool.contributions"][k] == pytest.approx(state.pool_contributions[s] / 7)
            assert v["pool.investigations"][k] == pytest.approx(min(state.pool_investigations[s], 4) / 4)
            assert v["pool.swaps"][k] == pytest.approx(min(state.pool_swaps[s], 4) / 4)
        assert np.array_equal(v["turn.watch"], one_hot(SEATS, rel(state, seat, state.watch)))
        assert np.array_equal(v["turn.player"], one_hot(SEATS, rel(state, seat, state.turn_player)))
        for name in SEAT_INDEXED:
            assert not v[name][n:].any(), f"{name}: padded rows must be zero"
        assert v["pool.size"][0] == pytest.approx(4 / 7)
        assert np.allclose(v["pool.face_up"], [0, 1 / 7, 0, 0])
        assert np.allclose(v["me.pool_mine"], np.array(state.players[seat].memory.pool_mine) / 7)
    # the accusation ids name the same relative seats as the rows
    seat = state.decider
    v = observe(state, seat)
    legal = legal_actions(state)
    for k in range(1, n):
        assert (A.ACCUSE + k - 1 in legal) == (v["players"][k, P_REVEALED] == 1.0)


def test_padded_rows_are_zero_in_random_mid_game_states():
    for state in sample_states(seeds=[7], sizes=[4, 5, 6]):
        n = state.num_players
        for seat in range(n):
            v = observe(state, seat, "history")
            for name in SEAT_INDEXED:
                assert not v[name][n:].any(), name
            per_seat = v["history.incantations"][:, I_SEATS : I_SEATS + 4 * SEATS].reshape(-1, SEATS, 4)
            assert not per_seat[:, n:].any()
            for first in (V_PROPOSER, V_ACCUSED, V_YES, V_NO):
                assert not v["history.votes"][:, first + n : first + SEATS].any()


def test_clock_target_gods_and_necronomicon_blocks():
    state, _ = declared(n=7, seed=5, target=2, extra_gods=True)
    state.hour = state.config.necronomicon_earliest_hour
    state.round = 3
    state.players[2].proposed_necronomicon = True
    for observer in range(7):
        v = observe(state, observer)
        assert np.array_equal(v["clock.hour"], one_hot(13, state.hour))
        assert v["clock.round"][0] == pytest.approx(3 / 12)
        assert np.array_equal(v["sigils.target"], one_hot(5, 2))
        for sigil, god in enumerate(state.gods):
            assert np.array_equal(v["sigils.gods"][sigil], one_hot(9, god)) and god >= 4
        assert np.array_equal(v["necronomicon"], [0.0, 1.0, float(observer == 2)])
        assert v["players"][rel(state, observer, 2), P_PROPOSED] == 1.0
        assert v["cards.deck_and_discard"][0] == pytest.approx(len(state.deck) / 48)
    state.target = -1
    assert np.array_equal(observe(state, 0)["sigils.target"], one_hot(5, 4))
