"""The legal actions of whoever must decide now. The env's action mask is exactly this set."""

from __future__ import annotations

from . import actions as A
from .cards import Insanity, Role
from .deck import cards_available
from .equipment import compass_targets, player_targets, usable
from .sanity import holds, is_mad
from .state import Phase, State

# Enum members used on every call, looked up once: reading a member off its class is slow.
_CULTIST = Role.CULTIST
_PARALYSIS, _HOARDING, _CATATONIA = Insanity.PARALYSIS, Insanity.HOARDING, Insanity.CATATONIA
_GAMBLING_FEVER = Insanity.GAMBLING_FEVER


def legal_actions(state: State) -> list[int]:
    """Sorted legal action ids for `state.decider` (empty once the game is over)."""
    actions_of = _BY_PHASE.get(state.phase)
    if actions_of is None:
        raise AssertionError(f"unknown phase {state.phase!r}")
    return actions_of(state, state.decider)


def can_investigate(state: State, seat: int) -> bool:
    player = state.players[seat]
    return (
        len(state.pool) >= 2
        and not (player.revealed and player.role == _CULTIST)
        and not is_mad(player)
        and not holds(player, _PARALYSIS)
    )


def can_propose_necronomicon(state: State, seat: int) -> bool:
    player = state.players[seat]
    return (
        not state.necronomicon_read
        and not player.proposed_necronomicon
        and not (player.revealed and player.role == _CULTIST)
        and not is_mad(player)
        and not holds(player, _CATATONIA)
        and state.hour >= state.config.necronomicon_earliest_hour
        and len(state.necronomicon) > 0
    )


def _main_actions(state: State, seat: int) -> list[int]:
    players = state.players
    player = players[seat]
    held = player.insanity  # (`x in held` is `holds(player, x)`, without a call per check)
    n = len(players)
    revealed_cultist = player.revealed and player.role == _CULTIST
    # R7.14: with the option off, a revealed cultist puts no more cards into the pool.
    feeds_pool = not (revealed_cultist and not state.config.revealed_cultist_contributes)
    can_gamble = feeds_pool and cards_available(state) > 0
    if can_gamble and _GAMBLING_FEVER in held:
        return [A.GAMBLE]
    legal = [A.RESEARCH]
    if _HOARDING not in held and feeds_pool:
        hand = player.hand
        legal += [A.CONTRIBUTE + s for s in range(4) if hand[s]]
    if can_gamble:
        legal.append(A.GAMBLE)
    if can_investigate(state, seat):
        legal.append(A.INVESTIGATE)
    if revealed_cultist:
        legal += [A.CURSE + k - 1 for k in range(1, n)]
    elif _CATATONIA not in held:
        legal += [A.ACCUSE + k - 1 for k in range(1, n) if not players[(seat + k) % n].revealed]
    return legal


def _free_actions(state: State, seat: int) -> list[int]:
    legal = []
    if usable(state, seat):
        legal.append(A.USE_EQUIPMENT)
    if can_propose_necronomicon(state, seat):
        legal.append(A.PROPOSE_NECRONOMICON)
    return legal


# One function per phase: (state, deciding seat) -> sorted legal action ids.


def _turn(state: State, seat: int) -> list[int]:
    return sorted(_main_actions(state, seat) + _free_actions(state, seat))


def _declare_target(state: State, seat: int) -> list[int]:
    return [A.DECLARE + s for s in range(4) if not state.activated[s]]


def _research_discard(state: State, seat: int) -> list[int]:
    return [A.DISCARD + s for s in range(4) if state.players[seat].hand[s]] + [A.STOP_DISCARDING]


def _gamble_play(state: State, seat: int) -> list[int]:
    return sorted({A.GAMBLE_PLAY + s for s in state.pending.gamble_cards})


def _investigate_take(state: State, seat: int) -> list[int]:
    seen = {state.pool[i].sigil for i in state.pending.seen}
    return sorted(A.TAKE + s for s in seen) + [A.NO_SWAP]


def _investigate_give(state: State, seat: int) -> list[int]:
    return [A.GIVE + s for s in range(4) if state.players[seat].hand[s]]


def _vote(state: State, seat: int) -> list[int]:
    return [A.VOTE_NO, A.VOTE_YES]


def _necronomicon_page(state: State, seat: int) -> list[int]:
    return sorted({A.PAGE + p for p in state.pending.pages})


def _equipment_player(state: State, seat: int) -> list[int]:
    n = state.num_players
    return sorted(A.TARGET_PLAYER + (t - seat) % n - 1 for t in player_targets(state, seat))


def _equipment_sigil(state: State, seat: int) -> list[int]:
    return [A.TARGET_SIGIL + s for s in compass_targets(state)]


def _game_over(state: State, seat: int) -> list[int]:
    return []


_BY_PHASE = {
    Phase.TURN: _turn,
    Phase.DECLARE_TARGET: _declare_target,
    Phase.RESEARCH_DISCARD: _research_discard,
    Phase.GAMBLE_PLAY: _gamble_play,
    Phase.INVESTIGATE_TAKE: _investigate_take,
    Phase.INVESTIGATE_GIVE: _investigate_give,
    Phase.VOTE: _vote,
    Phase.NECRONOMICON_PAGE: _necronomicon_page,
    Phase.EQUIPMENT_PLAYER: _equipment_player,
    Phase.EQUIPMENT_SIGIL: _equipment_sigil,
    Phase.GAME_OVER: _game_over,
}
