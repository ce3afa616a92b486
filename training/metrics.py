"""Figures computed from played games and recorded decisions: win rates and belief accuracy."""

from __future__ import annotations

import numpy as np


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


def belief_auc(logits: np.ndarray, targets: np.ndarray, valid: np.ndarray) -> float:
    """AUC of per-seat cultist beliefs over every (decision, present seat) pair."""
    keep = valid.astype(bool)
    return roc_auc(logits[keep], targets[keep])


def win_rate(outcomes: list[bool]) -> float:
    return float(np.mean(outcomes)) if outcomes else float("nan")
