"""The investigator's policy: fill the pool with target cards, keep it clean, unmask cultists.

Every function takes a `heuristic.Context` and returns an action id (legal, or None to let the
bot fall back to Research). Seats are relative: 0 is this seat, s the player s seats to its left.
"""

from __future__ import annotations

from ..engine import actions as A
from ..engine.cards import Character, Equipment, God, Insanity, Page
from ..engine.state import Phase
from .tactics import PoolEstimate, necronomicon_threshold, pressure, requirement, win_chance
from .view import records, votes

ACCUSE_BENEFIT = 0.05  # win chance a revealed cultist is worth, against the cost of a wrong reveal
ACCUSE_AT = 0.97  # accuse from this P(cultist) at least (higher when a wrong reveal costs more) ...
PASS_AT = 0.35  # ... if the table (public evidence) suspects them at least this much
VOTE_AT = 0.97  # vote Yes on an accusation from this P(cultist) at least
INVESTIGATE_OPPOSITE = 0.8  # investigate a pool of 4+ cards expected to hold this many opposite cards
INVESTIGATE_SANITY = 2  # ... when this seat has at least this much sanity
INVESTIGATE_FROM = 4  # ... and only once the pool holds this many cards (a look misses one card)
COMPLETE_AT = 0.80  # complete a pool without looking when it succeeds with this probability
GAMBLE_TO_COMPLETE = 0.5  # without a target card, complete the pool by a Gamble from this success chance
NECRO_TRUST = 0.5  # scales the break-even P(cultist) up to which a proposer may read the book
PROPOSE_IF_TRUSTED = 0.30  # propose the Necronomicon while the table's suspicion of me is below this ...
PROPOSE_GAIN = 0.03  # ... and Turn back time would raise our win chance by at least this much
PHOBIA_RESERVE = 1.5  # the Gambler gambles less, the Antiquarian researches less
GAMBLE_RESERVE = 1.0  # gamble (instead of Research) while the pool can still absorb this many more bad cards
BLOCKING = (Insanity.PARALYSIS, Insanity.HOARDING, Insanity.GAMBLING_FEVER, Insanity.CATATONIA, Insanity.PARANOIA)


def page(ctx) -> int | None:
    return ctx.first(A.PAGE + Page.TURN_BACK_TIME, A.PAGE + Page.FORBIDDEN_LORE, A.PAGE + Page.DOOM)


# -- declaring -------------------------------------------------------------------------------------


def god_bonus(w, sigil: int) -> float:
    """How much easier (positive) an incantation on `sigil` is for the investigators."""
    god = w.gods[sigil]
    last = sum(w.activated) == 3
    if god == God.HASTUR:
        return -1.0
    if god == God.TSATHOGGUA:
        return -5.0 if (w.hour >= 11 and not last) else 0.8
    if god == God.NYARLATHOTEP:
        return -0.4
    if god == God.CTHUGHA:
        return 0.3
    if god == God.SHUB_NIGGURATH:
        return 0.2
    return 0.0


def declare(ctx) -> int | None:
    w = ctx.w
    best, best_score = None, -1e9
    for s in range(4):
        if A.DECLARE + s not in ctx.can:
            continue
        score = w.hand[s] + 0.4 * w.deck_top.count(s) + god_bonus(w, s) + 0.01 * ctx.rng.random()
        for seat, hand in enumerate(w.seen_hands):
            if hand is not None and seat > 0 and w.known[seat] != 1:
                score += 0.3 * hand[s]
        if score > best_score:
            best, best_score = A.DECLARE + s, score
    return best


# -- the turn ----------------------------------------------------------------------------------------


def turn(ctx) -> int | None:
    if A.USE_EQUIPMENT in ctx.can and want_equipment(ctx):
        return A.USE_EQUIPMENT
    if A.PROPOSE_NECRONOMICON in ctx.can and want_propose(ctx):
        return A.PROPOSE_NECRONOMICON
    return main_action(ctx)


def main_action(ctx) -> int | None:
    w, k, can = ctx.w, ctx.k, ctx.can
    mains = [a for a in ctx.legal if a < A.USE_EQUIPMENT]
    if mains == [A.GAMBLE]:
        return A.GAMBLE
    accuse = accusation(ctx)
    if accuse is not None:
        return accuse
    t = w.target
    o = t ^ 1
    pool = ctx.pool
    has_t = A.CONTRIBUTE + t in can
    # Investigating costs sanity: only with a card that improves the pool and sanity to spare.
    better = w.hand[t] > 0 or (pool.expected()[1] >= 0.5 and sum(w.hand) > w.hand[o])
    can_investigate = A.INVESTIGATE in can and w.sanity[0] >= INVESTIGATE_SANITY and better
    fresh_look = w.look_size > 0 and w.look_current
    if w.pool_size == k.size - 1:  # this card completes the incantation
        p_t = pool.success(w, k, add=(1, 0, 0))
        if has_t and p_t >= COMPLETE_AT:
            return A.CONTRIBUTE + t
        if can_investigate and not fresh_look:
            return A.INVESTIGATE
        if p_t < 0.1:  # hopeless: finish it without wasting a target card
            junk = _junk_card(ctx)
            if junk is not None:
                return junk
        if has_t and p_t >= 0.3:
            return A.CONTRIBUTE + t
        if A.GAMBLE in can and not has_t:
            p_gamble = 0.44 * p_t + 0.5 * pool.success(w, k, add=(0, 0, 1))
            if p_gamble >= GAMBLE_TO_COMPLETE or (w.hour >= 11 and p_gamble > 0.0):
                return A.GAMBLE
        if w.hour >= 11:  # the last round: any chance now beats none
            return ctx.first(A.CONTRIBUTE + t, A.GAMBLE, A.RESEARCH)
        return ctx.first(A.RESEARCH, A.CONTRIBUTE + t, A.GAMBLE)
    if can_investigate and w.pool_size >= 2 and not fresh_look:
        expected_opposite = pool.expected()[1]
        if w.pool_size >= INVESTIGATE_FROM and (pool.known[1] >= 1 or expected_opposite >= INVESTIGATE_OPPOSITE):
            return A.INVESTIGATE
    if has_t:
        return A.CONTRIBUTE + t
    return _draw(ctx, pool)


def _junk_card(ctx) -> int | None:
    """Finish a hopeless pool without wasting a target card."""
    w = ctx.w
    o = w.target ^ 1
    for s in range(4):
        if s not in (w.target, o) and A.CONTRIBUTE + s in ctx.can:
            return A.CONTRIBUTE + s
    return ctx.first(A.GAMBLE)


def _draw(ctx, pool: PoolEstimate) -> int | None:
    """No target card to play: Gamble (a card into the pool now) or Research (a better hand)."""
    w, k = ctx.w, ctx.k
    t = w.target
    if A.GAMBLE not in ctx.can:
        return ctx.first(A.RESEARCH)
    if w.hour >= 11:  # the last round: a new hand would never be played
        return A.GAMBLE
    if t in w.deck_top[:2]:
        return A.GAMBLE
    if len(w.deck_top) >= 2 and t not in w.deck_top[:3]:
        return ctx.first(A.RESEARCH, A.GAMBLE)
    threshold, cancels = requirement(w, k, t)
    exp = pool.expected()
    budget = (k.size - threshold) - exp[2] - (1 + cancels) * exp[1]
    press = pressure(w, k, float(sum(ctx.p[1 : w.n])))
    reserve = GAMBLE_RESERVE - 0.5 * max(0.0, press - 1.0)
    if w.sanity[0] > 0 and w.character[0] == Character.GAMBLER:
        reserve += PHOBIA_RESERVE  # every Gamble costs this seat sanity
    elif w.sanity[0] > 0 and w.character[0] == Character.ANTIQUARIAN:
        reserve -= PHOBIA_RESERVE  # every Research does
    if budget - 0.56 >= reserve:
        return A.GAMBLE
    if w.sanity[0] > 1 and w.character[0] == Character.ANTIQUARIAN and budget - 0.56 >= 0:
        return A.GAMBLE
    return ctx.first(A.RESEARCH, A.GAMBLE)


def wrong_accusation_cost(ctx) -> float:
    """How much a passed accusation of an investigator (the clock jumps) lowers our chances."""
    w, k = ctx.w, ctx.k
    cultists = float(sum(ctx.p[1 : w.n]))
    now = win_chance(pressure(w, k, cultists))
    if w.hour + k.wrong_hours >= 12:
        return now + 0.05
    return now - win_chance(pressure(w, k, cultists, hours_back=-k.wrong_hours))


def accuse_threshold(ctx, floor: float) -> float:
    """P(cultist) from which accusing (or voting Yes) is worth the risk of a wrong reveal."""
    cost = wrong_accusation_cost(ctx)
    return max(floor, cost / (cost + ACCUSE_BENEFIT))


def accusation(ctx) -> int | None:
    w = ctx.w
    p = ctx.p
    best, best_p = None, 0.0
    for s in range(1, w.n):
        a = A.ACCUSE + s - 1
        if a in ctx.can and p[s] > best_p:
            best, best_p = s, float(p[s])
    if best is None or _failed_before(ctx, best):
        return None
    if best_p >= accuse_threshold(ctx, ACCUSE_AT) and (ctx.pub[best] >= PASS_AT or w.known[best] == 1):
        return A.ACCUSE + best - 1
    return None


def _failed_before(ctx, seat: int) -> bool:
    """An accusation of `seat` already failed since the last incantation (no new evidence)."""
    w = ctx.w
    last_incantation = max((r.hour for r in records(w, ctx.k)), default=-1)
    return any(v.kind == 0 and v.accused == seat and not v.passed and v.hour >= last_incantation for v in votes(w))


def necro_trust(ctx) -> float:
    """Largest P(cultist) of a proposer this seat lets read the Necronomicon."""
    return NECRO_TRUST * necronomicon_threshold(ctx.w, ctx.k, float(sum(ctx.p[1 : ctx.w.n])))


def want_propose(ctx) -> bool:
    """Propose once the hours Turn back time wins matter (and the table may trust this seat)."""
    w, k = ctx.w, ctx.k
    if float(ctx.pub[0]) > PROPOSE_IF_TRUSTED:
        return False
    cultists = float(sum(ctx.p[1 : w.n]))
    gain = win_chance(pressure(w, k, cultists, hours_back=k.hours_back)) - win_chance(pressure(w, k, cultists))
    return gain >= PROPOSE_GAIN


# -- votes -------------------------------------------------------------------------------------------


def vote(ctx) -> int:
    w = ctx.w
    if w.vote_kind == 0:
        x = w.vote_accused
        if w.known[x] >= 0:
            return A.VOTE_YES if w.known[x] == 1 else A.VOTE_NO
        return A.VOTE_YES if ctx.p[x] >= accuse_threshold(ctx, VOTE_AT) else A.VOTE_NO
    y = w.vote_proposer
    if w.known[y] >= 0:
        return A.VOTE_YES if w.known[y] == 0 else A.VOTE_NO
    return A.VOTE_YES if ctx.p[y] <= necro_trust(ctx) else A.VOTE_NO


# -- sub-decisions -------------------------------------------------------------------------------------


def discard(ctx) -> int | None:
    w = ctx.w
    t = w.target
    for s in (t ^ 1, *(s for s in range(4) if s not in (t, t ^ 1))):
        if A.DISCARD + s in ctx.can:
            return A.DISCARD + s
    return A.STOP_DISCARDING


def gamble_play(ctx) -> int | None:
    t = ctx.w.target
    others = [A.GAMBLE_PLAY + s for s in range(4) if s not in (t, t ^ 1)]
    return ctx.first(A.GAMBLE_PLAY + t, *others, A.GAMBLE_PLAY + (t ^ 1))


def _value(ctx, sigil: int) -> int:
    t = ctx.w.target
    return 1 if sigil == t else (-ctx.k.cancels if sigil == t ^ 1 else 0)


def _best_give(ctx) -> int | None:
    w = ctx.w
    cards = [s for s in range(4) if w.hand[s] > 0]
    return max(cards, key=lambda s: _value(ctx, s)) if cards else None


def take(ctx) -> int | None:
    give_sigil = _best_give(ctx)
    if give_sigil is None:
        return A.NO_SWAP
    best, gain = None, 0
    for s in range(4):
        if A.TAKE + s in ctx.can:
            g = _value(ctx, give_sigil) - _value(ctx, s)
            if g > gain:
                best, gain = s, g
    return A.NO_SWAP if best is None else A.TAKE + best


def give(ctx) -> int | None:
    s = _best_give(ctx)
    return None if s is None else A.GIVE + s


# -- equipment -----------------------------------------------------------------------------------------


def _suspect(ctx, unknown_only: bool = True) -> tuple[int, float]:
    w = ctx.w
    best, best_p = -1, -1.0
    for s in range(1, w.n):
        if unknown_only and w.known[s] >= 0:
            continue
        if ctx.p[s] > best_p:
            best, best_p = s, float(ctx.p[s])
    return best, best_p


def want_equipment(ctx) -> bool:
    w, k = ctx.w, ctx.k
    item = w.equipment[0]
    t = w.target
    fresh_look = w.look_size > 0 and w.look_current
    if item == Equipment.LANTERN:
        return w.pool_size >= 3 and not fresh_look
    if item == Equipment.RITUAL_KNIFE:
        face_down = w.pool_size - sum(w.face_up)
        if face_down <= 0 or w.pool_size < 3:
            return False
        exp = ctx.pool.expected()
        bad_down = exp[1] + exp[2] - (sum(w.face_up) - w.face_up[t])
        return bad_down / face_down >= 0.5
    if item == Equipment.COMPASS:
        return w.pool_size >= 3 and _compass_choice(ctx)[1] > ctx.pool.success(w, k) + 0.3
    if item == Equipment.PISTOL:
        return _pistol_target(ctx) >= 0
    if item == Equipment.SPYGLASS:
        return _suspect(ctx)[1] >= 0.3
    if item == Equipment.AMULET:
        held = w.insanity[0]
        return w.sanity[0] < k.start_sanity and (w.sanity[0] <= 2 or any(held[c] for c in BLOCKING))
    if item == Equipment.ALMANAC:
        return w.hand[t] == 0
    if item == Equipment.OUIJA_BOARD:
        s, p = _suspect(ctx)
        return s > 0 and w.sanity[0] >= 2 and 0.25 <= p <= 0.9
    return False


def _pistol_target(ctx) -> int:
    """A trusted player with an empty (or, late, a short) hand gets a fresh one."""
    w = ctx.w
    limit = 1 if w.hour >= 8 else 0
    best, best_key = -1, None
    for s in range(1, w.n):
        if w.revealed[s] == 1 or ctx.p[s] >= 0.2 or w.hand_counts[s] > limit:
            continue
        key = (w.hand_counts[s], float(ctx.p[s]))
        if best_key is None or key < best_key:
            best, best_key = s, key
    return best


def _compass_choice(ctx) -> tuple[int, float]:
    w, k = ctx.w, ctx.k
    best, best_p = -1, -1.0
    for s in range(4):
        if A.TARGET_SIGIL + s in ctx.can or (ctx.w.phase == Phase.TURN and s != w.target and not w.activated[s]):
            p = PoolEstimate(w, k, ctx.hypotheses, target=s).success(w, k)
            if p > best_p:
                best, best_p = s, p
    return best, best_p


def compass(ctx) -> int | None:
    s, _ = _compass_choice(ctx)
    return A.TARGET_SIGIL + s if s >= 0 else None


def aim(ctx) -> int | None:
    w = ctx.w
    item = w.equipment[0]
    if item == Equipment.PISTOL:
        s = _pistol_target(ctx)
        if s < 0:  # nobody needs cards: disrupt the most suspicious hand
            s = _suspect(ctx, unknown_only=False)[0]
    else:
        s = _suspect(ctx)[0]
    a = A.TARGET_PLAYER + s - 1
    return a if a in ctx.can else ctx.legal[0]
