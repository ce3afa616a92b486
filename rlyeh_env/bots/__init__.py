"""Scripted players: `RandomBot` (uniform over legal actions) and `HeuristicBot` (plays both
roles from its own observation). Both follow the `Bot` protocol: `act(observation, mask)` and
`reset(seed)`. `make_bot(name, seed)` builds one by name."""

from __future__ import annotations

from ..engine.config import GameConfig
from .base import Bot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: int | None = None, config: GameConfig | None = None) -> Bot:
    """A bot by name ("random" or "heuristic"), seeded; `config` tells the heuristic the rules'
    numbers (the defaults when omitted)."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}")
    if name == "heuristic":
        return HeuristicBot(seed, config=config)
    return BOTS[name](seed)


__all__ = ["BOTS", "Bot", "HeuristicBot", "RandomBot", "make_bot"]
