"""`Game`: one play with its own generator and action history, replayable and serialisable.

A game is fully described by (config, seed, actions): `replay` rebuilds it, and `to_dict` /
`from_dict` give and read exactly that as plain data. The engine writes no files: replay files
are `rlyeh_env/replays.py`'s job (atomically, through `rlyeh_env/files.py`).
"""

from __future__ import annotations

import random

from .config import GameConfig
from .legal import legal_actions
from .rules import apply_action, new_game
from .state import State

FORMAT_VERSION = 1


class Game:
    def __init__(self, config: GameConfig | None = None, seed: int = 0):
        self.config = config if config is not None else GameConfig()
        self.seed = seed
        self.rng = random.Random(seed)
        self.state: State = new_game(self.config, self.rng)
        self.actions: list[int] = []
        self._legal_at = -1
        self._legal: list[int] = []

    @property
    def decider(self) -> int:
        return self.state.decider

    @property
    def over(self) -> bool:
        return self.state.game_over

    def legal_actions(self) -> list[int]:
        """Legal actions of the decider (computed once per step; do not mutate the list)."""
        if self._legal_at != self.state.steps:
            self._legal = legal_actions(self.state)
            self._legal_at = self.state.steps
        return self._legal

    def step(self, action: int) -> None:
        apply_action(self.state, action, self.rng, self.legal_actions())
        self.actions.append(int(action))

    def clone(self) -> "Game":
        other = Game.__new__(Game)
        other.config, other.seed = self.config, self.seed
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.state = self.state.clone()
        other.actions = list(self.actions)
        other._legal_at = -1
        other._legal = []
        return other

    def to_dict(self) -> dict:
        return {
            "format": FORMAT_VERSION,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": list(self.actions),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        if not isinstance(data, dict) or data.get("format") != FORMAT_VERSION:
            raise ValueError(f"not a saved game of format {FORMAT_VERSION}")
        return replay(GameConfig.from_dict(data["config"]), data["seed"], data["actions"])


def replay(config: GameConfig, seed: int, actions: list[int]) -> Game:
    """Rebuild a game from its config, seed and actions (each must still be legal)."""
    game = Game(config, seed)
    for action in actions:
        game.step(action)
    return game
