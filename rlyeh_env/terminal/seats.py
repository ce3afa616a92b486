"""What sits in each seat of a game at the terminal or browser table: a person, a scripted bot, or
a trained checkpoint.

Seats are named as everywhere else (`rlyeh_env.players`): `checkpoint` (the shipped bots),
`heuristic`, `random`, or the path of a checkpoint file. Every bot decides from its own seat's
observation and mask, taken from the game's `Table` like any other player's.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..ablation import split_name
from ..engine.config import GameConfig
from ..players import SCRIPTED, SHIPPED, PolicyCache, make_bot
from ..table import Table

HUMAN = "human"

__all__ = ["HUMAN", "SHIPPED", "BotSeats"]


class BotSeats:
    """The bots of one game: each one's seat and name."""

    def __init__(self, config: GameConfig, specs: Mapping[int, str], seed: int, greedy: bool = True,
                 cache: PolicyCache | None = None):
        self.config, self.specs = config, dict(specs)
        self.bots = {}
        self.checkpoint_seats: set[int] = set()
        cache = cache or PolicyCache()  # a checkpoint filling many seats (or tables) is loaded once
        for seat, name in self.specs.items():
            bot_seed = seed * 10 + seat  # each seat its own, reproducible stream
            self.bots[seat] = make_bot(name, bot_seed, config, greedy=greedy, cache=cache)
            if split_name(name)[0] not in SCRIPTED:
                self.checkpoint_seats.add(seat)
        if self.checkpoint_seats:
            import torch

            torch.set_num_threads(1)  # one decision at a time: a second thread only adds overhead

    def act(self, table: Table, seat: int) -> int:
        return int(self.bots[seat].act(table.observation(seat), table.action_mask()))

    def suspicions(self) -> dict[int, list[float]]:
        """For every checkpoint bot: P(cultist) of each seat, by absolute seat (NaN for itself)."""
        n = self.config.num_players
        out = {}
        for seat in sorted(self.checkpoint_seats):
            by_offset = self.bots[seat].beliefs()  # index k-1: the seat k places to its left
            row = [float("nan")] * n
            for offset in range(1, n):
                row[(seat + offset) % n] = float(by_offset[offset - 1])
            out[seat] = row
        return out
