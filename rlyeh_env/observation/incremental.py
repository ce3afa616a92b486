"""`IncrementalEncoder`: the vectors of `Encoder`, bit for bit, kept up to date instead of rebuilt.

`Encoder` (reference.py) stays the readable reference and the spec; this module only makes the
same numbers cheaper (tests/env/test_encoder_pair.py compares the two over whole games).
Rebuilding 1,369 floats costs ~60 Python statements and numpy calls per observe, more than an
engine step, while from one step to the next only a handful of values change.

For every State object it is shown, the encoder keeps a `tracker.Tracker` holding one float32
store:

    [ public values | seat 0's private values | seat 1's private values | ... ]

The public part is laid out like seat 0's observation (seat-indexed rows in absolute seat order)
and is written once for all seats (public_pieces.py); each seat's part holds, at their usual
offsets, the values only that seat sees (private_pieces.py: its `me.*` pieces, its decision
context, its own cards in past incantations, its log). An observation is one gather from the store
(`tracker.gather_index`: seat-indexed rows rotated to the observer, private values from the
observer's part), plus the log in history mode.

A value is rewritten only when what it shows has changed:

- the engine announces its changes by events: each event appended to `state.events` since the
  last update names the pieces it changed (`ANNOUNCES`); public ones are rewritten at once,
  private ones at the next observe of the seat concerned;
- what changes with no event of its own (phase, turn, deck sizes; whether the seat's look into
  the pool is current, the deck top it knows, its decision context) is compared at every observe;
- history blocks get one row per new record, and the log one row per newly witnessed event.

A tracker starts from zeros with everything to write, so one code path builds and updates. A
state not seen before, or whose event list got shorter, gets a fresh tracker. Values are computed
with the reference's arithmetic (Python floats stored as float32; a float32 division where the
reference divides float32 arrays) or by the same functions (features.py), so the vectors are
equal, not just close. Scalars are written through memoryviews of the store, which is about twice
as fast as numpy's item assignment.

Assumption: a tracked state changes only through the engine. After editing one by hand (as
scripted tests do), call `forget(state)`.
"""

from __future__ import annotations

import numpy as np

from ..engine.config import GameConfig
from ..engine.state import State
from .layout import EVENT_FEATURES, LOG_LENGTH, SEAT_LAYOUT, layout_for
from .private_pieces import PrivatePieces
from .public_pieces import PUBLIC_PIECES, PublicPieces
from .tracker import PRIVATE_PIECES, SeatView, Tracker
from .truth import TRUTH_LAYOUT, truth_vector

MAX_TRACKED = 8  # states followed at once (the least recently observed is forgotten first)
_ROLE = SEAT_LAYOUT.starts["me.role"]
_LOG = SEAT_LAYOUT.size  # the history layout is the seat layout followed by the log

# What each event kind announces: the pieces it may change, each with the Event field naming the
# seat concerned (None: no seat, ALL: every seat). Public pieces are rewritten at once for all
# observers; a private piece is rewritten at the next observe of the seat named. Every change the
# engine makes to these pieces is announced in the same step; the rest is compared at every
# observe (`PublicPieces.refresh`, `PrivatePieces.refresh`).
ALL = "all"
ANNOUNCES: dict[str, tuple[tuple[str, str | None], ...]] = {
    "contributed": (("pool", "actor"), ("hand_size", "actor"), ("hand", "actor"), ("mine", "actor")),
    "gamble_played": (("pool", "actor"), ("mine", "actor")),
    "investigated": (("pool", "actor"), ("look", "actor")),
    "saw_pool": (("look", "actor"),),  # Investigate, Lantern
    "swap_detail": (("hand", "actor"), ("mine", "actor"), ("look", "actor")),
    "swapped": (("pool", "actor"),),  # a swap may turn a pool card face up
    "knifed": (("pool", None),),
    # the pool is resolved and cleared, the target reset, perhaps a sigil activated, a record added
    "incantation": (
        ("pool", ALL), ("target", None), ("incantations", None), ("mine", ALL), ("look", ALL), ("past", ALL),
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
    "role_revealed": (("revealed", "target"), ("known", ALL)),
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

class IncrementalEncoder:
    """Drop-in replacement for `Encoder` (same constructor, sizes, layout, `observe`, `truth`):
    bit-identical vectors, kept per state and updated from what changed."""

    def __init__(self, config: GameConfig, mode: str = "seat"):
        self.config, self.mode = config, mode
        self.layout = layout_for(mode)
        self.size = self.layout.size
        self.truth_size = self.size + TRUTH_LAYOUT.size  # the observation, then `truth_vector`
        self._trackers: dict[int, Tracker] = {}  # id(state) -> tracker, least recently switched to first
        self._last: Tracker | None = None  # the tracker of the last observe (the common case)
        self._publics = PublicPieces(config)
        self._privates = PrivatePieces(config, self._publics.fractions)
        self._public_writers = {piece: getattr(self._publics, "put_" + piece) for piece in PUBLIC_PIECES}
        self._private_writers = {piece: getattr(self._privates, "put_" + piece) for piece in PRIVATE_PIECES}
        # kind -> (public writer or None, piece, Event field naming the seat or None or ALL)
        self._announces = {
            kind: tuple((self._public_writers.get(piece), piece, field) for piece, field in pieces)
            for kind, pieces in ANNOUNCES.items()
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
        self._publics.refresh(t, state)
        view = t.views[seat]
        if view is None:
            view = t.views[seat] = SeatView(t, self.size, seat)
            view.vec[_ROLE + state.players[seat].role] = 1.0
            t.dirty[seat].update(PRIVATE_PIECES)
        dirty = t.dirty[seat]
        if dirty:
            for piece in dirty:
                self._private_writers[piece](view, state)
            dirty.clear()
        self._privates.refresh(view, state)
        if self.mode == "seat":
            # the indices are in range: numpy buffers `out` only under mode='raise'
            return t.array.take(view.gather, out=out, mode="wrap")
        self._privates.append_log(view, state)  # a ring of rows: put the oldest first
        oldest = _LOG + view.log_count % LOG_LENGTH * EVENT_FEATURES if view.log_count > LOG_LENGTH else _LOG
        return np.concatenate((t.array[view.gather], view.array[oldest:], view.array[_LOG:oldest]), out=out)

    def truth(self, state: State, seat: int) -> np.ndarray:
        """The seat's observation followed by everything hidden (`truth.truth_vector`), for
        centralised critics."""
        return np.concatenate((self.observe(state, seat), truth_vector(state, seat)))

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

    def _tracker(self, state: State) -> Tracker:
        key = id(state)
        t = self._trackers.pop(key, None)
        if t is None or t.state is not state:
            t = Tracker(state, self.size)
            self._publics.put_fixed(t, state)  # the pieces fixed for the whole game
            for writer in self._public_writers.values():  # then everything else
                writer(t, state, range(state.num_players))
            while len(self._trackers) >= MAX_TRACKED:
                del self._trackers[next(iter(self._trackers))]
        self._trackers[key] = t  # (re)inserted last: most recently used
        return t

    def _catch_up(self, t: Tracker, state: State) -> None:
        """Take in what the events appended since the last update announce (see ANNOUNCES)."""
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
                    seats = range(state.num_players) if field == ALL else ()
                if writer is not None:
                    writer(t, state, seats)
                else:
                    for seat in seats:
                        dirty[seat].add(piece)
        t.seen = len(events)

