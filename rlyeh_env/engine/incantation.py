"""The incantation pool: putting cards in, and resolving it when the last card lands."""

from __future__ import annotations

import random

from .cards import God, Insanity, Phobia, Role, opposite
from .deck import refill_all
from .sanity import holds, is_mad, lose_sanity, strike_phobia
from .clock import advance_clock, end_game, turn_back_clock
from .state import EndReason, Event, IncantationRecord, PoolCard, State, Winner


_BABBLING = Insanity.BABBLING  # read at every card played: a member lookup on an enum class is slow


def plays_face_up(state: State, seat: int) -> bool:
    """Cards this seat puts into the pool go face up (revealed cultist, mad, or Babbling)."""
    player = state.players[seat]
    return (
        (player.revealed and player.role == Role.CULTIST)
        or is_mad(player)
        or holds(player, _BABBLING)
    )


def put_in_pool(state: State, seat: int, sigil: int, rng: random.Random, how: str) -> None:
    """A card from `seat` enters the pool (by Contribute or Gamble); the last card triggers it."""
    last_card = len(state.pool) == state.config.incantation_size - 1
    face_up = last_card or plays_face_up(state, seat)
    state.pool.append(PoolCard(sigil, seat, face_up))
    state.pool_contributions[seat] += 1
    if face_up:
        state.pool_face_up[seat][sigil] += 1
    state.players[seat].memory.pool_mine[sigil] += 1
    state.events.append(
        Event(how, actor=seat, value=sigil if face_up else -1, target=len(state.pool), hour=state.hour)
    )
    if not face_up:
        state.events.append(Event("my_card", actor=seat, value=sigil, seat=seat, hour=state.hour))
    if len(state.pool) >= state.config.incantation_size:
        resolve(state, rng)


def requirement(state: State, target: int) -> tuple[int, int]:
    """(matches needed, matches cancelled per opposite card) for an incantation on `target`."""
    god = state.gods[target]
    threshold = state.config.incantation_threshold
    cancels = state.config.opposite_cancels
    if god == God.HASTUR:
        threshold = min(threshold + 1, state.config.incantation_size)
    elif god == God.TSATHOGGUA:
        threshold = max(1, threshold - 1)
    elif god == God.NYARLATHOTEP:
        cancels *= 2
    return threshold, cancels


def score(cards: list[int], target: int, cancels: int) -> int:
    return cards[target] - cancels * cards[opposite(target)]


def resolve(state: State, rng: random.Random) -> None:
    """Reveal the pool, activate the target sigil or make its feeders pay, then clear the pool."""
    n = state.num_players
    target = state.target
    cards = [0, 0, 0, 0]
    for card in state.pool:
        cards[card.sigil] += 1
    threshold, cancels = requirement(state, target)
    success = score(cards, target, cancels) >= threshold
    contributors = [s for s in range(n) if state.pool_contributions[s] > 0]
    state.incantations.append(
        IncantationRecord(
            target=target,
            cards=cards,
            success=success,
            contributions=state.pool_contributions,
            face_up=state.pool_face_up,
            investigations=state.pool_investigations,
            swaps=state.pool_swaps,
            hour=state.hour,
            played=[[card.sigil, card.contributor] for card in state.pool],
        )
    )
    for player in state.players:
        memory = player.memory
        memory.past_mine.append(memory.pool_mine)
        memory.pool_mine = [0, 0, 0, 0]
        memory.pool_look = [0, 0, 0, 0]
        memory.pool_look_size = 0
    state.discard.extend(card.sigil for card in state.pool)
    state.pool = []
    state.pool_contributions = [0] * n
    state.pool_face_up = [[0, 0, 0, 0] for _ in range(n)]
    state.pool_investigations = [0] * n
    state.pool_swaps = [0] * n
    state.target = -1
    state.events.append(Event("incantation", value=int(success), target=target, hour=state.hour))

    turn_order = [(state.turn_player + k) % n for k in range(n)]
    if success:
        state.activated[target] = True
        if all(state.activated):
            end_game(state, Winner.INVESTIGATORS, EndReason.FOUR_SIGILS)
            return
        god = state.gods[target]
        if god == God.TSATHOGGUA:
            advance_clock(state, 1)
        elif god == God.CTHUGHA:
            turn_back_clock(state, 1)
        elif god == God.SHUB_NIGGURATH:
            refill_all(state, state.turn_player, rng)
    else:
        loss = state.config.failed_incantation_sanity_loss
        for seat in turn_order:
            if seat in contributors:
                lose_sanity(state, seat, loss, rng, cause="failed_incantation")
        strike_phobia(state, turn_order, Phobia.DESPAIR, rng)
