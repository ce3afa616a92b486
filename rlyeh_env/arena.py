"""Playing whole games between bots, straight on the engine (no PettingZoo overhead).

Each decision the bot in the deciding seat gets exactly what the AEC env would give that agent:
the env's encoder (`IncrementalEncoder`, bit for bit the reference `Encoder`) observing the state
for that seat, and the mask of `legal_actions` of the decider.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .bots.base import Bot
from .engine import EndReason, GameConfig, Role, Winner
from .engine.actions import NUM_ACTIONS
from .engine.game import Game
from .observation import IncrementalEncoder

BotFactory = Callable[[int], Bot]
"""Builds a bot from a seed."""


@dataclass(frozen=True)
class GameResult:
    winner: Winner
    end_reason: EndReason
    rounds: int  # rounds started (the round in progress at the end counts)
    decisions: int
    roles: tuple[Role, ...]  # per seat
    sigils: int  # sigils activated

    @property
    def investigators_won(self) -> bool:
        return self.winner == Winner.INVESTIGATORS


_ENCODERS: dict[GameConfig, IncrementalEncoder] = {}


def _encoder(config: GameConfig) -> IncrementalEncoder:
    enc = _ENCODERS.get(config)
    if enc is None:
        if len(_ENCODERS) > 32:
            _ENCODERS.clear()
        enc = _ENCODERS[config] = IncrementalEncoder(config)
    return enc


def _bot_seeds(seed: int, n: int) -> list[int]:
    r = random.Random(f"bots-{seed}")
    return [r.getrandbits(63) for _ in range(n)]


def _run(game: Game, bots: list[Bot], seed: int) -> GameResult:
    state = game.state
    n = state.num_players
    if len(bots) != n:
        raise ValueError(f"need one bot per seat: {n} seats, got {len(bots)} bots")
    for bot, bot_seed in zip(bots, _bot_seeds(seed, n)):
        bot.reset(bot_seed)
    encoder = _encoder(game.config)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    decisions = 0
    try:
        while not state.game_over:
            seat = state.decider
            legal = game.legal_actions()
            mask[:] = 0
            mask[legal] = 1
            action = bots[seat].act(encoder.observe(state, seat), mask.copy())
            game.step(action)  # an illegal action raises IllegalActionError naming the legal ones
            decisions += 1
    finally:
        encoder.forget(state)
    return GameResult(
        winner=Winner(state.winner),
        end_reason=EndReason(state.end_reason),
        rounds=state.round + 1,
        decisions=decisions,
        roles=tuple(Role(p.role) for p in state.players),
        sigils=state.sigils_activated,
    )


def play_game(config: GameConfig, seed: int, bots: list[Bot]) -> GameResult:
    """Play one game with `bots[s]` in seat s; each bot is reset (seeded from `seed`) first."""
    return _run(Game(config, seed), bots, seed)


def play_lineup(
    config: GameConfig, seed: int, investigator_bot_factory: BotFactory, cultist_bot_factory: BotFactory
) -> GameResult:
    """Deal the game, then seat a bot from `investigator_bot_factory` at every investigator seat
    and one from `cultist_bot_factory` at every cultist seat. The roles are read from the state
    only to choose the factory; the bots see nothing but their observations."""
    game = Game(config, seed)
    seeds = _bot_seeds(seed ^ 0x5EED, config.num_players)
    bots = [
        (cultist_bot_factory if p.role == Role.CULTIST else investigator_bot_factory)(s)
        for p, s in zip(game.state.players, seeds)
    ]
    return _run(game, bots, seed)


def wilson_interval(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval for a proportion of `wins` out of `n` (0, 1 when n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
