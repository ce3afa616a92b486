"""Calibrating the per-size settings (RULES.md section 14): candidates, measurements, the pick.

A candidate setting is a table size's cultist count, start hour and the hours the Necronomicon's
Turn back time wins back (R9.6, a finer lever than the start hour). Each candidate is measured by
playing line-ups under it with the one tournament runner (the same seeded deals for every
candidate), and per table size one candidate is picked by a fixed rule (`pick`):

1. A candidate qualifies when the *target* line-up (the best self-play bots on both sides) gives
   the investigators a win rate inside the target band and the *reference* line-up (the heuristic
   on both sides) one inside the reference band.
2. Among qualifying candidates: the fewest changes from today's setting (the default first, then
   one of the three numbers changed, then two, then all three), then the target win rate nearest
   the band's centre, then the start hour nearest today's, then the hours back nearest today's.
3. If none qualifies, the candidate nearest both bands (the summed distance of its two rates
   outside them) is named and marked as missing.

Bots trained on today's settings, evaluated under other settings, are a proxy: they never
trained at those start hours, cultist counts or hours back. A pick is confirmed by retraining on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine.config import DEFAULT_CULTISTS, DEFAULT_NECRONOMICON_HOURS_BACK, DEFAULT_START_HOUR, MIDNIGHT
from .tournament import MatchResult


@dataclass(frozen=True)
class Setting:
    """One candidate: the cultists dealt, the start hour and Turn back time's hours at a table size."""

    num_players: int
    cultists: int
    start_hour: int
    hours_back: int

    @classmethod
    def default(cls, num_players: int) -> Setting:
        return cls(num_players, DEFAULT_CULTISTS[num_players], DEFAULT_START_HOUR[num_players],
                   DEFAULT_NECRONOMICON_HOURS_BACK[num_players])

    @property
    def config(self) -> dict:
        """The `GameConfig` fields this setting overrides."""
        return {"num_cultists": self.cultists, "start_hour": self.start_hour,
                "necronomicon_hours_back": self.hours_back}

    @property
    def changes(self) -> int:
        """How many of the three numbers differ from today's setting (0 to 3)."""
        today = Setting.default(self.num_players)
        return (int(self.cultists != today.cultists) + int(self.start_hour != today.start_hour)
                + int(self.hours_back != today.hours_back))


def candidate_settings(num_players: int, hour_offsets: list[int], cultist_counts: list[int] | None = None,
                       hours_back: list[int] | None = None) -> list[Setting]:
    """Today's setting first, then every legal (cultists, hours back, start hour) among the cultist
    counts and hours back asked for (None: today's only) and today's start hour plus each offset.
    Hours outside 0 to 11, counts outside 1 to half the table and hours back outside 0 to 12 are
    left out."""
    today = Setting.default(num_players)
    counts = [today.cultists] if cultist_counts is None else cultist_counts
    backs = [today.hours_back] if hours_back is None else hours_back
    found = [today]
    for cultists in counts:
        for back in backs:
            for offset in sorted(hour_offsets, key=abs):
                hour = today.start_hour + offset
                candidate = Setting(num_players, cultists, hour, back)
                legal = 0 <= hour < MIDNIGHT and 1 <= cultists <= num_players // 2 and 0 <= back <= MIDNIGHT
                if legal and candidate not in found:
                    found.append(candidate)
    return found


@dataclass(frozen=True)
class Band:
    """An inclusive range of the investigators' win rate, as fractions."""

    low: float
    high: float

    def __post_init__(self):
        if not 0.0 <= self.low <= self.high <= 1.0:
            raise ValueError(f"a win-rate band needs 0 <= low <= high <= 100%, got {self.low:.0%} to {self.high:.0%}")

    @property
    def centre(self) -> float:
        return (self.low + self.high) / 2

    def distance(self, rate: float) -> float:
        """How far outside the band a rate lies (0 inside it)."""
        return max(self.low - rate, 0.0, rate - self.high)


@dataclass
class Measured:
    """A candidate and the match results of the target and (optionally) the reference line-up."""

    setting: Setting
    target: MatchResult
    reference: MatchResult | None = None


@dataclass(frozen=True)
class Pick:
    chosen: Measured
    qualifies: bool  # False: no candidate met both bands, `chosen` is the nearest


def pick(candidates: list[Measured], target_band: Band, reference_band: Band) -> Pick:
    """The rule of this module's docstring, for the candidates of one table size."""
    if not candidates:
        raise ValueError("no candidate settings to pick from")
    today = {m.setting.num_players: Setting.default(m.setting.num_players) for m in candidates}

    def misses(m: Measured) -> float:
        reference = 0.0 if m.reference is None else reference_band.distance(m.reference.investigator_win_rate)
        return target_band.distance(m.target.investigator_win_rate) + reference

    def preference(m: Measured) -> tuple:
        now = today[m.setting.num_players]
        hour_moved = abs(m.setting.start_hour - now.start_hour)
        back_moved = abs(m.setting.hours_back - now.hours_back)
        return m.setting.changes, abs(m.target.investigator_win_rate - target_band.centre), hour_moved, back_moved

    qualifying = [m for m in candidates if misses(m) == 0.0]
    if qualifying:
        return Pick(min(qualifying, key=preference), True)
    return Pick(min(candidates, key=lambda m: (misses(m), *preference(m))), False)
