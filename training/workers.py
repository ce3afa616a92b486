"""`RolloutWorkers`: an update's rollout split over worker processes (`Args.rollout_workers`).

Rollouts are about three quarters of an update's time (engine, encoder, small forwards, scripted
bots: Python on one thread), while the update's matrix products already use every core. With W
workers, worker w plays its share of the `num_games` lockstep slots until it has made its share
of `decisions_per_rollout` learner decisions, then finishes its games under way; the trainer
joins the W batches and runs the PPO update while the workers wait.

It is the same algorithm as one process: every worker plays with the learners' weights of this
update (sent before each rollout), so the data stays exactly on-policy (no policy lag); only the
random streams differ. Worker w draws its tables, opponents and actions from generators seeded by
(`seed`, update, w), so a run is reproducible for a given W, and a resumed run continues bit for
bit without any worker state in the checkpoint. The league's networks are sent when they have
changed, its recorded win rates (which PFSP draws by) with every request.
Workers are spawned processes (no torch state is forked), so a script that trains with
`rollout_workers > 1` must do so under `if __name__ == "__main__":`.

Everything crosses the process boundary as numpy arrays (no torch tensor sharing), and each
worker computes its own GAE, which runs along one agent's trajectory and so never spans workers.
Observation rows (and the central critic's truth rows) travel as their nonzero entries
(`SparseRows`): about 8% of an observation is nonzero, and sending the dense float32 rows (about
60 MB per worker per update) kept the trainer waiting on the pipe for a third of the workers'
playing time. The trainer rebuilds them exactly.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import traceback
import weakref
from dataclasses import dataclass

import numpy as np
import torch

from .collector import Collector, FinishedGame
from .config import Args
from .opponents import Matchmaker
from .players import exploiter_players, learner_players, trainees

TRAJECTORY_STRIDE = 1 << 40  # worker w's trajectory ids are offset by w * this, keeping agents apart
SPARSE_KEYS = ("obs", "critic_input")  # batch entries sent as their nonzero entries


@dataclass
class SparseRows:
    """A 2-D array as its nonzero entries: positions in the row-major array and their values."""

    shape: tuple[int, int]
    positions: np.ndarray  # int32 where the array is small enough (always, at our batch sizes)
    values: np.ndarray

    @classmethod
    def pack(cls, dense) -> "SparseRows":
        """From a 2-D numpy array or CPU tensor (read in place, not copied)."""
        dense = np.asarray(dense)
        positions = np.flatnonzero(dense)
        if dense.size < 2**31:
            positions = positions.astype(np.int32)
        return cls(dense.shape, positions, np.ascontiguousarray(dense).ravel()[positions])

    def unpack_into(self, out: np.ndarray) -> None:
        """Write the rows into `out`, a zeroed C-contiguous array of `shape`."""
        if out.shape != self.shape or not out.flags.c_contiguous:
            raise ValueError(f"unpack_into needs a C-contiguous array of shape {self.shape}, got {out.shape}")
        out.reshape(-1)[self.positions] = self.values


def pack_batch(batch: dict) -> dict:
    """The batch (numpy arrays or tensors) with its `SPARSE_KEYS` entries as `SparseRows` (for the
    pipe)."""
    return {key: SparseRows.pack(value) if key in SPARSE_KEYS else value for key, value in batch.items()}


@dataclass
class RolloutRequest:
    weights: dict[str, dict[str, np.ndarray]]  # trainee key (players.trainee_key) -> state dict
    pool: dict | None  # the league's state when its networks changed since the last request
    records: dict[str, tuple]  # the league's win-rate records (League.records), always
    finetune: bool
    seed: int
    learner_decisions: int


def worker_seed(seed: int, update: int, worker: int) -> int:
    """The seed of worker `worker`'s generators for update `update` (string seeding is stable)."""
    return random.Random(f"rollout/{seed}/{update}/{worker}").getrandbits(63)


def split(total: int, parts: int) -> list[int]:
    """`total` as `parts` near-equal shares (the first ones one larger)."""
    return [total // parts + (w < total % parts) for w in range(parts)]


class RolloutPart:
    """One worker's learners, matchmaker and collector; `run` plays one update's share."""

    def __init__(self, args: Args, num_slots: int):
        self.args = args
        self.learners = learner_players(args)
        exploiters = exploiter_players(args)
        self.trainees = trainees(self.learners, exploiters)
        self.matchmaker = Matchmaker(args, self.learners, random.Random(0), exploiters)
        self.collector = Collector(num_slots, torch.Generator(), args.central_critic)

    def run(self, request: RolloutRequest) -> tuple[dict[str, dict[str, np.ndarray]], list[FinishedGame]]:
        """Each trainee's finished batch (numpy) and the finished games."""
        for key, player in self.trainees.items():
            player.net.load_state_dict(to_torch(request.weights[key]))
        if request.pool is not None:
            self.matchmaker.load_state_dict(to_torch(request.pool))
        self.matchmaker.league.set_records(request.records)
        self.matchmaker.rng = random.Random(request.seed)
        self.matchmaker.finetune = request.finetune
        self.collector.generator = torch.Generator().manual_seed(request.seed)
        buffers, finished = self.collector.run(
            self.matchmaker, self.trainees, learner_decisions=request.learner_decisions
        )
        batches = {
            key: to_numpy(pack_batch(buffer.finish(self.args.gamma, self.args.gae_lambda)))
            for key, buffer in buffers.items()
            if len(buffer)
        }
        return batches, finished


def join_batches(parts: list[dict]) -> dict[str, torch.Tensor]:
    """One batch from the workers' (packed) batches of a role: rows in worker order, trajectory
    ids kept apart, `next_index` links shifted to the joined rows, sparse rows made dense."""
    fixed = []
    offset = 0
    for w, part in enumerate(parts):
        part = dict(part)
        part["trajectory"] = part["trajectory"] + w * TRAJECTORY_STRIDE
        links = part["next_index"]
        part["next_index"] = np.where(links >= 0, links + offset, -1)
        offset += len(links)
        fixed.append(part)
    return {key: torch.from_numpy(_concatenate([part[key] for part in fixed])) for key in fixed[0]}


def join_results(keys: list[str], results: list) -> tuple[dict[str, dict[str, torch.Tensor]], list[FinishedGame]]:
    """The workers' (batches, finished games) as one batch per trainee key, in the order of
    `keys` (the trainer's, so the updates run in the same order every time), and every finished
    game, worker by worker."""
    batches = {}
    for key in keys:
        parts = [result[0][key] for result in results if key in result[0]]
        if parts:
            batches[key] = join_batches(parts)
    return batches, [game for result in results for game in result[1]]


def _concatenate(pieces: list) -> np.ndarray:
    if not isinstance(pieces[0], SparseRows):
        return np.concatenate(pieces)
    rows = sum(piece.shape[0] for piece in pieces)
    out = np.zeros((rows, pieces[0].shape[1]), dtype=pieces[0].values.dtype)
    start = 0
    for piece in pieces:
        piece.unpack_into(out[start : start + piece.shape[0]])
        start += piece.shape[0]
    return out


def to_numpy(tree):
    """A copy of nested dicts/lists/tuples with every tensor as a numpy array."""
    return _map_leaves(tree, torch.Tensor, lambda tensor: tensor.detach().numpy().copy())


def to_torch(tree):
    """The inverse of `to_numpy` (the tensors share the arrays' memory)."""
    return _map_leaves(tree, np.ndarray, torch.from_numpy)


def _map_leaves(tree, leaf_type: type, convert):
    if isinstance(tree, leaf_type):
        return convert(tree)
    if isinstance(tree, dict):
        return {key: _map_leaves(value, leaf_type, convert) for key, value in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(_map_leaves(value, leaf_type, convert) for value in tree)
    return tree


class RolloutWorkerError(RuntimeError):
    """A rollout worker failed or died; the message carries its traceback."""


def _serve(connection, args: Args, num_slots: int) -> None:
    torch.set_num_threads(1)  # one core per worker: their forwards are small batches
    # Ctrl-C reaches the whole process group; the trainer alone handles it (it saves, then stops us).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    part = RolloutPart(args, num_slots)
    while True:
        request = connection.recv()
        if request is None:
            return
        try:
            connection.send(("ok", part.run(request)))
        except Exception:  # report it to the trainer, which raises it with this traceback
            connection.send(("error", traceback.format_exc()))


class RolloutWorkers:
    """`count` worker processes (spawned, so no torch state is forked) kept for the whole run."""

    def __init__(self, args: Args, count: int, timeout: float = 3600.0):
        context = multiprocessing.get_context("spawn")
        self.count = count
        self.timeout = timeout  # seconds a worker may take over one rollout before it counts as stuck
        self._connections, self._processes = [], []
        for w, slots in enumerate(split(args.num_games, count)):
            parent, child = context.Pipe()
            process = context.Process(
                target=_serve, args=(child, args, slots), name=f"rlyeh-rollout-{w}", daemon=True
            )
            process.start()
            child.close()
            self._connections.append(parent)
            self._processes.append(process)
        self._sent_pool_version: int | None = None
        self._finalizer = weakref.finalize(self, _stop, self._connections, self._processes)

    def collect(
        self,
        weights: dict[str, dict[str, np.ndarray]],
        matchmaker: Matchmaker,
        seed: int,
        update: int,
        learner_decisions: int,
    ) -> tuple[dict[str, dict[str, torch.Tensor]], list[FinishedGame]]:
        """Every worker plays its share with these weights; returns the joined batch per trainee
        key and every finished game (worker by worker)."""
        pool = None
        if matchmaker.pool_version != self._sent_pool_version:
            pool = to_numpy(matchmaker.state_dict())
            self._sent_pool_version = matchmaker.pool_version
        records = matchmaker.league.records()
        for w, (connection, share) in enumerate(zip(self._connections, split(learner_decisions, self.count))):
            request = RolloutRequest(weights, pool, records, matchmaker.finetune, worker_seed(seed, update, w), share)
            try:
                connection.send(request)
            except OSError as err:  # a worker that died (e.g. could not start) closed its end
                self._sent_pool_version = None
                raise RolloutWorkerError(
                    f"rollout worker {w} is gone ({err!r}); see its output above. Workers are spawned: a "
                    "script that trains with rollout_workers > 1 must start under `if __name__ == '__main__':`"
                ) from err
        replies = [self._receive(w) for w in range(self.count)]  # all of them, so none is left in a pipe
        errors = [reply for reply in replies if isinstance(reply, RolloutWorkerError)]
        if errors:
            self._sent_pool_version = None  # the workers' pools may be stale now
            raise errors[0]
        return join_results(list(weights), replies)

    def _receive(self, w: int):
        """Worker w's result, or the error (returned, not raised) that it failed, died or hung
        with: the wait checks every second that the worker lives, and gives up after `timeout`."""
        connection, process = self._connections[w], self._processes[w]
        waited = 0.0
        while not connection.poll(1.0):
            waited += 1.0
            if not process.is_alive():
                return RolloutWorkerError(f"rollout worker {w} died (exit code {process.exitcode}); see its output above")
            if waited >= self.timeout:
                return RolloutWorkerError(f"rollout worker {w} sent no rollout in {self.timeout:.0f} s; it is stuck")
        try:
            status, payload = connection.recv()
        except (EOFError, OSError) as err:
            return RolloutWorkerError(f"rollout worker {w} died ({err!r}); see its output above")
        if status == "error":
            return RolloutWorkerError(f"rollout worker {w} failed:\n{payload}")
        return payload

    def close(self) -> None:
        self._finalizer()


def _stop(connections, processes) -> None:
    for connection in connections:
        try:
            connection.send(None)
        except (BrokenPipeError, OSError):
            pass
    for process in processes:
        process.join(timeout=5)
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)  # reap it, so it is not left alive (or a zombie) after close()
    for connection in connections:
        connection.close()
