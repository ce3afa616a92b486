"""The full truth of one game in progress: plain data, no rules.

`State` is what the rules read and mutate; it holds no random generator (the caller owns it) and
no reference to pettingzoo or torch. It clones cheaply and round-trips through JSON-ready dicts.

Public information and each seat's private knowledge are kept apart on purpose: the encoder reads
`State` public fields, the observer's own `Player` and its `Memory`, and nothing else. That split
is what the no-leak tests check.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from enum import IntEnum

from .config import GameConfig


class Phase(IntEnum):
    DECLARE_TARGET = 0
    TURN = 1
    RESEARCH_DISCARD = 2
    GAMBLE_PLAY = 3
    INVESTIGATE_TAKE = 4
    INVESTIGATE_GIVE = 5
    VOTE = 6
    NECRONOMICON_PAGE = 7
    EQUIPMENT_PLAYER = 8
    EQUIPMENT_SIGIL = 9
    GAME_OVER = 10


NUM_PHASES = len(Phase)
_GAME_OVER = Phase.GAME_OVER  # read on every step: a member lookup on an enum class is slow


class Winner(IntEnum):
    NONE = 0
    INVESTIGATORS = 1
    CULTISTS = 2


class EndReason(IntEnum):
    NONE = 0
    FOUR_SIGILS = 1
    MIDNIGHT = 2
    NECRONOMICON = 3


@dataclass
class PoolCard:
    sigil: int
    contributor: int  # seat whose card this is (the giver, after an Investigate swap)
    face_up: bool


@dataclass
class Memory:
    """What one seat privately knows, beyond its own hand and role."""

    pool_mine: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Sigils this seat put into the current pool (contribute, gamble, swap)."""
    pool_look: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Sigils seen at this seat's last look into the current pool (Investigate or Lantern)."""
    pool_look_size: int = 0
    """Pool size at that look (0: no look at this pool)."""
    past_mine: list[list[int]] = field(default_factory=list)
    """For each resolved incantation (same order as State.incantations): sigils this seat put in."""
    known_roles: list[int] = field(default_factory=list)
    """Per absolute seat: -1 unknown, else the Role this seat knows (own, revealed, Ouija)."""
    seen_hands: list[list[int] | None] = field(default_factory=list)
    """Per absolute seat: the hand seen through the Spyglass (None: never seen)."""
    deck_top: list[int] = field(default_factory=list)
    """Known next cards of the Mythos deck, next first (Almanac); cut down as cards are drawn."""


@dataclass
class Player:
    role: int
    character: int
    equipment: int
    hand: list[int]  # count of cards per sigil
    sanity: int
    insanity: list[int] = field(default_factory=list)  # held Insanity cards, oldest first
    expiring: int = 0  # the oldest `expiring` cards are discarded at the end of this turn
    equipment_used: bool = False
    revealed: bool = False
    proposed_necronomicon: bool = False
    memory: Memory = field(default_factory=Memory)

    @property
    def hand_count(self) -> int:
        return sum(self.hand)


@dataclass
class IncantationRecord:
    """Public record of one resolved incantation."""

    target: int
    cards: list[int]  # sigil counts of the seven revealed cards
    success: bool
    contributions: list[int]  # per seat: cards put in by Contribute or Gamble
    face_up: list[list[int]]  # per seat: sigil counts of the cards they played face up
    investigations: list[int]  # per seat: times they investigated this pool
    swaps: list[int]  # per seat: times they swapped a card into it
    hour: int
    # The truth, never shown to a seat (no observation reads it): [sigil, seat whose card it was]
    # for each of the seven cards, for the end-of-game reveal of replays and the terminal table.
    played: list[list[int]] = field(default_factory=list)


@dataclass
class VoteRecord:
    """Public record of an accusation or a Necronomicon proposal, after every vote is cast."""

    kind: int  # VoteKind
    proposer: int
    accused: int  # -1 for the Necronomicon
    votes: list[int]  # per seat: 1 yes, -1 no, 0 did not vote
    passed: bool
    revealed_role: int  # -1 when nothing was revealed
    hour: int


@dataclass
class NecronomiconRecord:
    reader: int
    page: int
    hour: int


@dataclass
class PendingVote:
    kind: int
    proposer: int
    accused: int
    to_ask: list[int]  # seats still to be asked, in asking order
    votes: list[int]  # per seat: 1 yes, -1 no, 0 not eligible/not yet cast


@dataclass
class Pending:
    """Context of a multi-step decision in progress (only the fields of the current phase matter)."""

    discarded: int = 0
    gamble_cards: list[int] = field(default_factory=list)
    seen: list[int] = field(default_factory=list)  # pool indices seen while investigating
    taken: int = -1  # sigil taken from the pool, waiting for the give step
    vote: PendingVote | None = None
    pages: list[int] = field(default_factory=list)


@dataclass
class Event:
    """One thing that happened. `seat` is -1 for public events, else the only seat that saw it."""

    kind: str
    actor: int = -1
    target: int = -1
    value: int = -1
    seat: int = -1
    hour: int = 0

    def witnessed_by(self, seat: int) -> bool:
        """Whether `seat` saw this event: everyone sees a public one, only its seat a private one.
        Every view of what a seat saw (the observation's log, the seat projection) asks here."""
        return self.seat == -1 or self.seat == seat


@dataclass
class State:
    config: GameConfig
    num_cultists: int
    players: list[Player]
    hour: int
    round: int
    watch: int  # seat holding the pocket watch
    round_order: list[int]
    turn_index: int
    phase: int
    decider: int  # seat that must act now (-1 when the game is over)
    main_action_done: bool
    target: int  # -1 while undeclared
    activated: list[bool]
    gods: list[int]  # god behind each sigil
    deck: list[int]  # next card last (pop from the end)
    discard: list[int]
    pool: list[PoolCard]
    pool_contributions: list[int]  # per seat, for the current pool
    pool_face_up: list[list[int]]  # per seat, sigil counts played face up to the current pool
    pool_investigations: list[int]
    pool_swaps: list[int]
    insanity_deck: list[int]
    insanity_discard: list[int]
    necronomicon: list[int]  # remaining pages
    necronomicon_read: bool
    pending: Pending
    incantations: list[IncantationRecord] = field(default_factory=list)
    votes: list[VoteRecord] = field(default_factory=list)
    readings: list[NecronomiconRecord] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    winner: int = Winner.NONE
    end_reason: int = EndReason.NONE
    steps: int = 0

    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def turn_player(self) -> int:
        return self.round_order[self.turn_index]

    @property
    def game_over(self) -> bool:
        return self.phase == _GAME_OVER

    @property
    def sigils_activated(self) -> int:
        return sum(self.activated)

    def clone(self) -> "State":
        return copy.deepcopy(self)

    def to_dict(self) -> dict:
        """JSON-ready dict of the full truth (the config as a dict of its fields)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.to_dict() if f.name == "config" else _plain(value)
        return out

    @classmethod
    def from_dict(cls, data: dict) -> "State":
        data = dict(data)
        data["config"] = GameConfig.from_dict(data["config"])
        players = []
        for p in data["players"]:
            p = dict(p)
            p["memory"] = Memory(**p["memory"])
            players.append(Player(**p))
        data["players"] = players
        data["pool"] = [PoolCard(**c) for c in data["pool"]]
        pending = dict(data["pending"])
        if pending["vote"] is not None:
            pending["vote"] = PendingVote(**pending["vote"])
        data["pending"] = Pending(**pending)
        data["incantations"] = [IncantationRecord(**r) for r in data["incantations"]]
        data["votes"] = [VoteRecord(**r) for r in data["votes"]]
        data["readings"] = [NecronomiconRecord(**r) for r in data["readings"]]
        data["events"] = [Event(**e) for e in data["events"]]
        return cls(**data)


def _plain(value):
    """Dataclasses, enums and lists to JSON-ready builtins."""
    if hasattr(value, "__dataclass_fields__"):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, IntEnum):
        return int(value)
    return value


# Every Event.kind the engine emits, in a fixed order (the `history` observation one-hot uses it).
EVENT_KINDS = (
    "round", "declared", "contributed", "gamble_played", "my_card", "researched", "refilled",
    "drew", "reshuffle", "gambled", "gamble_drew", "investigated", "saw_pool", "swapped",
    "swap_detail", "accused", "proposed_necronomicon", "voted", "vote_result", "role_revealed",
    "cursed", "sanity_lost", "sanity_cause", "went_mad", "incantation", "clock", "equipment",
    "knifed", "healed", "saw_deck", "shot", "spied", "saw_hand", "ouija", "saw_role", "compass",
    "page_offered", "page_enacted", "game_over", "research_discard", "insanity_expired",
)  # fmt: skip
# Events whose `target` names a seat (the others use it for a sigil, a count or a reason).
SEAT_TARGET_EVENTS = frozenset(
    {"accused", "vote_result", "role_revealed", "cursed", "shot", "spied", "saw_hand", "ouija", "saw_role"}
)
