"""Playing one whole game between bots, seat by seat, on the one stepper (`Table`).

Each decision the bot in the deciding seat gets exactly what the AEC env would give that agent:
its observation and mask from the game's `Table`. Many games between line-ups, batched, are
`rlyeh_env.tournament`'s job.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from .bots.base import Bot
from .engine import EndReason, GameConfig, Role, Winner
from .table import Table

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


def _bot_seeds(seed: int, n: int) -> list[int]:
    r = random.Random(f"bots-{seed}")
    return [r.getrandbits(63) for _ in range(n)]


def _run(table: Table, bots: list[Bot], seed: int) -> GameResult:
    n = table.num_players
    if len(bots) != n:
        raise ValueError(f"need one bot per seat: {n} seats, got {len(bots)} bots")
    for bot, bot_seed in zip(bots, _bot_seeds(seed, n)):
        bot.reset(bot_seed)
    decisions = 0
    try:
        while not table.over:
            seat = table.decider
            table.step(bots[seat].act(table.observation(seat), table.action_mask()))  # illegal: IllegalActionError
            decisions += 1
    finally:
        table.close()
    state = table.state
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
    return _run(Table(config, seed), bots, seed)


def play_lineup(
    config: GameConfig, seed: int, investigator_bot_factory: BotFactory, cultist_bot_factory: BotFactory
) -> GameResult:
    """Deal the game, then seat a bot from `investigator_bot_factory` at every investigator seat
    and one from `cultist_bot_factory` at every cultist seat. The roles are read from the state
    only to choose the factory; the bots see nothing but their observations."""
    table = Table(config, seed)
    seeds = _bot_seeds(seed ^ 0x5EED, config.num_players)
    bots = [
        (cultist_bot_factory if role == Role.CULTIST else investigator_bot_factory)(s)
        for role, s in zip(table.roles, seeds)
    ]
    return _run(table, bots, seed)
