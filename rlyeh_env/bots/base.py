"""The interface every bot implements.

A bot sees exactly what a learning agent sees: its own observation vector (the env's
`observation`, `rlyeh_env.observation.SEAT_LAYOUT`) and its legal-action mask. It never sees the
engine `State`. `reset` is called once at the start of every game, before the first `act`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Bot(Protocol):
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Return one action id whose mask entry is 1."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Start a new game; `seed` (when given) re-seeds the bot's own generator."""
        ...
