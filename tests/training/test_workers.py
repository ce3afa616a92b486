"""Rollouts in worker processes (`Args.rollout_workers`): the workers return exactly what the
same rollout parts play in-process, joined batches keep every agent's trajectory apart, and a
failing worker reports its traceback without leaving a stale reply behind. (Resuming a run with
workers bit for bit is in test_resume.py.)"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from training.config import preset
from training.trainer import Trainer
from training.workers import (
    RolloutPart,
    RolloutRequest,
    RolloutWorkerError,
    RolloutWorkers,
    SparseRows,
    join_batches,
    pack_batch,
    split,
    to_numpy,
    worker_seed,
)


def _args(tmp_path, **changes):
    settings = dict(eval_every=0, progress=False, runs_dir=str(tmp_path), threads=1, hidden=(16,), num_games=6,
                    decisions_per_rollout=400, imitation_decisions=0, rollout_workers=2)
    return preset("smoke", **{**settings, **changes})


def _weights(trainer: Trainer) -> dict:
    return {role.name: to_numpy(net.state_dict()) for role, net in trainer.nets.items()}


def _in_process(args, trainer: Trainer, update: int):
    """The two workers' shares played here, one `RolloutPart` each."""
    parts = []
    for w, (slots, share) in enumerate(zip(split(args.num_games, 2), split(args.decisions_per_rollout, 2))):
        part = RolloutPart(args, slots)
        request = RolloutRequest(_weights(trainer), to_numpy(trainer.matchmaker.state_dict()),
                                 trainer.matchmaker.league.records(), trainer.matchmaker.finetune,
                                 worker_seed(args.seed, update, w), share)
        parts.append(part.run(request))
    return parts


def test_sparse_rows_rebuild_the_dense_rows_exactly():
    rng = np.random.default_rng(0)
    dense = np.where(rng.random((50, 37)) < 0.1, rng.random((50, 37)), 0.0).astype(np.float32)
    dense[3] = 0.0  # an all-zero row
    packed = SparseRows.pack(dense)
    assert packed.positions.dtype == np.int32 and len(packed.values) == np.count_nonzero(dense)
    out = np.zeros_like(dense)
    packed.unpack_into(out)
    assert np.array_equal(out, dense)
    with pytest.raises(ValueError, match="C-contiguous array of shape"):
        packed.unpack_into(np.zeros((37, 50), np.float32))


def test_a_packed_batch_joins_back_to_exactly_the_played_batch(tmp_path):
    args = _args(tmp_path, central_critic=True, rollout_workers=1)
    batches, _ = Trainer(args)._rollout(bar=None)  # played in-process: dense tensors
    for batch in batches.values():
        packed = to_numpy(pack_batch(batch))  # as a worker packs: the tensors read in place
        for key in ("obs", "critic_input"):  # real observations are mostly zeros: far fewer bytes
            assert isinstance(packed[key], SparseRows)
            assert packed[key].values.nbytes + packed[key].positions.nbytes < 0.4 * batch[key].numpy().nbytes
        joined = join_batches([packed])
        assert joined.keys() == batch.keys()
        for key in batch:
            assert joined[key].dtype == batch[key].dtype and torch.equal(joined[key], batch[key]), key


def test_split_shares_add_up():
    assert split(128, 2) == [64, 64] and split(7, 3) == [3, 2, 2] and sum(split(16_384, 3)) == 16_384


def test_workers_return_what_the_same_parts_play_in_process(tmp_path):
    args = _args(tmp_path)
    trainer = Trainer(args)
    trainer.matchmaker.add_snapshots("u0")  # a pool to send, so pool games can be drawn too
    workers = RolloutWorkers(args, 2)
    try:
        batches, finished = workers.collect(_weights(trainer), trainer.matchmaker, args.seed, 3,
                                            args.decisions_per_rollout)
    finally:
        workers.close()
    parts = _in_process(args, trainer, update=3)
    expected_games = [game for _, games in parts for game in games]
    assert finished == expected_games and len(finished) > 0
    for role_name, batch in batches.items():
        expected = join_batches([batches_[role_name] for batches_, _ in parts])
        assert batch.keys() == expected.keys()
        for key in batch:
            assert torch.equal(batch[key], expected[key]), (role_name, key)
    decisions = sum(len(batch["actions"]) for batch in batches.values())
    assert decisions >= args.decisions_per_rollout


def test_joined_batches_keep_each_agent_trajectory_apart(tmp_path):
    args = _args(tmp_path)
    parts = [batches["INVESTIGATOR"] for batches, _ in _in_process(args, Trainer(args), update=0)]
    joined = join_batches(parts)
    assert len(joined["actions"]) == sum(len(part["actions"]) for part in parts)
    trajectory, links = joined["trajectory"].numpy(), joined["next_index"].numpy()
    assert len(np.unique(trajectory)) == sum(len(np.unique(part["trajectory"])) for part in parts)
    linked = np.flatnonzero(links >= 0)
    assert len(linked) > 0
    assert (links[linked] > linked).all() and (trajectory[links[linked]] == trajectory[linked]).all()
    # every trajectory ends once: links count decisions minus trajectories
    assert len(linked) == len(trajectory) - len(np.unique(trajectory))


def test_a_failing_worker_reports_its_traceback_and_the_next_rollout_works(tmp_path):
    args = _args(tmp_path)
    trainer = Trainer(args)
    workers = RolloutWorkers(args, 2)
    try:
        broken = _weights(trainer)
        broken["CULTIST"] = {key: value[..., :1] for key, value in broken["CULTIST"].items()}
        with pytest.raises(RolloutWorkerError, match=r"rollout worker 0 failed:(.|\n)*size mismatch"):
            workers.collect(broken, trainer.matchmaker, args.seed, 0, args.decisions_per_rollout)
        batches, finished = workers.collect(_weights(trainer), trainer.matchmaker, args.seed, 0,
                                            args.decisions_per_rollout)
        assert set(batches) == {"INVESTIGATOR", "CULTIST"} and finished
    finally:
        workers.close()
    assert not any(process.is_alive() for process in workers._processes)
