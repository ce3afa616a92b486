"""Estimates both roles of the heuristic bot share: what the pool probably holds, whether it will
succeed, how short time is. Everything is computed from a decoded `View` and the seat's beliefs.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..engine.cards import God
from .beliefs import CULTIST_CARDS, INVESTIGATOR_CARDS
from .view import Constants, View

# Category probabilities (target, opposite, other) of the cards still to come into the pool.
FILL = (0.70, 0.04, 0.26)


def requirement(w: View, k: Constants, sigil: int) -> tuple[int, int]:
    """(net matches needed, matches cancelled per opposite card) for an incantation on `sigil`."""
    god = w.gods[sigil]
    threshold, cancels = k.threshold, k.cancels
    if god == God.HASTUR:
        threshold = min(threshold + 1, k.size)
    elif god == God.TSATHOGGUA:
        threshold = max(1, threshold - 1)
    elif god == God.NYARLATHOTEP:
        cancels *= 2
    return threshold, cancels


CHECKED_CULTIST_CARDS = (CULTIST_CARDS[0], 0.3 * CULTIST_CARDS[1], CULTIST_CARDS[2] + 0.7 * CULTIST_CARDS[1])
"""A cultist's card in a pool an investigator has looked into without swapping anything."""


class PoolEstimate:
    """What the seat believes about the current pool, for target sigil `target`.

    The cards it has not seen came from the other contributors. Who is a cultist is uncertain,
    but it is the same seats for all of their cards, so the estimate is a mixture over the role
    assignments of the posterior (`hyp`: weights and 0/1 rows): under each, the unseen cards are
    `k` cultist cards and the rest investigator cards, swaps by investigators have cleaned a bad
    card, swaps by cultists have spoiled a good one, and a look by an investigator that swapped
    nothing makes an opposite card less likely."""

    __slots__ = ("target", "known", "unknown", "remaining", "groups")

    def __init__(self, w: View, k: Constants, hyp, target: int | None = None):
        t = w.target if target is None else target
        self.target = t
        o = t ^ 1
        looked = w.look_size > 0
        if looked:
            cards = list(w.look)
            if not w.look_current:  # my own cards added since the look are known too
                extra = [max(0, m - c) for m, c in zip(w.pool_mine, w.look)]
                if sum(extra) <= w.pool_size - w.look_size:
                    cards = [c + e for c, e in zip(cards, extra)]
        else:
            cards = [max(m, f) for m, f in zip(w.pool_mine, w.face_up)]
        total = min(sum(cards), w.pool_size)
        self.known = (cards[t], cards[o], total - cards[t] - cards[o])
        u = self.unknown = max(0, w.pool_size - total)
        self.remaining = k.size - w.pool_size
        if u == 0:
            self.groups = [(1.0, 0, 0, False, 0)]
            return
        n = w.n
        # unseen cards per seat: face-up players' cards are all known already
        c = [0.0] * n
        for s in range(1, n):
            if not (w.revealed[s] == 1 or w.mad[s]) or looked:
                c[s] = float(w.contrib[s])
        csum = sum(c)
        weights, H = hyp
        if csum <= 0:
            kc = np.zeros(len(weights))
        else:
            kc = (H @ np.asarray(c)) * (u / csum)
        keep = np.flatnonzero(weights > 1e-4)
        wk = weights[keep]
        Hk = H[keep]
        kc = kc[keep]
        lo = np.floor(kc)
        frac = kc - lo
        swaps = np.asarray([w.swaps[s] if s > 0 else 0 for s in range(n)], dtype=float)
        if swaps.any() and not looked:
            dirty = Hk @ swaps
            clean = swaps.sum() - dirty
        else:
            dirty = clean = np.zeros(len(wk))
        looks = [s for s in range(1, n) if w.investigations[s] > w.swaps[s]] if not looked else []
        if looks:
            checked = (Hk[:, looks] == 0).any(axis=1)
        else:
            checked = np.zeros(len(wk), dtype=bool)
        groups: dict[tuple, float] = {}
        for kcult0, share in ((lo, (1.0 - frac) * wk), (lo + 1, frac * wk)):
            kcult = np.minimum(kcult0, u)
            kinv = u - kcult
            moved = np.minimum(dirty, kinv)
            kinv = kinv - moved
            kcult = kcult + moved
            bonus = np.minimum(clean, kcult)
            kcult = kcult - bonus
            for key, wg in zip(zip(kcult.tolist(), kinv.tolist(), checked.tolist(), bonus.tolist()), share.tolist()):
                if wg > 1e-9:
                    groups[key] = groups.get(key, 0.0) + wg
        total_w = sum(groups.values())
        self.groups = [
            (wg / total_w, int(kcult), int(kinv), checked, int(bonus))
            for (kcult, kinv, checked, bonus), wg in groups.items()
        ]

    def expected(self) -> tuple[float, float, float]:
        """Expected target, opposite and other cards now in the pool."""
        e = list(self.known)
        for wg, kcult, kinv, checked, bonus in self.groups:
            dist = CHECKED_CULTIST_CARDS if checked else CULTIST_CARDS
            for j in range(3):
                e[j] += wg * (kcult * dist[j] + kinv * INVESTIGATOR_CARDS[j])
            e[0] += wg * bonus
        return e[0], e[1], e[2]

    def success(self, w: View, k: Constants, add: tuple[int, int, int] = (0, 0, 0)) -> float:
        """P(success) if the seat adds the cards `add` (target, opposite, other) now and the rest
        of the pool is filled with cards distributed as `FILL`."""
        threshold, cancels = requirement(w, k, self.target)
        net = self.known[0] + add[0] - cancels * (self.known[1] + add[1])
        future = max(0, self.remaining - sum(add))
        p = 0.0
        for wg, kcult, kinv, checked, bonus in self.groups:
            lo, tail = _net_tail(kcult, kinv, future, checked, cancels)
            need = threshold - net - bonus - lo
            p += wg * (1.0 if need <= 0 else (tail[need] if need < len(tail) else 0.0))
        return p

    def bad(self) -> float:
        """Expected cards in the pool that are not the target."""
        e = self.expected()
        return e[1] + e[2]


@functools.lru_cache(maxsize=None)
def _net_tail(kcult: int, kinv: int, kfill: int, checked: bool, cancels: int) -> tuple[int, tuple]:
    """Distribution of the summed value (+1 target, -cancels opposite, 0 other) of `kcult`
    cultist cards, `kinv` investigator cards and `kfill` future cards: (lowest value, tail) with
    tail[i] = P(sum >= lowest + i)."""
    dist = {0: 1.0}
    for probs, count in (
        (CHECKED_CULTIST_CARDS if checked else CULTIST_CARDS, kcult),
        (INVESTIGATOR_CARDS, kinv),
        (FILL, kfill),
    ):
        pt, po, px = probs
        for _ in range(count):
            nxt: dict[int, float] = {}
            for v, p in dist.items():
                nxt[v + 1] = nxt.get(v + 1, 0.0) + p * pt
                nxt[v - cancels] = nxt.get(v - cancels, 0.0) + p * po
                nxt[v] = nxt.get(v, 0.0) + p * px
            dist = nxt
    lo, hi = min(dist), max(dist)
    tail = [0.0] * (hi - lo + 2)
    for v in range(hi, lo - 1, -1):
        tail[v - lo] = tail[v - lo + 1] + dist.get(v, 0.0)
    return lo, tuple(tail)


def pressure(w: View, k: Constants, cultists: float, hours_back: int = 0) -> float:
    """Cards still needed over what the investigators can be expected to add before midnight
    (above 1: behind schedule), optionally with the clock turned back `hours_back` hours."""
    n = w.n
    turn_index = (w.player - w.watch) % n if w.player >= 0 and w.watch >= 0 else 0
    turns_left = max(1, (12 - max(0, w.hour - hours_back)) * n - turn_index)
    sigils_left = 4 - sum(w.activated)
    needed = sigils_left * (k.size + 1.5) - w.pool_size
    helpers = max(1.0, n - cultists)
    return needed / (turns_left * helpers / n * 0.75)


def win_chance(press: float) -> float:
    """The investigators' chance to win at a given `pressure` (fitted on heuristic games)."""
    return 1.0 / (1.0 + math.exp(2.6 * (press - 0.65)))


DOOM_RISK = 0.71  # P(a cultist reader is offered Doom): 1 - C(7,3)/C(10,3) with the default book


def necronomicon_threshold(w: View, k: Constants, cultists: float) -> float:
    """Largest P(cultist) of a proposer worth letting read: the time Turn back time wins must
    outweigh the risk of Doom."""
    now = win_chance(pressure(w, k, cultists))
    after = win_chance(pressure(w, k, cultists, hours_back=k.hours_back))
    gain = max(0.0, after - now)
    return min(0.6, gain / (gain + DOOM_RISK * now + 1e-9))
