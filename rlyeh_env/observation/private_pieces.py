"""The incremental encoder's writers of private values: what only one seat sees, in its part.

Each `put_<piece>(view, state)` rewrites one private piece of a seat's part of the store
(`tracker.SeatView`), at the next observe of that seat after an event announced it
(`incremental.ANNOUNCES`). `refresh` compares, at every observe, the private values that change
with no event of the seat's own (whether its look into the pool is current, the deck top it
knows, its decision context); `append_log` adds the events it witnessed to its log (history mode).
"""

from __future__ import annotations

from ..engine.config import MIDNIGHT, GameConfig
from ..engine.state import SEAT_TARGET_EVENTS, State
from .features import CONTEXT_PHASES, Float32Fractions, decision_context
from .layout import (
    DECK_TOP,
    EVENT_FEATURES,
    EVENT_INDEX,
    INCANTATION_FEATURES,
    INCANTATION_HISTORY,
    LOG_LENGTH,
    SEAT_LAYOUT,
    SEATS,
    IncantationRow,
    LogRow,
)
from .tracker import SeatView, make_room

_AT = SEAT_LAYOUT.starts
_HAND, _MINE, _LOOK = _AT["me.hand"], _AT["me.pool_mine"], _AT["me.pool_look"]
_KNOWN, _SEEN, _TOP = _AT["me.known_roles"], _AT["me.seen_hands"], _AT["me.deck_top"]
_NECRO, _INCANTATIONS = _AT["necronomicon"], _AT["history.incantations"]
_LOG = SEAT_LAYOUT.size  # the history layout is the seat layout followed by the log
_LOG_KIND, _LOG_ACTOR, _LOG_TARGET = LogRow.KIND, LogRow.ACTOR, LogRow.TARGET
_LOG_VALUE, _LOG_HOUR = LogRow.VALUE, LogRow.HOUR


class PrivatePieces:
    """The private writers of one table configuration."""

    def __init__(self, config: GameConfig, fractions: Float32Fractions):
        self.config = config
        self.fractions = fractions  # shared with the public writers: the same divisions

    def refresh(self, view: SeatView, state: State) -> None:
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
        if state.decider == view.seat and state.phase in CONTEXT_PHASES:
            start, values = decision_context(state, self.config)
            for i, value in enumerate(values, start):
                if value:  # zeros left out: nothing to clear at the next update
                    vec[i] = value
                    view.decision.append(i)

    # -- rewritten when announced ----------------------------------------------------------------

    def put_hand(self, view: SeatView, state: State) -> None:
        hand = state.players[view.seat].hand
        for sigil in range(4):
            view.vec[_HAND + sigil] = hand[sigil] / self.config.hand_size

    def put_mine(self, view: SeatView, state: State) -> None:
        mine = state.players[view.seat].memory.pool_mine
        for sigil in range(4):
            view.vec[_MINE + sigil] = mine[sigil] / self.config.incantation_size

    def put_look(self, view: SeatView, state: State) -> None:
        mem = state.players[view.seat].memory
        for sigil in range(4):
            view.vec[_LOOK + sigil] = mem.pool_look[sigil] / self.config.incantation_size
        view.vec[_LOOK + 4] = mem.pool_look_size / self.config.incantation_size

    def put_known(self, view: SeatView, state: State) -> None:
        known = state.players[view.seat].memory.known_roles
        for k, s in enumerate(view.rel):
            if known[s] != view.known[s]:
                if view.known[s] is not None:
                    view.vec[_KNOWN + 3 * k + view.known[s] + 1] = 0.0
                view.vec[_KNOWN + 3 * k + known[s] + 1] = 1.0
                view.known[s] = known[s]

    def put_seen(self, view: SeatView, state: State) -> None:
        seen_hands = state.players[view.seat].memory.seen_hands
        for k, s in enumerate(view.rel):
            hand = seen_hands[s]
            if hand != view.seen[s]:
                at = _SEEN + 5 * k
                size = self.config.hand_size
                view.array[at : at + 5] = [0.0] * 5 if hand is None else [1.0] + [c / size for c in hand]
                view.seen[s] = None if hand is None else hand.copy()

    def put_proposed(self, view: SeatView, state: State) -> None:
        view.vec[_NECRO + 2] = state.players[view.seat].proposed_necronomicon

    def put_past(self, view: SeatView, state: State) -> None:
        """My own cards in the new rows of history.incantations (`Encoder.observe` divides them
        as a float32 array)."""
        past_mine = state.players[view.seat].memory.past_mine
        first = make_room(
            view.array, _INCANTATIONS, INCANTATION_FEATURES, INCANTATION_HISTORY, view.past, len(past_mine)
        )
        for i in range(max(view.past, first), len(past_mine)):
            row = _INCANTATIONS + (i - first) * INCANTATION_FEATURES + IncantationRow.MINE
            for sigil in range(4):
                view.vec[row + sigil] = self.fractions[past_mine[i][sigil]]
        view.past = len(past_mine)

    # -- history mode: the log -------------------------------------------------------------------

    def append_log(self, view: SeatView, state: State) -> None:
        """Write the events the seat witnessed since its last update into its log, a ring of
        LOG_LENGTH rows (`IncrementalEncoder.observe` puts the oldest first)."""
        events = state.events
        seat = view.seat
        new = []  # newest first; at most LOG_LENGTH of them can show
        for i in range(len(events) - 1, view.log_seen - 1, -1):
            event = events[i]
            if event.witnessed_by(seat):
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
            # the columns of `Encoder._log`, inline: this loop runs for every event and every seat
            vec[row + _LOG_KIND + EVENT_INDEX[event.kind]] = 1.0
            vec[row + _LOG_ACTOR + ((event.actor - seat) % n if event.actor >= 0 else SEATS)] = 1.0
            if event.target < 0:
                target = SEATS
            elif event.kind in SEAT_TARGET_EVENTS:
                target = (event.target - seat) % n
            else:  # a sigil, a pool size or an end reason: the number, capped at 7
                target = event.target if event.target < SEATS else SEATS - 1
            vec[row + _LOG_TARGET + target] = 1.0
            value = event.value
            vec[row + _LOG_VALUE + (value + 1 if -1 <= value <= 9 else 0 if value < -1 else 10)] = 1.0  # clipped
            vec[row + _LOG_HOUR] = event.hour / MIDNIGHT
