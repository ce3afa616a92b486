"""Who is a cultist? A Bayesian posterior over role assignments, from one seat's observation.

Every assignment of roles consistent with what the seat knows (its own role, revealed roles,
Ouija results, the cultist count or its hidden range) is a hypothesis; there are at most 99 of
them (8 players, 1 to 4 hidden cultists). Each is weighted by its prior (every set of cultists is
equally likely, R1.3) times the likelihood of the public record under a simple model of play:

* incantations: the cards of a revealed pool that are not the seat's own came from the other
  contributors and swappers; an investigator's card is the target, its opposite or another sigil
  with probabilities `INVESTIGATOR_CARDS`, a cultist's with `CULTIST_CARDS`. A face-up opposite
  card is pinned on the seat that played it.
* votes: accusers pick cultists more often when they are investigators; voters vote Yes on
  cultists and No on investigators more often when they are investigators; the reverse for
  cultists. The same for Necronomicon proposals, and the page a reader enacts.
* the seat's own look into the current pool (Investigate, Lantern).

The numbers were calibrated on games between heuristic bots (see `scripts/balance.py`). The
result is a vector of marginals: the probability that each relative seat is a cultist.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from ..engine.config import default_hidden_range
from .view import Constants, View, records, votes

# Card categories: target, opposite, other (the two sigils that count for nothing).
INVESTIGATOR_CARDS = (0.71, 0.022, 0.268)
CULTIST_CARDS = (0.09, 0.45, 0.46)
FACE_UP_OPPOSITE_LR = 3.0  # a face-up opposite card: cultist vs investigator
# P(accuse a cultist) / P(accuse an investigator), per accuser role (weights, renormalised)
ACCUSE_WEIGHT = {0: (1.0, 3.0), 1: (1.0, 0.6)}  # accuser role -> (weight on inv, weight on cult)
# P(Yes) by voter role and accused role (investigator, cultist)
ACCUSE_YES = {0: (0.45, 0.25), 1: (0.75, 0.35)}
PROPOSE_LR = 0.6  # proposing the Necronomicon: cultist vs investigator
NECRO_YES = {0: (0.55, 0.45), 1: (0.50, 0.45)}  # voter role -> P(Yes) for proposer (inv, cult)
PAGE_LIKELIHOOD = {0: (0.83, 0.17), 1: (0.03, 0.26)}  # reader role -> P(Turn back time), P(Forbidden lore)


@functools.lru_cache(maxsize=None)
def _multinomial(n: int, t: int, o: int, x: int, probs: tuple) -> float:
    return (
        math.factorial(n)
        / (math.factorial(t) * math.factorial(o) * math.factorial(x))
        * (probs[0] ** t * probs[1] ** o * probs[2] ** x)
    )


@functools.lru_cache(maxsize=None)
def composition_table(t: int, o: int, x: int) -> np.ndarray:
    """log P(the cards are t target, o opposite, x other | k of them are a cultist's), k = 0..R."""
    total = t + o + x
    out = np.empty(total + 1)
    for k in range(total + 1):
        p = 0.0
        for tc in range(min(k, t) + 1):
            for oc in range(min(k - tc, o) + 1):
                xc = k - tc - oc
                if xc > x:
                    continue
                p += _multinomial(k, tc, oc, xc, CULTIST_CARDS) * _multinomial(
                    total - k, t - tc, o - oc, x - xc, INVESTIGATOR_CARDS
                )
        out[k] = math.log(max(p, 1e-300))
    return out


@functools.lru_cache(maxsize=4096)
def hypotheses(n: int, known: tuple, counts: tuple) -> tuple[np.ndarray, np.ndarray]:
    """(H, log prior): one row per role assignment consistent with `known` (-1 unknown, 0, 1)
    whose cultist count is in `counts` ((count, probability) pairs); H[h, s] = 1 if s is a cultist."""
    fixed = [s for s in range(n) if known[s] == 1]
    free = [s for s in range(n) if known[s] == -1]
    rows, prior = [], []
    for c, pc in counts:
        need = c - len(fixed)
        if need < 0 or need > len(free) or pc <= 0:
            continue
        lp = math.log(pc) - math.log(math.comb(n, c))
        for chosen in itertools.combinations(free, need):
            row = [0.0] * n
            for s in fixed:
                row[s] = 1.0
            for s in chosen:
                row[s] = 1.0
            rows.append(row)
            prior.append(lp)
    if not rows:  # inconsistent knowledge (cannot happen in a real game): fall back to "nobody"
        rows, prior = [[float(known[s] == 1) for s in range(n)]], [0.0]
    H = np.asarray(rows)
    H.setflags(write=False)
    lp = np.asarray(prior)
    lp.setflags(write=False)
    return H, lp


def count_prior(w: View) -> tuple:
    """(count, probability) pairs for the number of cultists."""
    if w.cultists > 0:
        return ((w.cultists, 1.0),)
    lo, hi = default_hidden_range(w.n)
    lo = min(lo, hi)
    m = hi - lo + 1
    return tuple((c, 1.0 / m) for c in range(lo, hi + 1))


class Beliefs:
    """Posterior over role assignments. `private=True`: the seat's own view (its role, its own
    cards, its Ouija result, its look into the pool). `private=False`: what the table can infer
    from public information only (every seat unknown until revealed), used by a cultist to judge
    how suspicious it looks and how others will vote."""

    def __init__(self, w: View, k: Constants, private: bool = True):
        n = w.n
        if private:
            known = tuple(w.known)
        else:
            known = tuple(-1 if r < 0 else r for r in w.revealed)
        self.n = n
        self.H, lp = hypotheses(n, known, count_prior(w))
        logw = lp.copy()
        self._incantations(logw, w, k, private)
        self._votes(logw, w, known)
        self.base = logw
        self.private = private

    def _incantations(self, logw: np.ndarray, w: View, k: Constants, private: bool) -> None:
        H = self.H
        n = self.n
        log_fu = math.log(FACE_UP_OPPOSITE_LR)
        for r in records(w, k):
            t = r.target
            o = t ^ 1
            cards = r.cards
            mine = r.mine if private else (0, 0, 0, 0)
            fu = list(r.face_up_opp)
            weights = [r.contrib[s] + r.swaps[s] - fu[s] for s in range(n)]
            if private:
                weights[0] = 0.0
                fu[0] = 0
            fu_total = sum(fu)
            rt = max(0, cards[t] - mine[t])
            ro = max(0, cards[o] - mine[o] - fu_total)
            rx = max(0, sum(cards) - cards[t] - cards[o] - (sum(mine) - mine[t] - mine[o]))
            if fu_total:
                logw += log_fu * (H @ np.asarray(fu, dtype=float))
            _composition(logw, H, weights, rt, ro, rx)

    def _votes(self, logw: np.ndarray, w: View, known: tuple) -> None:
        # Votes follow the public evidence, so they say little about the accused (or proposer)
        # beyond it: voters are judged only once that seat's role is known.
        for v in votes(w):
            if v.kind == 0 and v.accused >= 0:
                accuser(logw, self.H, v.proposer, v.accused)
                if known[v.accused] >= 0:
                    _voters(logw, self.H, v.accused, v.yes, v.no, ACCUSE_YES, skip=v.proposer)
            elif v.kind == 1:
                logw += self.H[:, v.proposer] * math.log(PROPOSE_LR)
                if known[v.proposer] >= 0:
                    _voters(logw, self.H, v.proposer, v.yes, v.no, NECRO_YES, skip=v.proposer)
        if w.reading is not None and w.reading[0] >= 0 and w.reading[1] in (0, 1):
            reader, page = w.reading
            inv, cult = PAGE_LIKELIHOOD[0][page], PAGE_LIKELIHOOD[1][page]
            logw += self.H[:, reader] * math.log(cult / inv)

    def posterior(self, w: View | None = None, k: Constants | None = None, pending: bool = False) -> np.ndarray:
        """Marginal P(cultist) per relative seat; with `w`, adds the seat's current look into the
        pool (private beliefs) and, with `pending`, the accusation being voted on."""
        return self.weights(w, pending) @ self.H

    def weights(self, w: View | None = None, pending: bool = False) -> np.ndarray:
        """Posterior probability of each hypothesis (row of `H`), see `posterior`."""
        logw = self.base
        if w is not None:
            extra = None
            if self.private and w.look_size > 0 and w.target >= 0:
                extra = logw.copy()
                look_evidence(extra, self.H, w)
            if pending and w.vote_kind == 0 and w.vote_accused >= 0:
                extra = (logw if extra is None else extra).copy()
                accuser(extra, self.H, w.vote_proposer, w.vote_accused)
            if extra is not None:
                logw = extra
        p = np.exp(logw - logw.max())
        p /= p.sum()
        return p


def _composition(logw: np.ndarray, H: np.ndarray, weights: list, rt: int, ro: int, rx: int) -> None:
    total = rt + ro + rx
    wsum = sum(weights)
    if total <= 0 or wsum <= 0:
        return
    table = composition_table(rt, ro, rx)
    k = (H @ np.asarray(weights, dtype=float)) * (total / wsum)
    logw += np.interp(k, np.arange(total + 1), table)


def look_evidence(logw: np.ndarray, H: np.ndarray, w: View) -> None:
    """My look into the current pool: the cards I saw that are not mine came from the others."""
    t = w.target
    o = t ^ 1
    seen, mine = w.look, w.pool_mine
    rt = max(0, seen[t] - mine[t])
    ro = max(0, seen[o] - mine[o])
    rx = max(0, (sum(seen) - seen[t] - seen[o]) - (sum(mine) - mine[t] - mine[o]))
    weights = [w.contrib[s] + w.swaps[s] for s in range(w.n)]
    weights[0] = 0
    _composition(logw, H, weights, rt, ro, rx)


def accuser(logw: np.ndarray, H: np.ndarray, a: int, x: int) -> None:
    """Seat `a` chose to accuse seat `x` (among the other seats)."""
    ha, hx = H[:, a], H[:, x]
    others_c = H.sum(axis=1) - ha  # cultists among the seats a could have named
    others_i = (H.shape[1] - 1) - others_c
    wi0, wc0 = ACCUSE_WEIGHT[0]
    wi1, wc1 = ACCUSE_WEIGHT[1]
    chosen0 = np.where(hx > 0, wc0, wi0) / (others_c * wc0 + others_i * wi0)
    chosen1 = np.where(hx > 0, wc1, wi1) / (others_c * wc1 + others_i * wi1)
    logw += np.log(np.where(ha > 0, chosen1, chosen0))


def _voters(logw: np.ndarray, H: np.ndarray, pivot: int, yes: list, no: list, table: dict, skip: int) -> None:
    """Each voter's Yes/No given its role and the role of `pivot` (the accused or the proposer)."""
    n = H.shape[1]
    a1, b1, a0, b0 = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    for s in range(n):
        if s == skip or not (yes[s] or no[s]):
            continue
        for arr, voter_role, pivot_role in ((a1, 1, 1), (b1, 0, 1), (a0, 1, 0), (b0, 0, 0)):
            p = table[voter_role][pivot_role]
            arr[s] = math.log(p if yes[s] else 1.0 - p)
    when_c = b1.sum() + H @ (a1 - b1)
    when_i = b0.sum() + H @ (a0 - b0)
    logw += np.where(H[:, pivot] > 0, when_c, when_i)
