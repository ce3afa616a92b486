"""Replay files: a played or watched game as JSON, written atomically to a replays folder (the
terminal table and the browser table write the same files; `rlyeh replay` reads both).

`Frames` rebuilds every state of a saved game, for stepping through it.

A replay is the saved game of `Game.save` (format, config, seed, actions), which alone rebuilds
the game exactly, plus who sat where:

    {"format": 1, "config": {...}, "seed": 7, "actions": [...],
     "seats": ["human", "checkpoint", "heuristic", ...], "human_seat": 0, "finished": true}
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from .engine.actions import describe
from .engine.game import Game
from .engine.state import State
from .files import atomic_write_text
from .narration import player_name


@dataclass
class Replay:
    game: Game
    seats: list[str]
    human_seat: int | None
    finished: bool


def replay_path(folder: Path, seed: int, kind: str) -> Path:
    """A fresh file name in `folder`, e.g. replays/play_20261130-101500_seed7.json."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{kind}_{stamp}_seed{seed}.json"
    counter = 1
    while path.exists():
        counter += 1
        path = folder / f"{kind}_{stamp}_seed{seed}_{counter}.json"
    return path


def save_replay(path: Path, game: Game, seats: list[str], human_seat: int | None) -> None:
    """Write the game (config, seed, actions) and who sat where, atomically."""
    data = {**game.to_dict(), "seats": list(seats), "human_seat": human_seat, "finished": game.over}
    atomic_write_text(path, json.dumps(data, indent=1))


def load_replay(path: str | Path) -> Replay:
    """The saved game, rebuilt action by action; ValueError with the reason when it cannot be."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"cannot read the replay {path}: {err}") from err
    try:
        game = Game.from_dict(data)
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{path} is not a replay this version can rebuild: {err}") from err
    n = game.config.num_players
    seats = data.get("seats") or ["?"] * n
    human = data.get("human_seat")
    if not isinstance(seats, list) or len(seats) != n or not (human is None or (isinstance(human, int) and 0 <= human < n)):
        raise ValueError(f"{path}: the seat list does not fit a {n}-player game")
    return Replay(game, [str(s) for s in seats], human, game.over)


class Frames:
    """Every state of a game, step 0 (the deal) to the last, and the events each step added."""

    def __init__(self, replay: Replay):
        game = Game(replay.game.config, replay.game.seed)
        self.states: list[State] = [game.state.clone()]
        self.actors: list[int] = [-1]
        self.event_starts = [0]
        for action in replay.game.actions:
            self.actors.append(game.decider)
            self.event_starts.append(len(game.state.events))
            game.step(action)
            self.states.append(game.state.clone())
        self.actions = [-1] + list(replay.game.actions)

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def title(self, step: int) -> str:
        if step == 0:
            return f"step 0/{self.last}: the deal"
        state = self.states[step - 1]
        names = [player_name(s) for s in range(state.num_players)]
        text = describe(self.actions[step], names, self.actors[step], state.config.hand_size)
        return f"step {step}/{self.last}: {player_name(self.actors[step])}: {text}"

    def events(self, step: int) -> list:
        start = self.event_starts[step] if step > 0 else 0
        return self.states[step].events[start:]
