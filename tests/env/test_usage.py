"""What the players did (rlyeh_env/usage.py, counted by the tournament runner): the counts add up
to the decisions played, every accusation and proposal has exactly one outcome, and outcomes go
to the proposer's role."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import pytest

from rlyeh_env.engine import Role
from rlyeh_env.engine.actions import BLOCKS
from rlyeh_env.engine.cards import VoteKind
from rlyeh_env.players import make_side_player
from rlyeh_env.tournament import play_match
from rlyeh_env.usage import count_game, usage_table

ROLES = ("investigator", "cultist")


@pytest.fixture(scope="module")
def match():
    return play_match(make_side_player("heuristic", Role.INVESTIGATOR), make_side_player("random", Role.CULTIST),
                      num_players=5, games=40, seed=2)


def test_the_counts_add_up_to_the_decisions_played(match):
    usage = match.usage
    decisions = sum(usage[f"{role}/decisions"] for role in ROLES)
    assert decisions == pytest.approx(match.mean_decisions * match.games)
    for role in ROLES:
        blocks = sum(usage.get(f"{role}/{name}", 0) for name, _, _ in BLOCKS)
        assert blocks == usage[f"{role}/decisions"]
        items = sum(count for key, count in usage.items() if key.startswith(f"{role}/equipment:"))
        assert items == usage.get(f"{role}/use_equipment", 0)


def test_every_accusation_and_proposal_has_one_outcome(match):
    usage = match.usage
    assert usage["investigator/accuse"] > 0 and usage["cultist/accuse"] > 0, "both sides accuse here"
    for role in ROLES:
        outcomes = sum(usage.get(f"{role}/accusation:{o}", 0) for o in ("right", "wrong", "failed"))
        assert outcomes == usage.get(f"{role}/accuse", 0)
        proposals = sum(usage.get(f"{role}/necronomicon:{o}", 0) for o in ("passed", "failed"))
        assert proposals == usage.get(f"{role}/propose_necronomicon", 0)
    pages = sum(count for key, count in usage.items() if key.startswith("page:"))
    passed = sum(usage.get(f"{role}/necronomicon:passed", 0) for role in ROLES)
    assert pages == passed > 0  # the reader of a passed proposal enacts exactly one page


def test_outcomes_go_to_the_proposers_role():
    inv, cult = SimpleNamespace(role=Role.INVESTIGATOR), SimpleNamespace(role=Role.CULTIST)

    def vote(kind, proposer, passed, revealed):
        return SimpleNamespace(kind=kind, proposer=proposer, passed=passed, revealed_role=revealed)

    state = SimpleNamespace(players=[inv, cult, inv], votes=[
        vote(VoteKind.ACCUSATION, 0, True, Role.CULTIST),
        vote(VoteKind.ACCUSATION, 1, True, Role.INVESTIGATOR),
        vote(VoteKind.ACCUSATION, 2, False, -1),
        vote(VoteKind.NECRONOMICON, 1, False, -1),
    ])
    tally = Counter()
    count_game(tally, state)
    assert tally == {"investigator/accusation:right": 1, "cultist/accusation:wrong": 1,
                     "investigator/accusation:failed": 1, "cultist/necronomicon:failed": 1}


def test_an_ablated_player_shows_no_use_of_what_it_lost():
    result = play_match(make_side_player("heuristic:no-accuse:no-investigate", Role.INVESTIGATOR),
                        make_side_player("random", Role.CULTIST), num_players=5, games=10, seed=2)
    assert result.usage.get("investigator/accuse", 0) == result.usage.get("investigator/investigate", 0) == 0
    assert result.usage["cultist/accuse"] > 0
    row = usage_table([result]).splitlines()[-1]
    assert row.startswith("| 5 | heuristic:no-accuse:no-investigate | random | 0.00 | 0.00 | 0.00 | 0.00 |")
