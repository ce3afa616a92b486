"""Section 8: sanity, Insanity cards, phobias and madness."""

from __future__ import annotations

from rlyeh_env.engine import Phase, Role
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.cards import Character, Equipment, Insanity, Phobia, phobia_of
from rlyeh_env.engine.sanity import lose_sanity

I, C = Role.INVESTIGATOR, Role.CULTIST


def _table(eng, seat=1, n=5, seed=1, chars=None, roles=None, **cfg):
    """`seat` to play; every other character defaults to the Detective (Guilt), whose phobia
    none of these scenarios trigger unless the test says so."""
    state, rng = eng.make(seed=seed, num_players=n, **cfg)
    eng.characters(state, chars or [Character.DETECTIVE] * n)
    if roles is not None:
        for s, r in enumerate(roles):
            state.players[s].role = r
    eng.turn(state, seat, watch=0, target=0)
    for p in state.players:
        p.equipment_used = True
    state.hour = 3
    return state, rng


# --- sanity and Insanity cards --------------------------------------------------------------


def test_r8_each_sanity_point_draws_an_insanity_card(eng):
    """R8.2."""
    state, rng = _table(eng)
    eng.stack_insanity(state, [Insanity.BABBLING, Insanity.HOARDING])
    lose_sanity(state, 2, 2, rng, cause="curse")
    assert state.players[2].sanity == 3
    assert state.players[2].insanity == [Insanity.BABBLING, Insanity.HOARDING]
    drawn = [e.value for e in state.events if e.kind == "sanity_lost" and e.actor == 2]
    assert drawn == [Insanity.BABBLING, Insanity.HOARDING]
    assert all(e.seat == -1 for e in state.events if e.kind == "sanity_lost")  # public


def test_r8_sanity_floor_zero_but_still_draws(eng):
    """R8.2, R8.9."""
    state, rng = _table(eng)
    state.players[2].sanity = 1
    lose_sanity(state, 2, 3, rng, cause="necronomicon")
    p = state.players[2]
    assert p.sanity == 0 and len(p.insanity) == 3
    assert sum(e.kind == "went_mad" and e.actor == 2 for e in state.events) == 1


def test_r8_insanity_deck_reshuffles_then_runs_dry(eng):
    """R8.3."""
    state, rng = _table(eng)
    total = eng.insanity_total(state)
    state.insanity_discard = state.insanity_deck[1:]
    state.insanity_deck = state.insanity_deck[:1]
    lose_sanity(state, 3, 2, rng, cause="curse")  # second card comes from the reshuffled discard
    assert len(state.players[3].insanity) == 2 and state.insanity_discard == []
    assert eng.insanity_total(state) == total
    # now hoard every remaining card: nothing left to draw
    state.players[4].insanity += state.insanity_deck
    state.insanity_deck = []
    lose_sanity(state, 2, 1, rng, cause="curse")
    assert state.players[2].sanity == 4 and state.players[2].insanity == []
    assert eng.insanity_total(state) == total


def test_r8_insanity_deck_composition(eng):
    """R8.3."""
    state, _ = eng.make(seed=1, insanity_copies=4)
    assert sorted(state.insanity_deck) == sorted(list(range(6)) * 4)


# --- each Insanity card -------------------------------------------------------------------


def test_r8_paralysis_forbids_investigate(eng):
    """R8.7, R6.4.5."""
    state, rng = _table(eng)
    eng.set_pool(state, [(0, 2), (1, 3)])
    assert A.INVESTIGATE in eng.legal(state)
    eng.give_insanity(state, 1, [Insanity.PARALYSIS])
    assert A.INVESTIGATE not in eng.legal(state)


def test_r8_hoarding_forbids_contribute_not_gamble(eng):
    """R8.7, R6.1.2."""
    state, rng = _table(eng)
    eng.set_hand(state, 1, [1, 1, 1, 0])
    eng.give_insanity(state, 1, [Insanity.HOARDING])
    legal = eng.legal(state)
    assert not any(A.CONTRIBUTE <= a < A.CONTRIBUTE + 4 for a in legal)
    assert A.GAMBLE in legal and A.RESEARCH in legal


def test_r8_gambling_fever_forces_gamble(eng):
    """R8.7, R6.0.2, R6.1.2, R6.2.4, R6.4.5, R6.5.2."""
    state, rng = _table(eng)
    state.players[1].equipment_used = False
    state.players[1].equipment = Equipment.AMULET
    state.hour = 7
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.give_insanity(state, 1, [Insanity.GAMBLING_FEVER])
    # free actions stay allowed; Gamble is the only main action
    assert eng.legal(state) == [A.GAMBLE, A.USE_EQUIPMENT, A.PROPOSE_NECRONOMICON]


def test_r8_gambling_fever_lapses_when_nothing_can_be_drawn(eng):
    """R8.7."""
    state, rng = _table(eng)
    eng.give_insanity(state, 1, [Insanity.GAMBLING_FEVER])
    eng.set_hand(state, 1, [1, 0, 0, 0])
    state.players[2].hand[0] += len(state.deck) + len(state.discard)  # park the cards elsewhere
    state.deck, state.discard = [], []
    legal = eng.legal(state)
    assert A.GAMBLE not in legal and A.RESEARCH in legal and A.CONTRIBUTE + 0 in legal


def test_r8_babbling_contribute_and_gamble_face_up(eng):
    """R8.7, R5.2."""
    state, rng = _table(eng, phobia_sanity_loss=0)
    eng.give_insanity(state, 1, [Insanity.BABBLING])
    eng.set_hand(state, 1, [0, 1, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    assert state.pool[-1].face_up and state.pool_face_up[1] == [0, 1, 0, 0]
    eng.turn(state, 1, watch=0, target=0)
    eng.stack_deck(state, [3, 3])
    eng.step(state, rng, A.GAMBLE, A.GAMBLE_PLAY + 3)
    assert state.pool[-1].face_up and state.pool_face_up[1] == [0, 1, 0, 1]


def test_r8_babbling_swap_goes_in_face_up(eng):
    """R6.4.3, R8.7 (the engine puts a Babbling swap in face up; R6.4.3 says face down)."""
    state, rng = _table(eng, phobia_sanity_loss=0)
    eng.give_insanity(state, 1, [Insanity.BABBLING])
    eng.stack_insanity(state, [Insanity.HOARDING])
    eng.set_pool(state, [(2, 3), (2, 4), (2, 0)])
    eng.set_hand(state, 1, [1, 0, 0, 0])
    eng.step(state, rng, A.INVESTIGATE, A.TAKE + 2, A.GIVE + 0)
    swapped = [c for c in state.pool if c.sigil == 0]
    assert len(swapped) == 1 and swapped[0].face_up and swapped[0].contributor == 1
    assert state.pool_face_up[1] == [1, 0, 0, 0]
    assert state.pool_contributions[1] == 0 and state.pool_swaps[1] == 1


def test_r8_catatonia_forbids_accuse_and_votes_no(eng):
    """R8.7, R7.5, R6.5.2."""
    state, rng = _table(eng, roles=[I, I, I, C, I])
    eng.give_insanity(state, 1, [Insanity.CATATONIA])
    assert not any(A.ACCUSE <= a < A.CURSE for a in eng.legal(state))
    # seats 1 and 4 catatonic: not asked, counted as No
    eng.turn(state, 2, watch=0, target=0)
    eng.give_insanity(state, 4, [Insanity.CATATONIA])
    eng.step(state, rng, eng.accuse(state, 2, 3))
    assert state.pending.vote.to_ask == [0]
    eng.step(state, rng, A.VOTE_YES)
    assert state.votes[-1].votes == [1, -1, 1, 0, -1] and not state.votes[-1].passed


def test_r8_paranoia_votes_yes_and_catatonia_wins(eng):
    """R8.7, R7.5."""
    state, rng = _table(eng, seat=2, roles=[I, I, I, C, I])
    eng.give_insanity(state, 4, [Insanity.PARANOIA])
    eng.give_insanity(state, 0, [Insanity.PARANOIA, Insanity.CATATONIA])
    eng.step(state, rng, eng.accuse(state, 2, 3))
    assert state.pending.vote.to_ask == [1]
    eng.step(state, rng, A.VOTE_NO)
    assert state.votes[-1].votes == [-1, -1, 1, 0, 1]


def test_r8_catatonia_forbids_necronomicon_proposal(eng):
    """R9.2, R8.7 (the engine forbids it; neither rule says so)."""
    state, rng = _table(eng, seat=2, roles=[I, I, I, C, I])
    state.hour = 7
    assert A.PROPOSE_NECRONOMICON in eng.legal(state)
    eng.give_insanity(state, 2, [Insanity.CATATONIA])
    assert A.PROPOSE_NECRONOMICON not in eng.legal(state)


def test_r8_two_copies_same_as_one(eng):
    """R8.11, R8.8."""
    state, rng = _table(eng)
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.give_insanity(state, 1, [Insanity.PARALYSIS, Insanity.PARALYSIS], expiring=2)
    assert A.INVESTIGATE not in eng.legal(state)
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.players[1].insanity == []  # both held at the turn's start, both expire


# --- expiry -------------------------------------------------------------------------------


def test_r8_card_drawn_off_turn_lasts_through_next_turn(eng):
    """R8.8."""
    state, rng = _table(eng, n=4, seat=1, phobia_sanity_loss=0)
    eng.set_pool(state, [(0, 0), (1, 0)])
    eng.give_insanity(state, 2, [Insanity.PARALYSIS])  # drawn during seat 1's turn
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.decider == 2 and state.players[2].insanity == [Insanity.PARALYSIS]
    assert A.INVESTIGATE not in eng.legal(state)
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.players[2].insanity == []
    assert Insanity.PARALYSIS in state.insanity_discard


def test_r8_card_drawn_on_own_turn_covers_rest_and_next_turn(eng):
    """R8.8."""
    state, rng = _table(eng, n=4, seat=1, phobia_sanity_loss=0)
    eng.set_pool(state, [(0, 0), (1, 0), (2, 0)])
    eng.set_hand(state, 1, [0, 0, 0, 1])
    eng.stack_insanity(state, [Insanity.PARALYSIS])
    eng.give_insanity(state, 1, [Insanity.HOARDING], expiring=1)  # held since the turn began
    eng.step(state, rng, A.INVESTIGATE, A.NO_SWAP)
    # the old card expired at the end of this turn; the new one stays
    assert state.players[1].insanity == [Insanity.PARALYSIS]
    for _ in range(2):  # seats 2 and 3; then the watch passes to seat 1, who starts round 1
        eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.decider == 1 and state.round == 1
    assert state.players[1].insanity == [Insanity.PARALYSIS]
    assert A.INVESTIGATE not in eng.legal(state)
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.players[1].insanity == []


def test_r8_card_drawn_mid_turn_applies_at_once(eng):
    """R8.8, R9.5. Reading the Necronomicon: the reader's fresh Gambling fever forces this turn's Gamble."""
    state, rng = _table(eng, seat=1, phobia_sanity_loss=0, necronomicon_pages=(3, 0, 0))
    state.hour = 7
    eng.stack_insanity(state, [Insanity.GAMBLING_FEVER, Insanity.HOARDING, Insanity.HOARDING])
    eng.step(state, rng, A.PROPOSE_NECRONOMICON, A.VOTE_YES, A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    eng.step(state, rng, A.PAGE + 0)
    assert state.decider == 1 and state.phase == Phase.TURN
    assert eng.legal(state) == [A.GAMBLE]


# --- phobias ------------------------------------------------------------------------------


def test_r8_phobia_of_each_character():
    """R1.5, R8.5."""
    assert [phobia_of(c) for c in Character] == list(Phobia)
    assert phobia_of(Character.ANTIQUARIAN) == Phobia.TOMES
    assert phobia_of(Character.SAILOR) == Phobia.DESPAIR
    assert phobia_of(Character.DOCTOR) == Phobia.WITNESS


def test_r8_tomes_after_research_refill(eng):
    """R8.5, R6.2.3."""
    state, rng = _table(eng, chars=[3, 0, 3, 3, 0])
    eng.stack_insanity(state, [Insanity.HOARDING])
    eng.step(state, rng, A.RESEARCH, A.DISCARD + next(s for s in range(4) if state.players[1].hand[s]))
    assert state.players[1].sanity == 5
    eng.step(state, rng, A.STOP_DISCARDING)
    assert state.players[1].sanity == 4 and state.players[1].insanity == [Insanity.HOARDING]
    assert state.players[4].sanity == 5  # another Antiquarian did not research
    kinds = [e.kind for e in state.events]
    assert kinds.index("refilled", kinds.index("researched")) < kinds.index("sanity_lost")


def test_r8_chance_after_gamble_before_card_enters_pool(eng):
    """R8.5, R6.3.3."""
    state, rng = _table(eng, chars=[3, 1, 3, 3, 3])
    eng.stack_deck(state, [2, 0])
    eng.stack_insanity(state, [Insanity.BABBLING])
    eng.step(state, rng, A.GAMBLE)
    assert state.players[1].sanity == 5
    eng.step(state, rng, A.GAMBLE_PLAY + 2)
    assert state.players[1].sanity == 4
    assert state.pool[-1].face_up  # Babbling already applied (R6.3.3)


def test_r8_suspicion_strikes_accused_before_vote(eng):
    """R8.5, R7.7."""
    state, rng = _table(eng, chars=[3, 3, 3, 2, 3], roles=[I, I, I, C, I])
    eng.step(state, rng, eng.accuse(state, 1, 3))
    assert state.phase == Phase.VOTE and state.players[3].sanity == 4


def test_r8_guilt_strikes_yes_voters_on_wrong_accusation(eng):
    """R8.5, R8.6, R7.8."""
    state, rng = _table(eng, chars=[3, 3, 3, 0, 3], roles=[I, I, I, C, I])
    eng.step(state, rng, eng.accuse(state, 1, 4), A.VOTE_YES, A.VOTE_NO, A.VOTE_YES)
    # votes: seat 1 (proposer) yes, 2 yes, 4 accused, 0 yes, 3 no — seat 3 is not a Detective
    assert state.votes[-1].passed
    assert [p.sanity for p in state.players] == [4, 4, 4, 5, 5]
    # a correct accusation does not strike Guilt
    state2, rng2 = _table(eng, chars=[3, 3, 3, 0, 3], roles=[I, I, I, C, I])
    eng.step(state2, rng2, eng.accuse(state2, 1, 3), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert [p.sanity for p in state2.players] == [5] * 5


def test_r8_despair_strikes_every_sailor_on_failure(eng):
    """R8.5, R5.7."""
    state, rng = _table(eng, chars=[4, 3, 4, 3, 3], failed_incantation_sanity_loss=0)
    eng.set_pool(state, [(1, 3)] * 6)
    eng.set_hand(state, 1, [0, 1, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    assert not state.incantations[-1].success
    assert [p.sanity for p in state.players] == [4, 5, 4, 5, 5]


def test_r8_despair_not_on_success(eng):
    """R8.5."""
    state, rng = _table(eng, chars=[4, 3, 4, 3, 3])
    eng.set_pool(state, [(0, 3)] * 6)
    eng.set_hand(state, 1, [1, 0, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 0)
    assert state.incantations[-1].success and all(p.sanity == 5 for p in state.players)


def test_r8_exposure_curse_and_targeted_items(eng):
    """R8.5, R6.5.3, R10.3."""
    state, rng = _table(eng, chars=[3, 5, 3, 5, 3], roles=[C, I, I, I, I], seat=0)
    state.players[0].revealed = True
    eng.step(state, rng, eng.curse(state, 0, 3))
    assert state.players[3].sanity == 3  # 1 for the curse, 1 for the phobia
    for item, expected_user in ((Equipment.PISTOL, 5), (Equipment.SPYGLASS, 5), (Equipment.OUIJA_BOARD, 4)):
        state, rng = _table(eng, chars=[3, 5, 3, 5, 3], seat=1)
        state.players[1].equipment, state.players[1].equipment_used = item, False
        eng.step(state, rng, A.USE_EQUIPMENT, eng.aim(state, 1, 3))
        assert state.players[3].sanity == 4, item
        assert state.players[1].sanity == expected_user  # a Photographer using it is not exposed
    # untargeted items do not expose anybody
    state, rng = _table(eng, chars=[5] * 5, seat=1)
    state.players[1].equipment, state.players[1].equipment_used = Equipment.AMULET, False
    eng.step(state, rng, A.USE_EQUIPMENT)
    assert all(p.sanity == 5 for p in state.players)


def test_r8_dissent_strikes_yes_voters_on_failed_votes(eng):
    """R8.5, R8.6, R7.10."""
    state, rng = _table(eng, chars=[6, 6, 6, 6, 6], roles=[I, I, I, C, I])
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_YES, A.VOTE_NO, A.VOTE_NO)
    assert not state.votes[-1].passed
    assert [p.sanity for p in state.players] == [5, 4, 4, 5, 5]
    # a failed Necronomicon proposal: the proposer counts as a Yes voter
    state, rng = _table(eng, chars=[6, 6, 6, 6, 6], seat=2)
    state.hour = 8
    eng.step(state, rng, A.PROPOSE_NECRONOMICON, A.VOTE_NO, A.VOTE_NO, A.VOTE_YES, A.VOTE_NO)
    assert not state.votes[-1].passed and state.votes[-1].votes == [1, -1, 1, -1, -1]
    assert [p.sanity for p in state.players] == [4, 5, 4, 5, 5]
    # a passed vote does not strike Dissent
    state, rng = _table(eng, chars=[6, 6, 6, 6, 6], roles=[I, I, I, C, I])
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_YES, A.VOTE_YES, A.VOTE_NO)
    assert [p.sanity for p in state.players][:3] == [5, 5, 5]


def test_r8_witness_strikes_every_doctor_when_cultist_revealed(eng):
    """R8.5, R7.9."""
    state, rng = _table(eng, chars=[7, 3, 3, 7, 3], roles=[I, I, I, C, I])
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert state.players[3].revealed
    assert [p.sanity for p in state.players] == [4, 5, 5, 4, 5]  # even the revealed Doctor


def test_r8_witness_not_when_investigator_revealed(eng):
    """R8.5."""
    state, rng = _table(eng, chars=[7, 3, 7, 7, 7], roles=[I, I, I, C, I])
    for p in state.players:
        p.character = 7
    eng.step(state, rng, eng.accuse(state, 1, 4), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert all(p.sanity == 5 for p in state.players)


def test_r8_phobia_loss_from_config(eng):
    """R8.4, R8.5."""
    state, rng = _table(eng, chars=[3, 0, 3, 3, 3], phobia_sanity_loss=3)
    eng.step(state, rng, A.RESEARCH, A.STOP_DISCARDING)
    assert state.players[1].sanity == 2 and len(state.players[1].insanity) == 3


# --- madness ------------------------------------------------------------------------------


def test_r8_mad_player_restrictions(eng):
    """R8.9, R5.2."""
    state, rng = _table(eng, roles=[I, I, I, C, I], phobia_sanity_loss=0)
    state.hour = 8
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.set_hand(state, 1, [0, 2, 0, 0])
    assert {A.INVESTIGATE, A.PROPOSE_NECRONOMICON} <= set(eng.legal(state))
    state.players[1].sanity = 0
    legal = eng.legal(state)
    assert A.INVESTIGATE not in legal and A.PROPOSE_NECRONOMICON not in legal
    assert A.RESEARCH in legal and A.GAMBLE in legal and A.CONTRIBUTE + 1 in legal
    assert eng.accuse(state, 1, 3) in legal  # a mad player still accuses
    eng.step(state, rng, A.CONTRIBUTE + 1)
    assert state.pool[-1].face_up


def test_r8_mad_player_still_votes(eng):
    """R8.9, R7.2."""
    state, rng = _table(eng, roles=[I, I, I, C, I], phobia_sanity_loss=0)
    state.players[4].sanity = 0
    eng.step(state, rng, eng.accuse(state, 1, 3))
    assert 4 in state.pending.vote.to_ask
