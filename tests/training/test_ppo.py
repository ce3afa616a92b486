"""`training.ppo`: the chunking of trajectories for (recurrent) minibatches, the replay of stored
recurrent states, and `ppo_update` on a small real rollout (feed-forward, recurrent, central critic)."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from rlyeh_env.engine import GameConfig, Role
from rlyeh_env.metrics import belief_targets, deal_belief_targets
from rlyeh_env.observation import SEAT_LAYOUT, TRUTH_LAYOUT
from training.config import Args
from training.ppo import chunk_indices, ppo_update
from training_testkit import EASY_RULES, collect, learners

STATS = {"policy_loss", "value_loss", "entropy", "belief_loss", "approx_kl", "clipfrac", "explained_variance"}


def test_chunk_indices_length_one_is_every_decision():
    """Length 1: one chunk per decision, in index order."""
    trajectory = torch.tensor([5, 7, 5, 9])
    assert chunk_indices(trajectory, 1).tolist() == [[0], [1], [2], [3]]


def test_chunk_indices_cut_each_trajectory_in_order_with_padding():
    """Length 2 on three interleaved trajectories: the exact chunks, padded with -1."""
    trajectory = torch.tensor([5, 7, 5, 5, 7, 9, 5, 7, 7])
    chunks = chunk_indices(trajectory, 2)
    assert sorted(chunks.tolist()) == sorted([[0, 2], [3, 6], [1, 4], [7, 8], [5, -1]])
    assert chunks.dtype == torch.int64


@pytest.mark.parametrize("length", [2, 3, 4, 16])
def test_chunk_indices_properties(length):
    """Every decision exactly once; a chunk is one trajectory's consecutive decisions in order;
    padding (-1) only at the end of a trajectory's last chunk."""
    g = torch.Generator().manual_seed(length)
    trajectory = torch.randint(0, 6, (50,), generator=g)
    chunks = chunk_indices(trajectory, length)
    assert chunks.shape[1] == length
    flat = chunks[chunks >= 0].tolist()
    assert sorted(flat) == list(range(50))
    pieces: dict[int, list[int]] = {}
    for row in chunks.tolist():
        valid = [i for i in row if i >= 0]
        assert row == valid + [-1] * (length - len(valid)) and valid
        owner = {trajectory[i].item() for i in valid}
        assert len(owner) == 1
        pieces.setdefault(owner.pop(), []).append(valid)
    for t, rows in pieces.items():
        mine = [i for i in range(50) if trajectory[i] == t]
        assert sorted(rows) == [mine[k : k + length] for k in range(0, len(mine), length)]
        assert all(len(r) == length for r in sorted(rows)[:-1])


def _rollout(recurrent: bool, central_critic: bool, seed: int = 0, shared_trunk: bool = False):
    config = GameConfig(num_players=5, sigil_reward=0.1, **EASY_RULES)
    players = learners(seed, recurrent, central_critic, shared_trunk)
    buffers, _, _ = collect(players, config, games=8, slots=4, seed=seed, central_critic=central_critic)
    return players, buffers


@pytest.mark.parametrize("central_critic,shared_trunk", [(False, False), (True, False), (False, True)],
                         ids=["own-value-trunk", "central", "shared-trunk"])
def test_recurrent_chunks_replay_the_collected_decisions(central_critic, shared_trunk):
    """Running each chunk from its stored recurrent state reproduces the log-probabilities (and
    values) recorded while playing: the stored states and the chunking agree with the play."""
    players, buffers = _rollout(recurrent=True, central_critic=central_critic, shared_trunk=shared_trunk)
    for role, buffer in buffers.items():
        net = players[role].net
        batch = buffer.finish(0.99, 0.95)
        assert ("critic_input" in batch) == central_critic
        chunks = chunk_indices(batch["trajectory"], 4)
        take, valid = chunks.clamp(min=0), chunks >= 0
        with torch.no_grad():
            features, _ = net.features(batch["obs"][take], batch["hidden"][take[:, 0]])
            logits, _ = net.heads(features, batch["masks"][take])
            log_probs = torch.log_softmax(logits, -1).gather(-1, batch["actions"][take].unsqueeze(-1)).squeeze(-1)
            values = net.value(batch["critic_input" if central_critic else "obs"][take], features)
        torch.testing.assert_close(log_probs[valid], batch["log_probs"][take][valid], atol=1e-5, rtol=0)
        torch.testing.assert_close(values[valid], batch["values"][take][valid], atol=1e-5, rtol=0)


def test_a_deals_belief_targets_are_each_seats_own_and_read_only():
    """`deal_belief_targets` (made once per deal for batched play) gives each seat what
    `belief_targets` gives it, in arrays no game can change for the others."""
    roles = (0, 1, 0, 0, 1, 0, 0)
    targets = deal_belief_targets(roles)
    assert deal_belief_targets(roles) is targets
    for seat, (target, valid) in enumerate(targets):
        expected_target, expected_valid = belief_targets(np.asarray(roles), seat)
        np.testing.assert_array_equal(target, expected_target)
        np.testing.assert_array_equal(valid, expected_valid)
        with pytest.raises(ValueError):
            target[0] = 1.0


def test_belief_targets_are_the_seat_relative_true_roles():
    """Each decision's belief targets (seats 1..7 to the decider's left) are the cultist flags of
    the seat-relative truth stored with it (the central critic's input); absent seats are invalid."""
    _, buffers = _rollout(recurrent=False, central_critic=True, seed=3)
    roles = SEAT_LAYOUT.size + TRUTH_LAYOUT["truth.roles"].start
    for buffer in buffers.values():
        truth = buffer.array("critic_input")
        true_roles = truth[:, roles : roles + 16].reshape(-1, 8, 2)
        present = true_roles.sum(-1) > 0
        np.testing.assert_array_equal(buffer.array("belief_valid"), present[:, 1:])
        np.testing.assert_array_equal(buffer.array("belief_targets"), true_roles[:, 1:, 1])
        assert (true_roles[:, 0, 1] == (buffer is buffers[Role.CULTIST])).all(), "row 0 is the decider"


@pytest.mark.parametrize(
    "recurrent,central_critic,shared_trunk",
    [(False, False, False), (True, False, False), (False, True, False), (True, True, False), (False, False, True),
     (True, False, True)],
    ids=["feedforward", "recurrent", "central", "recurrent-central", "shared-trunk", "recurrent-shared-trunk"],
)
def test_ppo_update_runs_and_changes_the_weights(recurrent, central_critic, shared_trunk):
    """Every part of the network moves; the stats are all there and finite."""
    players, buffers = _rollout(recurrent, central_critic, seed=1, shared_trunk=shared_trunk)
    args = Args(hidden=(16,), recurrent=recurrent, sequence_length=4, central_critic=central_critic,
                shared_trunk=shared_trunk, update_epochs=2, minibatch_size=32, learning_rate=1e-3)
    for role in (Role.INVESTIGATOR, Role.CULTIST):
        net, buffer = players[role].net, buffers[role]
        assert len(buffer) > 2 * args.minibatch_size  # several minibatches
        before = {k: v.clone() for k, v in net.state_dict().items()}
        optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
        stats = ppo_update(net, optimizer, buffer.finish(args.gamma, args.gae_lambda), args,
                           torch.Generator().manual_seed(0))
        assert set(stats) == STATS
        assert all(math.isfinite(v) for v in stats.values()), stats
        assert stats["entropy"] > 0 and stats["belief_loss"] > 0 and stats["value_loss"] > 0
        changed = {k for k, v in net.state_dict().items() if not torch.equal(v, before[k])}
        for part in ("trunk.", "actor.", "belief.", "critic.1.") + (("gru.",) if recurrent else ()):
            assert any(k.startswith(part) for k in changed), f"{part} did not move"
        assert any(k.startswith("critic.0.") for k in before) != shared_trunk  # a value trunk unless shared


def test_ppo_update_is_reproducible():
    """Same rollout, same weights, same shuffle seed: the same update."""
    results = []
    for _ in range(2):
        players, buffers = _rollout(recurrent=True, central_critic=False, seed=2)
        net = players[Role.CULTIST].net
        args = Args(hidden=(16,), recurrent=True, sequence_length=4, update_epochs=2, minibatch_size=64)
        optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
        stats = ppo_update(net, optimizer, buffers[Role.CULTIST].finish(0.99, 0.95), args,
                           torch.Generator().manual_seed(4))
        results.append((stats, net.state_dict()))
    (s1, w1), (s2, w2) = results
    assert s1 == s2
    assert all(torch.equal(w1[k], w2[k]) for k in w1)


@pytest.mark.parametrize("recurrent,central_critic,shared_trunk",
                         [(False, False, False), (True, False, False), (False, True, False), (False, False, True)],
                         ids=["feedforward", "recurrent", "central", "shared-trunk"])
def test_bf16_update_computes_the_float32_objective(recurrent, central_critic, shared_trunk):
    """Under bfloat16 autocast the update sees the same losses as in float32 (to bf16 precision)
    and still moves the weights, which stay float32."""
    stats = {}
    for bf16 in (False, True):
        players, buffers = _rollout(recurrent, central_critic, seed=5, shared_trunk=shared_trunk)
        net = players[Role.INVESTIGATOR].net
        args = Args(hidden=(16,), recurrent=recurrent, sequence_length=4, central_critic=central_critic,
                    shared_trunk=shared_trunk, update_epochs=1, minibatch_size=4096, learning_rate=1e-3, bf16=bf16)
        before = {k: v.clone() for k, v in net.state_dict().items()}
        optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
        stats[bf16] = ppo_update(net, optimizer, buffers[Role.INVESTIGATOR].finish(0.99, 0.95), args,
                                 torch.Generator().manual_seed(0))
        assert all(v.dtype == torch.float32 for v in net.state_dict().values())
        assert any(not torch.equal(v, before[k]) for k, v in net.state_dict().items())
    # one full-batch step from the stored rollout: the float32 ratio is exactly 1
    assert stats[False]["approx_kl"] == pytest.approx(0.0, abs=1e-9)
    for name in ("value_loss", "entropy", "belief_loss"):  # (the policy loss is ~0 at ratio 1 in both)
        assert stats[True][name] == pytest.approx(stats[False][name], rel=0.02, abs=2e-3), name
    assert 0.0 < stats[True]["approx_kl"] < 1e-3  # bf16 rounding of the logits (so it did run in bf16), no more
