"""`Table`: the one stepper. Every game, whoever plays it, is driven through it.

The PettingZoo env (`rlyeh.py`), the arena and tournaments, the terminal table and the trainer's
collector all step games here, so what a step pays each seat, the legal-action mask and what a
seat observes are each written once (as Pgx's `step / observe / legal_action_mask / rewards`):

    table = Table(GameConfig(num_players=5), seed=7)
    while not table.over:
        seat = table.decider
        obs, mask = table.observation(seat), table.action_mask()
        rewards = table.step(policy(obs, mask))     # float32 per seat, absolute seat order

Rewards: every step pays the investigators `reward` and each cultist `-reward`, where `reward`
is `sigil_reward` per sigil the step activated plus, on the step that ends the game, +1 if the
investigators won and -1 if they lost (the env module docstring, "Rewards").
"""

from __future__ import annotations

import itertools
from collections import OrderedDict

import numpy as np

from .engine import GameConfig, Role, Winner
from .engine.actions import NUM_ACTIONS
from .engine.game import Game
from .observation import IncrementalEncoder

_MASKS: dict[tuple[int, ...], np.ndarray] = {}  # legal actions -> read-only int8 mask
_MAX_MASKS = 1 << 14  # distinct legal sets seen in practice are a few thousand


class EncoderCache:
    """Incremental encoders by (config, observation mode), the least recently used dropped past
    `size`. An encoder keeps per-game trackers and is fastest when it follows one game at a
    time, so batched play keeps one cache per slot and single games share one."""

    def __init__(self, size: int = 32):
        self.size = size
        self._encoders: OrderedDict[tuple[GameConfig, str], IncrementalEncoder] = OrderedDict()

    def get(self, config: GameConfig, mode: str = "seat") -> IncrementalEncoder:
        key = (config, mode)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._encoders[key] = IncrementalEncoder(config, mode)
            if len(self._encoders) > self.size:
                self._encoders.popitem(last=False)
        else:
            self._encoders.move_to_end(key)
        return encoder


SHARED_ENCODERS = EncoderCache()


def legal_masks(tables: list["Table"], dtype=bool) -> np.ndarray:
    """Each table's decider mask, a row per table (1 / True = legal), set in one indexing call:
    what batched play (the trainer's collector, tournaments) feeds a network."""
    legal = [table.game.legal_actions() for table in tables]
    counts = [len(actions) for actions in legal]
    masks = np.zeros((len(tables), NUM_ACTIONS), dtype=dtype)
    columns = np.fromiter(itertools.chain.from_iterable(legal), dtype=np.intp, count=sum(counts))
    masks[np.repeat(np.arange(len(tables)), counts), columns] = 1
    return masks


class Table:
    """One game on the engine, with the observation, mask and rewards every player gets."""

    def __init__(self, config: GameConfig, seed: int, encoder: IncrementalEncoder | None = None):
        if encoder is not None and encoder.config != config:
            raise ValueError("the encoder was built for another config")
        self.config = config
        self.game = Game(config, seed)
        self.state = self.game.state
        self.encoder = encoder if encoder is not None else SHARED_ENCODERS.get(config)
        self.num_players = config.num_players
        self.roles = np.array([p.role for p in self.state.players], dtype=np.int64)
        # +1 for investigators, -1 for cultists: multiplies the investigators' reward
        self.signs = np.where(self.roles == Role.INVESTIGATOR, 1.0, -1.0).astype(np.float32)
        self.reward = 0.0  # the investigators' reward of the last step (cultists get its negative)
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

    def legal_actions(self) -> list[int]:
        return self.game.legal_actions()

    def action_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """The decider's mask (a new int8 array, 1 = legal), or its legal entries set to 1 in
        `out` when given (a zeroed row of a batch, of any numeric or boolean type)."""
        legal = self.game.legal_actions()
        if out is not None:
            out[legal] = 1
            return out
        # Few distinct legal sets occur: copying a kept mask is cheaper than building one.
        key = tuple(legal)
        mask = _MASKS.get(key)
        if mask is None:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
            mask[legal] = 1
            mask.flags.writeable = False
            if len(_MASKS) < _MAX_MASKS:
                _MASKS[key] = mask
        return mask.copy()

    def mask_of(self, seat: int) -> np.ndarray:
        """`seat`'s mask: the decider's, or all zeros when it is not `seat`'s decision."""
        if self.state.game_over or self.state.decider != seat:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self.action_mask()

    def step(self, action: int) -> np.ndarray:
        """Apply the decider's action; return every seat's reward for this step (float32, n). Do
        not write to it: every step without reward returns the same read-only array."""
        state = self.state
        sigils_before = state.sigils_activated
        self.game.step(action)  # raises IllegalActionError naming the legal actions
        reward = (state.sigils_activated - sigils_before) * self.config.sigil_reward
        if state.game_over:
            reward += 1.0 if state.winner == Winner.INVESTIGATORS else -1.0
            self.encoder.forget(state)
        self.reward = reward
        if not reward:
            return self._no_reward
        return self.signs * np.float32(reward)

    def seat_rewards(self) -> list[float]:
        """The last step's rewards by seat as Python floats (what `step` returned, unrounded)."""
        return [self.reward if sign > 0 else -self.reward for sign in self.signs]

    def close(self) -> None:
        """Drop what the encoder keeps about this game (a game left unfinished)."""
        self.encoder.forget(self.state)
