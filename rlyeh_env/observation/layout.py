"""The observation layout: named views of one flat float32 vector, and every offset inside them.

`SEAT_PIECES` lists `(name, shape)` in order; `Layout` turns that into index ranges. The env
module docstring documents every range; `tests/env/test_layout.py` checks the docstring and this
table agree. All seat-indexed rows are *relative*: row 0 is the observer, row k the player k seats
to its left (clockwise); rows for seats beyond the table are zero.

Pieces whose rows hold several features (`players`, `history.*`, the `log`) name their columns
here too (`PlayerRow`, `IncantationRow`, ...), so the two encoders and the decoder of the bots
(`bots/view.py`) read one definition.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.cards import NUM_CHARACTERS, NUM_EQUIPMENT, NUM_GODS, NUM_INSANITY, NUM_PAGES
from ..engine.state import EVENT_KINDS, NUM_PHASES

SEATS = 8  # observations are padded to the largest table
INCANTATION_HISTORY = 8  # most recent incantations kept in the observation
VOTE_HISTORY = 10  # most recent votes kept
LOG_LENGTH = 48  # events kept in `history` observation mode
DECK_TOP = 3
CAP = 4  # counts that can grow without bound are shown as min(count, CAP) / CAP


class PlayerRow:
    """Columns of one `players` row: one seat's public status."""

    PRESENT = 0
    SANITY = 1  # sanity / starting sanity
    MAD = 2
    INSANITY = 3  # per Insanity card: copies held / copies in the game
    REVEALED = INSANITY + NUM_INSANITY  # one-hot: not revealed, investigator, cultist
    CHARACTER = REVEALED + 3
    EQUIPMENT = CHARACTER + NUM_CHARACTERS
    USED = EQUIPMENT + NUM_EQUIPMENT  # equipment used
    PROPOSED = USED + 1  # proposed the Necronomicon
    WIDTH = PROPOSED + 1


class IncantationRow:
    """Columns of one `history.incantations` row: one resolved incantation."""

    PRESENT = 0
    TARGET = 1  # one-hot of 4 sigils
    CARDS = 5  # revealed cards of each sigil / incantation size
    MATCHES = 9  # then opposites and others: 3 columns
    SUCCESS = 12
    HOUR = 13
    BY_SEAT = 14  # per seat, PER_SEAT columns: contributions, face-up opposite cards, investigations, swaps
    PER_SEAT = 4
    MINE = BY_SEAT + SEATS * PER_SEAT  # the observer's own cards in it (4)
    WIDTH = MINE + 4
    SEAT_INDEXED = ((BY_SEAT, PER_SEAT),)  # (first column, columns per seat): rotated per observer


class VoteRow:
    """Columns of one `history.votes` row: one finished vote."""

    PRESENT = 0
    KIND = 1  # one-hot: accusation, Necronomicon
    PROPOSER = 3  # one-hot seat
    ACCUSED = PROPOSER + SEATS  # one-hot seat
    YES = ACCUSED + SEATS  # per seat
    NO = YES + SEATS  # per seat
    PASSED = NO + SEATS
    REVEALED = PASSED + 1  # one-hot role revealed (none: zeros)
    HOUR = REVEALED + 2
    WIDTH = HOUR + 1
    SEAT_INDEXED = ((PROPOSER, 1), (ACCUSED, 1), (YES, 1), (NO, 1))  # (first column, columns per seat)


class SuspicionRow:
    """Columns of one `history.suspicion` row: per seat, running totals a deducer would keep."""

    FAILED = 0  # cards fed to failed incantations
    SUCCEEDED = 1  # cards fed to successful ones
    FACE_UP_OPPOSITE = 2  # face-up cards of the opposite sigil played
    INVESTIGATIONS = 3
    SWAPS = 4
    ACCUSED_INVESTIGATOR = 5  # accusations that revealed an investigator
    YES_ON_INVESTIGATOR = 6  # Yes votes on accusations that revealed an investigator
    NO_ON_CULTIST = 7  # No votes on accusations that revealed a cultist
    WIDTH = 8


class LogRow:
    """Columns of one `log` row (history mode): one witnessed event."""

    KIND = 0  # one-hot of engine.state.EVENT_KINDS, in the order of EVENT_INDEX
    ACTOR = len(EVENT_KINDS)  # relative seat, or SEATS for none
    TARGET = ACTOR + SEATS + 1  # relative seat or a number capped at SEATS - 1; SEATS for none
    VALUE = TARGET + SEATS + 1  # one-hot of the value -1..9, clipped
    HOUR = VALUE + 11  # hour / 12
    WIDTH = HOUR + 1


EVENT_INDEX = {kind: i for i, kind in enumerate(EVENT_KINDS)}  # event kind -> its column after LogRow.KIND
# The row widths, by the names callers know them by.
PLAYER_FEATURES = PlayerRow.WIDTH
INCANTATION_FEATURES = IncantationRow.WIDTH
VOTE_FEATURES = VoteRow.WIDTH
SUSPICION_FEATURES = SuspicionRow.WIDTH
EVENT_FEATURES = LogRow.WIDTH

SEAT_PIECES: list[tuple[str, tuple[int, ...]]] = [
    # -- the observer's private information
    ("me.role", (2,)),
    ("me.hand", (4,)),
    ("me.pool_mine", (4,)),
    ("me.pool_look", (4,)),
    ("me.pool_look_size", (1,)),
    ("me.pool_look_current", (1,)),
    ("me.known_roles", (SEATS, 3)),
    ("me.seen_hands", (SEATS, 5)),
    ("me.deck_top", (DECK_TOP, 5)),
    # -- the table
    ("table.size", (5,)),
    ("table.cultists", (5,)),
    ("clock.hour", (13,)),
    ("clock.round", (1,)),
    ("sigils.activated", (4,)),
    ("sigils.target", (5,)),
    ("sigils.gods", (4, NUM_GODS)),
    ("pool.size", (1,)),
    ("pool.face_up", (4,)),
    ("pool.contributions", (SEATS,)),
    ("pool.investigations", (SEATS,)),
    ("pool.swaps", (SEATS,)),
    ("cards.deck_and_discard", (2,)),
    ("turn.watch", (SEATS,)),
    ("turn.player", (SEATS,)),
    ("players", (SEATS, PLAYER_FEATURES)),
    ("players.hand_size", (SEATS,)),
    ("necronomicon", (3,)),
    # -- the decision being taken
    ("decision.phase", (NUM_PHASES,)),
    ("decision.gamble_cards", (4,)),
    ("decision.discarded", (1,)),
    ("decision.taken", (4,)),
    ("decision.vote_kind", (2,)),
    ("decision.vote_proposer", (SEATS,)),
    ("decision.vote_accused", (SEATS,)),
    ("decision.pages", (NUM_PAGES,)),
    # -- what a deducer needs from the past
    ("history.incantations", (INCANTATION_HISTORY, INCANTATION_FEATURES)),
    ("history.votes", (VOTE_HISTORY, VOTE_FEATURES)),
    ("history.reading", (1 + SEATS + NUM_PAGES,)),
    ("history.suspicion", (SEATS, SUSPICION_FEATURES)),
]


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]
    start: int
    stop: int


class Layout:
    """Index ranges of named pieces in a flat vector."""

    def __init__(self, pieces: list[tuple[str, tuple[int, ...]]]):
        self.pieces: dict[str, Piece] = {}
        start = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.pieces[name] = Piece(name, shape, start, start + size)
            start += size
        self.size = start
        self.starts = {name: piece.start for name, piece in self.pieces.items()}  # read per observe

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Writable views of `vector`, one per piece, in the piece's shape (no copies)."""
        return {p.name: vector[p.start : p.stop].reshape(p.shape) for p in self.pieces.values()}

    def __getitem__(self, name: str) -> Piece:
        return self.pieces[name]

    def table(self) -> str:
        """Markdown table of the ranges, as printed in the env docstring."""
        rows = ["| index range | piece | shape |", "|---|---|---|"]
        for p in self.pieces.values():
            rows.append(f"| {p.start}-{p.stop - 1} | `{p.name}` | {p.shape} |")
        return "\n".join(rows)


SEAT_LAYOUT = Layout(SEAT_PIECES)
HISTORY_LAYOUT = Layout(SEAT_PIECES + [("log", (LOG_LENGTH, EVENT_FEATURES))])  # history mode
OBSERVATION_MODES = {"seat": SEAT_LAYOUT, "history": HISTORY_LAYOUT}


def layout_for(mode: str) -> Layout:
    """The layout of an observation mode ("seat" or "history")."""
    if mode not in OBSERVATION_MODES:
        raise ValueError(f"observation_mode must be 'seat' or 'history', got {mode!r}")
    return OBSERVATION_MODES[mode]
