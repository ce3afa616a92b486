"""Scripting a game state for scenario tests: hands and pools built from cards taken out of the
deck, so every card stays conserved. Shared by tests/engine and tests/env."""

from __future__ import annotations

from rlyeh_env.engine.state import PoolCard


def take_from_deck(state, sigil: int) -> None:
    """Remove one card of `sigil` from the deck, falling back to the discard pile."""
    for zone in (state.deck, state.discard):
        if sigil in zone:
            # remove the copy nearest the bottom so stacked tops stay in place
            zone.pop(zone.index(sigil))
            return
    raise AssertionError(f"no {sigil} card left in deck or discard to script the state with")


def set_hand(state, seat: int, hand) -> None:
    """Give `seat` exactly `hand` (counts per sigil); old cards go back into the deck."""
    player = state.players[seat]
    for sigil in range(4):
        state.deck[:0] = [sigil] * player.hand[sigil]
    player.hand = [0, 0, 0, 0]
    for sigil in range(4):
        for _ in range(hand[sigil]):
            take_from_deck(state, sigil)
    player.hand = list(hand)


def set_pool(state, cards) -> None:
    """Replace the pool by `cards`: (sigil, contributor[, face_up]) tuples, taken from the deck.

    The per-seat pool bookkeeping (contributions, face-up counts, memory) is set to match.
    """
    for card in state.pool:
        state.deck.insert(0, card.sigil)
    n = state.num_players
    state.pool = []
    state.pool_contributions = [0] * n
    state.pool_face_up = [[0, 0, 0, 0] for _ in range(n)]
    state.pool_investigations = [0] * n
    state.pool_swaps = [0] * n
    for p in state.players:
        p.memory.pool_mine = [0, 0, 0, 0]
    for entry in cards:
        sigil, seat = entry[0], entry[1]
        face_up = entry[2] if len(entry) > 2 else False
        take_from_deck(state, sigil)
        state.pool.append(PoolCard(sigil, seat, face_up))
        state.pool_contributions[seat] += 1
        if face_up:
            state.pool_face_up[seat][sigil] += 1
        state.players[seat].memory.pool_mine[sigil] += 1
