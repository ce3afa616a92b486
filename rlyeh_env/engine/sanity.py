"""Sanity, Insanity cards, phobias and madness."""

from __future__ import annotations

import random

from .cards import Insanity, Phobia
from .state import Event, Player, State


def is_mad(player: Player) -> bool:
    """A player at zero sanity is mad: a lasting restriction, never elimination."""
    return player.sanity == 0


def holds(player: Player, card: Insanity) -> bool:
    return card in player.insanity


def draw_insanity(state: State, rng: random.Random) -> int | None:
    if not state.insanity_deck:
        if not state.insanity_discard:
            return None
        state.insanity_deck = state.insanity_discard
        state.insanity_discard = []
        rng.shuffle(state.insanity_deck)
    return state.insanity_deck.pop()


def lose_sanity(state: State, seat: int, amount: int, rng: random.Random, cause: str) -> None:
    """Lose `amount` sanity, drawing one Insanity card per point (even at zero sanity)."""
    player = state.players[seat]
    for _ in range(amount):
        was_sane = player.sanity > 0
        player.sanity = max(0, player.sanity - 1)
        card = draw_insanity(state, rng)
        if card is not None:
            player.insanity.append(card)
        state.events.append(
            Event("sanity_lost", actor=seat, value=-1 if card is None else card, hour=state.hour)
        )
        if was_sane and player.sanity == 0:
            state.events.append(Event("went_mad", actor=seat, hour=state.hour))
    if amount:
        state.events.append(Event("sanity_cause", actor=seat, value=_CAUSES.index(cause), hour=state.hour))


def strike_phobia(state: State, seats, phobia: Phobia, rng: random.Random) -> None:
    """Each of `seats` whose character fears `phobia` loses `phobia_sanity_loss`."""
    for seat in seats:
        if state.players[seat].character == phobia:  # phobia_of(character) == phobia, without a Phobia(...)
            lose_sanity(state, seat, state.config.phobia_sanity_loss, rng, cause="phobia")


def expire_insanity(state: State, seat: int) -> None:
    """End of the holder's turn: the cards held since its start are discarded."""
    player = state.players[seat]
    if not player.expiring:  # most turns: nothing was held when the turn began
        return
    expired, player.insanity = player.insanity[: player.expiring], player.insanity[player.expiring :]
    state.insanity_discard.extend(expired)
    player.expiring = 0
    if expired:  # public, like the held cards themselves
        state.events.append(Event("insanity_expired", actor=seat, value=len(expired), hour=state.hour))


_CAUSES = ("investigate", "failed_incantation", "phobia", "necronomicon", "ouija", "curse")
CAUSES = _CAUSES
