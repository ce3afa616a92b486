"""`Table`: one game driven straight on the engine, seen exactly as the AEC env shows it.

The trainer steps many tables in lockstep without PettingZoo's per-step wrapper overhead. Each
table gives the decider's observation and mask, any seat's observation and truth vector, and the
per-seat rewards of every step, computed as `rlyeh_env.rlyeh.raw_env` computes them;
tests/training/test_table.py checks all three against the AEC env over whole games.
"""

from __future__ import annotations

import numpy as np

from rlyeh_env.engine import GameConfig, Role, Winner
from rlyeh_env.engine.actions import NUM_ACTIONS
from rlyeh_env.engine.game import Game
from rlyeh_env.observation import IncrementalEncoder


class Table:
    def __init__(self, config: GameConfig, seed: int, encoder: IncrementalEncoder | None = None):
        if encoder is not None and encoder.config != config:
            raise ValueError("the encoder was built for another config")
        self.config = config
        self.game = Game(config, seed)
        self.state = self.game.state
        self.encoder = encoder if encoder is not None else IncrementalEncoder(config)
        self.num_players = config.num_players
        self.roles = np.array([p.role for p in self.state.players], dtype=np.int64)
        # +1 for investigators, -1 for cultists: multiplies the investigators' reward
        self._sign = np.where(self.roles == Role.INVESTIGATOR, 1.0, -1.0).astype(np.float32)
        self._no_reward = np.zeros(self.num_players, dtype=np.float32)  # most steps' answer, shared
        self._no_reward.flags.writeable = False

    @property
    def decider(self) -> int:
        return self.state.decider

    @property
    def over(self) -> bool:
        return self.state.game_over

    @property
    def investigators_won(self) -> bool:
        return self.state.winner == Winner.INVESTIGATORS

    def observation(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """`seat`'s observation, written into `out` when given (a row of a batch)."""
        return self.encoder.observe(self.state, seat, out)

    def truth(self, seat: int) -> np.ndarray:
        """The full truth, seat-relative to `seat` (what `env.state()` gives, rotated)."""
        return self.encoder.truth(self.state, seat)

    def action_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """The decider's mask (int8, 1 = legal), or its legal entries set in `out` when given (a
        zeroed row of a batch, of any numeric or boolean type)."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8) if out is None else out
        mask[self.game.legal_actions()] = 1
        return mask

    def legal_actions(self) -> list[int]:
        return self.game.legal_actions()

    def step(self, action: int) -> np.ndarray:
        """Apply the decider's action; return every seat's reward for this step (float32, n). Do
        not write to it: every step without reward returns the same read-only array."""
        sigils_before = self.state.sigils_activated
        self.game.step(action)  # raises IllegalActionError naming the legal actions
        investigator_reward = (self.state.sigils_activated - sigils_before) * self.config.sigil_reward
        if self.state.game_over:
            investigator_reward += 1.0 if self.state.winner == Winner.INVESTIGATORS else -1.0
            self.encoder.forget(self.state)
        if not investigator_reward:
            return self._no_reward
        return self._sign * np.float32(investigator_reward)
