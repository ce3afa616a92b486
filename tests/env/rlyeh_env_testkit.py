"""Helpers shared by the env tests: random play that reaches every phase, and the perturbation
of everything one seat cannot know (the no-leak tests).

The perturbation changes only what the encoder must not read for `seat`; it never touches the
public fields, the seat's own Player (role, hand, memory) or the decision context when the seat
is the one deciding. See `perturb` for the exact list.
"""

from __future__ import annotations

import random

from rlyeh_env.engine import GameConfig, Phase, apply_action, legal_actions, new_game
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import NUM_PAGES
from rlyeh_env.engine.state import Event, State

ALL_PHASES = [p for p in Phase]
DECISION_PHASES = [p for p in Phase if p != Phase.GAME_OVER]

# Table sizes and variants the env tests sweep.
VARIANTS = {
    "basic": {},
    "extra_gods": {"extra_gods": True},
    "hidden_count": {"hidden_cultist_count": True},
}


def policy(state: State, legal: list[int], r: random.Random) -> int:
    """Random, but biased so that games last and reach every phase: mostly no accusations,
    often feeding the target, sometimes using equipment and the Necronomicon."""
    if state.phase == Phase.TURN:
        for free in (A.USE_EQUIPMENT, A.PROPOSE_NECRONOMICON):
            if free in legal and r.random() < 0.35:
                return free
        if state.target >= 0 and r.random() < 0.35:
            for a in (A.CONTRIBUTE + state.target, A.GAMBLE, A.INVESTIGATE):
                if a in legal:
                    return a
        calm = [a for a in legal if not A.ACCUSE <= a < A.CURSE + A.MAX_OFFSET]
        if calm and r.random() < 0.85:
            return r.choice(calm)
    if state.phase in (Phase.GAMBLE_PLAY, Phase.INVESTIGATE_GIVE) and state.target >= 0 and r.random() < 0.5:
        for a in (A.GAMBLE_PLAY + state.target, A.GIVE + state.target):
            if a in legal:
                return a
    if state.phase == Phase.INVESTIGATE_TAKE and len(legal) > 1 and r.random() < 0.7:
        return r.choice([a for a in legal if a != A.NO_SWAP])
    return r.choice(legal)


def play_and_sample(config: GameConfig, seed: int, per_phase: int = 1):
    """Play one game; return clones of up to `per_phase` states of each phase met, drawn
    uniformly over the game (reservoir sampling), then the final state."""
    rng = random.Random(seed)
    pick = random.Random(seed * 7919 + 17)
    state = new_game(config, rng)
    met: dict[int, int] = {}
    kept: dict[int, list[State]] = {}
    while not state.game_over:
        k = met[state.phase] = met.get(state.phase, 0) + 1
        slots = kept.setdefault(state.phase, [])
        if k <= per_phase:
            slots.append(state.clone())
        elif pick.random() < per_phase / k:
            slots[pick.randrange(per_phase)] = state.clone()
        apply_action(state, policy(state, legal_actions(state), pick), rng)
    return [s for phase in sorted(kept) for s in kept[phase]] + [state.clone()]


def sample_states(seeds, sizes=range(4, 9), variants=("basic", "extra_gods", "hidden_count"), per_phase=1):
    """States from many games: every (seed, size, variant) combination."""
    out = []
    for seed in seeds:
        for n in sizes:
            for name in variants:
                config = GameConfig(num_players=n, **VARIANTS[name])
                out += play_and_sample(config, seed * 1000 + n * 10 + len(name), per_phase)
    return out


# -- the perturbation ------------------------------------------------------------------------------


def _counts(cards) -> list[int]:
    out = [0, 0, 0, 0]
    for c in cards:
        out[c] += 1
    return out


def _expand(counts) -> list[int]:
    return [s for s in range(4) for _ in range(counts[s])]


def perturb(state: State, seat: int, r: random.Random) -> State:
    """A clone of `state` that differs in (almost) everything `seat` cannot know.

    Kept: every public field, the seat's own Player (role, hand, sanity, memory), the cards it
    knows are on top of the deck (Almanac), and when it is deciding, the decision context
    (gambled cards, pages, the pool cards it saw while investigating).
    Changed: other players' roles (permuted among seats whose role the seat does not know; in
    the hidden-count variant possibly one flipped), other players' hands (cards swapped with the
    deck, the discard pile and each other; counts kept), deck order, discard order and content,
    the face-down pool cards (places and sigils), who played which card of a past incantation,
    other seats' memory, the pending
    context of a decision the seat is not taking (gambled cards, pages, seen / taken cards,
    discards), the votes others cast in a pending vote, the Insanity deck and Necronomicon
    order, and other seats' private events.
    """
    st = state.clone()
    cfg = st.config
    n = st.num_players
    me = st.players[seat]
    mem = me.memory
    deciding = st.decider == seat and not st.game_over
    others = [q for q in range(n) if q != seat]
    known_top = len(mem.deck_top)

    def free_deck() -> list[int]:
        return list(range(len(st.deck) - known_top))

    # roles
    unknown = [q for q in others if mem.known_roles[q] == -1]
    roles = [st.players[q].role for q in unknown]
    r.shuffle(roles)
    for q, role in zip(unknown, roles):
        st.players[q].role = role
    if cfg.hidden_cultist_count and unknown:
        q = r.choice(unknown)
        lo, hi = cfg.hidden_range()
        flipped = st.num_cultists + (1 if st.players[q].role == 0 else -1)
        if lo <= flipped <= hi:
            st.players[q].role ^= 1
            st.num_cultists = flipped

    # other hands: swap cards with the deck, the discard pile and each other
    for q in others:
        p = st.players[q]
        cards = _expand(p.hand)
        for i, card in enumerate(cards):
            free = free_deck()
            if free and r.random() < 0.7:
                j = r.choice(free)
                cards[i], st.deck[j] = st.deck[j], card
            elif st.discard and r.random() < 0.5:
                j = r.randrange(len(st.discard))
                cards[i], st.discard[j] = st.discard[j], card
        p.hand = _counts(cards)
    for _ in range(3):
        a, b = r.sample(others, 2) if len(others) >= 2 else (others[0], others[0])
        pa, pb = st.players[a], st.players[b]
        if a != b and pa.hand_count and pb.hand_count:
            ca, cb = _expand(pa.hand), _expand(pb.hand)
            i, j = r.randrange(len(ca)), r.randrange(len(cb))
            ca[i], cb[j] = cb[j], ca[i]
            pa.hand, pb.hand = _counts(ca), _counts(cb)

    # deck and discard pile
    free = free_deck()
    for i in range(min(len(st.discard), len(free))):
        if r.random() < 0.5:
            j = r.choice(free)
            st.discard[i], st.deck[j] = st.deck[j], st.discard[i]
    head = st.deck[: len(free)]
    r.shuffle(head)
    st.deck[: len(free)] = head
    r.shuffle(st.discard)

    # the pool: face-down cards (except those the deciding investigator saw)
    investigating = deciding and st.phase in (Phase.INVESTIGATE_TAKE, Phase.INVESTIGATE_GIVE)
    protected = set(st.pending.seen) if investigating else set()
    hidden = [i for i, c in enumerate(st.pool) if not c.face_up and i not in protected]
    cards = [st.pool[i] for i in hidden]
    r.shuffle(cards)  # the face-down cards change places (the face-up ones are seen in place)
    for i, card in zip(hidden, cards):
        st.pool[i] = card
    for i in hidden:
        free = free_deck()
        if free and r.random() < 0.6:
            j = r.choice(free)
            st.pool[i].sigil, st.deck[j] = st.deck[j], st.pool[i].sigil

    # other seats' memory
    size = cfg.incantation_size
    for q in others:
        m = st.players[q].memory
        m.pool_mine = [r.randint(0, 2) for _ in range(4)]
        m.pool_look = [r.randint(0, 2) for _ in range(4)]
        m.pool_look_size = r.randint(0, size)
        m.past_mine = [[r.randint(0, 3) for _ in range(4)] for _ in m.past_mine]
        m.known_roles = [r.choice((-1, 0, 1)) for _ in range(n)]
        m.known_roles[q] = st.players[q].role
        m.seen_hands = [None if r.random() < 0.5 else [r.randint(0, 2) for _ in range(4)] for _ in range(n)]
        m.deck_top = [r.randrange(4) for _ in range(r.randint(0, 3))]

    # the pending decision of somebody else
    pending = st.pending
    if not deciding:
        for i in range(len(pending.gamble_cards)):
            free = free_deck()
            if free:
                j = r.choice(free)
                pending.gamble_cards[i], st.deck[j] = st.deck[j], pending.gamble_cards[i]
            else:
                pending.gamble_cards[i] = r.randrange(4)
        if pending.pages:
            pool = pending.pages + st.necronomicon
            r.shuffle(pool)
            pending.pages = pool[: len(pending.pages)]
            st.necronomicon = pool[len(pending.pages) :]
            if all(p == pending.pages[0] for p in pool):  # nothing to swap with: change anyway
                pending.pages = [r.randrange(NUM_PAGES) for _ in pending.pages]
        if st.pool:
            pending.seen = sorted(r.sample(range(len(st.pool)), r.randint(0, len(st.pool))))
            if pending.taken >= 0:
                pending.taken = r.randrange(len(st.pool))
        if pending.discarded:
            pending.discarded = r.randint(0, cfg.hand_size)
    vote = pending.vote
    if vote is not None:
        for q in range(n):
            if q not in vote.to_ask and q not in (seat, vote.proposer) and vote.votes[q] != 0:
                vote.votes[q] = -vote.votes[q]
    r.shuffle(st.insanity_deck)
    if not (deciding and st.phase == Phase.NECRONOMICON_PAGE):
        r.shuffle(st.necronomicon)

    # who played which card of a past incantation (only the counts and the contributors are public)
    for record in st.incantations:
        owners = [owner for _, owner in record.played]
        r.shuffle(owners)
        record.played = [[sigil, owner] for (sigil, _), owner in zip(record.played, owners)]

    # other seats' private events: new values, and a few more of them
    for event in st.events:
        if event.seat not in (-1, seat):
            event.value = r.randint(-1, 3)
    for _ in range(5):
        q = r.choice(others)
        fake = Event(r.choice(("drew", "saw_pool", "my_card", "gamble_drew")), actor=q, value=r.randrange(4), seat=q, hour=st.hour)
        st.events.insert(r.randint(0, len(st.events)), fake)
    return st
