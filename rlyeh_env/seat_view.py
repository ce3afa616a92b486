"""One seat's projection of the table: everything a human screen shows that seat, and nothing more.

`project_seat(state, seat)` builds a `SeatView`, a frozen dataclass of plain numbers and strings;
`to_dict()` makes it JSON-ready (the browser table will send it over a WebSocket). Every human
view of a seat renders from a `SeatView` alone: the plain text of `rlyeh_env.text.seat_text`
(`env.render_seat(agent)`, the terminal on a pipe), the rich panels of `rlyeh_env.terminal.views.
seat_panels` with the decision heading and numbered choices of `rlyeh play`, and the browser table
to come. The truth views show everything by design and read the state, but draw their public
board from `public_board(state)`, the board of a projection.

## Where each fact comes from
Privacy is decided in two places, and the screens decide nothing:
1. The seat's observation, as a bot gets it: the vector of the reference `Encoder` (decoded by
   `rlyeh_env.bots.view.read`) and the action mask (the legal actions on the seat's own decision,
   in words by `describe_legal_actions`). All the vector holds is taken from it: clock, sigils,
   target and gods, the pool's size and face-up cards, deck and discard counts, each player's
   public status, the seat's role, hand and what it learnt (its cards in the pool, its last look
   into the pool, roles and hands it was shown, the deck cards it foresaw), the vote under way,
   the phase and the context of the seat's own decision.
2. `beyond_the_vector(state, seat)`, the one other read of the state, for what a screen needs and
   the vector does not hold. Public facts: who decides now (a vote asks its voters in turn), the
   round (the vector caps it at 12), the winner and why, where each face-up card lies in the pool
   and the order of each player's Insanity cards (the vector counts both). And the events the seat
   witnessed (`witnessed`: the public ones and its own, the rule of the `history` observation),
   narrated for the log (`narrated`, which `rlyeh play` uses too); they also order the cards of
   the seat's gamble and the pages the Necronomicon offers it, which the vector counts.
Where (2) orders what (1) counts, `decode_seat` checks that both hold the same cards, so (2) can put
the observation's facts in order but never add one. tests/env/test_seat_view.py changes everything
the seat cannot know and finds the projection unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .bots.view import Constants, read
from .engine.cards import phobia_of
from .engine.config import GameConfig
from .engine.state import Event, Phase, State
from .narration import describe_legal_actions, narrate
from .observation import SEAT_LAYOUT, Encoder

_PAGES = SEAT_LAYOUT["decision.pages"]


@dataclass(frozen=True)
class PublicPlayer:
    """One player as the whole table sees them."""

    seat: int
    character: int  # Character
    phobia: int  # Phobia, the character's
    sanity: int
    mad: bool
    cards: int  # in hand
    equipment: int  # Equipment
    equipment_used: bool
    revealed_role: int  # Role once a passed accusation revealed it, else -1
    insanity: tuple[int, ...]  # Insanity cards held, oldest first


@dataclass(frozen=True)
class VoteUnderWay:
    kind: int  # VoteKind
    proposer: int
    accused: int  # -1 for a Necronomicon proposal


@dataclass(frozen=True)
class Board:
    """The public table, the same in every seat's projection (and the rules' numbers it is drawn with)."""

    num_players: int
    round: int  # from 0
    hour: int
    first_hour: int
    start_sanity: int
    hand_size: int
    incantation_size: int
    cultists: int  # -1 when nobody is told (hidden-count variant)
    cultist_range: tuple[int, int]  # what the rules allow (equal bounds when told)
    activated: tuple[bool, ...]  # per sigil
    target: int  # -1 while undeclared
    gods: tuple[int, ...]  # God behind each sigil
    pool: tuple[int, ...]  # each card in its place: the sigil face up, -1 face down
    deck: int
    discard: int
    watch: int
    players: tuple[PublicPlayer, ...]
    phase: int  # Phase
    decider: int  # -1 once the game is over
    vote: VoteUnderWay | None
    winner: int  # Winner
    end_reason: int  # EndReason

    @property
    def game_over(self) -> bool:
        return self.phase == Phase.GAME_OVER


@dataclass(frozen=True)
class Choice:
    action: int
    text: str


@dataclass(frozen=True)
class LogLine:
    text: str
    private: bool  # only this seat saw it


@dataclass(frozen=True)
class SeatView:
    """What one seat may know and a screen shows it (see the module docstring)."""

    seat: int
    board: Board
    role: int
    hand: tuple[int, ...]  # cards per sigil
    known_roles: tuple[int, ...]  # per seat: the Role this seat knows (its own, revealed, Ouija), else -1
    pool_mine: tuple[int, ...]  # sigils it put into the current pool
    pool_look: tuple[int, ...]  # sigils seen at its last look into the current pool
    pool_look_size: int  # pool size at that look (0: none)
    seen_hands: tuple[tuple[int, ...] | None, ...]  # per seat: the hand its Spyglass saw
    deck_top: tuple[int, ...]  # next deck cards its Almanac showed, next first
    gamble_cards: tuple[int, ...]  # drawn by its Gamble, in draw order, while it chooses one
    pages: tuple[int, ...]  # offered to it by the Necronomicon, while it chooses one
    choices: tuple[Choice, ...]  # the legal actions, on its decision only
    log: tuple[LogLine, ...]  # the events it witnessed, narrated, oldest first

    @property
    def me(self) -> PublicPlayer:
        return self.board.players[self.seat]

    @property
    def deciding(self) -> bool:
        return not self.board.game_over and self.board.decider == self.seat

    def to_dict(self) -> dict:
        """Plain JSON-ready builtins (tuples as lists)."""
        return json_ready(dataclasses.asdict(self))


def json_ready(value):
    if isinstance(value, dict):
        return {key: json_ready(v) for key, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [json_ready(v) for v in value]
    return value


# -- the read beyond the observation -----------------------------------------------------------


@dataclass(frozen=True)
class BeyondTheVector:
    """What a screen needs that the seat's observation vector does not hold."""

    round: int
    decider: int
    winner: int
    end_reason: int
    pool: tuple[int, ...]  # face-up sigil or -1, per place
    insanity: tuple[tuple[int, ...], ...]  # per seat, oldest first
    events: tuple[Event, ...]  # witnessed by the seat


def witnessed(state: State, seat: int, start: int = 0) -> list[Event]:
    """The events from index `start` that `seat` saw: the public ones and its own private ones."""
    return [event for event in state.events[start:] if event.witnessed_by(seat)]


def narrated(events: Sequence[Event], seat: int) -> tuple[LogLine, ...]:
    """Witnessed events in words, as `seat` reads them (events with nothing to say are left out)."""
    lines = ((narrate(event, seat), event.seat == seat) for event in events)
    return tuple(LogLine(text, private) for text, private in lines if text)


def beyond_the_vector(state: State, seat: int) -> BeyondTheVector:
    """Public facts the vector leaves out, and the events `seat` witnessed (module docstring, 2)."""
    return BeyondTheVector(
        round=state.round,
        decider=state.decider,
        winner=int(state.winner),
        end_reason=int(state.end_reason),
        pool=tuple(card.sigil if card.face_up else -1 for card in state.pool),
        insanity=tuple(tuple(p.insanity) for p in state.players),
        events=tuple(witnessed(state, seat)),
    )


# -- the projection ------------------------------------------------------------------------------


def project_seat(state: State, seat: int) -> SeatView:
    """`seat`'s projection of `state`: its observation decoded, put in order by `beyond_the_vector`."""
    observation = Encoder(state.config).observe(state, seat)
    choices = tuple(Choice(action, text) for action, text in describe_legal_actions(state, seat))
    return decode_seat(observation, choices, beyond_the_vector(state, seat), state.config, seat)


def public_board(state: State) -> Board:
    """The public table (the same in every seat's projection), for the truth views."""
    w, _ = read(Encoder(state.config).observe(state, 0), lambda n: Constants(state.config))
    return _board(w, beyond_the_vector(state, 0), state.config, 0)


def decode_seat(observation: np.ndarray, choices: tuple[Choice, ...], beyond: BeyondTheVector,
                config: GameConfig, seat: int) -> SeatView:
    """A `SeatView` from the seat's observation vector, its legal choices and `beyond`."""
    w, _ = read(observation, lambda n: Constants(config))
    # the cards of a gamble and the pages offered: all zero unless the seat is deciding
    gamble = w.gamble
    pages = [int(x * config.necronomicon_offer + 0.5) for x in observation[_PAGES.start : _PAGES.stop]]
    return SeatView(
        seat=seat,
        board=_board(w, beyond, config, seat),
        role=int(w.cultist),
        hand=tuple(w.hand),
        known_roles=tuple(_absolute(w.known, seat)),
        pool_mine=tuple(w.pool_mine),
        pool_look=tuple(w.look),
        pool_look_size=w.look_size,
        seen_hands=tuple(None if h is None else tuple(h) for h in _absolute(w.seen_hands, seat)),
        deck_top=tuple(w.deck_top),
        gamble_cards=_in_order(gamble, _last(beyond.events, "gamble_drew", sum(gamble)), "the gambled cards"),
        pages=_in_order(pages, _last(beyond.events, "page_offered", sum(pages)), "the pages offered"),
        choices=choices,
        log=narrated(beyond.events, seat),
    )


def _board(w, beyond: BeyondTheVector, config: GameConfig, seat: int) -> Board:
    n = w.n
    players = []
    for s in range(n):
        k = (s - seat) % n  # the row of seat s in the observer's relative order
        insanity = [int(x * config.insanity_copies + 0.5) for x in w.insanity[k]]
        players.append(PublicPlayer(
            seat=s, character=w.character[k], phobia=int(phobia_of(w.character[k])), sanity=w.sanity[k],
            mad=w.mad[k], cards=w.hand_counts[k], equipment=w.equipment[k], equipment_used=w.used[k],
            revealed_role=w.revealed[k],
            insanity=_in_order(insanity, beyond.insanity[s], f"player_{s}'s Insanity cards"),
        ))
    vote = None
    if w.vote_kind >= 0:
        accused = (seat + w.vote_accused) % n if w.vote_accused >= 0 else -1
        vote = VoteUnderWay(w.vote_kind, (seat + w.vote_proposer) % n, accused)
    told = w.cultists > 0  # the vector holds 0 when nobody is told
    return Board(
        num_players=n, round=beyond.round, hour=w.hour, first_hour=config.first_hour,
        start_sanity=config.start_sanity, hand_size=config.hand_size, incantation_size=config.incantation_size,
        cultists=w.cultists if told else -1,
        cultist_range=(w.cultists, w.cultists) if told else config.hidden_range(),
        activated=tuple(w.activated), target=w.target, gods=tuple(w.gods),
        pool=_pool(w, beyond),
        deck=w.deck, discard=w.discard, watch=(seat + w.watch) % n, players=tuple(players), phase=w.phase,
        decider=beyond.decider, vote=vote, winner=beyond.winner, end_reason=beyond.end_reason,
    )


def _pool(w, beyond: BeyondTheVector) -> tuple[int, ...]:
    """The pool's cards in their places, once checked against the vector's size and face-up counts."""
    if len(beyond.pool) != w.pool_size:
        _mismatch("the pool", beyond.pool, f"{w.pool_size} cards")
    _in_order(w.face_up, [card for card in beyond.pool if card >= 0], "the pool's face-up cards")
    return beyond.pool


def _absolute(rows: list, seat: int) -> list:
    """Rows in the observer's relative order (row k: k seats to its left) in absolute seat order."""
    n = len(rows)
    return [rows[(s - seat) % n] for s in range(n)]


def _last(events: Sequence[Event], kind: str, count: int) -> list[int]:
    """The values of the last `count` witnessed events of `kind`."""
    values = [event.value for event in events if event.kind == kind]
    return values[-count:] if count else []


def _in_order(counts: Sequence[int], cards: Sequence[int], what: str) -> tuple[int, ...]:
    """`cards` in their order, once they are checked to be the cards the observation counts."""
    if sorted(cards) != [card for card, count in enumerate(counts) for _ in range(count)]:
        _mismatch(what, cards, counts)
    return tuple(cards)


def _mismatch(what: str, shown, counted) -> None:
    raise RuntimeError(f"{what}: the state gives {list(shown)} but the seat's observation counts {counted}")
