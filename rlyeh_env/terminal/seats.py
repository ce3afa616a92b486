"""What sits in each seat of a terminal game: a person, a scripted bot, or a trained checkpoint.

A seat is named by a spec: `checkpoint` (the shipped bots, checkpoints/rlyeh_v0.pt), `heuristic`,
`random`, or the path of a checkpoint file. Every bot decides from its own seat's observation
only. Checkpoint bots need PyTorch (the `train` extra) and are imported only when asked for.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from ..bots import make_bot
from ..engine.actions import NUM_ACTIONS
from ..engine.config import GameConfig
from ..engine.game import Game
from ..observation import IncrementalEncoder

HUMAN = "human"
SCRIPTED = ("heuristic", "random")
SHIPPED = "checkpoint"


class UnknownBotError(ValueError, argparse.ArgumentTypeError):
    """A seat spec that names no bot (argparse shows the message as it is)."""


def check_spec(text: str) -> str:
    """`text` if it names a kind of bot or an existing file; UnknownBotError otherwise."""
    if text in SCRIPTED or text == SHIPPED or Path(text).is_file():
        return text
    raise UnknownBotError(f"{text!r} is not a bot: use checkpoint, heuristic, random, or the path of a checkpoint file")


def parse_overrides(items: list[str], num_players: int) -> dict[int, str]:
    """`["2=random", "4=runs/x/policies.pt"]` -> {2: "random", 4: "runs/x/policies.pt"}."""
    out = {}
    for item in items:
        seat, sep, spec = item.partition("=")
        if not sep or not seat.strip().isdigit():
            raise ValueError(f"--bot takes SEAT=BOT (e.g. 2=random), got {item!r}")
        seat_number = int(seat)
        if not 0 <= seat_number < num_players:
            raise ValueError(f"--bot seat must be between 0 and {num_players - 1}, got {seat_number}")
        out[seat_number] = check_spec(spec.strip())
    return out


def _checkpoint_support():
    """(PolicyBot, load_policies, CheckpointError, the shipped checkpoint's path), imported on first
    need: only checkpoint seats need PyTorch."""
    try:
        import torch

        from training.checkpoint import CheckpointError
        from training.policy_bot import SHIPPED_CHECKPOINT, PolicyBot, load_policies
    except ImportError as err:
        raise ValueError(
            "checkpoint bots need PyTorch and the training package (pip install -e '.[train]', or `make play`); "
            f"or seat scripted bots with --bots heuristic ({err})"
        ) from err
    torch.set_num_threads(1)  # one decision at a time: a second thread only adds overhead
    return PolicyBot, load_policies, CheckpointError, SHIPPED_CHECKPOINT


class BotSeats:
    """The bots of one game: each one's seat, spec and own observation stream."""

    def __init__(self, config: GameConfig, specs: Mapping[int, str], seed: int, greedy: bool = True):
        self.config, self.specs = config, dict(specs)
        self.encoder = IncrementalEncoder(config)
        self.bots = {}
        self.checkpoint_seats: set[int] = set()
        support = None
        loaded = {}  # checkpoint path -> its policies, shared by every seat it fills
        for seat, spec in self.specs.items():
            bot_seed = seed * 10 + seat  # each seat its own, reproducible stream
            if spec in SCRIPTED:
                self.bots[seat] = make_bot(spec, bot_seed, config)
                self.bots[seat].reset(bot_seed)
                continue
            support = support or _checkpoint_support()
            policy_bot, load_policies, checkpoint_error, shipped = support
            path = shipped if spec == SHIPPED else Path(spec)
            if path not in loaded:
                try:
                    loaded[path] = load_policies(path)
                except checkpoint_error as err:
                    raise ValueError(str(err)) from err
            self.bots[seat] = policy_bot(loaded[path], greedy=greedy, seed=bot_seed)  # seeded: reset done
            self.checkpoint_seats.add(seat)

    def act(self, game: Game, seat: int) -> int:
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        mask[game.legal_actions()] = 1
        return int(self.bots[seat].act(self.encoder.observe(game.state, seat), mask))

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
