"""`BeliefAccuser`: it accuses the surest legal seat past `accuse_at`, votes on an accusation by
its belief in the accused (read from the voter's own observation), or Yes on every vote when
asked, and otherwise plays the wrapped policy's own choices. `BluffingCultist`: it accuses a legal
seat at its rate, replays by seed, and votes Yes on accusations only."""

from __future__ import annotations

import numpy as np
import pytest

from rlyeh_env.accuser import BeliefAccuser, BluffingCultist
from rlyeh_env.engine import GameConfig
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import VoteKind
from rlyeh_env.observation import SEAT_LAYOUT
from rlyeh_env.table import Table


class FixedBeliefs:
    """A side player that always answers its first legal action, with the belief logits it is given."""

    name = "fixed"

    def __init__(self, logits):
        self.logits = np.asarray(logits, dtype=np.float32)

    def act(self, keys, observations, masks):
        first = [int(np.flatnonzero(row)[0]) for row in np.asarray(masks)]
        return first, np.tile(self.logits, (len(keys), 1))


def _masks(*legal_sets):
    masks = np.zeros((len(legal_sets), A.NUM_ACTIONS), dtype=np.int8)
    for row, legal in enumerate(legal_sets):
        masks[row, list(legal)] = 1
    return masks


def test_it_accuses_its_surest_legal_seat_past_the_threshold():
    logits = [3.0, 0.0, 4.0, -2.0, -2.0, -2.0, -2.0]  # surest of offset 3, then offset 1
    accuser = BeliefAccuser(FixedBeliefs(logits), accuse_at=0.9)
    every = {A.RESEARCH, *range(A.ACCUSE, A.ACCUSE + 4)}
    without_3 = every - {A.ACCUSE + 2}  # offset 3 already revealed: the next surest, offset 1
    masks = _masks(every, without_3, {A.RESEARCH}, {A.VOTE_YES, A.VOTE_NO})
    observations = np.zeros((4, SEAT_LAYOUT.size), dtype=np.float32)
    actions, _ = accuser.act([(0, s) for s in range(4)], observations, masks)
    assert actions == [A.ACCUSE + 2, A.ACCUSE + 0, A.RESEARCH, A.VOTE_NO]  # the vote is the policy's own
    unsure = BeliefAccuser(FixedBeliefs([1.0] * 7), accuse_at=0.9)  # P = 0.73 < 0.9
    assert unsure.act([(0, 0)], observations[:1], masks[:1])[0] == [A.RESEARCH]
    voter = BeliefAccuser(FixedBeliefs(logits), accuse_at=0.9, yes_to_all=True)
    assert voter.act([(0, 3)], observations[3:], masks[3:])[0] == [A.VOTE_YES]


def _first_accusation_vote(num_players: int, seed: int):
    """A table whose first decider accused the seat 2 places to its left and whose next decider
    votes on it: (table, the voter's offset to the accused)."""
    table = Table(GameConfig(num_players=num_players), seed)
    while not table.mask_of(table.decider)[A.ACCUSE + 1]:
        table.step(A.RESEARCH if table.action_mask()[A.RESEARCH] else table.legal_actions()[0])
    accuser = table.decider
    accused = (accuser + 2) % num_players
    table.step(A.ACCUSE + 1)
    return table, (accused - table.decider) % num_players


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_it_votes_on_an_accusation_by_its_belief_in_the_accused(seed):
    table, offset = _first_accusation_vote(6, seed)
    assert offset >= 1 and table.action_mask()[A.VOTE_YES]
    observation, mask = table.observation(table.decider)[None], table.action_mask()[None]
    sure_of_accused = np.full(7, -3.0)
    sure_of_accused[offset - 1] = 3.0  # P = 0.95 for the accused, 0.05 for everyone else
    sure_of_another = np.roll(sure_of_accused, 1)
    for logits, expected in ((sure_of_accused, A.VOTE_YES), (sure_of_another, A.VOTE_NO)):
        for first in (A.VOTE_NO, A.VOTE_YES):  # whatever the policy would vote
            policy = FixedBeliefs(logits)
            policy.act = lambda keys, obs, masks, policy=policy, first=first: ([first], policy.logits[None])
            voter = BeliefAccuser(policy, accuse_at=1.0, vote_at=0.5)
            assert voter.act([(0, 0)], observation, mask)[0] == [expected]


def test_a_necronomicon_vote_is_left_to_the_policy():
    observation = np.zeros((1, SEAT_LAYOUT.size), dtype=np.float32)
    observation[0, SEAT_LAYOUT["decision.vote_kind"].start + 1] = 1.0  # a Necronomicon proposal
    voter = BeliefAccuser(FixedBeliefs([5.0] * 7), accuse_at=1.0, vote_at=0.5)
    assert voter.act([(0, 0)], observation, _masks({A.VOTE_NO, A.VOTE_YES}))[0] == [A.VOTE_NO]


def test_thresholds_outside_0_1_are_refused():
    with pytest.raises(ValueError, match="vote_at must lie within 0 and 1"):
        BeliefAccuser(FixedBeliefs([0.0] * 7), accuse_at=0.9, vote_at=1.5)


class Quiet:
    """A side player that always answers Research or, in a vote, No: it never accuses."""

    name = "quiet"

    def start(self, key, seed, config):
        pass

    def finish(self, key):
        pass

    def act(self, keys, observations, masks):
        return [A.RESEARCH if row[A.RESEARCH] else A.VOTE_NO for row in np.asarray(masks)], None


def test_a_bluffing_cultist_accuses_a_legal_seat_at_its_rate_and_replays_by_seed():
    legal = {A.RESEARCH, A.ACCUSE + 1, A.ACCUSE + 4}  # two accusable seats
    masks = _masks(*[legal] * 2000)
    observations = np.zeros((2000, SEAT_LAYOUT.size), dtype=np.float32)
    keys = [(game, 0) for game in range(2000)]

    def play(rate, seed):
        cultist = BluffingCultist(Quiet(), accuse_rate=rate)
        for k, key in enumerate(keys):
            cultist.start(key, seed + k, None)
        return np.array(cultist.act(keys, observations, masks)[0])

    actions = play(0.2, seed=1)
    accused = actions != A.RESEARCH
    assert 0.17 <= accused.mean() <= 0.23
    assert set(actions[accused]) == {A.ACCUSE + 1, A.ACCUSE + 4}, "only legal seats, each of them"
    assert (play(0.2, seed=1) == actions).all() and not (play(0.2, seed=2) == actions).all()
    assert (play(0.0, seed=1) == A.RESEARCH).all()
    only_research = BluffingCultist(Quiet(), accuse_rate=1.0)
    only_research.start((0, 0), 0, None)
    assert only_research.act([(0, 0)], observations[:1], _masks({A.RESEARCH}))[0] == [A.RESEARCH]


def test_a_bluffing_cultist_votes_yes_on_accusations_and_leaves_necronomicon_votes_alone():
    cultist = BluffingCultist(Quiet(), accuse_rate=0.5)
    cultist.start((0, 0), 0, None)
    vote = _masks({A.VOTE_NO, A.VOTE_YES})
    for kind, expected in ((VoteKind.ACCUSATION, A.VOTE_YES), (VoteKind.NECRONOMICON, A.VOTE_NO)):
        observation = np.zeros((1, SEAT_LAYOUT.size), dtype=np.float32)
        observation[0, SEAT_LAYOUT["decision.vote_kind"].start + kind] = 1.0
        assert cultist.act([(0, 0)], observation, vote)[0] == [expected]
    with pytest.raises(ValueError, match="accuse_rate must lie within 0 and 1"):
        BluffingCultist(Quiet(), accuse_rate=-0.1)
