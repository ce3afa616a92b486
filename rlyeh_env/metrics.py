"""Figures computed from played games and recorded decisions: win rates, intervals, belief accuracy."""

from __future__ import annotations

import functools
import math

import numpy as np

from .engine.cards import Role
from .observation import SEATS

BELIEF_SEATS = SEATS - 1  # a belief per other seat, in seat-relative order (1..7 to the left)


def roc_auc(scores: np.ndarray, labels: np.ndarray) -> float:
    """Area under the ROC curve: the probability that a random positive scores above a random
    negative (ties count half). NaN when one class is missing."""
    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels).astype(bool)
    positives, negatives = int(labels.sum()), int((~labels).sum())
    if positives == 0 or negatives == 0:
        return float("nan")
    order = np.argsort(scores, kind="mergesort")
    # runs of equal scores share their average rank (1-based): (start + end + 1) / 2
    starts = np.r_[0, np.flatnonzero(np.diff(scores[order])) + 1]
    ends = np.r_[starts[1:], len(scores)]
    ranks = np.empty(len(scores), dtype=np.float64)
    ranks[order] = np.repeat((starts + ends + 1) / 2.0, ends - starts)
    return float((ranks[labels].sum() - positives * (positives + 1) / 2.0) / (positives * negatives))


def belief_auc(logits: np.ndarray, targets: np.ndarray, valid: np.ndarray) -> float | None:
    """AUC of per-seat cultist beliefs over every (decision, present seat) pair; None when there
    was nobody to tell apart (a lone cultist's beliefs: no other seat is a cultist)."""
    keep = valid.astype(bool)
    auc = roc_auc(logits[keep], targets[keep])
    return None if math.isnan(auc) else auc


def belief_auc_by_size(logits: np.ndarray, targets: np.ndarray, valid: np.ndarray,
                       sizes: np.ndarray) -> float | None:
    """The mean over table sizes of each size's `belief_auc` (`sizes`: the table size of each row),
    the sizes with nobody to tell apart left out. Pooling sizes would reward a belief that knows
    how many cultists the table holds rather than who they are: a lone cultist's rows (every other
    seat an investigator) would rank below a partnered cultist's."""
    aucs = [belief_auc(logits[sizes == n], targets[sizes == n], valid[sizes == n]) for n in np.unique(sizes)]
    aucs = [auc for auc in aucs if auc is not None]
    return float(np.mean(aucs)) if aucs else None


def win_rate(outcomes: list[bool]) -> float:
    return float(np.mean(outcomes)) if outcomes else float("nan")


def wilson_interval(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval for a proportion of `wins` out of `n` (0, 1 when n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def belief_targets(roles: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """For the seats 1..7 to the left of `seat`: 1 if cultist (target) and 1 if present (valid)."""
    n = len(roles)
    target = np.zeros(BELIEF_SEATS, dtype=np.float32)
    valid = np.zeros(BELIEF_SEATS, dtype=np.float32)
    target[: n - 1] = np.roll(roles, -seat)[1:] == int(Role.CULTIST)
    valid[: n - 1] = 1.0
    return target, valid


@functools.lru_cache(maxsize=4096)
def deal_belief_targets(roles: tuple[int, ...]) -> list[tuple[np.ndarray, np.ndarray]]:
    """`belief_targets` of every seat at a table of these roles (by seat), made once per deal:
    few deals exist, and batched play starts many games. The arrays are shared: read-only."""
    targets = [belief_targets(np.asarray(roles), seat) for seat in range(len(roles))]
    for target, valid in targets:
        target.flags.writeable = valid.flags.writeable = False
    return targets
