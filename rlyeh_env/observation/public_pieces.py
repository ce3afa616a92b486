"""The incremental encoder's writers of public values: what every seat sees, written once.

Each `put_<piece>(t, state, seats)` rewrites one public piece of a tracker's store, for the seats
concerned (seat-indexed values are in absolute seat order; `tracker.gather_index` rotates them per
observer). They run when an event announces the piece (`incremental.ANNOUNCES`) and once when a
tracker starts; `refresh` compares what changes with no event of its own at every observe. Values
are computed with the reference's arithmetic, so the vectors are equal, not just close.
"""

from __future__ import annotations

from ..engine.cards import NUM_GODS, NUM_INSANITY, NUM_PAGES
from ..engine.config import MIDNIGHT, GameConfig
from ..engine.state import Phase, State
from .features import (
    CAPPED,
    Float32Fractions,
    incantation_columns,
    incantation_suspicion,
    vote_columns,
    vote_suspicion,
)
from .layout import (
    CAP,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    PLAYER_FEATURES,
    SEAT_LAYOUT,
    SEATS,
    SUSPICION_FEATURES,
    VOTE_FEATURES,
    VOTE_HISTORY,
    PlayerRow,
)
from .tracker import UNSET, Tracker, make_room

# Start of every public piece written here.
_AT = SEAT_LAYOUT.starts
_TABLE, _CULTISTS, _HOUR, _ROUND = _AT["table.size"], _AT["table.cultists"], _AT["clock.hour"], _AT["clock.round"]
_ACTIVATED, _TARGET, _GODS = _AT["sigils.activated"], _AT["sigils.target"], _AT["sigils.gods"]
_POOL_SIZE, _FACE_UP, _CONTRIB = _AT["pool.size"], _AT["pool.face_up"], _AT["pool.contributions"]
_INVEST, _SWAPS, _CARDS = _AT["pool.investigations"], _AT["pool.swaps"], _AT["cards.deck_and_discard"]
_WATCH, _TURN, _PLAYERS, _HAND_SIZE = _AT["turn.watch"], _AT["turn.player"], _AT["players"], _AT["players.hand_size"]
_NECRO, _PHASE, _VOTE_KIND = _AT["necronomicon"], _AT["decision.phase"], _AT["decision.vote_kind"]
_PROPOSER, _ACCUSED = _AT["decision.vote_proposer"], _AT["decision.vote_accused"]
_INCANTATIONS, _VOTES = _AT["history.incantations"], _AT["history.votes"]
_READING, _SUSPICION = _AT["history.reading"], _AT["history.suspicion"]
_GAME_OVER = Phase.GAME_OVER  # read at every observe: a member read off its class is slow

PUBLIC_PIECES = (
    "pool", "hand_size", "sanity", "revealed", "used", "has_proposed", "hour", "round", "target", "incantations",
    "vote", "reading",
)  # fmt: skip


class PublicPieces:
    """The public writers of one table configuration."""

    def __init__(self, config: GameConfig):
        self.config = config
        self.fractions = Float32Fractions(config.incantation_size)

    def put_fixed(self, t: Tracker, state: State) -> None:
        """The pieces fixed for the whole game, written once when a tracker starts."""
        pub = t.public
        pub[_TABLE + state.num_players - 4] = 1.0
        pub[_CULTISTS + (0 if self.config.hidden_cultist_count else state.num_cultists)] = 1.0
        for sigil, god in enumerate(state.gods):
            pub[_GODS + NUM_GODS * sigil + god] = 1.0
        for s, p in enumerate(state.players):  # present, character and equipment never change
            row = _PLAYERS + s * PLAYER_FEATURES
            pub[row + PlayerRow.PRESENT] = pub[row + PlayerRow.CHARACTER + p.character] = 1.0
            pub[row + PlayerRow.EQUIPMENT + p.equipment] = 1.0

    def refresh(self, t: Tracker, state: State) -> None:
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

    # -- rewritten when announced (seats: those concerned) ---------------------------------------
    # One-hots move their single 1.

    def put_pool(self, t: Tracker, state: State, seats) -> None:
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
            pub[_INVEST + s] = CAPPED[state.pool_investigations[s]] if state.pool_investigations[s] < CAP else 1.0
            pub[_SWAPS + s] = CAPPED[state.pool_swaps[s]] if state.pool_swaps[s] < CAP else 1.0

    def put_hand_size(self, t: Tracker, state: State, seats) -> None:
        for s in seats:
            t.public[_HAND_SIZE + s] = state.players[s].hand_count / self.config.hand_size

    # The players block (`Encoder._players`), piece by piece: a status event changes one or two
    # values, and rewriting the whole row would cost about four times as much.

    def put_sanity(self, t: Tracker, state: State, seats) -> None:
        """Sanity, madness and the Insanity cards held."""
        pub, start, per_copy = t.public, self.config.start_sanity, 1.0 / self.config.insanity_copies
        for s in seats:
            p = state.players[s]
            row = _PLAYERS + s * PLAYER_FEATURES
            pub[row + PlayerRow.SANITY] = p.sanity / start
            pub[row + PlayerRow.MAD] = float(p.sanity == 0)
            held = [0] * NUM_INSANITY
            for card in p.insanity:
                held[card] += 1
            shown = t.held[s]
            if held != shown:
                for card in range(NUM_INSANITY):
                    if held[card] != shown[card]:
                        pub[row + PlayerRow.INSANITY + card] = held[card] * per_copy
                t.held[s] = held

    def put_revealed(self, t: Tracker, state: State, seats) -> None:
        for s in seats:
            p = state.players[s]
            row = _PLAYERS + s * PLAYER_FEATURES + PlayerRow.REVEALED
            t.public[row] = not p.revealed
            t.public[row + 1 + p.role] = p.revealed

    def put_used(self, t: Tracker, state: State, seats) -> None:
        for s in seats:
            t.public[_PLAYERS + s * PLAYER_FEATURES + PlayerRow.USED] = state.players[s].equipment_used

    def put_has_proposed(self, t: Tracker, state: State, seats) -> None:
        for s in seats:
            t.public[_PLAYERS + s * PLAYER_FEATURES + PlayerRow.PROPOSED] = state.players[s].proposed_necronomicon

    def put_hour(self, t: Tracker, state: State, seats) -> None:
        pub = t.public
        if t.hour is not None:
            pub[_HOUR + t.hour] = 0.0
        pub[_HOUR + state.hour] = 1.0
        pub[_NECRO + 1] = float(state.hour >= self.config.necronomicon_earliest_hour)
        t.hour = state.hour

    def put_round(self, t: Tracker, state: State, seats) -> None:
        pub = t.public
        pub[_ROUND] = min(state.round, MIDNIGHT) / MIDNIGHT
        if t.watch is not None:
            pub[_WATCH + t.watch] = 0.0
        pub[_WATCH + state.watch] = 1.0
        t.watch = state.watch

    def put_target(self, t: Tracker, state: State, seats) -> None:
        if t.target is not None:
            t.public[_TARGET + t.target] = 0.0
        t.target = state.target if state.target >= 0 else 4
        t.public[_TARGET + t.target] = 1.0

    def put_vote(self, t: Tracker, state: State, seats) -> None:
        """The vote in progress, new vote records, and whether the Necronomicon was read."""
        pub = t.public
        vote = state.pending.vote  # its kind, proposer and accused never change: identity will do
        if vote is not t.vote:
            if t.vote is not UNSET and t.vote is not None:
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

    def put_reading(self, t: Tracker, state: State, seats) -> None:
        pub = t.public
        t.array[_READING : _READING + 1 + SEATS + NUM_PAGES] = 0.0
        if state.readings:
            reading = state.readings[-1]
            pub[_READING] = pub[_READING + 1 + reading.reader] = pub[_READING + 1 + SEATS + reading.page] = 1.0

    # -- history blocks: a row per new record (the observer's own cards are private) -------------

    def put_incantations(self, t: Tracker, state: State, seats) -> None:
        """sigils.activated, and new rows of history.incantations."""
        pub = t.public
        for sigil in range(4):
            pub[_ACTIVATED + sigil] = state.activated[sigil]
        shown, total = t.incantations, len(state.incantations)
        first = make_room(t.array, _INCANTATIONS, INCANTATION_FEATURES, INCANTATION_HISTORY, shown, total)
        for i in range(max(shown, first), total):
            row = _INCANTATIONS + (i - first) * INCANTATION_FEATURES
            for column, value in incantation_columns(state.incantations[i], self.fractions):
                pub[row + column] = value
        for record in state.incantations[t.incantations :]:
            for s, column, amount in incantation_suspicion(record):
                _add_suspicion(t, s, column, amount)
        t.incantations = len(state.incantations)

    def _write_votes(self, t: Tracker, state: State) -> None:
        """New rows of history.votes."""
        pub = t.public
        first = make_room(t.array, _VOTES, VOTE_FEATURES, VOTE_HISTORY, t.votes, len(state.votes))
        for i in range(max(t.votes, first), len(state.votes)):
            row = _VOTES + (i - first) * VOTE_FEATURES
            for column, value in vote_columns(state.votes[i]):
                pub[row + column] = value
        for record in state.votes[t.votes :]:
            for s, column, amount in vote_suspicion(record):
                _add_suspicion(t, s, column, amount)
        t.votes = len(state.votes)


def _add_suspicion(t: Tracker, seat: int, column: int, amount: int) -> None:
    totals = t.suspicion[seat]
    totals[column] += amount
    # (min(total, CAP) / CAP is one of 0, 1/4 .. 1: exact, as the reference's float32 result)
    value = CAPPED[totals[column]] if totals[column] < CAP else 1.0
    t.public[_SUSPICION + seat * SUSPICION_FEATURES + column] = value
