"""The cultist's policy: make incantations fail without looking like the cause, protect itself
and fellow cultists in votes, push wrong accusations, and read Doom when trusted with the book.

The seat judges its own exposure with the *public* posterior (`ctx.pub[0]`: how suspicious it
looks to a table that only sees public information) and the pool with its private view (its own
cards and looks; the others are mostly investigators). Seats are relative: 0 is this seat.
"""

from __future__ import annotations

from ..engine import actions as A
from ..engine.cards import Character, Equipment, God, Insanity, Page
from . import investigator as inv
from .tactics import PoolEstimate, necronomicon_threshold

SAFE = 0.9  # public suspicion of this seat below which it still slips bad cards in
BLEND_YES = 0.6  # vote Yes against an investigator the table suspects this much (blend in, push)
LATE_FROM = 2  # slip an opposite card only once the pool holds this many cards
DOOMED = 0.15  # a pool with a success chance below this needs no more sabotage
PUSH_MARGIN = 0.05  # accuse an investigator the table suspects nearly enough to vote them out


def page(ctx) -> int | None:
    return ctx.first(A.PAGE + Page.DOOM, A.PAGE + Page.FORBIDDEN_LORE, A.PAGE + Page.TURN_BACK_TIME)


def _revealed(w) -> bool:
    return w.revealed[0] == 1


def _face_up(w) -> bool:
    """Cards this seat puts into the pool go face up (revealed, mad or Babbling)."""
    return _revealed(w) or w.mad[0] or w.insanity[0][Insanity.BABBLING]


def _stealthy(ctx) -> bool:
    return not _revealed(ctx.w) and float(ctx.pub[0]) < SAFE


# -- declaring -------------------------------------------------------------------------------------


def declare(ctx) -> int | None:
    w = ctx.w
    last = sum(w.activated) == 3
    best, best_score = None, -1e9
    for s in range(4):
        if A.DECLARE + s not in ctx.can:
            continue
        god = w.gods[s]
        score = 1.0 * w.hand[s ^ 1] - 0.3 * w.hand[s] + 0.01 * ctx.rng.random()
        if god == God.HASTUR:
            score += 1.0
        elif god == God.NYARLATHOTEP:
            score += 0.6
        elif god == God.TSATHOGGUA:
            score += 3.0 if (w.hour >= 11 and not last) else -0.8
        elif god in (God.CTHUGHA, God.SHUB_NIGGURATH):
            score -= 0.3
        if score > best_score:
            best, best_score = A.DECLARE + s, score
    return best


# -- the turn ----------------------------------------------------------------------------------------


def turn(ctx) -> int | None:
    if A.USE_EQUIPMENT in ctx.can and want_equipment(ctx):
        return A.USE_EQUIPMENT
    if A.PROPOSE_NECRONOMICON in ctx.can and want_propose(ctx):
        return A.PROPOSE_NECRONOMICON
    if _revealed(ctx.w):
        return revealed_action(ctx)
    return hidden_action(ctx)


def hidden_action(ctx) -> int | None:
    w, k, can = ctx.w, ctx.k, ctx.can
    mains = [a for a in ctx.legal if a < A.USE_EQUIPMENT]
    if mains == [A.GAMBLE]:
        return A.GAMBLE
    push = push_accusation(ctx)
    if push is not None:
        return push
    t = w.target
    o = t ^ 1
    pool = ctx.pool
    p_success = pool.success(w, k)
    stealthy = _stealthy(ctx) and not _face_up(w)
    hand_count = sum(w.hand)
    if p_success < DOOMED:
        return ctx.first(A.RESEARCH)
    if w.pool_size == k.size - 1:  # never complete a live pool: swap a target card out instead
        if stealthy and A.INVESTIGATE in can and w.sanity[0] >= 2 and hand_count > w.hand[t]:
            return A.INVESTIGATE
        return ctx.first(A.RESEARCH)
    if stealthy:
        if A.CONTRIBUTE + o in can and w.pool_size >= LATE_FROM:
            return A.CONTRIBUTE + o
        if A.GAMBLE in can and w.pool_size >= LATE_FROM and p_success > 0.35:
            return A.GAMBLE
    elif A.CONTRIBUTE + t in can and p_success > 0.8 and not _revealed(w):
        return A.CONTRIBUTE + t  # cover: this pool succeeds anyway
    return ctx.first(A.RESEARCH)


def revealed_action(ctx) -> int | None:
    w, k, can = ctx.w, ctx.k, ctx.can
    mains = [a for a in ctx.legal if a < A.USE_EQUIPMENT]
    if mains == [A.GAMBLE]:
        return A.GAMBLE
    o = w.target ^ 1
    live = ctx.pool.success(w, k) >= DOOMED
    if live and A.CONTRIBUTE + o in can and w.pool_size < k.size - 1:
        return A.CONTRIBUTE + o
    victim, score = _curse_target(ctx)
    if victim > 0 and score >= 2.0:
        return A.CURSE + victim - 1
    if live and A.GAMBLE in can and 1 <= w.pool_size < k.size - 1:
        return A.GAMBLE
    if victim > 0 and sum(w.hand) >= 2 and w.hand[o] == 0:
        return A.CURSE + victim - 1
    return ctx.first(A.RESEARCH)


def _curse_target(ctx) -> tuple[int, float]:
    w = ctx.w
    best, best_score = -1, -1.0
    for s in range(1, w.n):
        if A.CURSE + s - 1 not in ctx.can or w.revealed[s] == 1 or ctx.p[s] > 0.5 or w.mad[s]:
            continue
        score = 1.0 + (3.0 if w.sanity[s] == 1 else 0.0) + (1.5 if w.character[s] == Character.PHOTOGRAPHER else 0.0)
        score += 0.2 * (5 - w.sanity[s])
        if score > best_score:
            best, best_score = s, score
    return best, best_score


def push_accusation(ctx) -> int | None:
    """Accuse an investigator the table already suspects (a passed vote costs them 2 hours)."""
    w = ctx.w
    if float(ctx.pub[0]) >= SAFE:
        return None
    best, best_pub = -1, 0.0
    for s in range(1, w.n):
        if A.ACCUSE + s - 1 not in ctx.can or ctx.p[s] >= 0.3:
            continue
        if ctx.pub[s] > best_pub:
            best, best_pub = s, float(ctx.pub[s])
    if best > 0 and best_pub >= inv.VOTE_AT - PUSH_MARGIN:
        return A.ACCUSE + best - 1
    return None


def _investigators_trust(ctx) -> float:
    """The Necronomicon trust threshold the investigators' heuristic uses, seen from here."""
    return inv.NECRO_TRUST * necronomicon_threshold(ctx.w, ctx.k, float(sum(ctx.pub[: ctx.w.n])))


def want_propose(ctx) -> bool:
    return float(ctx.pub[0]) <= _investigators_trust(ctx) + 0.05


# -- votes -------------------------------------------------------------------------------------------


def vote(ctx) -> int:
    w, k = ctx.w, ctx.k
    p, pub = ctx.p, ctx.pub
    if w.vote_kind == 0:
        x = w.vote_accused
        fellow = w.known[x] == 1 or (w.known[x] < 0 and p[x] >= 0.5)
        if fellow:
            return A.VOTE_YES if pub[x] >= 0.8 else A.VOTE_NO
        if w.hour + k.wrong_hours >= 12:
            return A.VOTE_YES  # a passed vote wins the game at once
        return A.VOTE_YES if pub[x] >= BLEND_YES else A.VOTE_NO
    y = w.vote_proposer
    if w.known[y] == 1 or (w.known[y] < 0 and p[y] >= 0.5):
        return A.VOTE_YES
    return A.VOTE_YES if pub[y] <= _investigators_trust(ctx) - 0.03 else A.VOTE_NO


# -- sub-decisions -------------------------------------------------------------------------------------


def discard(ctx) -> int | None:
    w = ctx.w
    t = w.target
    keep = (t ^ 1,) if _revealed(w) else (t, t ^ 1)
    for s in range(4):
        if s not in keep and A.DISCARD + s in ctx.can:
            return A.DISCARD + s
    return A.STOP_DISCARDING


def gamble_play(ctx) -> int | None:
    w = ctx.w
    t = w.target
    o = t ^ 1
    others = [A.GAMBLE_PLAY + s for s in range(4) if s not in (t, o)]
    if _face_up(w) and not _revealed(w):
        return ctx.first(*others, A.GAMBLE_PLAY + t, A.GAMBLE_PLAY + o)
    return ctx.first(A.GAMBLE_PLAY + o, *others, A.GAMBLE_PLAY + t)


def _value(ctx, sigil: int) -> int:
    t = ctx.w.target
    return 1 if sigil == t else (-ctx.k.cancels if sigil == t ^ 1 else 0)


def _worst_give(ctx) -> int | None:
    w = ctx.w
    cards = [s for s in range(4) if w.hand[s] > 0]
    return min(cards, key=lambda s: _value(ctx, s)) if cards else None


def take(ctx) -> int | None:
    give_sigil = _worst_give(ctx)
    if give_sigil is None or _face_up(ctx.w):
        return A.NO_SWAP
    best, loss = None, 0
    for s in range(4):
        if A.TAKE + s in ctx.can:
            d = _value(ctx, give_sigil) - _value(ctx, s)
            if d < loss:
                best, loss = s, d
    return A.NO_SWAP if best is None else A.TAKE + best


def give(ctx) -> int | None:
    s = _worst_give(ctx)
    return None if s is None else A.GIVE + s


# -- equipment -----------------------------------------------------------------------------------------


def want_equipment(ctx) -> bool:
    w, k = ctx.w, ctx.k
    item = w.equipment[0]
    if item == Equipment.LANTERN:
        return w.pool_size >= 3
    if item == Equipment.RITUAL_KNIFE:
        return w.pool_size >= 4 and w.pool_mine[w.target ^ 1] == 0 and ctx.pool.success(w, k) >= 0.5
    if item == Equipment.COMPASS:
        return w.pool_size >= 4 and ctx.pool.success(w, k) >= 0.5 and _compass_choice(ctx)[1] < 0.2
    if item == Equipment.PISTOL:
        return _pistol_target(ctx) > 0
    if item == Equipment.SPYGLASS:
        return True
    if item == Equipment.AMULET:
        held = w.insanity[0]
        return w.sanity[0] < k.start_sanity and (w.sanity[0] <= 2 or any(held[c] for c in inv.BLOCKING))
    if item == Equipment.ALMANAC:
        return w.hand[w.target ^ 1] == 0
    if item == Equipment.OUIJA_BOARD:
        return w.sanity[0] >= 3 and _ouija_target(ctx) > 0
    return False


def _pistol_target(ctx) -> int:
    """The nearest likely investigator holding a full hand (it may hold target cards)."""
    w = ctx.w
    for s in range(1, w.n):
        if ctx.p[s] < 0.5 and w.revealed[s] != 1 and w.hand_counts[s] >= ctx.k.hand_size:
            return s
    return -1


def _ouija_target(ctx) -> int:
    w = ctx.w
    for s in range(1, w.n):
        if w.known[s] < 0 and w.character[s] == Character.PHOTOGRAPHER and ctx.p[s] < 0.5:
            return s
    if w.cultists == 1:
        return -1
    best, best_p = -1, 0.15
    for s in range(1, w.n):
        if w.known[s] < 0 and ctx.p[s] > best_p:
            best, best_p = s, float(ctx.p[s])
    return best


def _compass_choice(ctx) -> tuple[int, float]:
    w, k = ctx.w, ctx.k
    best, best_p = -1, 2.0
    for s in range(4):
        if s == w.target or w.activated[s]:
            continue
        p = PoolEstimate(w, k, ctx.hypotheses, target=s).success(w, k)
        if p < best_p:
            best, best_p = s, p
    return best, best_p


def compass(ctx) -> int | None:
    s, _ = _compass_choice(ctx)
    return A.TARGET_SIGIL + s if A.TARGET_SIGIL + s in ctx.can else ctx.legal[0]


def aim(ctx) -> int | None:
    w = ctx.w
    item = w.equipment[0]
    s = -1
    if item == Equipment.PISTOL:
        s = _pistol_target(ctx)
    elif item == Equipment.OUIJA_BOARD:
        s = _ouija_target(ctx)
    else:  # Spyglass: the Photographer loses sanity; else the seat the table suspects most
        for r in range(1, w.n):
            if w.character[r] == Character.PHOTOGRAPHER and ctx.p[r] < 0.5:
                s = r
        if s < 0:
            s = max(range(1, w.n), key=lambda r: float(ctx.pub[r]))
    a = A.TARGET_PLAYER + s - 1
    return a if a in ctx.can else ctx.legal[0]
