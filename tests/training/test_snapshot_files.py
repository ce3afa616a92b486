"""A run keeps light policy files of its history, which load as bots and can be rated."""

from __future__ import annotations

from rlyeh_env.policy import load_policies
from rlyeh_env.policy.checkpoint import load_checkpoint
from training.config import Args
from training.trainer import Trainer


def test_snapshot_files_are_written_every_n_updates(tmp_path):
    args = Args(hidden=(16,), threads=1, progress=False, runs_dir=str(tmp_path), run_name="run", num_games=8,
                decisions_per_rollout=300, total_decisions=100_000, eval_every=0, checkpoint_every=10,
                snapshot_files_every=2, minibatch_size=128)
    Trainer(args).train(max_updates=4)
    files = sorted(p.name for p in (tmp_path / "run" / "snapshots").iterdir())
    assert files == ["u00002.pt", "u00004.pt"]
    data = load_checkpoint(tmp_path / "run" / "snapshots" / "u00002.pt", kind="policy")
    assert data["update"] == 2 and set(load_policies(tmp_path / "run" / "snapshots" / "u00004.pt")) == {0, 1}


def test_no_snapshot_files_when_turned_off(tmp_path):
    args = Args(hidden=(16,), threads=1, progress=False, runs_dir=str(tmp_path), run_name="run", num_games=8,
                decisions_per_rollout=300, total_decisions=100_000, eval_every=0, snapshot_files_every=0,
                minibatch_size=128)
    Trainer(args).train(max_updates=2)
    assert not (tmp_path / "run" / "snapshots").exists()
