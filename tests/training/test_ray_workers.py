"""The ray backend (training/ray_workers.py) on a local cluster of 2 CPUs: the Ray workers return
exactly what the local worker processes return for the same seeds, new weights and league entries
reach every worker, a killed worker is replaced and its share played again, and a worker's own
error is reported. Skipped where the `ray` extra is not installed."""

from __future__ import annotations

import pytest
import torch

ray = pytest.importorskip("ray", reason='the ray backend needs the ray extra: pip install -e ".[ray]"')

from training.ray_workers import RayRolloutWorkers, entry_key  # noqa: E402
from training.trainer import Trainer  # noqa: E402
from training.workers import RolloutWorkerError, RolloutWorkers, to_numpy  # noqa: E402

from rlyeh_env.policy.checkpoint import load_checkpoint  # noqa: E402
from training.exploit import run_exploit  # noqa: E402
from training.opponents import ROLES  # noqa: E402

from .test_exploit import SMOKE, target  # noqa: E402,F401 (target: the checkpoint fixture)
from .test_resume import LEAGUE, _assert_same_trainer  # noqa: E402
from .test_resume import _args as resume_args  # noqa: E402
from .test_workers import _args, _weights  # noqa: E402


@pytest.fixture(scope="module")
def local_cluster():
    """One local cluster for the module (starting one takes seconds): 2 CPUs, no dashboard, a
    small object store, as the backend itself would start it."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, object_store_memory=128 * 1024**2)
    yield
    ray.shutdown()


def _collect(workers, trainer: Trainer, update: int, weights: dict | None = None):
    args = trainer.args
    return workers.collect(weights or _weights(trainer), trainer.matchmaker, args.seed, update,
                           args.decisions_per_rollout)


def _assert_same(one, other) -> None:
    (batches, finished), (expected_batches, expected_finished) = one, other
    assert finished == expected_finished and len(finished) > 0
    assert batches.keys() == expected_batches.keys()
    for role_name, batch in batches.items():
        for key in batch:
            assert torch.equal(batch[key], expected_batches[role_name][key]), (role_name, key)


def _perturbed(weights: dict, scale: float) -> dict:
    return {role: {key: value * scale if value.dtype.kind == "f" else value for key, value in tensors.items()}
            for role, tensors in weights.items()}


def test_ray_and_local_workers_return_identical_rollouts_update_after_update(tmp_path, local_cluster):
    """Two updates with different weights and a league that grows between them: every worker
    plays with the new weights and the new entry (else the arrays would differ)."""
    args = _args(tmp_path, backend="ray")
    trainer = Trainer(args)
    trainer.matchmaker.add_snapshots("u0")
    local, remote = RolloutWorkers(args, 2), RayRolloutWorkers(args, 2)
    try:
        _assert_same(_collect(remote, trainer, 1), _collect(local, trainer, 1))
        trainer.matchmaker.add_snapshots("u1")  # a new league entry: sent once, by key
        changed = _perturbed(_weights(trainer), 1.5)
        _assert_same(_collect(remote, trainer, 2, changed), _collect(local, trainer, 2, changed))
        assert all(len(held) == 4 for held in remote._held)  # two snapshots of each role cached
    finally:
        local.close()
        remote.close()
    assert not remote.started_ray  # the fixture's cluster was up already: the workers leave it running


def test_a_killed_worker_is_replaced_and_its_share_played_again(tmp_path, local_cluster):
    args = _args(tmp_path, backend="ray")
    trainer = Trainer(args)
    trainer.matchmaker.add_snapshots("u0")
    remote = RayRolloutWorkers(args, 2, timeout=120.0)
    try:
        first = _collect(remote, trainer, 5)
        ray.kill(remote.actors[1], no_restart=True)
        again = _collect(remote, trainer, 5)  # the replacement gets the league afresh
        assert remote.replaced == 1
        _assert_same(again, first)
    finally:
        remote.close()


def test_a_worker_error_is_reported_and_the_next_rollout_works(tmp_path, local_cluster):
    args = _args(tmp_path, backend="ray")
    trainer = Trainer(args)
    remote = RayRolloutWorkers(args, 2)
    try:
        broken = _weights(trainer)
        broken["CULTIST"] = {key: value[..., :1] for key, value in broken["CULTIST"].items()}
        with pytest.raises(RolloutWorkerError, match=r"rollout worker 0 failed:(.|\n)*size mismatch"):
            _collect(remote, trainer, 0, broken)
        assert remote.replaced == 0  # a bug is not a lost node: no replacement, no retry
        batches, finished = _collect(remote, trainer, 0)
        assert set(batches) == {"INVESTIGATOR", "CULTIST"} and finished
    finally:
        remote.close()


def test_a_league_entry_key_follows_its_weights(tmp_path):
    weights = to_numpy(Trainer(_args(tmp_path)).nets[ROLES[0]].state_dict())
    assert entry_key("u1", weights) == entry_key("u1", {k: v.copy() for k, v in weights.items()})
    assert entry_key("u1", weights) != entry_key("u2", weights)
    assert entry_key("u1", weights) != entry_key("u1", {k: v + 1 for k, v in weights.items()})


def _trained(args, updates: int, save_to=None) -> Trainer:
    """A trainer after `updates` updates, its workers stopped (a cluster of 2 CPUs holds the
    workers of one trainer at a time)."""
    trainer = Trainer(args)
    try:
        for _ in range(updates):
            trainer.train_one_update()
        if save_to is not None:
            trainer.save(save_to)
    finally:
        trainer.close()
    return trainer


def test_a_run_on_ray_is_the_run_on_local_workers_and_resumes_bit_for_bit(tmp_path, local_cluster):
    """The league recipe's mechanisms (PFSP, exploiters joining, anchors) for two updates: on Ray
    workers the run is exactly the run on local worker processes, and a run saved after one update
    and resumed ends where the straight one does (the backend keeps nothing a checkpoint needs)."""
    args = resume_args(tmp_path, rollout_workers=2, backend="ray", **LEAGUE)
    straight = _trained(args, 2)
    _assert_same_trainer(_trained(args.replace(backend="local"), 2), straight)
    _trained(args, 1, save_to=tmp_path / "checkpoint.pt")
    resumed = Trainer.resume(tmp_path / "checkpoint.pt")
    assert resumed.args.backend == "ray"
    try:
        resumed.train_one_update()
    finally:
        resumed.close()
    _assert_same_trainer(straight, resumed)


def test_workers_the_cluster_cannot_place_are_a_clear_error(tmp_path, local_cluster):
    """Three workers of one CPU each on a cluster of two: refused within the start timeout,
    saying why, instead of waiting for a rollout that never comes."""
    with pytest.raises(RolloutWorkerError, match="could not start 3 rollout workers"):
        RayRolloutWorkers(_args(tmp_path, backend="ray", rollout_workers=3), 3, start_timeout=5.0)


def test_an_exploitability_report_on_ray_holds_the_local_numbers(target, tmp_path, local_cluster):
    """`exploit --backend ray`: both exploiters trained as Ray tasks and the evaluation's
    match-ups as Ray tasks give the report the local run gives, game for game."""
    reports = {}
    for backend in ("local", "ray"):
        reports[backend] = run_exploit(target, tmp_path / backend, [4, 7], 600, 12, seed=3, workers=1, progress=False,
                                       train_overrides=SMOKE, log=lambda *_: None, backend=backend)
    local, remote = reports["local"], reports["ray"]
    assert remote["rows"] == local["rows"] and remote["decisions_made"] == local["decisions_made"]
    for side in ("investigator", "cultist"):  # the same networks, saved on the driver
        trained = load_checkpoint(remote["exploiters"][side])["policies"]
        for role, entry in load_checkpoint(local["exploiters"][side])["policies"].items():
            assert entry["weights"].keys() == trained[role]["weights"].keys()
            for name, tensor in entry["weights"].items():
                assert torch.equal(trained[role]["weights"][name], tensor), (side, role, name)
    assert remote["exploiters"]["cultist"] == str(tmp_path / "ray" / "cultist" / "policies.pt")
    assert (tmp_path / "ray" / "report.md").read_text() == (tmp_path / "local" / "report.md").read_text()
