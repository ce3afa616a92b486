"""Observation semantics: the past, votes and revealed roles, incantation records, the
suspicion totals and the history-mode log.

Offsets inside rows are taken from the spec (the env module docstring), not from the encoder.
"""

from __future__ import annotations

import numpy as np
import pytest

from observation_testkit import (
    I_CARDS,
    I_HOUR,
    I_MATCH,
    I_MINE,
    I_SEATS,
    I_SUCCESS,
    I_TARGET,
    P_REVEALED,
    V_ACCUSED,
    V_HOUR,
    V_KIND,
    V_NO,
    V_PASSED,
    V_PROPOSER,
    V_ROLE,
    V_YES,
    declared,
    observe,
    one_hot,
    rel,
)
from rlyeh_env.engine import Phase, apply_action
from rlyeh_env.engine import actions as A
from rlyeh_env.observation import SEATS
from scenario import set_hand, set_pool


def _accuse_and_vote(state, rng, accused, yes=True):
    proposer = state.decider
    apply_action(state, A.ACCUSE + rel(state, proposer, accused) - 1, rng)
    voters = []
    while state.phase == Phase.VOTE:
        voters.append(state.decider)
        # the vote in progress is public: every seat sees its kind, proposer and accused
        for seat in range(state.num_players):
            v = observe(state, seat)
            assert np.array_equal(v["decision.vote_kind"], one_hot(2, 0))
            assert np.array_equal(v["decision.vote_proposer"], one_hot(SEATS, rel(state, seat, proposer)))
            assert np.array_equal(v["decision.vote_accused"], one_hot(SEATS, rel(state, seat, accused)))
            assert np.array_equal(v["decision.phase"], one_hot(11, Phase.VOTE))
        apply_action(state, A.VOTE_YES if yes else A.VOTE_NO, rng)
    return proposer, voters


@pytest.mark.parametrize("accuse_cultist", [False, True])
def test_revealed_role_is_shown_to_every_seat(accuse_cultist):
    state, rng = declared(n=6, seed=11)
    proposer = state.decider
    candidates = [s for s, p in enumerate(state.players) if s != proposer and p.role == int(accuse_cultist)]
    accused = candidates[0]
    role = state.players[accused].role
    _, voters = _accuse_and_vote(state, rng, accused)
    assert state.players[accused].revealed
    record = state.votes[-1]
    for seat in range(6):
        v = observe(state, seat)
        k = rel(state, seat, accused)
        assert np.array_equal(v["me.known_roles"][k], one_hot(3, 1 + role))
        assert np.array_equal(v["players"][k, P_REVEALED : P_REVEALED + 3], one_hot(3, 1 + role))
        # the vote is over: no vote context, one vote in the history
        assert not v["decision.vote_kind"].any() and not v["decision.vote_proposer"].any()
        row = v["history.votes"][0]
        assert row[0] == 1.0 and not v["history.votes"][1:].any()
        assert row[V_KIND] == 1.0 and row[V_PROPOSER + rel(state, seat, proposer)] == 1.0
        assert row[V_ACCUSED + k] == 1.0 and row[V_PASSED] == 1.0
        assert np.array_equal(row[V_ROLE : V_ROLE + 2], one_hot(2, role))
        assert row[V_HOUR] == pytest.approx(record.hour / 12)
        yes = [s for s in range(6) if record.votes[s] == 1]
        assert sorted(yes) == sorted(voters + [proposer])
        for s in range(6):
            assert row[V_YES + rel(state, seat, s)] == float(s in yes)
            assert row[V_NO + rel(state, seat, s)] == 0.0
        # suspicion: 5 accusations that revealed an investigator, 6 Yes votes revealing one
        sus = v["history.suspicion"]
        for s in range(6):
            kk = rel(state, seat, s)
            if role == 0:
                assert sus[kk, 5] == (0.25 if s == proposer else 0.0)
                assert sus[kk, 6] == (0.25 if s in yes else 0.0)
            else:
                assert sus[kk, 5] == sus[kk, 6] == sus[kk, 7] == 0.0  # nobody voted No
    if role == 0:
        assert np.array_equal(observe(state, 0)["clock.hour"], one_hot(13, state.hour))


def test_no_votes_against_a_revealed_cultist_are_counted():
    state, rng = declared(n=6, seed=11)
    proposer = state.decider
    accused = next(s for s, p in enumerate(state.players) if p.role == 1 and s != proposer)
    apply_action(state, A.ACCUSE + rel(state, proposer, accused) - 1, rng)
    no_voters = []
    while state.phase == Phase.VOTE:
        # one No, then Yes: the vote still passes with 6 voters (proposer + 3 Yes out of 5)
        vote = A.VOTE_NO if not no_voters else A.VOTE_YES
        if vote == A.VOTE_NO:
            no_voters.append(state.decider)
        apply_action(state, vote, rng)
    assert state.votes[-1].passed and state.players[accused].revealed
    for seat in range(6):
        sus = observe(state, seat)["history.suspicion"]
        for s in range(6):
            assert sus[rel(state, seat, s), 7] == (0.25 if s in no_voters else 0.0)


@pytest.mark.parametrize("success", [False, True])
def test_incantation_record_in_history(success):
    state, rng = declared(n=5, seed=6, target=0)
    w = state.watch
    s1, s2, s3, s4 = [(w + k) % 5 for k in range(1, 5)]
    # Ithaqua is the target, Zhar its opposite. s2 played its Zhar face up.
    cards = [(0, s1, False), (0, s1, False), (1, s2, True), (2, s3, False), (0, s4, False)]
    cards.append((0 if success else 3, s1, False))
    set_pool(state, cards)
    set_hand(state, w, [1, 1, 1, 0])
    mine_before = {s: list(state.players[s].memory.pool_mine) for s in range(5)}
    mine_before[w][0] += 1
    hour = state.hour
    apply_action(state, A.CONTRIBUTE + 0, rng)  # the seventh card: the pool resolves
    record = state.incantations[-1]
    assert record.success == success
    expected_cards = [5, 1, 1, 0] if success else [4, 1, 1, 1]
    assert record.cards == expected_cards
    contributions = {w: 1, s1: 3, s2: 1, s3: 1, s4: 1}
    for seat in range(5):
        for mode in ("seat", "history"):
            v = observe(state, seat, mode)
            row = v["history.incantations"][0]
            assert not v["history.incantations"][1:].any()
            assert row[0] == 1.0
            assert np.array_equal(row[I_TARGET : I_TARGET + 4], one_hot(4, 0))
            assert np.allclose(row[I_CARDS : I_CARDS + 4], np.array(expected_cards) / 7)
            opp = expected_cards[1]
            assert np.allclose(row[I_MATCH : I_MATCH + 3], np.array([expected_cards[0], opp, 7 - expected_cards[0] - opp]) / 7)
            assert row[I_SUCCESS] == float(success)
            assert row[I_HOUR] == pytest.approx(hour / 12)
            per_seat = row[I_SEATS : I_SEATS + 4 * SEATS].reshape(SEATS, 4)
            for s in range(5):
                k = rel(state, seat, s)
                assert per_seat[k, 0] == pytest.approx(contributions[s] / 7)
                assert per_seat[k, 1] == pytest.approx((1 / 7) if s == s2 else 0.0)  # face-up opposite
            assert np.allclose(row[I_MINE : I_MINE + 4], np.array(mine_before[seat]) / 7), "my own cards"
            assert v["sigils.activated"][0] == float(success)
            sus = v["history.suspicion"]
            for s in range(5):
                k = rel(state, seat, s)
                fed = min(contributions[s], 4) / 4
                assert sus[k, 0] == pytest.approx(0.0 if success else fed)
                assert sus[k, 1] == pytest.approx(fed if success else 0.0)
                assert sus[k, 2] == pytest.approx(0.25 if s == s2 else 0.0)
            # the pool of the next incantation is empty, and so is my memory of it
            assert v["pool.size"][0] == 0.0 and not v["me.pool_mine"].any() and not v["pool.contributions"].any()
        assert state.players[seat].memory.past_mine[-1] == mine_before[seat]


def test_history_log_shows_public_and_own_private_events():
    state, rng = declared(n=5, seed=2)
    gambler = state.decider
    apply_action(state, A.GAMBLE, rng)
    from rlyeh_env.engine.state import EVENT_KINDS

    drew = EVENT_KINDS.index("gamble_drew")
    gambled = EVENT_KINDS.index("gambled")
    for seat in range(5):
        log = observe(state, seat, "history")["log"]
        kinds = log[:, : len(EVENT_KINDS)]
        assert kinds[:, gambled].sum() == 1.0
        assert kinds[:, drew].sum() == (2.0 if seat == gambler else 0.0)
        assert (kinds.sum(axis=1) <= 1).all()
