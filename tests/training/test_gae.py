"""`training.buffer`: GAE along linked per-agent trajectories (a hand-computed example and the
lambda = 1 / lambda = 0 limits) and the `RolloutBuffer` bookkeeping (`add` links, `credit`, `finish`)."""

from __future__ import annotations

import numpy as np
import pytest

from training.buffer import RolloutBuffer, gae


def test_gae_hand_computed_interleaved_trajectories():
    """Agent A decides at 0, 2, 4 and agent B at 1, 3; gamma 0.9, lambda 0.8 (gamma * lambda = 0.72)."""
    rewards = np.array([0.5, 0.0, 0.0, 1.0, -1.0], dtype=np.float32)
    values = np.array([0.2, 0.1, 0.4, 0.3, 0.5], dtype=np.float32)
    next_index = np.array([2, 3, 4, -1, -1])
    advantages, returns = gae(rewards, values, next_index, gamma=0.9, lam=0.8)
    # A, last decision 4:  r4 - v4                          = -1 - 0.5            = -1.5
    # A, decision 2: delta = r2 + 0.9 v4 - v2 = 0.45 - 0.4   = 0.05;  0.05 + 0.72 (-1.5)   = -1.03
    # A, decision 0: delta = 0.5 + 0.9 * 0.4 - 0.2           = 0.66;  0.66 + 0.72 (-1.03)  = -0.0816
    # B, last decision 3:  r3 - v3                          = 1 - 0.3             = 0.7
    # B, decision 1: delta = 0 + 0.9 * 0.3 - 0.1             = 0.17;  0.17 + 0.72 * 0.7    = 0.674
    expected = np.array([-0.0816, 0.674, -1.03, 0.7, -1.5])
    np.testing.assert_allclose(advantages, expected, atol=1e-6)
    np.testing.assert_allclose(returns, expected + values, atol=1e-6)
    assert advantages.dtype == np.float32


def _random_linked(rng: np.random.Generator, agents: int, length: int):
    """Decisions of `agents` agents in a random interleaving, with random rewards and values."""
    owners = rng.integers(0, agents, size=length)
    next_index = np.full(length, -1)
    last: dict[int, int] = {}
    for i, owner in enumerate(owners):
        if owner in last:
            next_index[last[owner]] = i
        last[owner] = i
    rewards = rng.normal(size=length).astype(np.float32)
    values = rng.normal(size=length).astype(np.float32)
    return owners, rewards, values, next_index


@pytest.mark.parametrize("seed", range(3))
def test_gae_limits_along_each_agents_own_trajectory(seed):
    """lambda = 1: returns are each agent's discounted sum of its own rewards (no bootstrap at the
    end); lambda = 0: advantages are one-step TD errors along the agent's own links."""
    rng = np.random.default_rng(seed)
    owners, rewards, values, next_index = _random_linked(rng, agents=4, length=40)
    gamma = 0.9
    _, returns = gae(rewards, values, next_index, gamma, 1.0)
    for agent in set(owners.tolist()):
        mine = np.flatnonzero(owners == agent)
        own_rewards = rewards[mine]
        for k, i in enumerate(mine):
            discounted = sum(gamma**j * r for j, r in enumerate(own_rewards[k:]))
            assert returns[i] == pytest.approx(discounted, abs=1e-4)
    advantages, _ = gae(rewards, values, next_index, gamma, 0.0)
    bootstrap = np.where(next_index >= 0, values[np.maximum(next_index, 0)], 0.0)
    np.testing.assert_allclose(advantages, rewards + gamma * bootstrap - values, atol=1e-5)


def test_buffer_add_links_each_trajectory_in_order():
    """Rows are appended in call order; `next_index` links each trajectory's consecutive decisions."""
    buffer = RolloutBuffer()
    buffer.add([10, 11], x=np.array([0, 1]))
    buffer.add([10], x=np.array([2]))
    buffer.add([11, 12, 10], x=np.array([3, 4, 5]))
    assert len(buffer) == 6
    assert buffer.trajectory == [10, 11, 10, 11, 12, 10]
    assert buffer.next_index == [2, 3, 5, -1, -1, -1]
    np.testing.assert_array_equal(buffer.array("x"), np.arange(6))
    assert buffer.rewards == [0.0] * 6


def test_buffer_credit_goes_to_the_latest_decision_of_that_trajectory():
    """Credit adds up on the trajectory's latest decision; before its first decision it is dropped."""
    buffer = RolloutBuffer()
    buffer.credit(7, 5.0)  # no decision of 7 yet: nothing to credit
    buffer.add([7, 8], x=np.zeros(2))
    buffer.credit(7, 0.25)
    buffer.credit(8, -1.0)
    buffer.add([7], x=np.zeros(1))
    buffer.credit(7, 0.5)
    buffer.credit(7, 1.0)
    buffer.credit(9, 3.0)  # unknown trajectory
    assert buffer.rewards == [0.25, -1.0, 1.5]


def test_buffer_finish_runs_gae_on_its_own_links():
    """`finish` returns tensors of every stored array plus rewards, advantages, returns, links."""
    buffer = RolloutBuffer()
    buffer.add([0, 1], values=np.array([0.2, 0.1], dtype=np.float32), actions=np.array([3, 4]))
    buffer.add([0, 1], values=np.array([0.4, 0.3], dtype=np.float32), actions=np.array([5, 6]))
    buffer.credit(0, 0.5)
    buffer.credit(1, 1.0)
    buffer.credit(0, -1.0)
    batch = buffer.finish(gamma=0.9, lam=0.8)
    advantages, returns = gae(np.array([0.0, 0.0, -0.5, 1.0], dtype=np.float32),
                              np.array([0.2, 0.1, 0.4, 0.3], dtype=np.float32), np.array([2, 3, -1, -1]), 0.9, 0.8)
    np.testing.assert_allclose(batch["advantages"].numpy(), advantages)
    np.testing.assert_allclose(batch["returns"].numpy(), returns)
    assert batch["next_index"].tolist() == [2, 3, -1, -1]
    assert batch["trajectory"].tolist() == [0, 1, 0, 1]
    assert batch["actions"].tolist() == [3, 4, 5, 6]
    assert batch["rewards"].tolist() == [0.0, 0.0, -0.5, 1.0]
