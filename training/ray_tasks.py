"""Whole jobs as Ray tasks: an exploiter's training and tournament match-ups (`exploit --backend ray`).

A task may run on any node of the cluster, whose disk is not the driver's. So checkpoint files
travel as bytes through the object store (put once): a task writes them under a folder named by
their digest in its node's temporary directory (written once per node, so a worker process's
policy cache keeps serving them) and plays or trains from there, with the file names the driver
used, which is what league entries and results are named by. What comes back (an exploiter's
policy file, its training history, match results) is plain data the driver saves.

Every task does what the local code does with the same settings and seeds, so a report made on
Ray holds the numbers a local one does (tests/training/test_ray_workers.py).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from dataclasses import asdict, replace
from pathlib import Path

from .config import Args
from .ray_workers import require_ray


def node_copy(name: str, content: bytes) -> Path:
    """The file `name` with this content on this node: written once (atomically) into a folder
    named by the content's digest, so equal contents share one path."""
    folder = Path(tempfile.gettempdir()) / "rlyeh-ray-files" / hashlib.blake2b(content, digest_size=12).hexdigest()
    path = folder / Path(name).name
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / f".{path.name}.{os.getpid()}.part"
        partial.write_bytes(content)
        os.replace(partial, path)
    return path


def train_exploiter(settings: dict, checkpoint_name: str, checkpoint: bytes) -> tuple[bytes, list[dict], float]:
    """Train one exploiter as `run_exploit` would, from a copy of the checkpoint on this node; its
    run folder is temporary. Returns its policy file, its history and its training seconds."""
    from .trainer import Trainer

    path = str(node_copy(checkpoint_name, checkpoint))
    with tempfile.TemporaryDirectory(prefix="rlyeh-exploiter-") as runs_dir:
        args = Args(**{**settings, "opponents_from": path, "init_from": path if settings["init_from"] else "",
                       "runs_dir": runs_dir, "progress": False})
        started = time.perf_counter()
        trainer = Trainer(args)
        try:
            trainer.train()
        finally:
            trainer.close()
        return (trainer.run_dir / "policies.pt").read_bytes(), trainer.history, time.perf_counter() - started


def play_job_with_files(job: tuple, files: dict[str, bytes]):
    """A tournament match-up (`rlyeh_env.tournament.play_job`) whose players may be checkpoint
    files of the driver: played from this node's copies, named as the driver named them."""
    from rlyeh_env.tournament import play_job

    inv, cult, *rest = job
    local = {name: str(node_copy(name, content)) for name, content in files.items()}
    result = play_job((local.get(inv, inv), local.get(cult, cult), *rest))
    return replace(result, investigators=inv, cultists=cult)


def exploiters_on_ray(settings: dict[str, Args], checkpoint: str, cpus: int, address: str) -> dict:
    """Each side's exploiter trained in its own task of `cpus` CPUs, all at once: {side: (policy
    file bytes, history, seconds)}."""
    ray = require_ray()
    from .ray_workers import start_ray

    start_ray(address, max(cpus, os.cpu_count() or 1))  # a local cluster: this machine's cores
    task = ray.remote(num_cpus=cpus)(train_exploiter)
    content = ray.put(Path(checkpoint).read_bytes())
    name = Path(checkpoint).name
    refs = {side: task.remote(asdict(args), name, content) for side, args in settings.items()}
    return dict(zip(refs, ray.get(list(refs.values()))))


def tournament_on_ray(jobs: list[tuple], files: list[str], address: str, progress: bool = True) -> list:
    """The match-ups as tasks of one CPU each, results in the jobs' order; `files` are the
    checkpoint files among the players, sent once."""
    ray = require_ray()
    from rlyeh_env.progress import progress_bar

    from .ray_workers import start_ray

    start_ray(address, os.cpu_count() or 1)
    task = ray.remote(num_cpus=1)(play_job_with_files)
    contents = ray.put({name: Path(name).read_bytes() for name in files})
    refs = [task.remote(job, contents) for job in jobs]
    bar = progress_bar(progress, sum(job[3] for job in jobs), "tournament on Ray", unit="game")
    waiting, games = list(refs), {ref: job[3] for ref, job in zip(refs, jobs)}
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        if bar is not None:
            bar.update(games[done[0]])
    if bar is not None:
        bar.close()
    return ray.get(refs)
