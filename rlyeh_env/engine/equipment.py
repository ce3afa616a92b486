"""Equipment: when each item may be used, and what it does.

Every item is used once per game, as a free action during its owner's turn (before the main
action); it never replaces one of the five actions. Items that name a player or a sigil take a
second decision step (phase EQUIPMENT_PLAYER or EQUIPMENT_SIGIL).
"""

from __future__ import annotations

import random

from .cards import Equipment, Phobia
from .deck import refill_hand
from .sanity import lose_sanity, strike_phobia
from .state import Event, State

ALMANAC_CARDS = 3
LANTERN_CARDS = 2

# Read at every turn (`usable`), looked up once: reading a member off an enum class is slow.
_LANTERN, _RITUAL_KNIFE, _COMPASS = Equipment.LANTERN, Equipment.RITUAL_KNIFE, Equipment.COMPASS
_ALMANAC, _OUIJA_BOARD = Equipment.ALMANAC, Equipment.OUIJA_BOARD


def _face_down(state: State) -> list[int]:
    return [i for i, card in enumerate(state.pool) if not card.face_up]


def usable(state: State, seat: int) -> bool:
    """Whether `seat` may use its equipment now (it is its turn, before its main action)."""
    player = state.players[seat]
    if player.equipment_used:
        return False
    item = player.equipment
    if item in (_LANTERN, _RITUAL_KNIFE):
        return bool(_face_down(state))
    if item == _COMPASS:
        return state.target >= 0 and bool(compass_targets(state))
    if item == _ALMANAC:
        return bool(state.deck)
    if item == _OUIJA_BOARD:
        return bool(player_targets(state, seat))
    return True  # Pistol, Spyglass, Amulet


def compass_targets(state: State) -> list[int]:
    return [s for s in range(4) if not state.activated[s] and s != state.target]


def player_targets(state: State, seat: int) -> list[int]:
    """Seats the owner's targeted item may name (the Ouija board skips roles already known)."""
    player = state.players[seat]
    others = [(seat + k) % state.num_players for k in range(1, state.num_players)]
    if player.equipment == Equipment.OUIJA_BOARD:
        return [s for s in others if player.memory.known_roles[s] < 0]
    return others


def use(state: State, seat: int, rng: random.Random) -> None:
    """Use the item; items needing a target leave the phase change to the caller."""
    player = state.players[seat]
    item = player.equipment
    player.equipment_used = True
    state.events.append(Event("equipment", actor=seat, value=int(item), hour=state.hour))
    memory = player.memory
    if item == Equipment.LANTERN:
        seen = rng.sample(_face_down(state), min(LANTERN_CARDS, len(_face_down(state))))
        memory.pool_look = [0, 0, 0, 0]
        for i in seen:
            memory.pool_look[state.pool[i].sigil] += 1
            state.events.append(Event("saw_pool", actor=seat, value=state.pool[i].sigil, seat=seat, hour=state.hour))
        memory.pool_look_size = len(state.pool)
    elif item == Equipment.RITUAL_KNIFE:
        card = state.pool.pop(rng.choice(_face_down(state)))
        state.discard.append(card.sigil)
        state.events.append(Event("knifed", actor=seat, target=len(state.pool), hour=state.hour))
    elif item == Equipment.AMULET:
        player.sanity = min(state.config.start_sanity, player.sanity + 1)
        state.insanity_discard.extend(player.insanity)
        player.insanity = []
        player.expiring = 0
        state.events.append(Event("healed", actor=seat, value=player.sanity, hour=state.hour))
    elif item == Equipment.ALMANAC:
        memory.deck_top = state.deck[::-1][:ALMANAC_CARDS]
        for card in memory.deck_top:
            state.events.append(Event("saw_deck", actor=seat, value=card, seat=seat, hour=state.hour))


def use_on_player(state: State, seat: int, target: int, rng: random.Random) -> None:
    player = state.players[seat]
    item = player.equipment
    victim = state.players[target]
    if item == Equipment.PISTOL:
        for sigil in range(4):
            state.discard.extend([sigil] * victim.hand[sigil])
        victim.hand = [0, 0, 0, 0]
        state.events.append(Event("shot", actor=seat, target=target, hour=state.hour))
        refill_hand(state, target, rng)
    elif item == Equipment.SPYGLASS:
        player.memory.seen_hands[target] = list(victim.hand)
        state.events.append(Event("spied", actor=seat, target=target, hour=state.hour))
        for sigil in range(4):
            for _ in range(victim.hand[sigil]):
                state.events.append(Event("saw_hand", actor=seat, target=target, value=sigil, seat=seat, hour=state.hour))
    elif item == Equipment.OUIJA_BOARD:
        player.memory.known_roles[target] = victim.role
        state.events.append(Event("ouija", actor=seat, target=target, hour=state.hour))
        state.events.append(Event("saw_role", actor=seat, target=target, value=victim.role, seat=seat, hour=state.hour))
        lose_sanity(state, seat, state.config.ouija_sanity_loss, rng, cause="ouija")
    strike_phobia(state, [target], Phobia.EXPOSURE, rng)


def use_on_sigil(state: State, seat: int, sigil: int) -> None:
    state.target = sigil
    state.events.append(Event("compass", actor=seat, value=sigil, hour=state.hour))
