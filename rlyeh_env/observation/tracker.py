"""What the incremental encoder keeps about one State: the store of values and what they show.

A `Tracker` holds one float32 store per state:

    [ public values | seat 0's private values | seat 1's private values | ... ]

The public part is laid out like seat 0's observation (seat-indexed rows in absolute seat order)
and is written once for all seats; each seat's part holds, at their usual offsets, the values only
that seat sees (`PRIVATE_RANGES`). A `SeatView` is one seat's part, and `gather_index` turns the
store into that seat's observation in one numpy `take`. Next to the values, both keep what some
pieces show (a one-hot's hot column, a seen hand), so a writer rewrites only what changed.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine.cards import NUM_INSANITY, NUM_PAGES
from ..engine.state import State
from .layout import (
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    PLAYER_FEATURES,
    SEAT_LAYOUT,
    SUSPICION_FEATURES,
    VOTE_FEATURES,
    VOTE_HISTORY,
    IncantationRow,
    VoteRow,
)

_AT = SEAT_LAYOUT.starts
_INCANTATIONS, _VOTES, _NECRO = _AT["history.incantations"], _AT["history.votes"], _AT["necronomicon"]

# Pieces only the observing seat sees, as index ranges (in history mode, the log too).
PRIVATE_RANGES = [
    range(_AT["me.role"], _AT["table.size"]),  # every `me.*` piece comes first in the layout
    range(_NECRO + 2, _NECRO + 3),  # I have proposed the Necronomicon
    range(_AT["decision.gamble_cards"], _AT["decision.taken"] + 4),  # decider only: gambled, discarded, taken
    range(_AT["decision.pages"], _AT["decision.pages"] + NUM_PAGES),  # decider only: pages
] + [
    range(row + IncantationRow.MINE, row + INCANTATION_FEATURES)  # my own cards in each past incantation
    for row in range(_INCANTATIONS, _INCANTATIONS + INCANTATION_HISTORY * INCANTATION_FEATURES, INCANTATION_FEATURES)
]  # fmt: skip
# Seat-indexed public segments, as (first index, values per seat): rotated for each observer.
SEAT_SEGMENTS = (
    [(_AT[name], 1) for name in ("pool.contributions", "pool.investigations", "pool.swaps", "turn.watch")]
    + [(_AT[name], 1) for name in ("turn.player", "players.hand_size", "decision.vote_proposer")]
    + [(_AT["decision.vote_accused"], 1), (_AT["players"], PLAYER_FEATURES), (_AT["history.reading"] + 1, 1)]
    + [(_AT["history.suspicion"], SUSPICION_FEATURES)]
    + [(_INCANTATIONS + r * INCANTATION_FEATURES + first, width)
       for r in range(INCANTATION_HISTORY) for first, width in IncantationRow.SEAT_INDEXED]
    + [(_VOTES + r * VOTE_FEATURES + first, width)
       for r in range(VOTE_HISTORY) for first, width in VoteRow.SEAT_INDEXED]
)  # fmt: skip
PRIVATE_PIECES = ("hand", "mine", "look", "known", "seen", "proposed", "past")  # see private_pieces.py

UNSET = object()  # "nothing written yet", where None is a meaningful value


@functools.lru_cache(maxsize=None)
def gather_index(size: int, n: int, seat: int) -> np.ndarray:
    """For each value of `seat`'s observation (but the log), its index in the store of an n-seat
    tracker whose parts are `size` long."""
    index = np.arange(SEAT_LAYOUT.size, dtype=np.intp)  # public, not seat-indexed: the same place
    for first, width in SEAT_SEGMENTS:
        for k in range(n):  # relative row k shows absolute seat (seat + k) % n; padded rows stay zero
            source = first + (seat + k) % n * width
            index[first + k * width : first + (k + 1) * width] = range(source, source + width)
    for indices in PRIVATE_RANGES:
        index[indices.start : indices.stop] += (seat + 1) * size
    index.flags.writeable = False
    return index


class SeatView:
    """One seat's part of a tracker: what its private pieces show, and where to gather from."""

    __slots__ = (
        "array", "vec", "seat", "rel", "gather", "known", "seen", "past", "look_current", "top", "decision",
        "log_seen", "log_count",
    )  # fmt: skip

    def __init__(self, tracker: Tracker, size: int, seat: int):
        n = tracker.state.num_players
        self.array = tracker.array[(seat + 1) * size : (seat + 2) * size]
        self.vec = memoryview(self.array)  # for scalar writes
        self.seat = seat
        self.rel = [(seat + k) % n for k in range(n)]  # relative row k -> absolute seat
        self.gather = gather_index(size, n, seat)
        # What some pieces show, to rewrite only what changed (the values of zero pieces at first).
        self.known: list[int | None] = [None] * n  # per absolute seat, the role shown
        self.seen: list[list[int] | None] = [None] * n  # per absolute seat, the hand shown
        self.past = 0  # my past incantations shown
        self.look_current = False
        self.top: list[int] = []
        self.decision: list[int] = []  # decider-only values written (cleared at the next update)
        self.log_seen = 0  # events of state.events already considered for the log
        self.log_count = 0  # events written into the log (the next goes to row log_count % LOG_LENGTH)


class Tracker:
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
        self.views: list[SeatView | None] = [None] * n
        self.dirty = [set(PRIVATE_PIECES) for _ in range(n)]  # per seat, private pieces to rewrite
        # What some public pieces show, to rewrite only what changed (one-hots: the column set).
        self.turn = self.phase = self.deck = self.discard = self.hour = self.watch = self.target = None
        self.vote = UNSET  # the PendingVote shown (None: no vote in progress)
        self.held = [[0] * NUM_INSANITY for _ in range(n)]  # per seat, the Insanity card counts shown
        # Records of the history lists shown, and the running totals of history.suspicion.
        self.incantations = self.votes = 0
        self.suspicion = [[0] * SUSPICION_FEATURES for _ in range(n)]


def make_room(vec: np.ndarray, start: int, width: int, capacity: int, shown: int, total: int) -> int:
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
