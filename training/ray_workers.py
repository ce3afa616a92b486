"""`RayRolloutWorkers`: the rollout workers of training/workers.py as Ray actors (`backend="ray"`).

The same `RolloutPart` plays the same share of an update with the same seed as a local worker
process would, so for a given number of workers the two backends give identical rollouts; only
the transport differs. Per update the learner puts its weights into Ray's object store once
(`ray.put`) and every worker reads them from there. The league reaches the workers entry by
entry: each frozen network is put once, under a key of its name and a digest of its weights, and
a worker fetches only the entries it has not cached, so a new snapshot costs one network's
transfer, not the league's.

Failures: a worker that dies (its node lost, the process killed) is replaced by a new actor,
which gets the whole league again and plays the lost share with the same request, so the rollout
is the one the dead worker would have returned. A worker that sends nothing within `timeout`
seconds is killed and replaced the same way; after `retries` replacements for one rollout the
error is raised. No wait is unbounded.

Ray is an optional extra (`pip install -e ".[ray]"`), imported only here and only when the ray
backend is chosen. `start_ray` starts a local cluster, or joins one (`ray_address="auto"` or an
address): see README.md, "Training on a Ray cluster".
"""

from __future__ import annotations

import hashlib

import numpy as np

from .config import Args
from .opponents import Matchmaker
from .workers import RolloutPart, RolloutRequest, RolloutWorkerError, join_results, split, to_numpy, worker_seed

OBJECT_STORE_BYTES = 256 * 1024**2  # a local cluster's object store: a few updates' weights and rollouts


def require_ray():
    """The `ray` module, or an error that says how to install it."""
    try:
        import ray
    except ImportError as err:
        raise RolloutWorkerError(
            'the ray backend needs Ray: pip install -e ".[ray]" (or choose --backend local)') from err
    return ray


def start_ray(address: str, num_cpus: int) -> bool:
    """Start a local cluster of `num_cpus` CPUs (`address="local"`: no dashboard, a small object
    store) or connect to a running one ("auto" or HOST:PORT). False if Ray was up already (then the
    caller did not start it and must not shut it down)."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    if address == "local":
        ray.init(address="local", num_cpus=num_cpus, include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES)
    else:
        ray.init(address=address)
    return True


class RolloutActor:
    """A `RolloutPart` behind a Ray actor: one CPU, one torch thread, the league cached by entry."""

    def __init__(self, args: Args, num_slots: int):
        import torch

        torch.set_num_threads(1)  # one core per worker: their forwards are small batches
        self.part = RolloutPart(args, num_slots)
        self.cached: dict[str, dict] = {}  # league entry key -> its network's weights

    def run(self, weights: dict, league: dict | None, fetch: dict, records: dict, finetune: bool, seed: int,
            learner_decisions: int, version: int):
        """One update's share, with the weights' version (the update) it was played with:
        `weights` and `fetch` arrive resolved from the object store; `league` lists the entries by
        key (None: unchanged since this worker's last rollout)."""
        ray = require_ray()
        if fetch:
            keys = list(fetch)
            for key, value in zip(keys, ray.get([fetch[k] for k in keys])):
                self.cached[key] = value
        pool = None
        if league is not None:
            pool = {role: [(name, kind, wins, games, self.cached[key]) for name, kind, wins, games, key in entries]
                    for role, entries in league.items()}
            wanted = {key for entries in league.values() for *_, key in entries}
            self.cached = {key: value for key, value in self.cached.items() if key in wanted}
        return version, self.part.run(RolloutRequest(weights, pool, records, finetune, seed, learner_decisions))

    def ping(self) -> bool:
        return True


def entry_key(name: str, weights: dict[str, np.ndarray]) -> str:
    """A league entry's cache key: its name and a digest of its weights (a name alone could come
    back with other weights, e.g. an exploiter's)."""
    digest = hashlib.blake2b(digest_size=8)
    for tensor_name in sorted(weights):
        digest.update(tensor_name.encode())
        digest.update(np.ascontiguousarray(weights[tensor_name]).tobytes())
    return f"{name}#{digest.hexdigest()}"


class RayRolloutWorkers:
    """`count` Ray actors kept for the whole run; `collect` and `close` as `RolloutWorkers`."""

    def __init__(self, args: Args, count: int, timeout: float = 3600.0, retries: int = 2,
                 start_timeout: float = 120.0):
        self.ray = require_ray()
        self.started_ray = start_ray(args.ray_address, count)
        self.args, self.count, self.timeout, self.retries = args, count, timeout, retries
        self.slots = split(args.num_games, count)
        self.actor_class = self.ray.remote(num_cpus=1)(RolloutActor)
        self.actors = [self._start(w) for w in range(count)]
        self._wait_until_placed(start_timeout)
        self.replaced = 0  # workers replaced so far (died or timed out)
        self._league_version: int | None = None
        self._league: dict | None = None  # role -> [(name, kind, wins, games, key)]
        self._refs: dict[str, object] = {}  # entry key -> its weights in the object store
        self._held: list[set[str]] = [set() for _ in range(count)]  # keys each worker has cached
        self._seen_version: list[int | None] = [None] * count  # league version each worker last loaded

    def _wait_until_placed(self, start_timeout: float) -> None:
        """Every worker answers, or a clear error: a cluster without a free CPU per worker would
        otherwise leave the first rollout waiting for its whole timeout."""
        from ray.exceptions import GetTimeoutError

        try:
            self.ray.get([actor.ping.remote() for actor in self.actors], timeout=start_timeout)
        except GetTimeoutError:
            free = self.ray.available_resources().get("CPU", 0.0)
            self.close()
            raise RolloutWorkerError(
                f"could not start {self.count} rollout workers of 1 CPU each in {start_timeout:.0f} s: the Ray "
                f"cluster has {free:g} CPUs free (lower --rollout-workers or add nodes)") from None

    def _start(self, w: int):
        return self.actor_class.remote(self.args, self.slots[w])

    def _publish_league(self, matchmaker: Matchmaker) -> None:
        """Put the networks of entries new to the league into the object store, once each."""
        if matchmaker.pool_version == self._league_version:
            return
        state = to_numpy(matchmaker.state_dict())
        league, refs = {}, {}
        for role, entries in state.items():
            league[role] = []
            for name, kind, wins, games, weights, _ in entries:  # per-size records travel with every request
                key = entry_key(name, weights)
                refs[key] = self._refs.get(key) or self.ray.put(weights)
                league[role].append((name, kind, wins, games, key))
        self._league, self._refs, self._league_version = league, refs, matchmaker.pool_version

    def _submit(self, w: int, weights_ref, records: dict, finetune: bool, seed: int, share: int, version: int):
        fresh = self._seen_version[w] != self._league_version
        fetch = {key: ref for key, ref in self._refs.items() if key not in self._held[w]} if fresh else {}
        league = self._league if fresh else None
        self._held[w] = set(self._refs) if fresh else self._held[w]
        self._seen_version[w] = self._league_version
        return self.actors[w].run.remote(weights_ref, league, fetch, records, finetune, seed, share, version)

    def collect(self, weights: dict[str, dict[str, np.ndarray]], matchmaker: Matchmaker, seed: int, update: int,
                learner_decisions: int):
        """Every worker plays its share with these weights; returns the joined batch per trainee
        key and every finished game (worker by worker), as `RolloutWorkers.collect`."""
        self._publish_league(matchmaker)
        weights_ref = self.ray.put(weights)  # once per update, read by every worker
        records, finetune = matchmaker.league.records(), matchmaker.finetune
        shares = split(learner_decisions, self.count)
        requests = [(worker_seed(seed, update, w), shares[w], update) for w in range(self.count)]
        pending = [self._submit(w, weights_ref, records, finetune, *requests[w]) for w in range(self.count)]
        results = [self._result(w, pending[w], weights_ref, records, finetune, requests[w]) for w in range(self.count)]
        return join_results(list(weights), results)

    def _result(self, w: int, ref, weights_ref, records: dict, finetune: bool, request: tuple):
        """Worker w's rollout; a worker that died or hung is replaced and its share played again."""
        from ray.exceptions import GetTimeoutError, RayActorError

        for attempt in range(self.retries + 1):
            try:
                version, result = self.ray.get(ref, timeout=self.timeout)
                if version != request[-1]:  # on-policy: never a rollout of other weights
                    raise RolloutWorkerError(f"rollout worker {w} played weights of update {version}, not {request[-1]}")
                return result
            except (RayActorError, GetTimeoutError) as err:
                if attempt == self.retries:
                    raise RolloutWorkerError(
                        f"rollout worker {w} failed {attempt + 1} times in one rollout, last: {err!r}") from err
                self._replace(w)
                ref = self._submit(w, weights_ref, records, finetune, *request)
            except RolloutWorkerError:
                raise
            except Exception as err:  # the worker's own error (a bug, not a lost node): no retry
                self._held = [set() for _ in range(self.count)]  # what the workers cached is unknown now
                self._seen_version = [None] * self.count
                raise RolloutWorkerError(f"rollout worker {w} failed:\n{err}") from err
        raise AssertionError("unreachable")

    def _replace(self, w: int) -> None:
        self.ray.kill(self.actors[w], no_restart=True)
        self.actors[w] = self._start(w)
        self._held[w], self._seen_version[w] = set(), None  # the new worker caches nothing
        self.replaced += 1

    def close(self) -> None:
        """Stop the workers, and the local cluster if this started it."""
        for actor in self.actors:
            self.ray.kill(actor, no_restart=True)
        self.actors = []
        if self.started_ray:
            self.ray.shutdown()
            self.started_ray = False
