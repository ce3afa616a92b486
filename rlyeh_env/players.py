"""The player registry: what a name at a seat or in a line-up stands for, checked in one place.

    random, heuristic    the scripted bots (`rlyeh_env.bots`)
    checkpoint           the shipped bots (`rlyeh_env.policy.shipped_checkpoint()`)
    v0, ...              a shipped version by name (`checkpoint` is the newest, `rlyeh_env.checkpoints`)
    PATH                 a checkpoint file (a run's `policies.pt` or `checkpoint.pt`)
    NAME:no-accuse       any of these without some of its choices (`rlyeh_env.ablation`)

One syntax everywhere (`rlyeh play`, `rlyeh watch`, `rlyeh eval`, `scripts/balance.py`): a
line-up is `INVESTIGATORS,CULTISTS` (`heuristic,checkpoint`), a seat override is `SEAT=NAME`
(`2=random`). Checkpoint players need PyTorch, imported only when one is asked for.

Two shapes of player come out of it: `make_bot` gives one `Bot` for one seat (the terminal
table); `make_side_player` gives a player for every seat of a side of many games at once
(`ScriptedPlayer`, or a batched `PolicyPlayer`), which the tournament runner drives.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from .ablation import ABLATABLE_NAMES, AblatedBot, AblatedPlayer, split_name
from .bots import make_bot as make_scripted_bot
from .bots.base import Bot
from .checkpoints import VERSIONS
from .engine import GameConfig, Role

SCRIPTED = ("random", "heuristic")
SHIPPED = "checkpoint"
NAMES = SCRIPTED + (SHIPPED,) + VERSIONS
WHAT_A_PLAYER_IS = f"random, heuristic, checkpoint, a shipped version ({', '.join(VERSIONS)}) or a checkpoint file"
TABLE_SIZES = range(4, 9)


class UnknownPlayerError(ValueError, argparse.ArgumentTypeError):
    """A name or line-up that stands for no player (argparse shows the message as it is)."""


def check_player(text: str) -> str:
    """`text` if it names a kind of player or an existing file, with or without ablations
    (`heuristic:no-accuse`)."""
    try:
        base, _ = split_name(text)
    except ValueError as err:
        raise UnknownPlayerError(str(err)) from None
    if base in NAMES or Path(base).is_file():
        return text
    raise UnknownPlayerError(
        f"{base!r} is not a bot: use {WHAT_A_PLAYER_IS} (NAME:no-accuse takes away a choice: {ABLATABLE_NAMES})"
    )


def parse_lineup(text: str) -> tuple[str, str]:
    """`"heuristic,checkpoint"` -> ("heuristic", "checkpoint"): investigators, cultists."""
    parts = text.split(",")
    if len(parts) != 2 or not all(part.strip() for part in parts):
        raise UnknownPlayerError(
            f"a line-up is INVESTIGATORS,CULTISTS (each {WHAT_A_PLAYER_IS}), got {text!r}"
        )
    return check_player(parts[0].strip()), check_player(parts[1].strip())


def check_table_size(num_players: int) -> int:
    if num_players not in TABLE_SIZES:
        raise UnknownPlayerError(f"a table has 4 to 8 players, got {num_players}")
    return num_players


def parse_seat_overrides(items: list[str], num_players: int) -> dict[int, str]:
    """`["2=random", "4=runs/x/policies.pt"]` -> {2: "random", 4: "runs/x/policies.pt"}."""
    check_table_size(num_players)
    out = {}
    for item in items:
        seat, sep, name = item.partition("=")
        if not sep or not seat.strip().isdecimal():
            raise UnknownPlayerError(f"--bot takes SEAT=BOT (e.g. 2=random), got {item!r}")
        seat_number = int(seat)
        if not 0 <= seat_number < num_players:
            raise UnknownPlayerError(f"--bot seat must be between 0 and {num_players - 1}, got {seat_number}")
        out[seat_number] = check_player(name.strip())
    return out


def checkpoint_file(name: str) -> Path:
    """The checkpoint file a checkpoint player's name stands for."""
    base, blocks = split_name(name)
    if blocks:
        raise UnknownPlayerError(f"{name!r} is {base!r} with choices taken away; it has no checkpoint file of its own")
    if name == SHIPPED or name in VERSIONS:
        from .policy.shipped import shipped_checkpoint

        return shipped_checkpoint() if name == SHIPPED else shipped_checkpoint(name)
    return Path(name)


class PolicyCache:
    """Checkpoint policies by file, loaded once however many seats or match-ups they fill."""

    def __init__(self):
        self._loaded: dict[Path, dict] = {}

    def policies(self, name: str) -> dict:
        """{Role: ActorCritic} of the checkpoint `name`; ValueError (a `CheckpointError`) with the
        reason when it cannot be used."""
        try:
            import torch  # noqa: F401  (checked here so the message can say what to install)

            from .policy.bot import load_policies
        except ImportError as err:
            raise ValueError(
                "checkpoint bots need PyTorch (pip install -e '.[play]', or `make play`); "
                f"or seat scripted bots with --bots heuristic ({err})"
            ) from err
        path = checkpoint_file(split_name(name)[0])  # an ablated player plays its base's policies
        if path not in self._loaded:
            self._loaded[path] = load_policies(path)
        return self._loaded[path]

    def clear(self) -> None:
        """Forget every loaded file (a file rewritten since, such as a new run's, loads anew)."""
        self._loaded.clear()


def check_checkpoints(lineups, cache: PolicyCache) -> None:
    """Load every checkpoint the line-ups name (into `cache`), so that a bad file is reported
    before any game is played; ValueError (a `CheckpointError`) with the reason."""
    bases = {split_name(name)[0] for lineup in lineups for name in lineup}
    for name in sorted(bases - set(SCRIPTED)):
        cache.policies(name)


def make_bot(name: str, seed: int, config: GameConfig, greedy: bool = True, cache: PolicyCache | None = None) -> Bot:
    """One seat's bot, reset and seeded. A checkpoint bot picks its role's policy from its own
    observation and plays greedily unless `greedy` is False."""
    base, blocks = split_name(name)
    if base in SCRIPTED:
        bot = make_scripted_bot(base, seed, config)
        bot.reset(seed)
    else:
        from .policy.bot import PolicyBot

        bot = PolicyBot((cache or PolicyCache()).policies(base), greedy=greedy, seed=seed)
    return AblatedBot(bot, blocks) if blocks else bot


class ScriptedPlayer:
    """A scripted bot by name at every seat of a side: one fresh bot per seat per game."""

    def __init__(self, name: str):
        self.name = name
        self._bots: dict[tuple, Bot] = {}

    def new_match(self, seed: int) -> None:
        """Nothing to re-seed: each seat's bot gets its own seed at `start`."""

    def start(self, key: tuple, seed: int, config: GameConfig) -> None:
        self._bots[key] = make_bot(self.name, seed, config)

    def finish(self, key: tuple) -> None:
        self._bots.pop(key, None)

    def act(self, keys: list[tuple], observations: np.ndarray, masks: np.ndarray) -> tuple[list[int], None]:
        return [int(self._bots[key].act(obs, mask)) for key, obs, mask in zip(keys, observations, masks)], None


def make_side_player(name: str, role: Role, greedy: bool = False, seed: int = 0, cache: PolicyCache | None = None):
    """The player of one side (`role`) of many games: a `ScriptedPlayer`, or the checkpoint's
    policy for that role as a batched `PolicyPlayer` (either without the choices an ablated name
    takes away)."""
    base, blocks = split_name(name)
    if base in SCRIPTED:
        player = ScriptedPlayer(base)
    else:
        from .policy.batched import PolicyPlayer

        net = (cache or PolicyCache()).policies(base)[role]
        player = PolicyPlayer(net, f"{base}:{role.name.lower()}", greedy=greedy, seed=seed)
    return AblatedPlayer(player, blocks) if blocks else player
