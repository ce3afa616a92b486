"""`BeliefAccuser`: a policy's investigators acting on their own belief head; `BluffingCultist`:
a cultist who accuses investigators.

A trained investigator side whose belief head finds the cultist can still sit in a coordination
trap: nobody accuses because nobody votes Yes on an accusation, and nobody votes Yes because
nobody accuses. This wrapper plays the policy as trained except for those two choices:

- wherever an accusation is legal and the seat the belief head is surest of has P(cultist) at
  least `accuse_at`, it accuses that seat;
- on an accusation vote it votes Yes exactly when its belief in the accused is at least `vote_at`
  (None: the policy's own vote); with `yes_to_all` it votes Yes on every vote instead.

`scripts/accusation_probe.py` measures what that is worth against a checkpoint's cultists, and
the warm start of training (`Args.imitation_accuse_at`) clones it, so that self-play starts
outside the trap. It reads nothing but the seat's own observation and the policy's beliefs.

Investigators who only ever meet cultists that never accuse learn to vote Yes on every
accusation (nothing punishes it in self-play); a cultist's accusation of an investigator then
passes and costs the investigators 2 hours. `BluffingCultist` is the teacher's cultist that
gives the warm start such accusations (`Args.imitation_cultist_accuse_rate`): at a decision where
it may accuse it does so at a fixed rate, naming a legal seat at random, and it votes Yes on every
accusation. Self-play then decides how much of it pays, and the investigators' vote has to tell
an accusation of the cultist from a cultist's accusation.
"""

from __future__ import annotations

import random

import numpy as np

from .ablation import WrappedPlayer
from .engine.actions import ACCUSE, MAX_OFFSET, VOTE_NO, VOTE_YES
from .engine.cards import VoteKind
from .observation import SEAT_LAYOUT

_ACCUSED = SEAT_LAYOUT["decision.vote_accused"]  # relative seats: row 0 the observer, row k k seats to the left
ACCUSATION_VOTE = SEAT_LAYOUT["decision.vote_kind"].start + VoteKind.ACCUSATION  # one-hot by kind


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


class BeliefAccuser(WrappedPlayer):
    """A side player (`make_side_player`) of a checkpoint's investigators that accuses and votes
    on accusations by its belief head, as the module docstring says."""

    def __init__(self, player, accuse_at: float, vote_at: float | None = None, yes_to_all: bool = False):
        super().__init__(player)
        for name, value in (("accuse_at", accuse_at), ("vote_at", vote_at)):
            if value is not None and not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must lie within 0 and 1, got {value}")
        self.accuse_at, self.vote_at, self.yes_to_all = accuse_at, vote_at, yes_to_all
        self.name = (f"{player.name}+accuses-at-{accuse_at:g}"
                     + (f"+votes-at-{vote_at:g}" if vote_at is not None else "")
                     + ("+votes-yes" if yes_to_all else ""))

    def act(self, keys: list[tuple], observations, masks):
        observations, masks = np.asarray(observations), np.asarray(masks).astype(bool)
        actions, beliefs = self.player.act(keys, observations, masks)
        if beliefs is None:
            raise TypeError(f"{self.player.name} has no belief head to act on (a scripted bot?)")
        sure = _sigmoid(np.asarray(beliefs, dtype=np.float64))  # belief k: the seat k + 1 places to the left
        actions = list(actions)
        # accuse action ACCUSE + k names the seat k + 1 places to the left, as belief k does
        accusable = masks[:, ACCUSE:ACCUSE + MAX_OFFSET]
        candidates = np.where(accusable, sure, -1.0)
        target = candidates.argmax(axis=1)
        for row in np.flatnonzero(candidates[np.arange(len(keys)), target] >= self.accuse_at):
            actions[row] = ACCUSE + int(target[row])
        voting = masks[:, VOTE_YES]
        if self.yes_to_all:
            for row in np.flatnonzero(voting):
                actions[row] = VOTE_YES
        elif self.vote_at is not None:
            on_accusation = voting & (observations[:, ACCUSATION_VOTE] > 0.5)
            for row in np.flatnonzero(on_accusation):
                accused = int(observations[row, _ACCUSED.start:_ACCUSED.stop].argmax())  # >= 1: never the voter
                actions[row] = VOTE_YES if sure[row, accused - 1] >= self.vote_at else VOTE_NO
        return actions, beliefs


class BluffingCultist(WrappedPlayer):
    """A side player (`make_side_player`) of cultists that, where accusing is legal, accuses a
    legal seat drawn at random with probability `accuse_rate`, and votes Yes on every accusation;
    otherwise the wrapped player's own choices. Its draws come from the seed of each seat's game
    (`start`), so a game replays exactly."""

    def __init__(self, player, accuse_rate: float):
        super().__init__(player)
        if not 0.0 <= accuse_rate <= 1.0:
            raise ValueError(f"accuse_rate must lie within 0 and 1, got {accuse_rate}")
        self.accuse_rate = accuse_rate
        self.rngs: dict[tuple, random.Random] = {}
        self.name = f"{player.name}+bluffs-at-{accuse_rate:g}"

    def start(self, key: tuple, seed: int, config) -> None:
        self.rngs[key] = random.Random(seed)
        self.player.start(key, seed, config)

    def finish(self, key: tuple) -> None:
        self.rngs.pop(key, None)
        self.player.finish(key)

    def act(self, keys: list[tuple], observations, masks):
        observations, masks = np.asarray(observations), np.asarray(masks).astype(bool)
        actions, beliefs = self.player.act(keys, observations, masks)
        actions = list(actions)
        for row, key in enumerate(keys):
            accusable = np.flatnonzero(masks[row, ACCUSE:ACCUSE + MAX_OFFSET])
            rng = self.rngs[key]
            if len(accusable) and rng.random() < self.accuse_rate:
                actions[row] = ACCUSE + int(accusable[rng.randrange(len(accusable))])
            elif masks[row, VOTE_YES] and observations[row, ACCUSATION_VOTE] > 0.5:
                actions[row] = VOTE_YES
        return actions, beliefs
