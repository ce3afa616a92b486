"""The doom clock and the end of the game."""

from __future__ import annotations

from .config import MIDNIGHT
from .state import EndReason, Event, Phase, State, Winner


def advance_clock(state: State, hours: int) -> None:
    """Move the clock forward; reaching midnight ends the game for the cultists at once."""
    state.hour = min(MIDNIGHT, state.hour + hours)
    state.events.append(Event("clock", value=state.hour, hour=state.hour))
    if state.hour >= MIDNIGHT:
        end_game(state, Winner.CULTISTS, EndReason.MIDNIGHT)


def end_game(state: State, winner: Winner, reason: EndReason) -> None:
    if state.winner != Winner.NONE:
        return
    state.winner = winner
    state.end_reason = reason
    state.phase = Phase.GAME_OVER
    state.decider = -1
    state.events.append(Event("game_over", value=int(winner), target=int(reason), hour=state.hour))


def turn_back_clock(state: State, hours: int) -> None:
    """Win back time; the clock never goes below hour 0."""
    state.hour = max(0, state.hour - hours)
    state.events.append(Event("clock", value=state.hour, hour=state.hour))
