"""The legal actions of whoever must decide now. The env's action mask is exactly this set."""

from __future__ import annotations

from . import actions as A
from .cards import Insanity, Role
from .deck import cards_available
from .equipment import compass_targets, player_targets, usable
from .sanity import holds, is_mad
from .state import Phase, State


def legal_actions(state: State) -> list[int]:
    """Sorted legal action ids for `state.decider` (empty once the game is over)."""
    phase = state.phase
    if phase == Phase.GAME_OVER:
        return []
    seat = state.decider
    player = state.players[seat]
    if phase == Phase.TURN:
        return sorted(_main_actions(state, seat) + _free_actions(state, seat))
    if phase == Phase.DECLARE_TARGET:
        return [A.DECLARE + s for s in range(4) if not state.activated[s]]
    if phase == Phase.RESEARCH_DISCARD:
        return [A.DISCARD + s for s in range(4) if player.hand[s]] + [A.STOP_DISCARDING]
    if phase == Phase.GAMBLE_PLAY:
        return sorted({A.GAMBLE_PLAY + s for s in state.pending.gamble_cards})
    if phase == Phase.INVESTIGATE_TAKE:
        seen = {state.pool[i].sigil for i in state.pending.seen}
        return sorted(A.TAKE + s for s in seen) + [A.NO_SWAP]
    if phase == Phase.INVESTIGATE_GIVE:
        return [A.GIVE + s for s in range(4) if player.hand[s]]
    if phase == Phase.VOTE:
        return [A.VOTE_NO, A.VOTE_YES]
    if phase == Phase.NECRONOMICON_PAGE:
        return sorted({A.PAGE + p for p in state.pending.pages})
    if phase == Phase.EQUIPMENT_PLAYER:
        n = state.num_players
        return sorted(A.TARGET_PLAYER + (t - seat) % n - 1 for t in player_targets(state, seat))
    if phase == Phase.EQUIPMENT_SIGIL:
        return [A.TARGET_SIGIL + s for s in compass_targets(state)]
    raise AssertionError(f"unknown phase {phase!r}")


def can_investigate(state: State, seat: int) -> bool:
    player = state.players[seat]
    return (
        len(state.pool) >= 2
        and not (player.revealed and player.role == Role.CULTIST)
        and not is_mad(player)
        and not holds(player, Insanity.PARALYSIS)
    )


def can_propose_necronomicon(state: State, seat: int) -> bool:
    player = state.players[seat]
    return (
        not state.necronomicon_read
        and not player.proposed_necronomicon
        and not (player.revealed and player.role == Role.CULTIST)
        and not is_mad(player)
        and not holds(player, Insanity.CATATONIA)
        and state.hour >= state.config.necronomicon_earliest_hour
        and len(state.necronomicon) > 0
    )


def _main_actions(state: State, seat: int) -> list[int]:
    player = state.players[seat]
    n = state.num_players
    can_gamble = cards_available(state) > 0
    if can_gamble and holds(player, Insanity.GAMBLING_FEVER):
        return [A.GAMBLE]
    legal = [A.RESEARCH]
    if not holds(player, Insanity.HOARDING):
        legal += [A.CONTRIBUTE + s for s in range(4) if player.hand[s]]
    if can_gamble:
        legal.append(A.GAMBLE)
    if can_investigate(state, seat):
        legal.append(A.INVESTIGATE)
    if player.revealed and player.role == Role.CULTIST:
        legal += [A.CURSE + k - 1 for k in range(1, n)]
    elif not holds(player, Insanity.CATATONIA):
        legal += [A.ACCUSE + k - 1 for k in range(1, n) if not state.players[(seat + k) % n].revealed]
    return legal


def _free_actions(state: State, seat: int) -> list[int]:
    legal = []
    if usable(state, seat):
        legal.append(A.USE_EQUIPMENT)
    if can_propose_necronomicon(state, seat):
        legal.append(A.PROPOSE_NECRONOMICON)
    return legal
