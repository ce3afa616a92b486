"""Drawing Mythos cards (with the reshuffle rule) and refilling hands."""

from __future__ import annotations

import random

from .state import Event, State


def draw_mythos(state: State, rng: random.Random) -> int | None:
    """Top card of the Mythos deck, reshuffling the discard pile into it when it runs out.

    Returns None only when deck and discard pile are both empty (every card is in hands or in
    the pool). Almanac knowledge of the deck top is kept in step with every draw.
    """
    if not state.deck:
        if not state.discard:
            return None
        state.deck = state.discard
        state.discard = []
        rng.shuffle(state.deck)
        for player in state.players:
            player.memory.deck_top.clear()
        state.events.append(Event("reshuffle", value=len(state.deck), hour=state.hour))
    for player in state.players:
        if player.memory.deck_top:
            player.memory.deck_top.pop(0)
    return state.deck.pop()


def refill_hand(state: State, seat: int, rng: random.Random) -> int:
    """Draw until the hand holds `hand_size` cards (or nothing is left); returns cards drawn."""
    player = state.players[seat]
    drawn = 0
    while player.hand_count < state.config.hand_size:
        card = draw_mythos(state, rng)
        if card is None:
            break
        player.hand[card] += 1
        drawn += 1
        state.events.append(Event("drew", actor=seat, value=card, seat=seat, hour=state.hour))
    if drawn:
        state.events.append(Event("refilled", actor=seat, value=drawn, hour=state.hour))
    return drawn


def refill_all(state: State, first: int, rng: random.Random) -> None:
    """Refill every hand, clockwise from seat `first`."""
    n = state.num_players
    for offset in range(n):
        refill_hand(state, (first + offset) % n, rng)


def cards_available(state: State) -> int:
    return len(state.deck) + len(state.discard)
