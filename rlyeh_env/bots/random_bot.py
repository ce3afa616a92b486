"""`RandomBot`: uniform over the legal actions, with its own generator."""

from __future__ import annotations

import numpy as np


class RandomBot:
    """Picks uniformly among the actions the mask allows."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("RandomBot.act called with an all-zero action mask (no legal action)")
        return int(legal[self.rng.integers(legal.size)])
