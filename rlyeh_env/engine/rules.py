"""Setting up a game and applying one action: the transition function of the engine.

`new_game(config, rng)` deals a game; `apply_action(state, action, rng)` advances it by exactly
one decision. All randomness comes from the `random.Random` the caller hands in.

The file is a little over 400 lines on purpose: it is the one transition function, the dispatch
table with one short handler per action block beside it, so any action can be followed from the
id to every state change in one place (the rules they call live in their own modules).
"""

from __future__ import annotations

import numbers
import operator
import random

from . import actions as A
from .cards import (
    EQUIPMENT_TARGETS_PLAYER,
    EQUIPMENT_TARGETS_SIGIL,
    EXTRA_GODS,
    NUM_CHARACTERS,
    NUM_EQUIPMENT,
    NUM_INSANITY,
    Page,
    Phobia,
    Role,
    VoteKind,
)
from .clock import advance_clock, end_game, turn_back_clock
from .config import GameConfig
from .deck import draw_mythos, refill_all, refill_hand
from .equipment import use, use_on_player, use_on_sigil
from .incantation import plays_face_up, put_in_pool
from .legal import legal_actions
from .sanity import expire_insanity, lose_sanity, strike_phobia
from .state import (
    EndReason,
    Event,
    Memory,
    NecronomiconRecord,
    Pending,
    Phase,
    Player,
    PoolCard,
    State,
    VoteRecord,
    Winner,
)
from .votes import cast_vote, start_vote


_TURN = Phase.TURN  # set at every turn: reading a member off an enum class is slow


class IllegalActionError(ValueError):
    """An action that is not legal now; the message lists the legal ones."""


def new_game(config: GameConfig, rng: random.Random) -> State:
    n = config.num_players
    if config.hidden_cultist_count:
        lo, hi = config.hidden_range()
        num_cultists = rng.randint(lo, hi)
    else:
        num_cultists = config.cultists
    cultists = set(rng.sample(range(n), num_cultists))
    characters = rng.sample(range(NUM_CHARACTERS), n)
    equipment = rng.sample(range(NUM_EQUIPMENT), n)
    gods = rng.sample(EXTRA_GODS, 4) if config.extra_gods else [0, 1, 2, 3]
    deck = [s for s in range(4) for _ in range(config.cards_per_sigil)]
    rng.shuffle(deck)
    insanity_deck = [c for c in range(NUM_INSANITY) for _ in range(config.insanity_copies)]
    rng.shuffle(insanity_deck)
    necronomicon = [p for p, copies in enumerate(config.necronomicon_pages) for _ in range(copies)]
    rng.shuffle(necronomicon)
    watch = rng.randrange(n)
    players = []
    for seat in range(n):
        role = Role.CULTIST if seat in cultists else Role.INVESTIGATOR
        memory = Memory(known_roles=[-1] * n, seen_hands=[None] * n)
        memory.known_roles[seat] = int(role)
        players.append(
            Player(int(role), characters[seat], equipment[seat], [0, 0, 0, 0], config.start_sanity, memory=memory)
        )
    state = State(
        config=config,
        num_cultists=num_cultists,
        players=players,
        hour=config.first_hour,
        round=0,
        watch=watch,
        round_order=[(watch + k) % n for k in range(n)],
        turn_index=0,
        phase=Phase.DECLARE_TARGET,
        decider=watch,
        main_action_done=False,
        target=-1,
        activated=[False] * 4,
        gods=[int(g) for g in gods],
        deck=deck,
        discard=[],
        pool=[],
        pool_contributions=[0] * n,
        pool_face_up=[[0, 0, 0, 0] for _ in range(n)],
        pool_investigations=[0] * n,
        pool_swaps=[0] * n,
        insanity_deck=insanity_deck,
        insanity_discard=[],
        necronomicon=necronomicon,
        necronomicon_read=False,
        pending=Pending(),
    )
    refill_all(state, watch, rng)
    state.events.append(Event("round", actor=watch, value=0, hour=state.hour))
    return state


def apply_action(state: State, action: int, rng: random.Random, legal: list[int] | None = None) -> None:
    """Apply the deciding seat's `action`; raises IllegalActionError naming the legal ones.

    `legal` may pass in `legal_actions(state)` when the caller has already computed it.
    """
    if legal is None:
        legal = legal_actions(state)
    if type(action) is int and action in legal:  # the common case, checked first
        as_int = action
    else:
        try:
            as_int = operator.index(action)  # ints and numpy ints; not floats or strings
        except TypeError:
            as_int = None
        if as_int is None or isinstance(action, bool) or as_int not in legal:
            raise IllegalActionError(_illegal_message(state, action, legal))
    handler, index = _DISPATCH[as_int]
    seat = state.decider
    state.steps += 1
    handler(state, seat, index, rng)


def _illegal_message(state: State, action, legal: list[int]) -> str:
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        action = int(action)  # numpy integers print as plain ids
    if state.phase == Phase.GAME_OVER:
        return f"the game is over; no action is legal (got {action!r})"
    what = "not an action id"
    if type(action) is int:  # numpy integers were made plain ints above; floats, strings, bools never
        try:
            what = A.describe(action, actor=state.decider)
        except (ValueError, TypeError):
            pass
    choices = "; ".join(f"{a} = {A.describe(a, actor=state.decider)}" for a in legal)
    return (
        f"action {action!r} ({what}) is not legal for seat {state.decider} in phase "
        f"{Phase(state.phase).name}; legal actions: {choices}"
    )


# --- turn flow -------------------------------------------------------------------------------


def _begin_turn(state: State) -> None:
    seat = state.turn_player
    state.players[seat].expiring = len(state.players[seat].insanity)
    state.phase = _TURN
    state.decider = seat
    state.main_action_done = False


def _back_to_turn(state: State) -> None:
    """After a free action: the turn player still owes the main action."""
    if not state.game_over:
        state.phase = Phase.TURN
        state.decider = state.turn_player


def _after_main(state: State, rng: random.Random) -> None:
    """The main action is complete: declare a new target if one is needed, else end the turn."""
    if state.game_over:
        return
    if state.target < 0:
        state.phase = Phase.DECLARE_TARGET
        state.decider = state.watch
        return
    _end_turn(state, rng)


def _end_turn(state: State, rng: random.Random) -> None:
    expire_insanity(state, state.turn_player)
    n = state.num_players
    if state.turn_index + 1 < n:
        state.turn_index += 1
    else:
        advance_clock(state, 1)
        if state.game_over:
            return  # turn_index still names the last turn played
        state.round += 1
        state.watch = (state.watch + 1) % n  # the pocket watch passes clockwise every round
        state.round_order = [(state.watch + k) % n for k in range(n)]
        state.turn_index = 0
        state.events.append(Event("round", actor=state.watch, value=state.round, hour=state.hour))
    _begin_turn(state)


# --- handlers, one per action block ------------------------------------------------------------


def _declare(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    state.target = sigil
    state.events.append(Event("declared", actor=seat, value=sigil, hour=state.hour))
    if state.main_action_done:
        _end_turn(state, rng)
    else:
        _begin_turn(state)


def _contribute(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    state.main_action_done = True
    state.players[seat].hand[sigil] -= 1
    put_in_pool(state, seat, sigil, rng, how="contributed")
    _after_main(state, rng)


def _research(state: State, seat: int, _: int, rng: random.Random) -> None:
    state.main_action_done = True
    state.pending.discarded = 0
    if state.players[seat].hand_count == 0:
        _finish_research(state, seat, rng)
    else:
        state.phase = Phase.RESEARCH_DISCARD


def _discard(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    player = state.players[seat]
    player.hand[sigil] -= 1
    state.discard.append(sigil)
    state.pending.discarded += 1
    # public: that a card was discarded (the hand size shows it), not which one
    state.events.append(Event("research_discard", actor=seat, hour=state.hour))
    if state.pending.discarded >= state.config.hand_size or player.hand_count == 0:
        _finish_research(state, seat, rng)


def _stop_discarding(state: State, seat: int, _: int, rng: random.Random) -> None:
    _finish_research(state, seat, rng)


def _finish_research(state: State, seat: int, rng: random.Random) -> None:
    state.events.append(Event("researched", actor=seat, value=state.pending.discarded, hour=state.hour))
    refill_hand(state, seat, rng)
    strike_phobia(state, [seat], Phobia.TOMES, rng)
    _after_main(state, rng)


def _gamble(state: State, seat: int, _: int, rng: random.Random) -> None:
    state.main_action_done = True
    cards = []
    for _ in range(2):
        card = draw_mythos(state, rng)
        if card is not None:
            cards.append(card)
            state.events.append(Event("gamble_drew", actor=seat, value=card, seat=seat, hour=state.hour))
    state.pending.gamble_cards = cards
    state.events.append(Event("gambled", actor=seat, value=len(cards), hour=state.hour))
    state.phase = Phase.GAMBLE_PLAY


def _gamble_play(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    cards = state.pending.gamble_cards
    cards.remove(sigil)
    state.discard.extend(cards)
    state.pending.gamble_cards = []
    strike_phobia(state, [seat], Phobia.CHANCE, rng)
    put_in_pool(state, seat, sigil, rng, how="gamble_played")
    _after_main(state, rng)


def _investigate(state: State, seat: int, _: int, rng: random.Random) -> None:
    state.main_action_done = True
    player = state.players[seat]
    state.pool_investigations[seat] += 1
    state.events.append(Event("investigated", actor=seat, value=len(state.pool), hour=state.hour))
    lose_sanity(state, seat, state.config.investigate_sanity_loss, rng, cause="investigate")
    rng.shuffle(state.pool)
    seen = list(range(len(state.pool) - 1))  # the last card after the shuffle stays unseen
    memory = player.memory
    memory.pool_look = [0, 0, 0, 0]
    for i in seen:
        memory.pool_look[state.pool[i].sigil] += 1
        state.events.append(Event("saw_pool", actor=seat, value=state.pool[i].sigil, seat=seat, hour=state.hour))
    memory.pool_look_size = len(state.pool)
    state.pending.seen = seen
    if player.hand_count == 0:
        _finish_investigation(state, seat, swapped=False, rng=rng)
    else:
        state.phase = Phase.INVESTIGATE_TAKE


def _take(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    # Cards of one sigil score alike; a face-down one is taken before a face-up one.
    matching = [i for i in state.pending.seen if state.pool[i].sigil == sigil]
    state.pending.taken = min(matching, key=lambda i: state.pool[i].face_up)
    state.phase = Phase.INVESTIGATE_GIVE


def _no_swap(state: State, seat: int, _: int, rng: random.Random) -> None:
    _finish_investigation(state, seat, swapped=False, rng=rng)


def _give(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    player = state.players[seat]
    index = state.pending.taken
    taken = state.pool[index].sigil
    player.hand[taken] += 1
    player.hand[sigil] -= 1
    face_up = plays_face_up(state, seat)
    state.pool[index] = PoolCard(sigil, seat, face_up)
    if face_up:
        state.pool_face_up[seat][sigil] += 1
    state.pool_swaps[seat] += 1
    player.memory.pool_mine[sigil] += 1
    player.memory.pool_look[taken] -= 1
    player.memory.pool_look[sigil] += 1
    state.events.append(Event("swap_detail", actor=seat, target=taken, value=sigil, seat=seat, hour=state.hour))
    _finish_investigation(state, seat, swapped=True, rng=rng)


def _finish_investigation(state: State, seat: int, swapped: bool, rng: random.Random) -> None:
    state.pending.seen = []
    state.pending.taken = -1
    state.events.append(Event("swapped", actor=seat, value=int(swapped), hour=state.hour))
    _after_main(state, rng)


def _accuse(state: State, seat: int, index: int, rng: random.Random) -> None:
    state.main_action_done = True
    accused = (seat + index + 1) % state.num_players
    if start_vote(state, VoteKind.ACCUSATION, seat, accused, rng) is not None:
        _after_main(state, rng)


def _curse(state: State, seat: int, index: int, rng: random.Random) -> None:
    state.main_action_done = True
    victim = (seat + index + 1) % state.num_players
    state.events.append(Event("cursed", actor=seat, target=victim, hour=state.hour))
    lose_sanity(state, victim, state.config.curse_sanity_loss, rng, cause="curse")
    strike_phobia(state, [victim], Phobia.EXPOSURE, rng)
    _after_main(state, rng)


def _vote(state: State, seat: int, yes: bool, rng: random.Random) -> None:
    record = cast_vote(state, yes, rng)
    if record is not None:
        _vote_finished(state, record, rng)


def _vote_finished(state: State, record: VoteRecord, rng: random.Random) -> None:
    if record.kind == VoteKind.ACCUSATION:
        _after_main(state, rng)
    elif record.passed:
        _open_necronomicon(state, record.proposer, rng)
    else:
        _back_to_turn(state)


def _propose(state: State, seat: int, _: int, rng: random.Random) -> None:
    state.players[seat].proposed_necronomicon = True
    record = start_vote(state, VoteKind.NECRONOMICON, seat, -1, rng)
    if record is not None:
        _vote_finished(state, record, rng)


def _open_necronomicon(state: State, reader: int, rng: random.Random) -> None:
    state.necronomicon_read = True
    lose_sanity(state, reader, state.config.necronomicon_sanity_loss, rng, cause="necronomicon")
    offer = min(state.config.necronomicon_offer, len(state.necronomicon))
    state.pending.pages = [state.necronomicon.pop() for _ in range(offer)]
    for page in state.pending.pages:
        state.events.append(Event("page_offered", actor=reader, value=page, seat=reader, hour=state.hour))
    state.phase = Phase.NECRONOMICON_PAGE
    state.decider = reader


def _page(state: State, seat: int, page: int, rng: random.Random) -> None:
    state.pending.pages = []
    state.readings.append(NecronomiconRecord(seat, page, state.hour))
    state.events.append(Event("page_enacted", actor=seat, value=page, hour=state.hour))
    if page == Page.DOOM:
        end_game(state, Winner.CULTISTS, EndReason.NECRONOMICON)
        return
    if page == Page.TURN_BACK_TIME:
        turn_back_clock(state, state.config.necronomicon_hours_back)
    elif page == Page.FORBIDDEN_LORE:
        refill_all(state, seat, rng)
        turn_back_clock(state, 1)
    _back_to_turn(state)


def _use_equipment(state: State, seat: int, _: int, rng: random.Random) -> None:
    use(state, seat, rng)
    item = state.players[seat].equipment
    if item in EQUIPMENT_TARGETS_PLAYER:
        state.phase = Phase.EQUIPMENT_PLAYER
    elif item in EQUIPMENT_TARGETS_SIGIL:
        state.phase = Phase.EQUIPMENT_SIGIL
    else:
        _back_to_turn(state)


def _target_player(state: State, seat: int, index: int, rng: random.Random) -> None:
    use_on_player(state, seat, (seat + index + 1) % state.num_players, rng)
    _back_to_turn(state)


def _target_sigil(state: State, seat: int, sigil: int, rng: random.Random) -> None:
    use_on_sigil(state, seat, sigil)
    _back_to_turn(state)


_HANDLERS = {
    "contribute": _contribute,
    "research": _research,
    "gamble": _gamble,
    "investigate": _investigate,
    "accuse": _accuse,
    "curse": _curse,
    "use_equipment": _use_equipment,
    "propose_necronomicon": _propose,
    "declare": _declare,
    "discard": _discard,
    "stop_discarding": _stop_discarding,
    "gamble_play": _gamble_play,
    "take": _take,
    "no_swap": _no_swap,
    "give": _give,
    "vote_no": lambda s, seat, _, rng: _vote(s, seat, False, rng),
    "vote_yes": lambda s, seat, _, rng: _vote(s, seat, True, rng),
    "page": _page,
    "target_player": _target_player,
    "target_sigil": _target_sigil,
}
# action id -> (handler, index within its block): `A.decode` and `_HANDLERS` in one look-up.
_DISPATCH = {}
for _action in range(A.NUM_ACTIONS):
    _name, _index = A.decode(_action)
    _DISPATCH[_action] = (_HANDLERS[_name], _index)
