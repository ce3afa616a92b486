"""The observation layout: named views of one flat float32 vector.

`SEAT_PIECES` lists `(name, shape)` in order; `Layout` turns that into index ranges. The env
module docstring documents every range; `tests/env/test_layout.py` checks the docstring and this
table agree. All seat-indexed rows are *relative*: row 0 is the observer, row k the player k seats
to its left (clockwise); rows for seats beyond the table are zero.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.cards import NUM_CHARACTERS, NUM_EQUIPMENT, NUM_GODS, NUM_INSANITY, NUM_PAGES
from ..engine.state import NUM_PHASES

SEATS = 8  # observations are padded to the largest table
INCANTATION_HISTORY = 8  # most recent incantations kept in the observation
VOTE_HISTORY = 10  # most recent votes kept
LOG_LENGTH = 48  # events kept in `history` observation mode
DECK_TOP = 3

PLAYER_FEATURES = (
    # present, sanity, mad, insanity card counts, revealed (none/investigator/cultist),
    # character, equipment, equipment used, proposed the Necronomicon
    1 + 1 + 1 + NUM_INSANITY + 3 + NUM_CHARACTERS + NUM_EQUIPMENT + 1 + 1
)
INCANTATION_FEATURES = (
    # present, target, revealed cards (raw and match/opposite/other), success, hour,
    # per-seat contributions, face-up opposite cards, investigations, swaps, my own cards
    1 + 4 + 4 + 3 + 1 + 1 + SEATS * 4 + 4
)
VOTE_FEATURES = (
    # present, kind, proposer, accused, per-seat yes, per-seat no, passed, revealed role, hour
    1 + 2 + SEATS + SEATS + SEATS + SEATS + 1 + 2 + 1
)
SUSPICION_FEATURES = 8  # see Encoder._suspicion

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
