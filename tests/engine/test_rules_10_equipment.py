"""Section 10: equipment — eight once-per-game free actions."""

from __future__ import annotations

import pytest

from rlyeh_env.engine import Phase, Role
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import Character, Equipment, Insanity


def _owner(eng, item, seat=1, seed=1, **cfg):
    """Seat `seat` holds `item` (unused) at the start of its turn; no phobia strikes."""
    cfg.setdefault("phobia_sanity_loss", 0)
    state, rng = eng.make(seed=seed, num_players=5, **cfg)
    eng.turn(state, seat, watch=0, target=0)
    for p in state.players:
        p.equipment_used = True
    state.players[seat].equipment = item
    state.players[seat].equipment_used = False
    state.hour = 3
    return state, rng


def _after_use_turn_continues(eng, state, seat):
    assert state.phase == Phase.TURN and state.decider == seat and not state.main_action_done
    legal = eng.legal(state)
    assert A.USE_EQUIPMENT not in legal and A.RESEARCH in legal


@pytest.mark.parametrize("item", list(Equipment))
def test_r10_each_item_once_per_game_then_main_action_still_owed(eng, item):
    """R10.1."""
    state, rng = _owner(eng, item)
    eng.set_pool(state, [(0, 2), (1, 3), (2, 4)])
    assert A.USE_EQUIPMENT in eng.legal(state)
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.players[1].equipment_used
    assert any(e.kind == "equipment" and e.actor == 1 and e.value == item and e.seat == -1 for e in state.events)
    if state.phase == Phase.EQUIPMENT_PLAYER:
        eng.step(state, rng, eng.legal(state)[0])
    elif state.phase == Phase.EQUIPMENT_SIGIL:
        eng.step(state, rng, eng.legal(state)[0])
    _after_use_turn_continues(eng, state, 1)
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    eng.turn(state, 1, watch=0)  # a later turn: the item is spent
    assert A.USE_EQUIPMENT not in eng.legal(state)


def test_r10_only_on_own_turn_before_main_action(eng):
    """R10.1."""
    state, rng = _owner(eng, Equipment.AMULET, seat=2)
    eng.turn(state, 1, watch=0)
    assert A.USE_EQUIPMENT not in eng.legal(state)  # seat 1's turn, seat 2's item
    eng.step(state, rng, A.RESEARCH)
    assert state.phase == Phase.RESEARCH_DISCARD and A.USE_EQUIPMENT not in eng.legal(state)
    eng.step(state, rng, A.STOP_DISCARDING)
    assert state.decider == 2 and A.USE_EQUIPMENT in eng.legal(state)


def test_r10_lantern_sees_two_face_down_cards(eng):
    """R10.2."""
    state, rng = _owner(eng, Equipment.LANTERN)
    eng.set_pool(state, [(0, 2, True), (3, 3), (3, 4), (2, 0, True)])
    eng.step(state, rng, A.USE_EQUIPMENT)
    mem = state.players[1].memory
    assert mem.pool_look == [0, 0, 0, 2] and mem.pool_look_size == 4
    seen = [e for e in state.events if e.kind == "saw_pool"]
    assert [e.value for e in seen] == [3, 3] and all(e.seat == 1 for e in seen)
    assert len(state.pool) == 4
    _after_use_turn_continues(eng, state, 1)


def test_r10_lantern_fewer_if_fewer_and_needs_a_face_down_card(eng):
    """R10.2."""
    state, rng = _owner(eng, Equipment.LANTERN)
    assert A.USE_EQUIPMENT not in eng.legal(state)  # empty pool
    eng.set_pool(state, [(0, 2, True), (1, 3, True)])
    assert A.USE_EQUIPMENT not in eng.legal(state)  # only face-up cards
    eng.set_pool(state, [(0, 2, True), (1, 3)])
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.players[1].memory.pool_look == [0, 1, 0, 0]


def test_r10_ritual_knife_discards_a_face_down_card(eng):
    """R10.2, R10.4, R3.7."""
    state, rng = _owner(eng, Equipment.RITUAL_KNIFE)
    assert A.USE_EQUIPMENT not in eng.legal(state)
    eng.set_pool(state, [(0, 2, True), (3, 3), (1, 0, True)])
    discard = len(state.discard)
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert [(c.sigil, c.face_up) for c in state.pool] == [(0, True), (1, True)]
    assert state.discard[discard:] == [3]
    # the knifed card still counts as seat 3's contribution (R10.4)
    assert state.pool_contributions[3] == 1
    assert any(e.kind == "knifed" and e.target == 2 and e.seat == -1 for e in state.events)
    assert eng.mythos_total(state) == [12] * 4
    _after_use_turn_continues(eng, state, 1)


def test_r10_knifed_contributor_still_pays_and_pool_needs_one_more(eng):
    """R10.4, R5.7, R5.8."""
    state, rng = _owner(eng, Equipment.RITUAL_KNIFE, failed_incantation_sanity_loss=1)
    eng.stack_insanity(state, [Insanity.HOARDING] * 3)
    eng.set_pool(state, [(1, 4)] + [(1, 2, True)] * 5)
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert len(state.pool) == 5 and state.pool_contributions[4] == 1
    eng.set_hand(state, 1, [0, 1, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    assert len(state.pool) == 6 and not state.incantations  # not complete yet
    eng.set_hand(state, 2, [0, 1, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    record = state.incantations[-1]
    assert not record.success and record.contributions == [0, 1, 6, 0, 1]
    assert [p.sanity for p in state.players] == [5, 4, 4, 5, 4]


def test_r10_compass_changes_target_pool_stays(eng):
    """R10.2, R4.4."""
    state, rng = _owner(eng, Equipment.COMPASS)
    state.activated = [False, False, True, False]
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.phase == Phase.EQUIPMENT_SIGIL and state.decider == 1
    assert eng.legal(state) == [A.TARGET_SIGIL + 1, A.TARGET_SIGIL + 3]
    eng.step(state, rng, A.TARGET_SIGIL + 3)
    assert state.target == 3 and len(state.pool) == 2
    assert any(e.kind == "compass" and e.value == 3 for e in state.events)
    _after_use_turn_continues(eng, state, 1)


def test_r10_compass_needs_another_unactivated_sigil(eng):
    """R10.2."""
    state, rng = _owner(eng, Equipment.COMPASS)
    state.activated = [False, True, True, True]
    assert A.USE_EQUIPMENT not in eng.legal(state)


def test_r10_pistol_victim_discards_hand_and_draws_new(eng):
    """R10.2, R3.5."""
    state, rng = _owner(eng, Equipment.PISTOL)
    eng.set_hand(state, 3, [2, 0, 0, 1])
    eng.stack_deck(state, [1, 2, 2])
    discard = len(state.discard)
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.phase == Phase.EQUIPMENT_PLAYER and state.decider == 1
    assert eng.legal(state) == [A.TARGET_PLAYER + k for k in range(4)]
    eng.step(state, rng, eng.aim(state, 1, 3))
    assert state.players[3].hand == [0, 1, 2, 0]
    assert sorted(state.discard[discard:]) == [0, 0, 3]
    assert any(e.kind == "shot" and e.actor == 1 and e.target == 3 for e in state.events)
    _after_use_turn_continues(eng, state, 1)


def test_r10_spyglass_sees_a_hand_privately(eng):
    """R10.2, R10.1."""
    state, rng = _owner(eng, Equipment.SPYGLASS)
    eng.set_hand(state, 4, [0, 2, 1, 0])
    eng.step(state, rng, A.USE_EQUIPMENT, eng.aim(state, 1, 4))
    assert state.players[1].memory.seen_hands[4] == [0, 2, 1, 0]
    assert state.players[4].hand == [0, 2, 1, 0]
    saw = [e for e in state.events if e.kind == "saw_hand"]
    assert sorted(e.value for e in saw) == [1, 1, 2] and all(e.seat == 1 for e in saw)
    assert any(e.kind == "spied" and e.target == 4 and e.seat == -1 for e in state.events)
    _after_use_turn_continues(eng, state, 1)


def test_r10_amulet_heals_one_and_discards_insanity(eng):
    """R10.2, R8.10."""
    state, rng = _owner(eng, Equipment.AMULET)
    state.players[1].sanity = 0
    eng.give_insanity(state, 1, [Insanity.PARALYSIS, Insanity.HOARDING], expiring=1)
    eng.give_insanity(state, 1, [Insanity.GAMBLING_FEVER])
    assert eng.legal(state) == [A.GAMBLE, A.USE_EQUIPMENT]
    eng.step(state, rng, A.USE_EQUIPMENT)
    p = state.players[1]
    assert p.sanity == 1 and p.insanity == [] and p.expiring == 0
    assert sorted(state.insanity_discard[-3:]) == [0, 1, 2]
    _after_use_turn_continues(eng, state, 1)
    assert A.CONTRIBUTE + next(s for s in range(4) if p.hand[s]) in eng.legal(state)
    # no longer mad (R8.10): Investigate is open again
    eng.set_pool(state, [(0, 2), (1, 3)])
    assert A.INVESTIGATE in eng.legal(state)


def test_r10_amulet_capped_at_start_sanity(eng):
    """R10.2, R8.1."""
    state, rng = _owner(eng, Equipment.AMULET)
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.players[1].sanity == 5


def test_r10_almanac_sees_top_three_and_tracks_draws(eng):
    """R10.2."""
    state, rng = _owner(eng, Equipment.ALMANAC)
    eng.stack_deck(state, [2, 0, 3])
    eng.step(state, rng, A.USE_EQUIPMENT)
    mem = state.players[1].memory
    assert mem.deck_top == [2, 0, 3]
    assert [e.value for e in state.events if e.kind == "saw_deck"] == [2, 0, 3]
    _after_use_turn_continues(eng, state, 1)
    eng.step(state, rng, A.GAMBLE)  # draws the top two
    assert sorted(state.pending.gamble_cards) == [0, 2]
    assert mem.deck_top == [3]


def test_r10_almanac_fewer_if_fewer_and_needs_a_deck(eng):
    """R10.2."""
    state, rng = _owner(eng, Equipment.ALMANAC)
    spare, state.deck = state.deck[:-2], state.deck[-2:]
    top = state.deck[::-1]
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.players[1].memory.deck_top == top
    state.players[1].equipment_used = False
    state.discard += spare + state.deck
    state.deck = []
    assert A.USE_EQUIPMENT not in eng.legal(state)


def test_r10_ouija_learns_role_and_costs_sanity(eng):
    """R10.2, R8.4."""
    state, rng = _owner(eng, Equipment.OUIJA_BOARD)
    state.players[4].role = Role.CULTIST
    eng.stack_insanity(state, [Insanity.BABBLING])
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert state.phase == Phase.EQUIPMENT_PLAYER
    eng.step(state, rng, eng.aim(state, 1, 4))
    me = state.players[1]
    assert me.memory.known_roles[4] == Role.CULTIST
    assert me.sanity == 4 and me.insanity == [Insanity.BABBLING]
    assert all(p.memory.known_roles[4] == -1 for s, p in enumerate(state.players) if s not in (1, 4))
    saw = [e for e in state.events if e.kind == "saw_role"]
    assert len(saw) == 1 and saw[0].seat == 1 and saw[0].value == Role.CULTIST
    _after_use_turn_continues(eng, state, 1)


def test_r10_ouija_skips_known_roles(eng):
    """R10.2."""
    state, rng = _owner(eng, Equipment.OUIJA_BOARD)
    state.players[1].memory.known_roles[2] = Role.INVESTIGATOR  # e.g. revealed
    state.players[1].memory.known_roles[4] = Role.CULTIST
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert eng.legal(state) == [eng.aim(state, 1, 3), eng.aim(state, 1, 0)]
    state, rng = _owner(eng, Equipment.OUIJA_BOARD)
    for s in range(5):
        state.players[1].memory.known_roles[s] = Role.INVESTIGATOR
    assert A.USE_EQUIPMENT not in eng.legal(state)


def test_r10_exposure_strikes_after_ouija_users_loss(eng):
    """R10.3."""
    state, rng = _owner(eng, Equipment.OUIJA_BOARD, phobia_sanity_loss=1)
    eng.characters(state, [Character.DETECTIVE] * 5)
    state.players[3].character = Character.PHOTOGRAPHER
    eng.stack_insanity(state, [Insanity.HOARDING, Insanity.PARANOIA])
    eng.step(state, rng, A.USE_EQUIPMENT, eng.aim(state, 1, 3))
    assert state.players[1].insanity == [Insanity.HOARDING]
    assert state.players[3].insanity == [Insanity.PARANOIA]


def test_r10_free_actions_in_any_order(eng):
    """R2.2, R9.4, R10.1."""
    state, rng = _owner(eng, Equipment.SPYGLASS)
    state.hour = 7
    eng.step(state, rng, A.USE_EQUIPMENT, eng.aim(state, 1, 2))
    assert A.PROPOSE_NECRONOMICON in eng.legal(state)
    eng.step(state, rng, A.PROPOSE_NECRONOMICON, A.VOTE_NO, A.VOTE_NO, A.VOTE_NO, A.VOTE_NO)
    assert state.phase == Phase.TURN and state.decider == 1
    assert eng.legal(state)[0] < A.USE_EQUIPMENT and A.USE_EQUIPMENT not in eng.legal(state)


def test_r10_ouija_loss_from_config(eng):
    """R10.2 (ouija_sanity_loss, R13.4)."""
    state, rng = _owner(eng, Equipment.OUIJA_BOARD, ouija_sanity_loss=0)
    eng.step(state, rng, A.USE_EQUIPMENT, eng.aim(state, 1, 2))
    assert state.players[1].sanity == 5 and state.players[1].insanity == []
    assert state.players[1].memory.known_roles[2] == state.players[2].role
