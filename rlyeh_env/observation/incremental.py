"""`IncrementalEncoder`: the vectors of `Encoder`, bit for bit, kept up to date instead of rebuilt.

`Encoder` (observation.py) stays the readable reference and the spec; this module only makes the
same numbers cheaper (tests/env/test_fast_observation.py compares the two over whole games).
Rebuilding 1,369 floats costs ~60 Python statements and numpy calls per observe, more than an
engine step, while from one step to the next only a handful of values change.

For every State object it is shown, the encoder keeps a `_Tracker` holding one float32 store:

    [ public values | seat 0's private values | seat 1's private values | ... ]

The public part is laid out like seat 0's observation (seat-indexed rows in absolute seat order)
and is written once for all seats; each seat's part holds, at their usual offsets, the values only
that seat sees (its `me.*` pieces, its decision context, its own cards in past incantations, its
log). An observation is one gather from the store (`_gather`: seat-indexed rows rotated to the
observer, private values from the observer's part), plus the log in history mode.

A value is rewritten only when what it shows has changed:

- the engine announces its changes by events: each event appended to `state.events` since the
  last update names the pieces it changed (`_ANNOUNCES`); public ones are rewritten at once,
  private ones at the next observe of the seat concerned;
- what changes with no event of its own (phase, turn, deck sizes; whether the seat's look into
  the pool is current, the deck top it knows, its decision context) is compared at every observe;
- history blocks get one row per new record, and the log one row per newly witnessed event.

A tracker starts from zeros with everything to write, so one code path builds and updates. A
state not seen before, or whose event list got shorter, gets a fresh tracker. Values are computed
with the reference's arithmetic (Python floats stored as float32; a float32 division where the
reference divides float32 arrays), so the vectors are equal, not just close. Scalars are written
through memoryviews of the store, which is about twice as fast as numpy's item assignment.

Assumption: a tracked state changes only through the engine. After editing one by hand (as
scripted tests do), call `forget(state)`.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine.cards import NUM_GODS, NUM_INSANITY, NUM_PAGES, Role, VoteKind, opposite
from ..engine.config import MIDNIGHT, GameConfig
from ..engine.state import SEAT_TARGET_EVENTS, Phase, State
from .layout import (
    DECK_TOP,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    PLAYER_FEATURES,
    SEAT_LAYOUT,
    SEATS,
    SUSPICION_FEATURES,
    VOTE_FEATURES,
    VOTE_HISTORY,
)
from .reference import (
    _EVENT_INDEX,
    _INC_SEATS,
    _INC_SEGMENTS,
    _P_CHARACTER,
    _P_EQUIPMENT,
    _P_REVEALED,
    _P_USED,
    _VOTE_SEGMENTS,
    CAP,
    EVENT_FEATURES,
    Encoder,
)

# Start of every piece (the history layout is the seat layout followed by the log).
_AT = {name: piece.start for name, piece in SEAT_LAYOUT.pieces.items()}
_ROLE, _HAND, _MINE, _LOOK = _AT["me.role"], _AT["me.hand"], _AT["me.pool_mine"], _AT["me.pool_look"]
_KNOWN, _SEEN, _TOP = _AT["me.known_roles"], _AT["me.seen_hands"], _AT["me.deck_top"]
_TABLE, _CULTISTS, _HOUR, _ROUND = _AT["table.size"], _AT["table.cultists"], _AT["clock.hour"], _AT["clock.round"]
_ACTIVATED, _TARGET, _GODS = _AT["sigils.activated"], _AT["sigils.target"], _AT["sigils.gods"]
_POOL_SIZE, _FACE_UP, _CONTRIB = _AT["pool.size"], _AT["pool.face_up"], _AT["pool.contributions"]
_INVEST, _SWAPS, _CARDS = _AT["pool.investigations"], _AT["pool.swaps"], _AT["cards.deck_and_discard"]
_WATCH, _TURN, _PLAYERS, _HAND_SIZE = _AT["turn.watch"], _AT["turn.player"], _AT["players"], _AT["players.hand_size"]
_NECRO, _PHASE, _VOTE_KIND = _AT["necronomicon"], _AT["decision.phase"], _AT["decision.vote_kind"]
_GAMBLE, _DISCARDED, _TAKEN = _AT["decision.gamble_cards"], _AT["decision.discarded"], _AT["decision.taken"]
_PROPOSER, _ACCUSED, _PAGES = _AT["decision.vote_proposer"], _AT["decision.vote_accused"], _AT["decision.pages"]
_INCANTATIONS, _VOTES = _AT["history.incantations"], _AT["history.votes"]
_READING, _SUSPICION = _AT["history.reading"], _AT["history.suspicion"]
_LOG = SEAT_LAYOUT.size
_INC_MINE = INCANTATION_FEATURES - 4  # the observer's own cards: the last 4 features of a row
_O_ACTOR = len(_EVENT_INDEX)  # inside one log row (see Encoder._log)
_O_TARGET = _O_ACTOR + SEATS + 1
_O_VALUE = _O_TARGET + SEATS + 1

# Pieces only the observing seat sees, as index ranges (in history mode, the log too).
_PRIVATE = [
    range(_ROLE, _TABLE),  # every `me.*` piece comes first in the layout
    range(_NECRO + 2, _NECRO + 3),  # I have proposed the Necronomicon
    range(_GAMBLE, _TAKEN + 4),  # decider only: gamble cards, discarded, taken
    range(_PAGES, _PAGES + NUM_PAGES),  # decider only: pages
] + [
    range(_INCANTATIONS + r * INCANTATION_FEATURES + _INC_MINE, _INCANTATIONS + (r + 1) * INCANTATION_FEATURES)
    for r in range(INCANTATION_HISTORY)
]  # fmt: skip
# Seat-indexed public segments, as (first index, values per seat): rotated for each observer.
_SEAT_SEGMENTS = (
    [(_AT[name], 1) for name in ("pool.contributions", "pool.investigations", "pool.swaps", "turn.watch")]
    + [(_AT[name], 1) for name in ("turn.player", "players.hand_size", "decision.vote_proposer")]
    + [(_ACCUSED, 1), (_PLAYERS, PLAYER_FEATURES), (_READING + 1, 1), (_SUSPICION, SUSPICION_FEATURES)]
    + [(_INCANTATIONS + r * INCANTATION_FEATURES + first, width)
       for r in range(INCANTATION_HISTORY) for first, width in _INC_SEGMENTS]
    + [(_VOTES + r * VOTE_FEATURES + first, width) for r in range(VOTE_HISTORY) for first, width in _VOTE_SEGMENTS]
)  # fmt: skip


@functools.lru_cache(maxsize=None)
def _gather(size: int, n: int, seat: int) -> np.ndarray:
    """For each value of `seat`'s observation (but the log), its index in the store of an n-seat
    tracker."""
    index = np.arange(_LOG, dtype=np.intp)  # public, not seat-indexed: the same place
    for first, width in _SEAT_SEGMENTS:
        for k in range(n):  # relative row k shows absolute seat (seat + k) % n; padded rows stay zero
            source = first + (seat + k) % n * width
            index[first + k * width : first + (k + 1) * width] = range(source, source + width)
    for indices in _PRIVATE:
        index[indices.start : indices.stop] += (seat + 1) * size
    index.flags.writeable = False
    return index


# What each event kind announces: the pieces it may change, each with the Event field naming the
# seat concerned (None: no seat, _ALL: every seat). Public pieces are rewritten at once for all
# observers; a private piece is rewritten at the next observe of the seat named. Every change the
# engine makes to these pieces is announced in the same step; the rest is compared at every
# observe (`_refresh_public`, `_refresh_private`).
_ALL = "all"
_ANNOUNCES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "contributed": (("pool", "actor"), ("hand_size", "actor"), ("hand", "actor"), ("mine", "actor")),
    "gamble_played": (("pool", "actor"), ("mine", "actor")),
    "investigated": (("pool", "actor"), ("look", "actor")),
    "saw_pool": (("look", "actor"),),  # Investigate, Lantern
    "swap_detail": (("hand", "actor"), ("mine", "actor"), ("look", "actor")),
    "swapped": (("pool", "actor"),),  # a swap may turn a pool card face up
    "knifed": (("pool", None),),
    # the pool is resolved and cleared, the target reset, perhaps a sigil activated, a record added
    "incantation": (
        ("pool", _ALL), ("target", None), ("incantations", None), ("mine", _ALL), ("look", _ALL), ("past", _ALL),
    ),
    "refilled": (("hand_size", "actor"),),
    "drew": (("hand", "actor"),),
    "research_discard": (("hand_size", "actor"), ("hand", "actor")),
    "shot": (("hand_size", "target"), ("hand", "target")),  # (the redraw announces them too)
    "sanity_lost": (("sanity", "actor"),),  # and the Insanity card drawn
    "healed": (("sanity", "actor"),),  # Amulet: Insanity cards discarded too
    "insanity_expired": (("sanity", "actor"),),
    "equipment": (("used", "actor"),),
    "proposed_necronomicon": (("has_proposed", "actor"), ("proposed", "actor"), ("vote", None)),
    "role_revealed": (("revealed", "target"), ("known", _ALL)),
    "saw_role": (("known", "actor"),),  # Ouija board
    "spied": (("seen", "actor"),),  # Spyglass
    "clock": (("hour", None),),
    "round": (("round", None),),  # round and pocket watch
    "declared": (("target", None),),
    "compass": (("target", None),),
    "accused": (("vote", None),),  # a vote starts
    "vote_result": (("vote", None),),  # the vote ends, a record is added, the Necronomicon may be read
    "page_enacted": (("reading", None),),
}  # fmt: skip
_PUBLIC_PIECES = (
    "pool", "hand_size", "sanity", "revealed", "used", "has_proposed", "hour", "round", "target", "incantations",
    "vote", "reading",
)  # fmt: skip
_PRIVATE_PIECES = ("hand", "mine", "look", "known", "seen", "proposed", "past")
# Phases with context only the decider sees (see Encoder._decision).
_CONTEXT_PHASES = frozenset(
    {Phase.GAMBLE_PLAY, Phase.RESEARCH_DISCARD, Phase.INVESTIGATE_GIVE, Phase.NECRONOMICON_PAGE}
)
# Enum members read at every observe, looked up once: reading a member off its class is slow.
_GAME_OVER, _GAMBLE_PLAY, _RESEARCH_DISCARD = Phase.GAME_OVER, Phase.GAMBLE_PLAY, Phase.RESEARCH_DISCARD
_INVESTIGATE_GIVE, _ACCUSATION = Phase.INVESTIGATE_GIVE, VoteKind.ACCUSATION
_INVESTIGATOR, _CULTIST = Role.INVESTIGATOR, Role.CULTIST

_CAPPED = [c / CAP for c in range(CAP)]  # min(c, CAP) / CAP for c < CAP (min() is slow)


class _Float32Fractions(dict):
    """count -> count / size, divided in float32 as the reference divides float32 arrays (a
    float64 division rounded to float32 is not guaranteed to give the same bits)."""

    def __init__(self, size: int):
        super().__init__()
        self.size = size

    def __missing__(self, count: int) -> float:
        self[count] = value = float(np.float32(count) / np.float32(self.size))
        return value


MAX_TRACKED = 8  # states followed at once (the least recently observed is forgotten first)
_UNSET = object()  # "nothing written yet", where None is a meaningful value


class _SeatView:
    """One seat's part of a tracker: what its private pieces show, and where to gather from."""

    __slots__ = (
        "array", "vec", "seat", "rel", "gather", "known", "seen", "past", "look_current", "top", "decision",
        "log_seen", "log_count",
    )  # fmt: skip

    def __init__(self, tracker: _Tracker, size: int, seat: int):
        n = tracker.state.num_players
        self.array = tracker.array[(seat + 1) * size : (seat + 2) * size]
        self.vec = memoryview(self.array)  # for scalar writes
        self.seat = seat
        self.rel = [(seat + k) % n for k in range(n)]  # relative row k -> absolute seat
        self.gather = _gather(size, n, seat)
        # What some pieces show, to rewrite only what changed (the values of zero pieces at first).
        self.known: list[int | None] = [None] * n  # per absolute seat, the role shown
        self.seen: list[list[int] | None] = [None] * n  # per absolute seat, the hand shown
        self.past = 0  # my past incantations shown
        self.look_current = False
        self.top: list[int] = []
        self.decision: list[int] = []  # decider-only values written (cleared at the next update)
        self.log_seen = 0  # events of state.events already considered for the log
        self.log_count = 0  # events written into the log (the next goes to row log_count % LOG_LENGTH)


class _Tracker:
    """What the encoder keeps about one State object."""

    __slots__ = (
        "state", "seen", "array", "public", "views", "dirty", "turn", "phase", "deck", "discard", "hour", "watch",
        "target", "vote", "held", "incantations", "votes", "suspicion",
    )  # fmt: skip

    def __init__(self, state: State, size: int):
        n = state.num_players
        self.state = state  # held, so that its id cannot be reused while tracked
        self.seen = len(state.events)  # events already taken into account
        self.array = np.zeros((n + 1) * size, dtype=np.float32)  # the store
        self.public = memoryview(self.array)[:size]  # for scalar writes
        self.views: list[_SeatView | None] = [None] * n
        self.dirty = [set(_PRIVATE_PIECES) for _ in range(n)]  # per seat, private pieces to rewrite
        # What some public pieces show, to rewrite only what changed (one-hots: the column set).
        self.turn = self.phase = self.deck = self.discard = self.hour = self.watch = self.target = None
        self.vote = _UNSET  # the PendingVote shown (None: no vote in progress)
        self.held = [[0] * NUM_INSANITY for _ in range(n)]  # per seat, the Insanity card counts shown
        # Records of the history lists shown, and the running totals of history.suspicion.
        self.incantations = self.votes = 0
        self.suspicion = [[0] * SUSPICION_FEATURES for _ in range(n)]


class IncrementalEncoder(Encoder):
    """Drop-in replacement for `Encoder` (same constructor, sizes, layout, `observe`, `truth`):
    bit-identical vectors, kept per state and updated from what changed."""

    def __init__(self, config: GameConfig, mode: str = "seat"):
        super().__init__(config, mode)
        self._trackers: dict[int, _Tracker] = {}  # id(state) -> tracker, least recently switched to first
        self._last: _Tracker | None = None  # the tracker of the last observe (the common case)
        self._fractions = _Float32Fractions(config.incantation_size)
        self._public = {piece: getattr(self, "_put_" + piece) for piece in _PUBLIC_PIECES}
        self._private = {piece: getattr(self, "_put_" + piece) for piece in _PRIVATE_PIECES}
        # kind -> (public writer or None, piece, Event field naming the seat or None or _ALL)
        self._announces = {
            kind: tuple((self._public.get(piece), piece, field) for piece, field in pieces)
            for kind, pieces in _ANNOUNCES.items()
        }

    def observe(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """`seat`'s observation; written into `out` (float32, the observation's size) when given,
        which saves a copy when many are batched."""
        t = self._last  # usually the same state as last time
        if t is None or t.state is not state:
            t = self._last = self._tracker(state)
        if t.seen != len(state.events):
            if len(state.events) < t.seen:  # not the state we followed: start afresh
                self.forget(state)
                t = self._last = self._tracker(state)
            self._catch_up(t, state)  # public pieces now, private ones marked per seat
        self._refresh_public(t, state)
        view = t.views[seat]
        if view is None:
            view = t.views[seat] = _SeatView(t, self.size, seat)
            view.vec[_ROLE + state.players[seat].role] = 1.0
            t.dirty[seat].update(_PRIVATE_PIECES)
        dirty = t.dirty[seat]
        if dirty:
            for piece in dirty:
                self._private[piece](view, state)
            dirty.clear()
        self._refresh_private(view, state)
        if self.mode == "seat":
            return t.array.take(view.gather, out=out)
        self._append_log(view, state)  # a ring of rows: put the oldest first
        oldest = _LOG + view.log_count % LOG_LENGTH * EVENT_FEATURES if view.log_count > LOG_LENGTH else _LOG
        return np.concatenate((t.array[view.gather], view.array[oldest:], view.array[_LOG:oldest]), out=out)

    def __getstate__(self) -> dict:
        """Pickled and deep-copied without the trackers (memoryviews; rebuilt on demand)."""
        attributes = self.__dict__.copy()
        attributes["_trackers"], attributes["_last"] = {}, None
        return attributes

    def forget(self, state: State) -> None:
        """Drop what is kept about `state` (needed only after editing it by hand)."""
        self._trackers.pop(id(state), None)
        if self._last is not None and self._last.state is state:
            self._last = None

    def _tracker(self, state: State) -> _Tracker:
        key = id(state)
        t = self._trackers.pop(key, None)
        if t is None or t.state is not state:
            t = _Tracker(state, self.size)
            pub = t.public  # the pieces fixed for the whole game
            pub[_TABLE + state.num_players - 4] = 1.0
            pub[_CULTISTS + (0 if self.config.hidden_cultist_count else state.num_cultists)] = 1.0
            for sigil, god in enumerate(state.gods):
                pub[_GODS + NUM_GODS * sigil + god] = 1.0
            for s, p in enumerate(state.players):
                pub[_PLAYERS + s * PLAYER_FEATURES] = 1.0
                pub[_PLAYERS + s * PLAYER_FEATURES + _P_CHARACTER + p.character] = 1.0
                pub[_PLAYERS + s * PLAYER_FEATURES + _P_EQUIPMENT + p.equipment] = 1.0
            for writer in self._public.values():  # then everything else
                writer(t, state, range(state.num_players))
            while len(self._trackers) >= MAX_TRACKED:
                del self._trackers[next(iter(self._trackers))]
        self._trackers[key] = t  # (re)inserted last: most recently used
        return t

    def _catch_up(self, t: _Tracker, state: State) -> None:
        """Take in what the events appended since the last update announce (see _ANNOUNCES)."""
        events = state.events
        announces, dirty = self._announces, t.dirty
        for event in events[t.seen :]:
            announced = announces.get(event.kind)
            if announced is None:
                continue
            for writer, piece, field in announced:
                if field == "actor":
                    seats = (event.actor,)
                elif field == "target":
                    seats = (event.target,)
                else:
                    seats = range(state.num_players) if field == _ALL else ()
                if writer is not None:
                    writer(t, state, seats)
                else:
                    for seat in seats:
                        dirty[seat].add(piece)
        t.seen = len(events)

    def _refresh_public(self, t: _Tracker, state: State) -> None:
        """The public pieces that change with no event (or with private ones): compare them with
        what the store shows and rewrite those that differ."""
        pub = t.public
        phase = state.phase
        turn = -1 if phase == _GAME_OVER else state.round_order[state.turn_index]  # -1: no bit
        if turn != t.turn:
            if t.turn is not None and t.turn >= 0:
                pub[_TURN + t.turn] = 0.0
            if turn >= 0:
                pub[_TURN + turn] = 1.0
            t.turn = turn
        if phase != t.phase:
            if t.phase is not None:
                pub[_PHASE + t.phase] = 0.0
            pub[_PHASE + phase] = 1.0
            t.phase = phase
        if len(state.deck) != t.deck:
            t.deck = len(state.deck)
            pub[_CARDS] = t.deck / self.config.deck_size
        if len(state.discard) != t.discard:
            t.discard = len(state.discard)
            pub[_CARDS + 1] = t.discard / self.config.deck_size

    # -- public pieces rewritten when announced (seats: those concerned) ---------------------------
    # One-hots move their single 1; seat-indexed values are in absolute seat order.

    def _put_pool(self, t: _Tracker, state: State, seats) -> None:
        pub = t.public
        size = self.config.incantation_size
        pub[_POOL_SIZE] = len(state.pool) / size
        face_up = [0.0, 0.0, 0.0, 0.0]
        for card in state.pool:
            if card.face_up:
                face_up[card.sigil] += 1.0 / size  # summed as in the reference (not count / size)
        for sigil in range(4):
            pub[_FACE_UP + sigil] = face_up[sigil]
        for s in seats:
            pub[_CONTRIB + s] = state.pool_contributions[s] / size
            pub[_INVEST + s] = _CAPPED[state.pool_investigations[s]] if state.pool_investigations[s] < CAP else 1.0
            pub[_SWAPS + s] = _CAPPED[state.pool_swaps[s]] if state.pool_swaps[s] < CAP else 1.0

    def _put_hand_size(self, t: _Tracker, state: State, seats) -> None:
        for s in seats:
            t.public[_HAND_SIZE + s] = state.players[s].hand_count / self.config.hand_size

    # The players block (`Encoder._players`): present, character and equipment never change.

    def _put_sanity(self, t: _Tracker, state: State, seats) -> None:
        """Sanity, madness and the Insanity cards held."""
        pub, start, per_copy = t.public, self.config.start_sanity, 1.0 / self.config.insanity_copies
        for s in seats:
            p = state.players[s]
            row = _PLAYERS + s * PLAYER_FEATURES
            pub[row + 1] = p.sanity / start
            pub[row + 2] = float(p.sanity == 0)
            held = [0] * NUM_INSANITY
            for card in p.insanity:
                held[card] += 1
            shown = t.held[s]
            if held != shown:
                for card in range(NUM_INSANITY):
                    if held[card] != shown[card]:
                        pub[row + 3 + card] = held[card] * per_copy
                t.held[s] = held

    def _put_revealed(self, t: _Tracker, state: State, seats) -> None:
        for s in seats:
            p = state.players[s]
            row = _PLAYERS + s * PLAYER_FEATURES + _P_REVEALED
            t.public[row] = not p.revealed
            t.public[row + 1 + p.role] = p.revealed

    def _put_used(self, t: _Tracker, state: State, seats) -> None:
        for s in seats:
            t.public[_PLAYERS + s * PLAYER_FEATURES + _P_USED] = state.players[s].equipment_used

    def _put_has_proposed(self, t: _Tracker, state: State, seats) -> None:
        for s in seats:
            t.public[_PLAYERS + s * PLAYER_FEATURES + _P_USED + 1] = state.players[s].proposed_necronomicon

    def _put_hour(self, t: _Tracker, state: State, seats) -> None:
        pub = t.public
        if t.hour is not None:
            pub[_HOUR + t.hour] = 0.0
        pub[_HOUR + state.hour] = 1.0
        pub[_NECRO + 1] = float(state.hour >= self.config.necronomicon_earliest_hour)
        t.hour = state.hour

    def _put_round(self, t: _Tracker, state: State, seats) -> None:
        pub = t.public
        pub[_ROUND] = min(state.round, MIDNIGHT) / MIDNIGHT
        if t.watch is not None:
            pub[_WATCH + t.watch] = 0.0
        pub[_WATCH + state.watch] = 1.0
        t.watch = state.watch

    def _put_target(self, t: _Tracker, state: State, seats) -> None:
        if t.target is not None:
            t.public[_TARGET + t.target] = 0.0
        t.target = state.target if state.target >= 0 else 4
        t.public[_TARGET + t.target] = 1.0

    def _put_vote(self, t: _Tracker, state: State, seats) -> None:
        """The vote in progress, new vote records, and whether the Necronomicon was read."""
        pub = t.public
        vote = state.pending.vote  # its kind, proposer and accused never change: identity will do
        if vote is not t.vote:
            if t.vote is not _UNSET and t.vote is not None:
                pub[_VOTE_KIND + t.vote.kind] = pub[_PROPOSER + t.vote.proposer] = 0.0
                if t.vote.accused >= 0:
                    pub[_ACCUSED + t.vote.accused] = 0.0
            if vote is not None:
                pub[_VOTE_KIND + vote.kind] = pub[_PROPOSER + vote.proposer] = 1.0
                if vote.accused >= 0:
                    pub[_ACCUSED + vote.accused] = 1.0
            t.vote = vote
        if len(state.votes) != t.votes:
            self._write_votes(t, state)
        pub[_NECRO] = state.necronomicon_read

    def _put_reading(self, t: _Tracker, state: State, seats) -> None:
        pub = t.public
        t.array[_READING : _READING + 1 + SEATS + NUM_PAGES] = 0.0
        if state.readings:
            reading = state.readings[-1]
            pub[_READING] = pub[_READING + 1 + reading.reader] = pub[_READING + 1 + SEATS + reading.page] = 1.0

    # -- history blocks: a row per new record (the observer's own cards are private) ----------------

    def _put_incantations(self, t: _Tracker, state: State, seats) -> None:
        """sigils.activated, and new rows of history.incantations with `Encoder._incantations`'s
        arithmetic."""
        pub, size, fractions = t.public, self.config.incantation_size, self._fractions
        for sigil in range(4):
            pub[_ACTIVATED + sigil] = state.activated[sigil]
        shown, total = t.incantations, len(state.incantations)
        first = _make_room(t.array, _INCANTATIONS, INCANTATION_FEATURES, INCANTATION_HISTORY, shown, total)
        for i in range(max(shown, first), total):
            record = state.incantations[i]
            row = _INCANTATIONS + (i - first) * INCANTATION_FEATURES
            target, cards = record.target, record.cards
            opp = opposite(target)
            pub[row] = pub[row + 1 + target] = 1.0
            for sigil in range(4):
                pub[row + 5 + sigil] = fractions[cards[sigil]]
            pub[row + 9] = cards[target] / size
            pub[row + 10] = cards[opp] / size
            pub[row + 11] = (size - cards[target] - cards[opp]) / size
            pub[row + 12] = record.success
            pub[row + 13] = record.hour / MIDNIGHT
            for s in range(len(record.contributions)):
                at = row + _INC_SEATS + 4 * s
                pub[at] = fractions[record.contributions[s]]
                pub[at + 1] = record.face_up[s][opp] / size
                pub[at + 2] = _CAPPED[record.investigations[s]] if record.investigations[s] < CAP else 1.0
                pub[at + 3] = _CAPPED[record.swaps[s]] if record.swaps[s] < CAP else 1.0
        for record in state.incantations[t.incantations :]:  # history.suspicion, as _suspicion adds it up
            opp = opposite(record.target)
            for s in range(len(record.contributions)):
                amounts = (record.contributions[s], record.face_up[s][opp], record.investigations[s], record.swaps[s])
                for column, amount in zip((1 if record.success else 0, 2, 3, 4), amounts):
                    if amount:
                        self._add_suspicion(t, s, column, amount)
        t.incantations = len(state.incantations)

    def _write_votes(self, t: _Tracker, state: State) -> None:
        """New rows of history.votes, as `Encoder._votes` writes them."""
        pub = t.public
        first = _make_room(t.array, _VOTES, VOTE_FEATURES, VOTE_HISTORY, t.votes, len(state.votes))
        for i in range(max(t.votes, first), len(state.votes)):
            record = state.votes[i]
            row = _VOTES + (i - first) * VOTE_FEATURES
            pub[row] = pub[row + 1 + record.kind] = pub[row + 3 + record.proposer] = 1.0
            if record.accused >= 0:
                pub[row + 3 + SEATS + record.accused] = 1.0
            for s, vote in enumerate(record.votes):
                if vote:
                    pub[row + 3 + (2 if vote == 1 else 3) * SEATS + s] = 1.0
            pub[row + 3 + 4 * SEATS] = record.passed
            if record.revealed_role >= 0:
                pub[row + 4 + 4 * SEATS + record.revealed_role] = 1.0
            pub[row + 6 + 4 * SEATS] = record.hour / MIDNIGHT
        for record in state.votes[t.votes :]:  # history.suspicion, as _suspicion adds it up
            revealed = record.revealed_role
            if record.kind != _ACCUSATION or revealed < 0:
                continue
            if revealed == _INVESTIGATOR:
                self._add_suspicion(t, record.proposer, 5, 1)
            for s, vote in enumerate(record.votes):
                if revealed == _INVESTIGATOR and vote == 1:
                    self._add_suspicion(t, s, 6, 1)
                elif revealed == _CULTIST and vote == -1:
                    self._add_suspicion(t, s, 7, 1)
        t.votes = len(state.votes)

    def _add_suspicion(self, t: _Tracker, seat: int, column: int, amount: int) -> None:
        totals = t.suspicion[seat]
        totals[column] += amount
        # (min(total, CAP) / CAP is one of 0, 1/4 .. 1: exact, as the reference's float32 result)
        value = _CAPPED[totals[column]] if totals[column] < CAP else 1.0
        t.public[_SUSPICION + seat * SUSPICION_FEATURES + column] = value

    # -- the seat's private pieces --------------------------------------------------------------------

    def _refresh_private(self, view: _SeatView, state: State) -> None:
        """The private pieces that change with no event of the seat's: compare them with what the
        seat's part shows and rewrite those that differ."""
        vec = view.vec
        mem = state.players[view.seat].memory
        current = mem.pool_look_size > 0 and mem.pool_look_size == len(state.pool)  # the pool changed?
        if current != view.look_current:
            view.look_current = current
            vec[_LOOK + 5] = float(current)
        if mem.deck_top != view.top:  # anyone's draw uncovers the next card
            view.top = mem.deck_top.copy()
            view.array[_TOP : _TOP + 5 * DECK_TOP] = 0.0
            for k, card in enumerate(mem.deck_top[:DECK_TOP]):
                vec[_TOP + 5 * k] = vec[_TOP + 5 * k + 1 + card] = 1.0
        if view.decision:
            for i in view.decision:
                vec[i] = 0.0
            view.decision.clear()
        if state.decider == view.seat and state.phase in _CONTEXT_PHASES:
            self._write_decision(view, state)

    # rewritten when announced:

    def _put_hand(self, view: _SeatView, state: State) -> None:
        hand = state.players[view.seat].hand
        for sigil in range(4):
            view.vec[_HAND + sigil] = hand[sigil] / self.config.hand_size

    def _put_mine(self, view: _SeatView, state: State) -> None:
        mine = state.players[view.seat].memory.pool_mine
        for sigil in range(4):
            view.vec[_MINE + sigil] = mine[sigil] / self.config.incantation_size

    def _put_look(self, view: _SeatView, state: State) -> None:
        mem = state.players[view.seat].memory
        for sigil in range(4):
            view.vec[_LOOK + sigil] = mem.pool_look[sigil] / self.config.incantation_size
        view.vec[_LOOK + 4] = mem.pool_look_size / self.config.incantation_size

    def _put_known(self, view: _SeatView, state: State) -> None:
        known = state.players[view.seat].memory.known_roles
        for k, s in enumerate(view.rel):
            if known[s] != view.known[s]:
                if view.known[s] is not None:
                    view.vec[_KNOWN + 3 * k + view.known[s] + 1] = 0.0
                view.vec[_KNOWN + 3 * k + known[s] + 1] = 1.0
                view.known[s] = known[s]

    def _put_seen(self, view: _SeatView, state: State) -> None:
        seen_hands = state.players[view.seat].memory.seen_hands
        for k, s in enumerate(view.rel):
            hand = seen_hands[s]
            if hand != view.seen[s]:
                at = _SEEN + 5 * k
                size = self.config.hand_size
                view.array[at : at + 5] = [0.0] * 5 if hand is None else [1.0] + [c / size for c in hand]
                view.seen[s] = None if hand is None else hand.copy()

    def _put_proposed(self, view: _SeatView, state: State) -> None:
        view.vec[_NECRO + 2] = state.players[view.seat].proposed_necronomicon

    def _put_past(self, view: _SeatView, state: State) -> None:
        """My own cards in the new rows of history.incantations (`Encoder.observe` divides them
        as a float32 array)."""
        past_mine = state.players[view.seat].memory.past_mine
        first = _make_room(
            view.array, _INCANTATIONS, INCANTATION_FEATURES, INCANTATION_HISTORY, view.past, len(past_mine)
        )
        for i in range(max(view.past, first), len(past_mine)):
            row = _INCANTATIONS + (i - first) * INCANTATION_FEATURES + _INC_MINE
            for sigil in range(4):
                view.vec[row + sigil] = self._fractions[past_mine[i][sigil]]
        view.past = len(past_mine)

    def _write_decision(self, view: _SeatView, state: State) -> None:
        """The deciding seat's context, as `Encoder._decision` writes it (zeros left out)."""
        pending, phase = state.pending, state.phase
        if phase == _GAMBLE_PLAY:
            start, values = _GAMBLE, [0.0, 0.0, 0.0, 0.0]
            for card in pending.gamble_cards:
                values[card] += 0.5
        elif phase == _RESEARCH_DISCARD:
            start, values = _DISCARDED, [pending.discarded / self.config.hand_size]
        elif phase == _INVESTIGATE_GIVE:
            start, values = _TAKEN + state.pool[pending.taken].sigil, [1.0]
        else:  # NECRONOMICON_PAGE
            start, values = _PAGES, [0.0] * NUM_PAGES
            for page in pending.pages:
                values[page] += 1.0 / self.config.necronomicon_offer
        for i, value in enumerate(values, start):
            if value:
                view.vec[i] = value
                view.decision.append(i)

    # -- history mode: the log -----------------------------------------------------------------------

    def _append_log(self, view: _SeatView, state: State) -> None:
        """Write the events the seat witnessed since its last update into its log, a ring of
        LOG_LENGTH rows (`observe` puts the oldest first): the rows `Encoder._log` would write."""
        events = state.events
        seat = view.seat
        new = []  # newest first; at most LOG_LENGTH of them can show
        for i in range(len(events) - 1, view.log_seen - 1, -1):
            event = events[i]
            if event.seat == -1 or event.seat == seat:
                new.append(event)
                if len(new) == LOG_LENGTH:
                    break
        view.log_seen = len(events)
        vec = view.vec
        n = len(view.rel)
        for event in reversed(new):
            row = _LOG + view.log_count % LOG_LENGTH * EVENT_FEATURES
            if view.log_count >= LOG_LENGTH:  # the oldest row makes room
                view.array[row : row + EVENT_FEATURES] = 0.0
            view.log_count += 1
            vec[row + _EVENT_INDEX[event.kind]] = 1.0
            vec[row + _O_ACTOR + ((event.actor - seat) % n if event.actor >= 0 else SEATS)] = 1.0
            if event.target < 0:
                target = SEATS
            elif event.kind in SEAT_TARGET_EVENTS:
                target = (event.target - seat) % n
            else:  # a sigil, a pool size or an end reason: the number, capped at 7
                target = event.target if event.target < SEATS else SEATS - 1
            vec[row + _O_TARGET + target] = 1.0
            value = event.value
            vec[row + _O_VALUE + (value + 1 if -1 <= value <= 9 else 0 if value < -1 else 10)] = 1.0  # clipped
            vec[row + EVENT_FEATURES - 1] = event.hour / MIDNIGHT

def _make_room(vec: np.ndarray, start: int, width: int, capacity: int, shown: int, total: int) -> int:
    """A block of `capacity` rows from `start` shows the last records of a list, oldest first.
    It showed `shown` records and the list now has `total`: move the rows still shown up, clear
    the others, and return the index of the record row 0 now shows (the caller writes the new)."""
    first = max(0, total - capacity)
    drop = first - max(0, shown - capacity)  # rows scrolled out
    if drop:
        kept = max(0, capacity - drop) * width
        vec[start : start + kept] = vec[start + drop * width : start + drop * width + kept]
        vec[start + kept : start + capacity * width] = 0.0
    return first

