"""scripts/benchmark_ray.py: its contenders are valid league runs differing only in backend and
workers, and the paper estimate is the model its docstring states."""

import pytest

from training.config import preset

from .training_testkit import load_script



@pytest.fixture(scope="module")
def bench():
    return load_script("benchmark_ray")


def test_contenders_differ_only_in_backend_and_workers(bench, monkeypatch):
    import training.speed

    calls = []
    monkeypatch.setattr(training.speed, "our_training_rate",
                        lambda seconds, num_players, **kwargs: calls.append(kwargs) or {})
    for name in bench.CONTENDERS:
        bench.contender_rate(name, 1.0, 5)
        preset("league", **bench.CONTENDERS[name])  # each a valid league run
    assert [(c["rollout_workers"], c["backend"]) for c in calls] == [(1, "local"), (2, "local"), (1, "ray"), (2, "ray")]
    assert all(c["recipe"] == "league" and c["opponents"] == "mixed" for c in calls)


def test_the_estimate_adds_rollout_transfer_and_update_time(bench):
    sizes = {"weights_bytes": 1e6, "entry_bytes": 5e5, "rollout_bytes_per_decision": 1000.0,
             "decisions_per_rollout": 30_000, "snapshot_every": 10}
    one = bench.estimate(1, 8, 1e9, worker_rate=1000.0, update_seconds=2.0, sizes=sizes)
    assert one["workers"] == 8 - bench.LEARNER_CORES
    assert one["rollout_s"] == pytest.approx(30_000 / (6 * 1000.0))
    assert one["transfer_s"] == pytest.approx((1e6 + 2 * 5e5 / 10 + 30_000 * 1000.0) / 1e9)
    assert one["rate"] == pytest.approx(30_000 / (one["rollout_s"] + one["transfer_s"] + 2.0))
    eight = bench.estimate(8, 8, 1e9, worker_rate=1000.0, update_seconds=2.0, sizes=sizes)
    assert eight["workers"] == 62 and one["rate"] < eight["rate"] < 30_000 / 2.0  # the update bounds it
