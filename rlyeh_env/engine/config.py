"""`GameConfig`: every number of the rules, frozen and validated.

A wrong value raises `ValueError` naming the field and the allowed range. Fields left as `None`
take the per-table-size default from the tables below (see `resolved`); those tables are the
output of the balance runs recorded in RULES.md.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .cards import NUM_PAGES

# The game's default rules, numbered: raised whenever a default changes (a per-size setting
# below, a rule's default option), so that a policy trained under other rules is refused
# (rlyeh_env/policy/checkpoint.py) instead of playing a game it never learned.
RULES_VERSION = 3

MIN_PLAYERS = 4
MAX_PLAYERS = 8
MIDNIGHT = 12

# Per table size: rules version 3, chosen with scripts/calibrate.py under trained play (v3, the last
# bots of rules version 2, then confirmed by retraining) and checked with scripts/balance.py under
# the heuristic (RULES.md, section 14).
DEFAULT_CULTISTS = {4: 1, 5: 1, 6: 1, 7: 1, 8: 1}
DEFAULT_START_HOUR = {4: 2, 5: 2, 6: 5, 7: 7, 8: 7}
# At 4 players even the earliest start leaves the three investigators too little time, so their
# incantations need one net match fewer (a None `incantation_threshold` takes this table).
DEFAULT_INCANTATION_THRESHOLD = {4: 3, 5: 4, 6: 4, 7: 4, 8: 4}
# Hours the Necronomicon's Turn back time wins back (a None `necronomicon_hours_back` takes this
# table): a finer balance lever than the start hour, since an hour of the start moved trained play
# by 13-27 points (RULES.md, section 14).
DEFAULT_NECRONOMICON_HOURS_BACK = {4: 3, 5: 2, 6: 2, 7: 3, 8: 1}


def default_hidden_range(num_players: int) -> tuple[int, int]:
    """With `hidden_cultist_count`, the count is drawn uniformly from this inclusive range."""
    return 1, min(DEFAULT_CULTISTS[num_players] + 1, num_players // 2)


@dataclass(frozen=True)
class GameConfig:
    """The parameters of one game. Every field is validated on construction."""

    num_players: int = 5
    """Seats at the table, 4 to 8."""
    num_cultists: int | None = None
    """Cultists dealt; None takes DEFAULT_CULTISTS for the table size."""
    hidden_cultist_count: bool = False
    """Variant: the cultist count is drawn at random and told to nobody."""
    hidden_cultist_min: int | None = None
    """Smallest hidden count (None: see default_hidden_range)."""
    hidden_cultist_max: int | None = None
    """Largest hidden count (None: see default_hidden_range)."""
    start_hour: int | None = None
    """Hour the clock starts at; midnight is 12. None takes DEFAULT_START_HOUR."""
    cards_per_sigil: int = 12
    """Mythos cards of each sigil in the deck."""
    hand_size: int = 3
    """Cards a Research refills a hand to."""
    incantation_size: int = 7
    """Cards an incantation takes; the last one is played face up and triggers the reveal."""
    incantation_threshold: int | None = None
    """Net matching cards an incantation needs to succeed. None takes DEFAULT_INCANTATION_THRESHOLD
    for the table size (at most incantation_size); the value is then stored in this field."""
    opposite_cancels: int = 1
    """Matches cancelled by each card of the target's opposite sigil."""
    start_sanity: int = 5
    """Sanity every player starts with (and the most they can have)."""
    investigate_sanity_loss: int = 1
    """Sanity lost by a player who Investigates."""
    failed_incantation_sanity_loss: int = 1
    """Sanity lost by every player who contributed to a failed incantation."""
    phobia_sanity_loss: int = 1
    """Sanity lost when a player's own phobia strikes."""
    curse_sanity_loss: int = 1
    """Sanity lost by the victim of a revealed cultist's Curse."""
    ouija_sanity_loss: int = 1
    """Sanity lost by a player who uses the Ouija board."""
    wrong_accusation_hours: int = 2
    """Hours the clock jumps when an accusation reveals an investigator."""
    necronomicon_earliest_hour: int = 6
    """The Necronomicon may be proposed only once the clock shows this hour or later."""
    necronomicon_sanity_loss: int = 3
    """Insanity cards (sanity lost) by the reader of the Necronomicon."""
    necronomicon_pages: tuple[int, ...] = (4, 3, 3)
    """Copies of each page (Turn back time, Forbidden lore, Doom) in the Necronomicon."""
    necronomicon_offer: int = 3
    """Pages the reader sees before enacting one."""
    necronomicon_hours_back: int | None = None
    """Hours Turn back time wins back. None takes DEFAULT_NECRONOMICON_HOURS_BACK for the table
    size; the value is then stored in this field."""
    insanity_copies: int = 3
    """Copies of each Insanity card in the Insanity deck."""
    revealed_cultist_contributes: bool = False
    """True: a revealed cultist may still Contribute and Gamble (face up), the rule of rules version 1; False (the default): they put no card into the pool (R7.14)."""
    extra_gods: bool = False
    """Variant: each sigil is ruled by one of the extra gods, whose effects change activation."""
    sigil_reward: float = 0.0
    """Optional shaping: reward to investigators (and minus to cultists) per activated sigil."""

    _resolved_cultists: int = field(init=False, repr=False, compare=False)
    _resolved_start_hour: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = self.num_players
        _check("num_players", n, MIN_PLAYERS, MAX_PLAYERS)
        max_cultists = n // 2
        if self.num_cultists is not None:
            _check("num_cultists", self.num_cultists, 1, max_cultists)
            if self.hidden_cultist_count:
                raise ValueError(
                    "num_cultists must be None with hidden_cultist_count=True "
                    "(the count is drawn from hidden_cultist_min..hidden_cultist_max)"
                )
        for name in ("hidden_cultist_min", "hidden_cultist_max"):
            if getattr(self, name) is not None:
                _check(name, getattr(self, name), 1, max_cultists)
        lo, hi = self.hidden_range()
        _check("hidden_cultist_min", lo, 1, max_cultists)
        _check("hidden_cultist_max", hi, lo, max_cultists)
        if self.start_hour is not None:
            _check("start_hour", self.start_hour, 0, MIDNIGHT - 1)
        _check("cards_per_sigil", self.cards_per_sigil, 4, 40)
        _check("hand_size", self.hand_size, 1, 6)
        _check("incantation_size", self.incantation_size, 2, 12)
        if self.incantation_threshold is None:
            default = min(DEFAULT_INCANTATION_THRESHOLD[n], self.incantation_size)
            object.__setattr__(self, "incantation_threshold", default)
        _check("incantation_threshold", self.incantation_threshold, 1, self.incantation_size)
        _check("opposite_cancels", self.opposite_cancels, 0, 3)
        _check("start_sanity", self.start_sanity, 1, 12)
        _check("investigate_sanity_loss", self.investigate_sanity_loss, 0, 3)
        _check("failed_incantation_sanity_loss", self.failed_incantation_sanity_loss, 0, 3)
        _check("phobia_sanity_loss", self.phobia_sanity_loss, 0, 3)
        _check("wrong_accusation_hours", self.wrong_accusation_hours, 0, MIDNIGHT)
        _check("necronomicon_earliest_hour", self.necronomicon_earliest_hour, 0, MIDNIGHT - 1)
        _check("necronomicon_sanity_loss", self.necronomicon_sanity_loss, 0, 12)
        if self.necronomicon_hours_back is None:
            object.__setattr__(self, "necronomicon_hours_back", DEFAULT_NECRONOMICON_HOURS_BACK[n])
        _check("necronomicon_hours_back", self.necronomicon_hours_back, 0, MIDNIGHT)
        _check("insanity_copies", self.insanity_copies, 1, 10)
        _check("curse_sanity_loss", self.curse_sanity_loss, 0, 3)
        _check("ouija_sanity_loss", self.ouija_sanity_loss, 0, 3)
        reward = self.sigil_reward
        if isinstance(reward, bool) or not isinstance(reward, (int, float)) or not 0.0 <= reward <= 1.0:
            raise ValueError(f"sigil_reward must be a number in [0, 1], got {self.sigil_reward!r}")
        for name in ("hidden_cultist_count", "extra_gods", "revealed_cultist_contributes"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        pages = self.necronomicon_pages
        if (
            not isinstance(pages, tuple)
            or len(pages) != NUM_PAGES
            or any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in pages)
            or sum(pages) < 1
        ):
            raise ValueError(
                f"necronomicon_pages must be a tuple of {NUM_PAGES} non-negative ints "
                f"(Turn back time, Forbidden lore, Doom) with at least one page, got {pages!r}"
            )
        _check("necronomicon_offer", self.necronomicon_offer, 1, sum(pages))
        cultists = self.num_cultists if self.num_cultists is not None else DEFAULT_CULTISTS[n]
        hour = self.start_hour if self.start_hour is not None else DEFAULT_START_HOUR[n]
        object.__setattr__(self, "_resolved_cultists", cultists)
        object.__setattr__(self, "_resolved_start_hour", hour)

    @property
    def cultists(self) -> int:
        """The cultist count when it is public (not the hidden variant's draw)."""
        return self._resolved_cultists

    @property
    def first_hour(self) -> int:
        return self._resolved_start_hour

    def hidden_range(self) -> tuple[int, int]:
        lo, hi = default_hidden_range(self.num_players)
        lo = self.hidden_cultist_min if self.hidden_cultist_min is not None else lo
        hi = self.hidden_cultist_max if self.hidden_cultist_max is not None else max(hi, lo)
        return lo, hi

    @property
    def deck_size(self) -> int:
        return 4 * self.cards_per_sigil

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}

    @classmethod
    def from_dict(cls, data: dict) -> "GameConfig":
        known = {f.name for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown GameConfig field(s) {unknown}; known fields: {sorted(known)}")
        data = dict(data)
        if isinstance(data.get("necronomicon_pages"), list):
            data["necronomicon_pages"] = tuple(data["necronomicon_pages"])
        return cls(**data)


def _check(name: str, value: object, lo: int, hi: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an int in [{lo}, {hi}], got {value!r}")
