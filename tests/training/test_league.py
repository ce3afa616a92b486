"""The league (training/league.py, training/opponents.py): PFSP draws follow the recorded win
rates, finished games update the records, snapshots and exploiters join (and the oldest leave),
exploiters start over from the main learners, anchors stay for the whole run, a fixed pool stays
fixed, per-rollout opponents keep pool games to a few networks, and the league's table is saved
with the run."""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest
import torch

from rlyeh_env.checkpoints import VERSIONS
from rlyeh_env.engine import Role
from training.collector import FinishedGame
from training.config import Args, preset
from training.league import League, pfsp_weight
from training.opponents import Matchmaker
from training.trainer import Trainer

from .training_testkit import ROLES, learners, tiny_net

LEAGUE = dict(opponent_latest=0.0, opponent_heuristic=0.0, opponent_random=0.0)


def _league_with_records(pfsp: str, records: list[tuple[int, int]], **changes) -> League:
    """Three cultist entries; the investigator learner won wins/games against each."""
    league = League(Args(**{"pfsp": pfsp, "pool_size": 8, "pfsp_prior_games": 0.0, **changes}))
    for k, (wins, games) in enumerate(records):
        league.add(Role.CULTIST, tiny_net(k), f"cultist@u{k}", "snapshot")
        for g in range(games):
            league.record(f"cultist@u{k}", g < wins, 5)
    return league


def test_pfsp_weights_are_the_documented_functions():
    assert pfsp_weight(0.3, "uniform", 2.0) == 1.0
    assert pfsp_weight(0.3, "hard", 2.0) == pytest.approx(0.49)
    assert pfsp_weight(0.3, "hard", 1.0) == pytest.approx(0.7)
    assert pfsp_weight(0.3, "even", 2.0) == pytest.approx(0.21)
    with pytest.raises(ValueError, match="unknown PFSP weighting"):
        pfsp_weight(0.3, "softmax", 1.0)


@pytest.mark.parametrize("pfsp", ["uniform", "hard", "even"])
def test_draws_follow_the_recorded_win_rates(pfsp):
    league = _league_with_records(pfsp, [(9, 10), (5, 10), (1, 10)])  # win rates 0.9, 0.5, 0.1
    expected = {"uniform": [1, 1, 1], "hard": [0.01, 0.25, 0.81], "even": [0.09, 0.25, 0.09]}[pfsp]
    expected = [w / sum(expected) for w in expected]
    assert league.probabilities(Role.CULTIST) == pytest.approx(expected)
    rng = random.Random(0)
    counts = Counter(league.draw(Role.CULTIST, rng).name for _ in range(20_000))
    for k, p in enumerate(expected):
        assert counts[f"cultist@u{k}"] / 20_000 == pytest.approx(p, abs=0.015), (pfsp, counts)


def test_hard_pfsp_moves_to_the_opponent_that_starts_winning():
    league = _league_with_records("hard", [(5, 10), (5, 10)])
    before = league.probabilities(Role.CULTIST)
    assert before[0] == pytest.approx(before[1])
    for _ in range(20):  # the learner now loses to entry 1
        league.record("cultist@u1", False, 5)
    after = league.probabilities(Role.CULTIST)
    assert after[1] > 0.7 > 0.3 > after[0], after  # weights (5/6)^2 against 1/4


def test_a_new_entry_counts_as_an_even_match_through_the_prior():
    league = _league_with_records("hard", [(10, 10)], pfsp_prior_games=4.0)
    league.add(Role.CULTIST, tiny_net(5), "cultist@new", "snapshot")
    assert league.win_rate(league.entries[Role.CULTIST][1]) == 0.5
    assert league.win_rate(league.entries[Role.CULTIST][0]) == pytest.approx(12 / 14)
    assert league.probabilities(Role.CULTIST)[1] > 0.9


def _finished(tags: dict, investigators_won: bool) -> FinishedGame:
    return FinishedGame(tags, 5, investigators_won, 10, 0, ())


def test_the_matchmaker_records_pool_games_from_the_learners_side():
    matchmaker = Matchmaker(Args(**LEAGUE), learners(), random.Random(0))
    matchmaker.add_snapshots("u1")
    matchmaker.record([
        _finished({"learner": "investigator", "opponent": "pool", "opponent_name": "cultist@u1"}, True),
        _finished({"learner": "investigator", "opponent": "pool", "opponent_name": "cultist@u1"}, False),
        _finished({"learner": "cultist", "opponent": "pool", "opponent_name": "investigator@u1"}, False),
        _finished({"learner": "both", "opponent": "latest"}, False),  # self-play: no entry involved
        _finished({"learner": "cultist", "opponent": "heuristic"}, False),
    ])
    assert matchmaker.league.records() == {"investigator@u1": (1.0, 1, {5: (1.0, 1)}),
                                           "cultist@u1": (1.0, 2, {5: (1.0, 2)})}


def _league_with_size_records(by_size: bool, records: dict[str, dict[int, tuple[int, int]]],
                              relative: bool = False, table_sizes: tuple[int, ...] = (4, 5, 6)) -> League:
    """Cultist entries with the investigator learner's (wins, games) at each table size."""
    league = League(Args(pfsp="hard", pool_size=8, pfsp_prior_games=0.0, table_sizes=table_sizes,
                         pfsp_by_size=by_size, pfsp_size_relative=relative))
    for k, (name, sizes) in enumerate(records.items()):
        league.add(Role.CULTIST, tiny_net(k), name, "snapshot")
        for n, (wins, games) in sizes.items():
            for g in range(games):
                league.record(name, g < wins, n)
    return league


@pytest.mark.parametrize("by_size", [False, True])
def test_by_size_pfsp_draws_by_the_table_size_where_the_learner_does_worst(by_size):
    """The first two entries are beaten half the time over all sizes, the second only by winning at
    4 seats what it loses at 5. Pooled records cannot tell them apart; per size the second is the
    harder one, and a size an entry never met counts as an even match (so the third, seen at 4
    seats only, cannot look easy)."""
    league = _league_with_size_records(by_size, {
        "cultist@even": {4: (5, 10), 5: (5, 10), 6: (5, 10)},
        "cultist@holes": {4: (8, 10), 5: (2, 10), 6: (5, 10)},  # the learner's 20% at 5 seats
        "cultist@easy-at-4": {4: (9, 10)},  # never met at 5 or 6 seats
    })
    even, holes, easy = league.entries[Role.CULTIST]
    assert league.win_rate(holes) == league.win_rate(even) == 0.5
    assert league.win_rate_by_size(holes) == {4: 0.8, 5: 0.2, 6: 0.5}
    assert league.win_rate_by_size(easy) == {4: 0.9, 5: 0.5, 6: 0.5}
    if by_size:
        weights = [0.5 ** 2, 0.8 ** 2, 0.5 ** 2]  # (1 - p) ** 2 at each entry's worst size
    else:
        weights = [0.5 ** 2, 0.5 ** 2, 0.1 ** 2]
    expected = [w / sum(weights) for w in weights]
    assert league.probabilities(Role.CULTIST) == pytest.approx(expected)
    rows = league.table()["entries"]["cultist"]
    assert rows[1]["learner_win_rate_by_size"] == {"4": 0.8, "5": 0.2, "6": 0.5}
    assert rows[1]["games_by_size"] == {"4": 10, "5": 10, "6": 10} and rows[2]["games_by_size"] == {"4": 10}


@pytest.mark.parametrize("relative", [False, True])
def test_size_relative_pfsp_reads_each_size_against_the_leagues_rate_there(relative):
    """At 4 seats the learner (the investigators) wins 30% against both cultists, at 8 seats 90%
    against the first and 50% against the second. By the raw rates both entries' worst size is 4
    seats, where they are alike, so they are drawn alike; against the league's rate at each size
    (30% at 4, 70% at 8) the second is the harder one, at 8 seats."""
    league = _league_with_size_records(True, {
        "cultist@usual": {4: (3, 10), 8: (9, 10)},
        "cultist@hard-at-8": {4: (3, 10), 8: (5, 10)},
    }, relative=relative, table_sizes=(4, 8))
    usual, hard = league.entries[Role.CULTIST]
    assert league.league_win_rate_by_size(Role.CULTIST) == pytest.approx({4: 0.3, 8: 0.7})
    if relative:
        assert league.pfsp_win_rate(usual, Role.CULTIST) == pytest.approx(0.5)
        assert league.pfsp_win_rate(hard, Role.CULTIST) == pytest.approx(0.3)
        weights = [0.5 ** 2, 0.7 ** 2]
    else:
        weights = [0.7 ** 2, 0.7 ** 2]
    assert league.probabilities(Role.CULTIST) == pytest.approx([w / sum(weights) for w in weights])
    assert league.table()["learner_win_rate_by_size"]["cultist"] == {"4": 0.3, "8": 0.7}


def test_size_relative_pfsp_needs_by_size_pfsp():
    with pytest.raises(ValueError, match="pfsp_size_relative needs pfsp_by_size"):
        Args(pfsp_size_relative=True)


def test_per_size_records_travel_with_the_records_and_the_saved_league():
    """Rollout workers get them (records / set_records) and a saved league keeps them; a league
    saved before them (five fields an entry) loads with none."""
    league = _league_with_size_records(True, {"cultist@holes": {4: (8, 10), 5: (2, 10)}})
    worker = _league_with_size_records(True, {"cultist@holes": {}})
    worker.set_records(league.records())
    assert worker.entries[Role.CULTIST][0].by_size == {4: (8.0, 10), 5: (2.0, 10)}
    assert worker.probabilities(Role.CULTIST) == league.probabilities(Role.CULTIST)
    copied = League(league.args)
    copied.load_state_dict(league.state_dict(), {role: tiny_net(0) for role in ROLES})
    entry = copied.entries[Role.CULTIST][0]
    assert (entry.wins, entry.games, entry.by_size) == (10.0, 20, {4: (8.0, 10), 5: (2.0, 10)})
    old = {role: [item[:5] for item in items] for role, items in league.state_dict().items()}
    copied.load_state_dict(old, {role: tiny_net(0) for role in ROLES})
    entry = copied.entries[Role.CULTIST][0]
    assert (entry.wins, entry.games, entry.by_size) == (10.0, 20, {})


def test_pool_games_seat_the_drawn_entry_and_name_it():
    matchmaker = Matchmaker(Args(**LEAGUE), learners(), random.Random(0))
    matchmaker.add_snapshots("u1")
    for i in range(50):
        spec = matchmaker(i)
        learner = Role.INVESTIGATOR if spec.tags["learner"] == "investigator" else Role.CULTIST
        other = Role.CULTIST if learner == Role.INVESTIGATOR else Role.INVESTIGATOR
        assert spec.tags["opponent"] == "pool" and spec.players[learner] is matchmaker.learners[learner]
        assert spec.players[other].name == spec.tags["opponent_name"] == f"{other.name.lower()}@u1"


def test_snapshots_and_exploiters_join_and_the_oldest_leave():
    args = Args(**LEAGUE, pool_size=3, exploiter_share=0.2)
    exploiters = learners(seed=10)
    matchmaker = Matchmaker(args, learners(), random.Random(0), exploiters)
    for u in range(1, 4):
        matchmaker.add_snapshots(f"u{u}")
    matchmaker.add_exploiters("u3")
    names = [e.name for e in matchmaker.league.entries[Role.CULTIST]]
    kinds = [e.kind for e in matchmaker.league.entries[Role.CULTIST]]
    assert names == ["cultist@u2", "cultist@u3", "cultist-exploiter@u3"] and kinds[-1] == "exploiter"
    frozen = matchmaker.league.entries[Role.CULTIST][-1].player.net
    assert not any(p.requires_grad for p in frozen.parameters())
    assert torch.equal(frozen.actor.weight, exploiters[Role.CULTIST].net.actor.weight)
    assert frozen is not exploiters[Role.CULTIST].net  # a copy: the exploiter trains on


@pytest.mark.parametrize("bluffs", [False, True])
def test_snapshot_bluffs_adds_the_cultists_bluffing_twin(bluffs):
    """With `snapshot_bluffs` each cultist snapshot joins twice, plain and bluffing (same weights,
    accusing at league_bluff_rate); the investigators' snapshots join once either way."""
    args = Args(**LEAGUE, pool_size=8, snapshot_bluffs=bluffs, league_bluff_rate=0.25)
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    matchmaker.add_snapshots("u1")
    cultists = matchmaker.league.entries[Role.CULTIST]
    assert [e.name for e in cultists] == (["cultist@u1", "cultist@u1:bluffs"] if bluffs else ["cultist@u1"])
    assert [e.player.bluff_rate for e in cultists] == ([0.0, 0.25] if bluffs else [0.0])
    assert [e.name for e in matchmaker.league.entries[Role.INVESTIGATOR]] == ["investigator@u1"]
    if bluffs:
        assert torch.equal(cultists[0].player.net.actor.weight, cultists[1].player.net.actor.weight)
        copied = League(args)
        copied.load_state_dict(matchmaker.league.state_dict(), {role: tiny_net(0) for role in ROLES})
        assert copied.entries[Role.CULTIST][1].player.bluff_rate == 0.25  # the name carries it to workers


def test_anchors_stay_and_do_not_count_towards_the_pool_size():
    matchmaker = Matchmaker(Args(**LEAGUE, pool_size=2), learners(), random.Random(0))
    matchmaker.add_anchors({Role.INVESTIGATOR: tiny_net(3), Role.CULTIST: tiny_net(4)}, "untrained")
    for u in range(1, 5):
        matchmaker.add_snapshots(f"u{u}")
    entries = matchmaker.league.entries[Role.CULTIST]
    assert [(e.name, e.kind) for e in entries] == [
        ("cultist@anchor-untrained", "anchor"), ("cultist@u3", "snapshot"), ("cultist@u4", "snapshot")
    ]
    assert torch.equal(entries[0].player.net.actor.weight, tiny_net(4).actor.weight)
    drawn = Counter(matchmaker(i).tags.get("opponent_name") for i in range(3000))
    assert drawn["cultist@anchor-untrained"] > 300 and drawn["investigator@anchor-untrained"] > 300, drawn
    anchors_only = Matchmaker(Args(**LEAGUE, pool_size=0, league_anchors=("untrained",)), learners(), random.Random(0))
    anchors_only.add_anchors({Role.INVESTIGATOR: tiny_net(3), Role.CULTIST: tiny_net(4)}, "untrained")
    anchors_only.add_snapshots("u1")
    assert [e.name for e in anchors_only.league.entries[Role.CULTIST]] == ["cultist@anchor-untrained"]
    with pytest.raises(ValueError, match=r"with pool_size 0 \(and no league_anchors\)"):
        Args(**LEAGUE, pool_size=0)


def test_exploiter_games_pit_an_exploiter_against_the_main_learner_in_their_share():
    exploiters = learners(seed=10)
    matchmaker = Matchmaker(Args(**LEAGUE, exploiter_share=0.3), learners(), random.Random(0), exploiters)
    matchmaker.add_snapshots("u1")
    tags = Counter()
    for i in range(4000):
        spec = matchmaker(i)
        tags[spec.tags["learner"]] += 1
        if spec.tags["opponent"] == "main":
            role = Role.INVESTIGATOR if spec.tags["learner"].startswith("investigator") else Role.CULTIST
            other = Role.CULTIST if role == Role.INVESTIGATOR else Role.INVESTIGATOR
            assert spec.players[role] is exploiters[role] and spec.players[other] is matchmaker.learners[other]
    share = (tags["investigator_exploiter"] + tags["cultist_exploiter"]) / 4000
    assert share == pytest.approx(0.3, abs=0.025) and tags["investigator_exploiter"] > 500, tags


def test_a_fixed_league_stays_fixed():
    args = Args(**LEAGUE, opponents_from="x.pt", pool_size=1)
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    matchmaker.add_fixed({Role.INVESTIGATOR: tiny_net(3), Role.CULTIST: tiny_net(4)}, "target")
    for u in range(3):
        matchmaker.add_snapshots(f"u{u}")
    assert [[e.name for e in matchmaker.league.entries[r]] for r in ROLES] == [["investigator@target"], ["cultist@target"]]
    kinds = Counter(matchmaker(i).tags["opponent"] for i in range(200))
    assert kinds == {"pool": 200}


def test_one_learner_side_plays_only_that_side():
    args = Args(**LEAGUE, learner_sides=("cultist",))
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    matchmaker.add_snapshots("u1")
    assert Counter(matchmaker(i).tags["learner"] for i in range(300)) == {"cultist": 300}
    with pytest.raises(ValueError, match="one learner side trains only that role"):
        Args(learner_sides=("cultist",))  # the default self-play share would train both roles
    with pytest.raises(ValueError, match="learner_sides must name"):
        Args(**LEAGUE, learner_sides=("cultist", "cultist"))


def test_per_rollout_opponents_keep_each_rollout_to_a_few_entries():
    args = Args(**LEAGUE, league_opponents_per_rollout=2, pool_size=8)
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    for u in range(8):
        matchmaker.add_snapshots(f"u{u}")
    seen_overall = set()
    for rollout in range(20):
        names = {matchmaker(i).tags["opponent_name"] for i in range(100)}  # index 0 starts a rollout
        assert len(names) <= 4  # two per role
        seen_overall |= names
    assert len(seen_overall) > 8  # over many rollouts, most entries are drawn


def _league_trainer(tmp_path, **changes) -> Trainer:
    settings = dict(
        total_decisions=100_000, eval_every=0, progress=False, runs_dir=str(tmp_path), threads=1, hidden=(16,),
        num_games=8, decisions_per_rollout=300, minibatch_size=128, update_epochs=1, imitation_decisions=0,
        opponent_latest=0.2, opponent_heuristic=0.0, opponent_random=0.0, pfsp="hard", exploiter_share=0.3,
        exploiter_period=2, snapshot_every=1, pool_size=8,
    )
    return Trainer(preset("smoke", **{**settings, **changes}))


def test_a_league_run_trains_its_exploiters_then_restarts_them_from_the_main_learners(tmp_path):
    trainer = _league_trainer(tmp_path)
    start = {role: p.net.actor.weight.clone() for role, p in trainer.exploiters.items()}
    row = trainer.train_one_update()
    assert any(k.startswith("losses/investigator_exploiter/") for k in row), sorted(row)
    assert "rollout/investigator_exploiter_win_vs_main" in row or "rollout/cultist_exploiter_win_vs_main" in row
    trained = [role for role, p in trainer.exploiters.items() if not torch.equal(p.net.actor.weight, start[role])]
    assert trained, "an exploiter with games in the rollout has learned from them"
    trainer.train_one_update()  # update 2: the exploiters join the league and start over
    for role, exploiter in trainer.exploiters.items():
        names = [e.name for e in trainer.matchmaker.league.entries[role]]
        assert f"{role.name.lower()}-exploiter@u2" in names
        assert torch.equal(exploiter.net.actor.weight, trainer.nets[role].actor.weight)
    assert row["league/investigator_entries"] == 1 and row["league/cultist_entries"] == 1


def test_exploiters_may_learn_at_their_own_constant_rate(tmp_path):
    """exploiter_learning_rate: the exploiters' rate, not annealed and kept when they restart; the
    main learners' rate anneals as before. Without it the exploiters follow the learners' rate."""
    trainer = _league_trainer(tmp_path, learning_rate=1e-4, exploiter_learning_rate=3e-4, total_decisions=1_000)
    learners = []
    for update in range(3):  # update 2 restarts the exploiters with fresh optimizers
        trainer.train_one_update()
        rates = {key: optimizer.param_groups[0]["lr"] for key, (_, optimizer) in trainer.trained().items()}
        assert rates["INVESTIGATOR_EXPLOITER"] == rates["CULTIST_EXPLOITER"] == 3e-4, update
        assert rates["INVESTIGATOR"] == rates["CULTIST"], update
        learners.append(rates["CULTIST"])
    assert learners[0] == 1e-4 > learners[1] > learners[2]
    plain = _league_trainer(tmp_path, run_name="plain", learning_rate=1e-4, total_decisions=1_000, exploiter_period=10)
    plain.train_one_update()
    plain.train_one_update()
    rates = {key: optimizer.param_groups[0]["lr"] for key, (_, optimizer) in plain.trained().items()}
    assert len(set(rates.values())) == 1 and rates["CULTIST_EXPLOITER"] < 1e-4
    with pytest.raises(ValueError, match="exploiter_learning_rate"):
        Args(exploiter_learning_rate=-1.0)


def test_the_league_table_is_saved_with_the_run(tmp_path):
    trainer = _league_trainer(tmp_path)
    for _ in range(3):
        trainer.train_one_update()
    trainer.save(trainer.run_dir / "checkpoint.pt")
    table = json.loads((trainer.run_dir / "league.json").read_text())
    assert table["pfsp"] == "hard"
    rows = table["entries"]["cultist"]
    league = trainer.matchmaker.league
    assert [r["name"] for r in rows] == [e.name for e in league.entries[Role.CULTIST]]
    assert sum(r["games"] for r in rows) > 0, "pool games were played and recorded"
    assert [r["draw_probability"] for r in rows] == pytest.approx(league.probabilities(Role.CULTIST), abs=1e-4)
    for row, entry in zip(rows, league.entries[Role.CULTIST]):
        assert (row["games"], row["learner_wins"]) == (entry.games, entry.wins)
        assert sum(row["games_by_size"].values()) == entry.games  # every recorded game has its table size


def test_init_from_starts_the_learners_from_a_checkpoint(tmp_path):
    source = _league_trainer(tmp_path, run_name="source", exploiter_share=0.0)
    source.export_policies(tmp_path / "source.pt")
    trainer = _league_trainer(tmp_path, init_from=str(tmp_path / "source.pt"))
    for role in ROLES:
        assert torch.equal(trainer.nets[role].actor.weight, source.nets[role].actor.weight)
        assert torch.equal(trainer.exploiters[role].net.actor.weight, source.nets[role].actor.weight)
    with pytest.raises(ValueError, match="give the same hidden, shared_trunk and recurrent"):
        _league_trainer(tmp_path, init_from=str(tmp_path / "source.pt"), hidden=(8,))


def test_a_shipped_version_name_serves_as_init_from_and_as_an_anchor(tmp_path):
    """A shipped version's name stands for its file wherever a run reads policies (one resolution, `_checked_policies`)."""
    from rlyeh_env.players import PolicyCache

    shipped = PolicyCache().policies(VERSIONS[-1])
    shape = dict(hidden=(128, 128), shared_trunk=True)
    trainer = _league_trainer(tmp_path, init_from=VERSIONS[-1], league_anchors=(VERSIONS[-1],), **shape)
    for role in ROLES:
        assert torch.equal(trainer.nets[role].actor.weight, shipped[role].actor.weight)
        anchor = trainer.matchmaker.league.entries[role][0]
        assert anchor.name == f"{role.name.lower()}@anchor-{VERSIONS[-1]}"
        assert torch.equal(anchor.player.net.actor.weight, shipped[role].actor.weight)


def test_init_from_may_start_from_earlier_rules_where_a_league_entry_may_not(tmp_path, monkeypatch):
    """Weights trained under the last rules version are a start point for training under the next
    (fine-tuning to new rules); as an opponent they are still refused."""
    from rlyeh_env.engine import config as rules

    source = _league_trainer(tmp_path, run_name="source", exploiter_share=0.0)
    source.export_policies(tmp_path / "source.pt")
    monkeypatch.setattr(rules, "RULES_VERSION", rules.RULES_VERSION + 1)
    trainer = _league_trainer(tmp_path, init_from=str(tmp_path / "source.pt"))
    assert torch.equal(trainer.nets[Role.CULTIST].actor.weight, source.nets[Role.CULTIST].actor.weight)
    with pytest.raises(ValueError, match="trained under rules version"):
        _league_trainer(tmp_path, league_anchors=(str(tmp_path / "source.pt"),), run_name="anchored")


def test_league_anchors_join_as_ppo_starts(tmp_path):
    source = _league_trainer(tmp_path, run_name="source", exploiter_share=0.0)
    source.train_one_update()
    source.export_policies(tmp_path / "past.pt")
    anchors = ("untrained", str(tmp_path / "past.pt"), "warm-start", "warm-start:greedy", f"{tmp_path / 'past.pt'}:greedy")
    torch.manual_seed(7)
    trainer = _league_trainer(tmp_path, imitation_decisions=300, imitation_epochs=1, league_anchors=anchors,
                              total_decisions=1)
    untrained = {role: net.actor.weight.clone() for role, net in trainer.nets.items()}
    assert len(trainer.matchmaker.league) == 0, "the anchors wait for the warm start"
    trainer.train()
    for role in ROLES:
        entries = trainer.matchmaker.league.entries[role]
        prefix = role.name.lower()
        assert [e.name for e in entries[:5]] == [f"{prefix}@anchor-untrained", f"{prefix}@anchor-past",
                                                 f"{prefix}@anchor-warm-start", f"{prefix}@anchor-warm-start:greedy",
                                                 f"{prefix}@anchor-past:greedy"]
        assert {e.kind for e in entries[:5]} == {"anchor"}
        assert [e.player.greedy for e in entries[:5]] == [False, False, False, True, True]
        nets = [e.player.net for e in entries[:5]]
        assert torch.equal(nets[0].actor.weight, untrained[role])
        assert torch.equal(nets[1].actor.weight, source.nets[role].actor.weight)
        assert not torch.equal(nets[2].actor.weight, untrained[role]), "the warm start changed the learners"
        assert not torch.equal(nets[2].actor.weight, trainer.nets[role].actor.weight), "a frozen copy: PPO went on"
        assert torch.equal(nets[3].actor.weight, nets[2].actor.weight), "the same warm start, played greedily"
        assert torch.equal(nets[4].actor.weight, nets[1].actor.weight)
    # A saved league (a resumed run, a rollout worker's copy) keeps which entries play greedily.
    copied = League(trainer.args)
    copied.load_state_dict(trainer.matchmaker.league.state_dict(), trainer.nets)
    for role in ROLES:
        assert ([e.player.greedy for e in copied.entries[role]]
                == [e.player.greedy for e in trainer.matchmaker.league.entries[role]])


def test_bad_league_anchors_are_refused_before_any_work(tmp_path):
    with pytest.raises(ValueError, match=f"league_anchors must each be warm-start, untrained, {', '.join(VERSIONS)} or a checkpoint"):
        Args(league_anchors=("heuristic",))
    with pytest.raises(ValueError, match="optionally followed by :greedy"):
        Args(league_anchors=("warm-start:sampled",))
    with pytest.raises(ValueError, match="each once"):
        Args(league_anchors=("untrained", "untrained"))
    with pytest.raises(ValueError, match="league_anchors and opponents_from exclude each other"):
        Args(**LEAGUE, opponents_from="x.pt", league_anchors=("untrained",))
    source = _league_trainer(tmp_path, run_name="source", exploiter_share=0.0)
    source.export_policies(tmp_path / "past.pt")
    with pytest.raises(ValueError, match="league_anchors .*past.pt: its investigator network is"):
        _league_trainer(tmp_path, league_anchors=(str(tmp_path / "past.pt"),), hidden=(8,))
    (tmp_path / "other").mkdir()
    source.export_policies(tmp_path / "other" / "past.pt")
    with pytest.raises(ValueError, match="two anchors would be named past"):
        _league_trainer(tmp_path, league_anchors=(str(tmp_path / "past.pt"), str(tmp_path / "other" / "past.pt")))
    with pytest.raises(ValueError, match="missing.pt"):
        _league_trainer(tmp_path, league_anchors=(str(tmp_path / "missing.pt"),))


@pytest.mark.parametrize("per_rollout", [0, 2])
def test_the_anchor_share_of_pool_games_draws_among_the_anchors(per_rollout):
    args = Args(**LEAGUE, pool_size=6, league_anchors=("untrained", "warm-start"), league_anchor_share=0.5,
                league_opponents_per_rollout=per_rollout)
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    for k, name in enumerate(("untrained", "warm-start")):
        matchmaker.add_anchors({Role.INVESTIGATOR: tiny_net(10 + k), Role.CULTIST: tiny_net(20 + k)}, name)
    for u in range(6):
        matchmaker.add_snapshots(f"u{u}")
    games = [matchmaker(i % 200).tags["opponent_name"] for i in range(8000)]  # 40 rollouts of 200 games
    anchor_games = sum("@anchor-" in name for name in games) / len(games)
    assert anchor_games == pytest.approx(0.5 + 0.5 * 2 / 8, abs=0.04), anchor_games  # uniform PFSP: 2 of 8
    if per_rollout:
        for start in range(0, 8000, 200):
            rollout = {name for name in games[start:start + 200] if name.startswith("cultist")}
            assert len(rollout) <= per_rollout + 1  # its K entries and its one anchor
    with pytest.raises(ValueError, match="league_anchor_share must be in"):
        Args(**LEAGUE, league_anchor_share=0.3)  # no anchors to draw


@pytest.mark.parametrize("anchor_pfsp", ["uniform", "hard"])
def test_anchor_games_draw_by_their_own_weighting(anchor_pfsp):
    """Hard PFSP for the league, `league_anchor_pfsp` among the anchors: the anchor the learner
    always beats keeps its even share of anchor games only where the anchors draw uniformly."""
    league = League(Args(pfsp="hard", league_anchor_pfsp=anchor_pfsp, pool_size=4, pfsp_prior_games=0.0))
    for k, (name, wins) in enumerate((("untrained", 19), ("v0", 5))):
        league.add(Role.CULTIST, tiny_net(k), f"cultist@anchor-{name}", "anchor")
        for g in range(20):
            league.record(f"cultist@anchor-{name}", g < wins, 5)
    league.add(Role.CULTIST, tiny_net(5), "cultist@u1", "snapshot")
    for g in range(20):
        league.record("cultist@u1", g < 10, 5)
    rng = random.Random(3)
    drawn = Counter(league.draw(Role.CULTIST, rng, anchors_only=True).name for _ in range(4000))
    share = drawn["cultist@anchor-untrained"] / 4000
    expected = 0.5 if anchor_pfsp == "uniform" else 0.05 ** 2 / (0.05 ** 2 + 0.75 ** 2)
    assert share == pytest.approx(expected, abs=0.03), drawn
    assert "cultist@u1" not in drawn
    odds = league.probabilities(Role.CULTIST, anchors_only=True)
    assert odds == pytest.approx([0.5, 0.5] if anchor_pfsp == "uniform" else [expected, 1 - expected])
    assert league.probabilities(Role.CULTIST)[0] == pytest.approx(0.05 ** 2 / (0.05 ** 2 + 0.75 ** 2 + 0.5 ** 2))
    rows = {row["name"]: row for row in league.table()["entries"]["cultist"]}
    assert rows["cultist@anchor-untrained"]["anchor_draw_probability"] == pytest.approx(odds[0], abs=1e-4)
    assert "anchor_draw_probability" not in rows["cultist@u1"]
    with pytest.raises(ValueError, match="league_anchor_pfsp must be one of uniform, hard, even"):
        Args(league_anchor_pfsp="easy")


def _cultist_decisions(seed: int):
    """Real observations and masks of a 5-seat table: the cultist where it may accuse, the cultist
    voting on an investigator's accusation, an investigator where it may accuse."""
    from rlyeh_env.engine import actions as A
    from rlyeh_env.engine import GameConfig
    from rlyeh_env.table import Table

    table = Table(GameConfig(num_players=5), seed)
    cultist = next(seat for seat, player in enumerate(table.state.players) if player.role == Role.CULTIST)
    found = {}
    while len(found) < 3:
        seat, mask = table.decider, table.mask_of(table.decider)
        accusable = [a for a in range(A.ACCUSE, A.ACCUSE + A.MAX_OFFSET) if mask[a]]
        if mask[A.VOTE_YES]:
            if seat == cultist:
                found.setdefault("cultist votes", (table.observation(seat).copy(), mask.copy()))
            table.step(A.VOTE_NO)
        elif accusable and seat == cultist:
            found.setdefault("cultist accuses", (table.observation(seat).copy(), mask.copy()))
            table.step(A.RESEARCH)
        elif accusable:  # ACCUSE + k names the seat k + 1 places to the left: an investigator
            found.setdefault("investigator accuses", (table.observation(seat).copy(), mask.copy()))
            table.step(next(a for a in accusable if (seat + a - A.ACCUSE + 1) % 5 != cultist))
        else:
            table.step(table.legal_actions()[0])
    rows = [found[k] for k in ("cultist accuses", "cultist votes", "investigator accuses")]
    return torch.tensor(np.stack([o for o, _ in rows])), torch.tensor(np.stack([m for _, m in rows]))


def test_a_bluffing_anchor_accuses_and_votes_as_the_bluffing_cultist_does():
    """`training.players.bluff` on real observations: the cultist accuses a legal seat at the
    rate and votes Yes on an accusation; the investigator's row is never touched."""
    from rlyeh_env.engine import actions as A
    from training.players import bluff

    obs, mask = _cultist_decisions(seed=3)
    chosen = torch.tensor([A.RESEARCH, A.VOTE_NO, A.RESEARCH])
    generator = torch.Generator().manual_seed(0)
    always = bluff(chosen, obs, mask, 1.0, generator)
    assert mask[0, always[0]] and A.ACCUSE <= always[0] < A.ACCUSE + A.MAX_OFFSET, "a legal accusation"
    assert always[1:].tolist() == [A.VOTE_YES, A.RESEARCH]
    assert bluff(chosen, obs, mask, 0.0, generator).tolist() == [A.RESEARCH, A.VOTE_YES, A.RESEARCH]
    assert chosen.tolist() == [A.RESEARCH, A.VOTE_NO, A.RESEARCH], "the input is left as it was"
    many = torch.stack([bluff(chosen[:1], obs[:1], mask[:1], 0.3, generator)[0] for _ in range(2000)])
    assert 0.26 <= (many != A.RESEARCH).float().mean() <= 0.34
    assert set(many[many != A.RESEARCH].tolist()) == {a for a in range(A.ACCUSE, A.ACCUSE + A.MAX_OFFSET) if mask[0, a]}


def test_bluffing_anchors_are_named_so_and_keep_it_in_a_saved_league(tmp_path):
    trainer = _league_trainer(tmp_path, league_anchors=("untrained", "untrained:greedy:bluffs"), league_bluff_rate=0.25)
    for role in ROLES:
        entries = trainer.matchmaker.league.entries[role]
        assert [(e.player.greedy, e.player.bluff_rate) for e in entries] == [(False, 0.0), (True, 0.25)]
    copied = League(trainer.args)
    copied.load_state_dict(trainer.matchmaker.league.state_dict(), trainer.nets)
    assert [e.player.bluff_rate for e in copied.entries[Role.CULTIST]] == [0.0, 0.25]
    with pytest.raises(ValueError, match="optionally followed by :greedy and :bluffs"):
        Args(league_anchors=("untrained:bluff",))
    with pytest.raises(ValueError, match="league_bluff_rate must be in"):
        Args(league_bluff_rate=1.5)


def test_a_resumed_league_takes_new_anchors_and_keeps_its_records(tmp_path):
    """`--resume` with more `--league-anchors`: the saved entries keep their records and the new
    ones join after them (an exploiter found by scripts/exploit.py, say); a saved anchor cannot
    leave, and warm-start or untrained cannot join late."""
    source = _league_trainer(tmp_path, run_name="source", exploiter_share=0.0)
    source.export_policies(tmp_path / "found.pt")
    trainer = _league_trainer(tmp_path, league_anchors=("untrained",))
    trainer.train_one_update()
    trainer.save(trainer.run_dir / "checkpoint.pt")
    saved = {role: [(e.name, e.kind, e.games, e.wins) for e in trainer.matchmaker.league.entries[role]] for role in ROLES}
    assert sum(games for _, _, games, _ in saved[Role.CULTIST]) > 0, "records to keep"
    resumed = Trainer.resume(trainer.run_dir / "checkpoint.pt", league_anchors=("untrained", str(tmp_path / "found.pt")))
    for role in ROLES:
        entries = resumed.matchmaker.league.entries[role]
        assert [(e.name, e.kind, e.games, e.wins) for e in entries[:-1]] == saved[role]
        assert (entries[-1].name, entries[-1].kind, entries[-1].games) == (f"{role.name.lower()}@anchor-found", "anchor", 0)
        assert torch.equal(entries[-1].player.net.actor.weight, source.nets[role].actor.weight)
    unchanged = Trainer.resume(trainer.run_dir / "checkpoint.pt")
    assert [e.name for e in unchanged.matchmaker.league.entries[Role.CULTIST]] == [n for n, *_ in saved[Role.CULTIST]]
    with pytest.raises(ValueError, match="untrained cannot leave it"):
        Trainer.resume(trainer.run_dir / "checkpoint.pt", league_anchors=(str(tmp_path / "found.pt"),))
    with pytest.raises(ValueError, match="warm-start cannot join a resumed league"):
        Trainer.resume(trainer.run_dir / "checkpoint.pt", league_anchors=("untrained", "warm-start"))


def test_a_resumed_league_refuses_a_new_anchor_named_like_a_saved_one(tmp_path):
    """The league keeps its records by name: a new file whose name matches a saved anchor's
    would mix two opponents' win rates, so it is refused with a message saying to rename it."""
    source = _league_trainer(tmp_path, run_name="source", exploiter_share=0.0)
    (tmp_path / "other").mkdir()
    source.export_policies(tmp_path / "found.pt")
    source.export_policies(tmp_path / "other" / "found.pt")
    trainer = _league_trainer(tmp_path, league_anchors=(str(tmp_path / "found.pt"),))
    trainer.save(trainer.run_dir / "checkpoint.pt")
    with pytest.raises(ValueError, match="already has an anchor named found: give the file another name"):
        Trainer.resume(trainer.run_dir / "checkpoint.pt",
                       league_anchors=(str(tmp_path / "found.pt"), str(tmp_path / "other" / "found.pt")))
