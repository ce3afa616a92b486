"""`PolicyPlayer`: one policy network seated at many tables at once (one forward per batch).

The tournament runner (`rlyeh_env.tournament`) gathers every table waiting on the same player
and asks it for all their actions in one call; a network answers with one batched forward,
which is what makes thousands of evaluation games take minutes. Each row is decided from that
seat's observation and mask only.
"""

from __future__ import annotations

import numpy as np
import torch

from .network import ActorCritic, decide


class PolicyPlayer:
    """`net` at every seat of its side; `greedy` takes the most probable legal action, else it
    samples from its own generator (seeded by `seed`)."""

    def __init__(self, net: ActorCritic, name: str, greedy: bool = True, seed: int = 0):
        self.net, self.name, self.greedy = net, name, greedy
        self.generator = torch.Generator().manual_seed(seed % (2**63))
        self._hidden: dict[tuple, torch.Tensor] = {}  # (game, seat) -> recurrent state

    def new_match(self, seed: int) -> None:
        """Re-seed the sampling generator: a match replays exactly given its seed."""
        self.generator.manual_seed(seed % (2**63))

    def start(self, key: tuple, seed: int, config) -> None:
        if self.net.recurrent:
            self._hidden[key] = self.net.initial_state(1)[0]

    def finish(self, key: tuple) -> None:
        self._hidden.pop(key, None)

    def act(self, keys: list[tuple], observations: np.ndarray, masks: np.ndarray) -> tuple[list[int], np.ndarray]:
        """Actions for every (game, seat) in `keys`, and the belief logits behind them."""
        hidden = torch.stack([self._hidden[key] for key in keys]) if self.net.recurrent else None
        out = decide(self.net, torch.from_numpy(observations), torch.from_numpy(masks).bool(), hidden,
                     self.greedy, self.generator)
        if hidden is not None:
            for key, state in zip(keys, out["hidden"]):
                self._hidden[key] = state
        return out["actions"].tolist(), out["belief"].numpy()
