"""`RolloutBuffer`: one learner policy's decisions, kept as per-agent trajectories.

The game is turn-based: between two decisions of an agent, other agents move, and a reward (a
sigil activated, the end of the game) can land on any step. Each agent's decisions form its own
trajectory (one per seat per game), linked by `next_index`; a reward paid to an agent is added
to that agent's most recent decision, whoever moved (`credit`). `gae` then runs along those links.
"""

from __future__ import annotations

import numpy as np
import torch


def gae(
    rewards: np.ndarray, values: np.ndarray, next_index: np.ndarray, gamma: float, lam: float
) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimation over linked trajectories.

    `next_index[i]` is the index of the same agent's next decision, or -1 when decision i was
    its last of the game (then nothing is bootstrapped: the game ended). Every next index is
    larger than its own, so one reversed pass sees each successor first. Returns (advantages,
    returns = advantages + values)."""
    advantages = np.zeros(len(rewards), dtype=np.float32)
    for i in range(len(rewards) - 1, -1, -1):
        j = next_index[i]
        if j < 0:
            advantages[i] = rewards[i] - values[i]
        else:
            delta = rewards[i] + gamma * values[j] - values[i]
            advantages[i] = delta + gamma * lam * advantages[j]
    return advantages, advantages + values


class RolloutBuffer:
    """Decisions of one policy. Arrays are gathered per batched forward and joined at the end."""

    def __init__(self):
        self._arrays: dict[str, list[np.ndarray]] = {}
        self.rewards: list[float] = []
        self.next_index: list[int] = []
        self.trajectory: list[int] = []  # trajectory id of each decision (one per seat per game)
        self._last: dict[int, int] = {}  # trajectory id -> index of its latest decision

    def __len__(self) -> int:
        return len(self.rewards)

    def add(self, trajectories: list[int], **arrays: np.ndarray) -> None:
        """Append one decision per entry of `trajectories` (row i of every array is decision i)."""
        for name, array in arrays.items():
            self._arrays.setdefault(name, []).append(array)
        for trajectory in trajectories:
            index = len(self.rewards)
            previous = self._last.get(trajectory)
            if previous is not None:
                self.next_index[previous] = index
            self._last[trajectory] = index
            self.rewards.append(0.0)
            self.next_index.append(-1)
            self.trajectory.append(trajectory)

    def credit(self, trajectory: int, reward: float) -> None:
        """Add `reward` to the trajectory's latest decision (no-op before its first decision)."""
        index = self._last.get(trajectory)
        if index is not None:
            self.rewards[index] += reward

    def array(self, name: str) -> np.ndarray:
        return np.concatenate(self._arrays[name])

    def finish(self, gamma: float, lam: float) -> dict[str, torch.Tensor]:
        """Everything the PPO update needs, as tensors (advantages and returns included)."""
        rewards = np.asarray(self.rewards, dtype=np.float32)
        next_index = np.asarray(self.next_index, dtype=np.int64)
        values = self.array("values")
        advantages, returns = gae(rewards, values, next_index, gamma, lam)
        batch = {name: torch.from_numpy(self.array(name)) for name in self._arrays}
        batch.update(
            rewards=torch.from_numpy(rewards),
            advantages=torch.from_numpy(advantages),
            returns=torch.from_numpy(returns),
            next_index=torch.from_numpy(next_index),
            trajectory=torch.tensor(self.trajectory, dtype=torch.int64),
        )
        return batch
