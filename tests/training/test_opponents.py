"""The matchmaker's opponent draws: the documented mixture, and the scripted fine-tune that the
trainer switches on for the run's last `finetune_decisions`."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from training.config import Args, preset
from training.opponents import Matchmaker
from training.trainer import Trainer

from .training_testkit import learners


def _draws(args: Args, finetune: bool, games: int = 4000, tag: str = "opponent") -> Counter:
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    matchmaker.add_snapshots("u1")
    matchmaker.finetune = finetune
    return Counter(matchmaker(i).tags[tag] for i in range(games))


def test_mixed_phase_draws_every_kind_in_its_proportion():
    args = Args(opponent_latest=0.3, opponent_heuristic=0.35, opponent_random=0.15)
    kinds = _draws(args, finetune=False)
    for kind, share in (("latest", 0.3), ("heuristic", 0.35), ("random", 0.15), ("pool", 0.2)):
        assert kinds[kind] / 4000 == pytest.approx(share, abs=0.03), kinds


def test_finetune_draws_only_scripted_bots_in_its_proportion():
    kinds = _draws(Args(finetune_heuristic=0.7, finetune_decisions=1), finetune=True)
    assert set(kinds) == {"heuristic", "random"}, kinds
    assert kinds["heuristic"] / 4000 == pytest.approx(0.7, abs=0.03)


def test_finetune_draws_each_table_size_with_its_own_heuristic_share():
    args = Args(finetune_heuristic=(0.9, 0.9, 0.9, 0.2, 0.5), finetune_table_sizes=(4, 7, 8), finetune_decisions=1)
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    matchmaker.finetune = True
    kinds = {n: Counter() for n in (4, 7, 8)}
    for i in range(6000):
        spec = matchmaker(i)
        kinds[spec.config.num_players][spec.tags["opponent"]] += 1
    for n, share in ((4, 0.9), (7, 0.2), (8, 0.5)):
        assert set(kinds[n]) == {"heuristic", "random"}, kinds[n]
        assert kinds[n]["heuristic"] / kinds[n].total() == pytest.approx(share, abs=0.04), (n, kinds[n])


def test_one_heuristic_share_serves_every_size_and_a_plain_number_is_read_as_one():
    assert Args(finetune_heuristic=0.4) == Args(finetune_heuristic=(0.4,))  # runs before v0.5 stored a number
    assert [Args(finetune_heuristic=(0.4,)).finetune_heuristic_at(n) for n in range(4, 9)] == [0.4] * 5
    shares = (0.1, 0.2, 0.3, 0.4, 0.5)
    assert [Args(finetune_heuristic=shares).finetune_heuristic_at(n) for n in range(4, 9)] == list(shares)


@pytest.mark.parametrize("bad", [(0.5, 0.5), (0.5,) * 6, (0.5, 0.5, 0.5, 0.5, 1.2), (-0.1,), ()])
def test_heuristic_shares_of_the_wrong_count_or_range_are_refused(bad):
    with pytest.raises(ValueError, match="finetune_heuristic must be one value in \\[0, 1\\] or five"):
        Args(finetune_heuristic=bad)


@pytest.mark.parametrize("share", [0.5, 0.75, 1.0])
def test_finetune_gives_the_investigators_side_to_the_learner_in_its_proportion(share):
    sides = _draws(Args(finetune_decisions=1, finetune_investigator_share=share), finetune=True, tag="learner")
    assert sides["investigator"] / 4000 == pytest.approx(share, abs=0.03), sides
    assert sides["investigator"] + sides["cultist"] == 4000


def _sizes(args: Args, finetune: bool, games: int = 4000) -> Counter:
    matchmaker = Matchmaker(args, learners(), random.Random(0))
    matchmaker.finetune = finetune
    return Counter(matchmaker(i).config.num_players for i in range(games))


def test_finetune_draws_its_own_table_sizes_weighted_by_repeats():
    args = Args(table_sizes=(4, 5, 6), finetune_table_sizes=(7, 8, 8), finetune_decisions=1)
    mixed, finetune = _sizes(args, finetune=False), _sizes(args, finetune=True)
    assert set(mixed) == {4, 5, 6}, mixed
    assert set(finetune) == {7, 8}, finetune
    assert finetune[8] / 4000 == pytest.approx(2 / 3, abs=0.03), finetune


def test_finetune_without_its_own_sizes_uses_table_sizes():
    finetune = _sizes(Args(table_sizes=(5, 8), finetune_decisions=1), finetune=True)
    assert set(finetune) == {5, 8} and finetune[5] / 4000 == pytest.approx(0.5, abs=0.03), finetune


def test_mixed_phase_ignores_the_finetune_side_share():
    sides = _draws(Args(finetune_investigator_share=1.0), finetune=False, tag="learner")
    assert sides["cultist"] / (sides["cultist"] + sides["investigator"]) == pytest.approx(0.5, abs=0.03), sides


def test_trainer_switches_to_the_finetune_for_the_last_decisions(tmp_path):
    args = preset("smoke", runs_dir=str(tmp_path), total_decisions=6_000, finetune_decisions=3_000,
                  imitation_decisions=0, eval_every=0, progress=False)
    trainer = Trainer(args)
    phases = []
    while trainer.decisions < args.total_decisions:
        before = trainer.decisions
        row = trainer.train_one_update()
        phases.append((before >= 3_000, row["charts/finetune"] == 1.0, {k for k in row if k.startswith("rollout/")}))
    assert [in_finetune for in_finetune, _, _ in phases] == [flag for _, flag, _ in phases]
    assert any(flag for _, flag, _ in phases) and not phases[0][1]
    for in_finetune, _, figures in phases:
        if in_finetune:  # no self-play and no pool games in the fine-tune's rollouts
            assert not any("selfplay" in name or "pool" in name or "latest" in name for name in figures), figures


def test_finetune_longer_than_the_run_is_refused():
    with pytest.raises(ValueError, match="finetune_decisions"):
        Args(total_decisions=100, finetune_decisions=101)
    with pytest.raises(ValueError, match="finetune_heuristic"):
        Args(finetune_heuristic=1.5)


def test_learning_curves_mark_where_the_finetune_starts(tmp_path):
    from training.plots import finetune_start, plot_learning_curves

    history = [{"update": 0, "charts/decisions": 0}]
    history += [{"update": u, "charts/decisions": 100 * u, "charts/finetune": float(u > 3),
                 "losses/investigator/entropy": 1.0 / u} for u in range(1, 6)]
    assert finetune_start(history) == 300  # decisions made before the first fine-tune update
    assert finetune_start(history[:4]) is None
    plot_learning_curves(history, tmp_path / "curves.png")
    assert (tmp_path / "curves.png").stat().st_size > 0
