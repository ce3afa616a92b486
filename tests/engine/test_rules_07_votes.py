"""Section 7: accusations, votes and revealed cultists."""

from __future__ import annotations

import pytest

from rlyeh_env.engine import MIDNIGHT, EndReason, Phase, Role, Winner
from rlyeh_env.engine import actions as A
from rlyeh_env.engine.rules import IllegalActionError
from rlyeh_env.engine.cards import Insanity, VoteKind


def _table(eng, roles, seat=1, seed=1, **cfg):
    """Five-seat (or len(roles)) table with the given roles, seat `seat` to play."""
    cfg.setdefault("phobia_sanity_loss", 0)
    state, rng = eng.make(seed=seed, num_players=len(roles), **cfg)
    for s, r in enumerate(roles):
        state.players[s].role = r
        state.players[s].memory.known_roles = [-1] * len(roles)
        state.players[s].memory.known_roles[s] = r
    state.num_cultists = sum(roles)
    eng.turn(state, seat, watch=0, target=0)
    for p in state.players:
        p.equipment_used = True
    state.hour = 3
    return state, rng


I, C = Role.INVESTIGATOR, Role.CULTIST


def test_r7_voters_asked_clockwise_from_accusers_left_excluding_accused(eng):
    """R7.2, R7.3, R7.4."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    eng.step(state, rng, eng.accuse(state, 1, 3))
    vote = state.pending.vote
    assert vote.kind == VoteKind.ACCUSATION
    assert vote.to_ask == [2, 4, 0]
    assert vote.votes == [0, 1, 0, 0, 0]  # the accuser's own vote is Yes
    asked = []
    while state.phase == Phase.VOTE:
        asked.append(state.decider)
        assert eng.legal(state) == [A.VOTE_NO, A.VOTE_YES]
        eng.step(state, rng, A.VOTE_YES)
    assert asked == [2, 4, 0]
    record = state.votes[-1]
    assert record.votes == [1, 1, 1, 0, 1] and record.passed and record.revealed_role == C


def test_r7_strict_majority_tie_fails(eng):
    """R7.6, R7.10, R7.12."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_YES, A.VOTE_NO, A.VOTE_NO)
    record = state.votes[-1]
    assert record.votes == [-1, 1, 1, 0, -1]
    assert not record.passed and record.revealed_role == -1
    assert not state.players[3].revealed
    assert state.hour == 3
    assert state.phase == Phase.TURN and state.decider == 2  # the accuser's turn is over


def test_r7_majority_passes(eng):
    """R7.6."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_YES, A.VOTE_YES, A.VOTE_NO)
    assert state.votes[-1].passed


def test_r7_correct_accusation_reveals_cultist(eng):
    """R7.9, R7.11."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert state.players[3].revealed and state.players[3].role == C
    assert all(p.memory.known_roles[3] == C for p in state.players)
    assert state.hour == 3  # no clock penalty
    assert any(e.kind == "role_revealed" and e.target == 3 and e.value == C for e in state.events)
    assert state.decider == 2


def test_r7_wrong_accusation_costs_two_hours(eng):
    """R7.8, R2.5."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    eng.step(state, rng, eng.accuse(state, 1, 4), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert state.players[4].revealed and state.votes[-1].revealed_role == I
    assert all(p.memory.known_roles[4] == I for p in state.players)
    assert state.hour == 5 and not state.game_over
    assert state.decider == 2


def test_r7_wrong_accusation_hours_from_config(eng):
    """R7.8."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1, wrong_accusation_hours=4)
    eng.step(state, rng, eng.accuse(state, 1, 4), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert state.hour == 7


def test_r7_wrong_accusation_can_strike_midnight(eng):
    """R7.8, R2.6."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    state.hour = MIDNIGHT - 2
    eng.step(state, rng, eng.accuse(state, 1, 4), A.VOTE_YES, A.VOTE_YES, A.VOTE_YES)
    assert state.game_over and state.hour == MIDNIGHT
    assert state.winner == Winner.CULTISTS and state.end_reason == EndReason.MIDNIGHT
    assert eng.legal(state) == []


def test_r7_revealed_players_cannot_be_accused(eng):
    """R6.5.2, R7.11."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    state.players[4].revealed = True  # a revealed investigator
    accusable = [(1 + a - A.ACCUSE + 1) % 5 for a in eng.legal(state) if A.ACCUSE <= a < A.CURSE]
    assert sorted(accusable) == [0, 2, 3]


def test_r7_revealed_cultist_does_not_vote(eng):
    """R7.2, R7.13."""
    state, rng = _table(eng, [I, I, C, C, I], seat=1)
    state.players[2].revealed = True
    eng.step(state, rng, eng.accuse(state, 1, 3))
    assert state.pending.vote.to_ask == [4, 0]
    eng.step(state, rng, A.VOTE_YES, A.VOTE_NO)
    record = state.votes[-1]
    assert record.votes == [-1, 1, 0, 0, 1] and record.passed  # 2 of 3 cast


def test_r7_revealed_investigator_still_votes(eng):
    """R7.2."""
    state, rng = _table(eng, [I, I, C, C, I], seat=1)
    state.players[2].revealed = True
    state.players[2].role = I
    eng.step(state, rng, eng.accuse(state, 1, 3))
    assert state.pending.vote.to_ask == [2, 4, 0]


def test_r7_revealed_cultist_restrictions_and_curse(eng):
    """R7.13, R6.0.1, R6.4.5, R6.5.2, R6.5.3, R9.2."""
    state, rng = _table(eng, [I, C, I, I, I], seat=1)
    state.players[1].revealed = True
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.set_hand(state, 1, [1, 0, 1, 0])
    state.hour = 8
    legal = eng.legal(state)
    assert A.INVESTIGATE not in legal
    assert not any(A.ACCUSE <= a < A.CURSE for a in legal)
    assert A.PROPOSE_NECRONOMICON not in legal
    assert [a for a in legal if A.CURSE <= a < A.USE_EQUIPMENT] == [A.CURSE + k for k in range(4)]
    assert A.RESEARCH in legal
    eng.step(state, rng, eng.curse(state, 1, 4))
    victim = state.players[4]
    assert victim.sanity == 4 and len(victim.insanity) == 1
    assert any(e.kind == "cursed" and e.actor == 1 and e.target == 4 for e in state.events)
    assert state.decider == 2 and state.phase == Phase.TURN


def test_r7_with_the_option_a_revealed_cultist_contributes_face_up(eng):
    """R5.2, R7.14."""
    state, rng = _table(eng, [I, C, I, I, I], seat=1, revealed_cultist_contributes=True)
    state.players[1].revealed = True
    eng.set_hand(state, 1, [0, 2, 0, 0])
    eng.step(state, rng, A.CONTRIBUTE + 1)
    card = state.pool[-1]
    assert card.face_up and card.sigil == 1
    assert state.pool_face_up[1] == [0, 1, 0, 0]
    assert [e for e in state.events if e.kind == "contributed"][-1].value == 1  # public


def test_r7_with_the_option_a_revealed_cultist_gambles_face_up(eng):
    """R5.2, R7.14."""
    state, rng = _table(eng, [I, C, I, I, I], seat=1, revealed_cultist_contributes=True)
    state.players[1].revealed = True
    eng.stack_deck(state, [2, 3])
    eng.step(state, rng, A.GAMBLE, A.GAMBLE_PLAY + 2)
    assert state.pool[-1].face_up and state.pool_face_up[1] == [0, 0, 1, 0]


def test_r7_nobody_left_to_ask_resolves_at_once(eng):
    """R7.2, R7.5, R7.12. 4 seats: seat 0 accuses seat 1; seat 2 is a revealed cultist, seat 3 is Paranoid.
    Nobody needs to be asked, so the vote settles immediately."""
    state, rng = _table(eng, [I, C, C, I], seat=0)
    state.players[2].revealed = True
    eng.give_insanity(state, 3, [5])
    eng.step(state, rng, eng.accuse(state, 0, 1))
    record = state.votes[-1]
    assert record.votes == [1, 0, 0, 1] and record.passed
    assert state.players[1].revealed
    assert state.phase == Phase.TURN and state.decider == 1


@pytest.mark.parametrize("n", [4, 8])
def test_r7_accuse_everyone_unrevealed_at_any_table_size(eng, n):
    """R6.5.1."""
    state, rng = _table(eng, [I] * (n - 1) + [C], seat=0)
    assert [a for a in eng.legal(state) if A.ACCUSE <= a < A.CURSE] == [A.ACCUSE + k for k in range(n - 1)]


def test_r7_curse_loss_from_config(eng):
    """R6.5.3 (curse_sanity_loss, R13.4)."""
    state, rng = _table(eng, [I, C, I, I, I], seat=1, curse_sanity_loss=3)
    state.players[1].revealed = True
    eng.step(state, rng, eng.curse(state, 1, 0))
    assert state.players[0].sanity == 2 and len(state.players[0].insanity) == 3


def test_r7_curse_may_target_revealed_players(eng):
    """R6.5.3."""
    state, rng = _table(eng, [I, C, C, I, I], seat=1)
    state.players[1].revealed = True
    state.players[2].revealed = True
    state.players[3].revealed = True
    curses = [a for a in eng.legal(state) if A.CURSE <= a < A.USE_EQUIPMENT]
    assert curses == [A.CURSE + k for k in range(4)]
    eng.step(state, rng, eng.curse(state, 1, 2))
    assert state.players[2].sanity == 4


def test_r7_votes_shown_only_once_all_are_cast(eng):
    """R7.4."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    start = len(state.events)
    eng.step(state, rng, eng.accuse(state, 1, 3), A.VOTE_NO, A.VOTE_YES)
    assert state.phase == Phase.VOTE
    assert not [e for e in state.events[start:] if e.kind in ("voted", "vote_result")]
    eng.step(state, rng, A.VOTE_NO)
    voted = {e.actor: e.value for e in state.events[start:] if e.kind == "voted"}
    assert voted == {1: 1, 2: 0, 4: 1, 0: 0}
    assert all(e.seat == -1 for e in state.events[start:] if e.kind == "voted")


def test_r7_revealed_investigator_keeps_every_power(eng):
    """R7.11."""
    state, rng = _table(eng, [I, I, I, C, I], seat=1)
    state.players[1].revealed = True
    state.hour = 8
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.set_hand(state, 1, [1, 0, 0, 0])
    legal = eng.legal(state)
    assert {A.CONTRIBUTE, A.RESEARCH, A.GAMBLE, A.INVESTIGATE, A.PROPOSE_NECRONOMICON} <= set(legal)
    assert eng.accuse(state, 1, 3) in legal
    assert not any(A.CURSE <= a < A.USE_EQUIPMENT for a in legal)


def test_r7_a_revealed_cultist_feeds_the_pool_nothing(eng):
    """R7.13, R7.14 (the default, option off), R6.1.2, R6.3.4, R8.7: no Contribute or Gamble, even
    under Gambling fever; Research and Curse stay."""
    state, rng = _table(eng, [I, C, I, I, I], seat=1)
    assert not state.config.revealed_cultist_contributes
    state.players[1].revealed = True
    eng.set_pool(state, [(0, 2), (1, 3)])
    eng.set_hand(state, 1, [1, 0, 1, 0])
    legal = eng.legal(state)
    assert not any(A.CONTRIBUTE <= a < A.CONTRIBUTE + 4 for a in legal) and A.GAMBLE not in legal
    assert A.RESEARCH in legal and [a for a in legal if A.CURSE <= a < A.USE_EQUIPMENT] == [A.CURSE + k for k in range(4)]
    with pytest.raises(IllegalActionError, match="legal"):
        eng.step(state, rng, A.CONTRIBUTE + 0)
    eng.give_insanity(state, 1, [Insanity.GAMBLING_FEVER])  # forces nothing: Gamble is not theirs
    assert A.RESEARCH in eng.legal(state) and A.GAMBLE not in eng.legal(state)
    state.players[1].revealed = False  # an unrevealed cultist is untouched by the option
    assert A.GAMBLE in eng.legal(state) and eng.legal(state) == [A.GAMBLE]
