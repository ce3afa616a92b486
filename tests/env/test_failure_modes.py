"""The failure modes that once hung or crashed late: a checkpoint whose network does not fit the
env, more workers than work, a worker that stops answering, and a result file that cannot be
written at the end."""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")

from rlyeh_env.engine.actions import NUM_ACTIONS  # noqa: E402
from rlyeh_env.observation import SEAT_LAYOUT  # noqa: E402
from rlyeh_env.policy import ActorCritic, CheckpointError, load_policies, save_checkpoint  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _policy_file(path: Path, obs_size: int, num_actions: int) -> Path:
    """A policy checkpoint whose two networks are self-consistent, of the sizes given."""
    nets = {role: ActorCritic(obs_size, num_actions, (8,), shared_trunk=True) for role in ("INVESTIGATOR", "CULTIST")}
    policies = {role: {"spec": net.spec(), "weights": net.state_dict()} for role, net in nets.items()}
    save_checkpoint(path, {"kind": "policy", "args": {}, "policies": policies, "update": 0, "decisions": 0})
    return path


@pytest.mark.parametrize("obs_size, num_actions, named", [(100, NUM_ACTIONS, "obs_size 100"),
                                                           (SEAT_LAYOUT.size, 7, "num_actions 7")])
def test_a_network_that_does_not_fit_the_env_is_refused_on_load(tmp_path, obs_size, num_actions, named):
    path = _policy_file(tmp_path / "odd.pt", obs_size, num_actions)
    with pytest.raises(CheckpointError, match=f"does not fit this env: {named}"):
        load_policies(path)


def test_a_fitting_network_loads(tmp_path):
    nets = load_policies(_policy_file(tmp_path / "fine.pt", SEAT_LAYOUT.size, NUM_ACTIONS))
    assert len(nets) == 2


@pytest.mark.parametrize("command", [["eval", "--lineup", "{file},random", "--games", "1"],
                                     ["play", "--bots", "{file}", "--instant"],
                                     ["watch", "--bots", "{file}", "--instant"]])
def test_commands_refuse_a_misfit_checkpoint_before_playing(tmp_path, command):
    path = _policy_file(tmp_path / "odd.pt", 100, NUM_ACTIONS)
    argv = [sys.executable, "-m", "rlyeh_env.cli"] + [part.format(file=path) for part in command]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "obs_size 100 (the env needs 1369)" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "replays").exists()


def test_more_workers_than_match_ups_do_not_hang(tmp_path):
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "evaluate.py"), "--workers", "50", "--lineup", "random,random",
         "--sizes", "4", "--games", "1", "--no-progress"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "| 4 | random | random | 1 |" in done.stdout
    assert time.monotonic() - started < 60


def _stuck(connection) -> None:
    time.sleep(60)


def test_a_rollout_worker_that_stops_answering_is_an_error_not_a_hang():
    from training.workers import RolloutWorkerError, RolloutWorkers

    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    process = context.Process(target=_stuck, args=(child,), daemon=True)
    process.start()
    try:
        workers = SimpleNamespace(_connections=[parent], _processes=[process], timeout=2.0)
        started = time.monotonic()
        error = RolloutWorkers._receive(workers, 0)
        assert isinstance(error, RolloutWorkerError) and "no rollout in 2 s" in str(error)
        assert time.monotonic() - started < 10
        process.terminate()
        process.join(5)
        error = RolloutWorkers._receive(workers, 0)  # and one that died says so
        assert isinstance(error, RolloutWorkerError) and "died" in str(error)
    finally:
        process.kill()
        process.join(5)


def test_a_result_file_that_cannot_be_written_at_the_end_keeps_the_results(tmp_path, monkeypatch, capsys):
    from training import commands

    def refuse(path, text):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(commands, "atomic_write_text", refuse)
    out = tmp_path / "results.json"
    code = commands.eval_main(["--lineup", "random,random", "--sizes", "4", "--games", "2", "--json", str(out),
                               "--no-progress", "--threads", "1"])
    captured = capsys.readouterr()
    assert code == 2
    assert "| 4 | random | random | 2 |" in captured.out, "the results are printed before the failed write"
    assert f"could not save the results to {out}" in captured.err and "the table above" in captured.err
    assert not out.exists()
