"""Ratings from cross-play: one Bradley-Terry strength per role per player, with intervals.

A cross-play tournament seats the investigators of player A against the cultists of player B
for every pair (A, B). The model: investigators of A beat cultists of B with probability
`sigmoid(inv[A] - cult[B])`. Strengths are fitted by maximum likelihood (Newton's method on the
logistic log-likelihood, with a weak Gaussian prior so that a player who always wins still has
a finite rating) and shown on the Elo scale (400 / ln 10 per logit). Only differences are
defined, so the ratings are shifted to have mean 0 over all of them; an investigator rating
above a cultist rating means those investigators are favoured against those cultists. The 95%
intervals come from a parametric bootstrap: every cell's wins are redrawn from its observed
rate, and the fit is repeated.

A rating averages over the opponents in the matrix; `worst_cases` gives the other yardstick of a
self-play result, each player's result against its strongest opponent there. The two disagree
when play is not transitive (investigators tuned to one cultist's habits), which hidden-role
self-play is prone to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)  # Elo points per logit
PRIOR = 0.01  # weak L2 pull towards 0 (in logits^-2): keeps unbeaten players finite


@dataclass(frozen=True)
class Rating:
    name: str
    role: str  # "investigator" or "cultist"
    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class WorstCase:
    name: str
    role: str  # "investigator" or "cultist"
    opponent: str  # the player whose other side does best against this one
    investigators_win: float  # the investigators' win rate in that cell


def worst_cases(names: list[str], rates: np.ndarray) -> list[WorstCase]:
    """Each player's worst cell of the matrix `rates[a, b]` (investigators of a against the
    cultists of b): its investigators' lowest win rate, its cultists' highest loss rate, and the
    opponent it came from. The first of equal cells counts."""
    n = len(names)
    if rates.shape != (n, n):
        raise ValueError(f"rates must be {n} x {n} for {n} players")
    out = []
    for i, name in enumerate(names):
        j = int(np.argmin(rates[i]))
        out.append(WorstCase(name, "investigator", names[j], float(rates[i, j])))
    for j, name in enumerate(names):
        i = int(np.argmax(rates[:, j]))
        out.append(WorstCase(name, "cultist", names[i], float(rates[i, j])))
    return out


def fit(names: list[str], wins: np.ndarray, games: np.ndarray, iterations: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """Investigator and cultist strengths (logits, mean 0 over both) from `wins[a, b]` of
    `games[a, b]` games between the investigators of a and the cultists of b."""
    n = len(names)
    if wins.shape != (n, n) or games.shape != (n, n):
        raise ValueError(f"wins and games must be {n} x {n} for {n} players")
    theta = np.zeros(2 * n)  # [investigators..., cultists...]
    inv, cult = np.arange(n), np.arange(n, 2 * n)
    a, b = np.meshgrid(inv, cult, indexing="ij")
    a, b, w, g = a.ravel(), b.ravel(), wins.ravel().astype(float), games.ravel().astype(float)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(theta[a] - theta[b])))
        residual = w - g * p  # d loglik / d (theta[a] - theta[b])
        gradient = np.zeros(2 * n)
        np.add.at(gradient, a, residual)
        np.add.at(gradient, b, -residual)
        gradient -= PRIOR * theta
        weight = g * p * (1 - p)
        hessian = np.zeros((2 * n, 2 * n))
        np.add.at(hessian, (a, a), -weight)
        np.add.at(hessian, (b, b), -weight)
        np.add.at(hessian, (a, b), weight)
        np.add.at(hessian, (b, a), weight)
        hessian -= PRIOR * np.eye(2 * n)
        step = np.linalg.solve(hessian, gradient)
        theta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    theta -= theta.mean()
    return theta[:n], theta[n:]


def ratings(names: list[str], wins: np.ndarray, games: np.ndarray, bootstrap: int = 500,
            seed: int = 0) -> list[Rating]:
    """Every player's investigator and cultist rating (Elo scale) with a 95% bootstrap interval."""
    inv, cult = fit(names, wins, games)
    rng = np.random.default_rng(seed)
    rates = np.divide(wins, games, out=np.zeros(wins.shape), where=games > 0)
    samples = []
    for _ in range(bootstrap):
        redrawn = rng.binomial(games.astype(np.int64), rates)
        samples.append(np.concatenate(fit(names, redrawn, games)))
    low, high = np.percentile(np.array(samples), [2.5, 97.5], axis=0) if samples else (None, None)
    out = []
    for k, (role, values) in enumerate((("investigator", inv), ("cultist", cult))):
        for i, name in enumerate(names):
            j = k * len(names) + i
            out.append(Rating(name, role, ELO * values[i],
                              ELO * (low[j] if samples else values[i]), ELO * (high[j] if samples else values[i])))
    return out
