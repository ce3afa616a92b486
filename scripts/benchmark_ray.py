"""Rollouts on Ray against the local backends, in one run, and a paper estimate for a cluster.

Our trainer trains the league preset (its opponents: self-play, a full league with its anchors,
exploiter games) at one table size, each contender in a spawned process of its own, after one
warm-up update, for --seconds of wall time:

- in process: the rollout played in the trainer's process (`--rollout-workers 1`);
- local processes: 2 rollout worker processes (`--rollout-workers 2`, the preset's setting);
- Ray, 1 and 2 workers: the same rollout parts as Ray actors on a local cluster (`--backend ray`).

It prints learner decisions/s, each contender's ratio to the in-process one, and the share of
the time spent in rollouts. Then what crosses the network per update (the weights, once per
node; the rollouts, packed as the workers send them; a new league entry) and, from those sizes
and the measured costs, a paper estimate of throughput on N nodes: a rollout of D decisions on W
workers takes D / (W r), r being one worker's rollout rate measured here; the head sends the
weights to each node and receives the rollouts at --bandwidth-gbit; the PPO update takes what it
took here (one learner, not parallelised). It is an estimate: it assumes nodes as fast as this
one, no stragglers (a rollout waits for its slowest worker) and a network that only carries ours.

    python scripts/benchmark_ray.py [--seconds 30] [--num-players 5] [--cpus-per-node 8] [--bandwidth-gbit 10]

Needs the ray extra (`pip install -e ".[ray]"`); run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import os
import pickle
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor

TORCH_THREADS = 2
CONTENDERS = {
    "in process": dict(rollout_workers=1, backend="local"),
    "local processes, 2 workers": dict(rollout_workers=2, backend="local"),
    "Ray, 1 worker": dict(rollout_workers=1, backend="ray"),
    "Ray, 2 workers": dict(rollout_workers=2, backend="ray"),
}
BASELINE = "in process"
LEARNER_CORES = 2  # cores of the head node left to the learner in the estimate


def contender_rate(name: str, seconds: float, num_players: int) -> dict:
    """A contender's body, in its own process: 2 torch threads, the league preset trained."""
    import torch

    from training.speed import our_training_rate

    torch.set_num_threads(TORCH_THREADS)
    return our_training_rate(seconds, num_players, opponents="mixed", recipe="league", **CONTENDERS[name])


def run_in_child(function, *arguments):
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(function, *arguments).result(timeout=1800)


def transfer_sizes(num_players: int) -> dict:
    """Bytes that cross the network, as the ray backend sends them: the trainees' weights (each
    update), one league entry's network (when it joins) and one rollout (its packed batches and
    finished games) per learner decision."""
    from training.config import preset
    from training.trainer import Trainer
    from training.workers import RolloutPart, RolloutRequest, to_numpy, worker_seed

    with tempfile.TemporaryDirectory() as folder:
        args = preset("league", table_sizes=(num_players,), imitation_decisions=0, eval_every=0, progress=False,
                      rollout_workers=1, runs_dir=folder)
        trainer = Trainer(args)
        for snapshot in range(args.pool_size):
            trainer.matchmaker.add_snapshots(f"size{snapshot}")
        weights = {key: to_numpy(net.state_dict()) for key, (net, _) in trainer.trained().items()}
        entry = next(iter(to_numpy(trainer.matchmaker.state_dict()).values()))[0][4]
        part = RolloutPart(args, args.num_games)
        request = RolloutRequest(weights, to_numpy(trainer.matchmaker.state_dict()), trainer.matchmaker.league.records(),
                                 False, worker_seed(args.seed, 0, 0), args.decisions_per_rollout)
        batches, finished = part.run(request)
        decisions = sum(len(batch["actions"]) for batch in batches.values())
        return {
            "weights_bytes": len(pickle.dumps(weights, protocol=5)),
            "entry_bytes": len(pickle.dumps(entry, protocol=5)),
            "rollout_bytes_per_decision": len(pickle.dumps((batches, finished), protocol=5)) / decisions,
            "decisions_per_rollout": args.decisions_per_rollout,
            "snapshot_every": args.snapshot_every,
        }


def estimate(nodes: int, cpus_per_node: int, bandwidth_bytes: float, worker_rate: float, update_seconds: float,
             sizes: dict) -> dict:
    """Decisions/s of the league preset on `nodes` nodes by the model of the module docstring."""
    workers = nodes * cpus_per_node - LEARNER_CORES
    decisions = sizes["decisions_per_rollout"]
    rollout = decisions / (workers * worker_rate)
    sent = nodes * sizes["weights_bytes"] + 2 * nodes * sizes["entry_bytes"] / sizes["snapshot_every"]
    transfer = (sent + decisions * sizes["rollout_bytes_per_decision"]) / bandwidth_bytes
    total = rollout + transfer + update_seconds
    return {"nodes": nodes, "workers": workers, "rollout_s": rollout, "transfer_s": transfer,
            "update_s": update_seconds, "rate": decisions / total}


def main() -> None:
    from rlyeh_env.arguments import ArgumentParser, at_least, positive_float
    from rlyeh_env.players import TABLE_SIZES

    parser = ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive_float, default=30.0, help="wall seconds of training per contender")
    parser.add_argument("--num-players", type=int, default=5, choices=TABLE_SIZES, help="table size (4 to 8)")
    parser.add_argument("--cpus-per-node", type=at_least(2), default=8, help="CPUs of each node in the estimate")
    parser.add_argument("--bandwidth-gbit", type=positive_float, default=10.0,
                        help="network bandwidth into and out of the head node in the estimate (Gbit/s)")
    args = parser.parse_args()
    if importlib.util.find_spec("ray") is None:
        sys.exit('the ray backend needs the ray extra: pip install -e ".[ray]"')
    load = os.getloadavg()[0]
    if load > 0.5:
        print(f"warning: the machine is not idle (load average {load:.2f}); figures are unreliable")
    results = {}
    for name in CONTENDERS:
        print(f"training: {name} ...", flush=True)
        result = run_in_child(contender_rate, name, args.seconds, args.num_players)
        results[name] = {**result, "rate": result["decisions"] / result["seconds"]}
    sizes = run_in_child(transfer_sizes, args.num_players)

    print(f"\nThe league preset at {args.num_players} players, learner decisions per second, measured in one run:\n")
    print("| contender | decisions / s | vs in process | time in rollouts |")
    print("|---|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['rate']:,.0f} | {r['rate'] / results[BASELINE]['rate']:.2f}x "
              f"| {r['rollout_seconds'] / r['seconds']:.0%} |")

    one = results["Ray, 1 worker"]
    worker_rate = one["decisions"] / one["rollout_seconds"]  # one worker's rollout decisions/s
    update_seconds = (one["seconds"] - one["rollout_seconds"]) / one["updates"]
    print(f"\nPer update: weights {sizes['weights_bytes'] / 1e6:.2f} MB to each node, a new league entry "
          f"{sizes['entry_bytes'] / 1e6:.2f} MB (each role, every {sizes['snapshot_every']} updates), rollouts "
          f"{sizes['rollout_bytes_per_decision']:,.0f} bytes per learner decision "
          f"({sizes['decisions_per_rollout'] * sizes['rollout_bytes_per_decision'] / 1e6:.1f} MB an update). "
          f"One Ray worker plays {worker_rate:,.0f} learner decisions/s; the update takes {update_seconds:.2f} s.")
    bandwidth = args.bandwidth_gbit * 1e9 / 8
    print(f"\nPaper estimate ({args.cpus_per_node} CPUs a node, {args.bandwidth_gbit:g} Gbit/s at the head, "
          f"{LEARNER_CORES} cores left to the learner):\n")
    print("| nodes | workers | rollout s | transfer s | update s | decisions / s | vs this machine |")
    print("|---|---|---|---|---|---|---|")
    for nodes in (1, 2, 4, 8):
        e = estimate(nodes, args.cpus_per_node, bandwidth, worker_rate, update_seconds, sizes)
        print(f"| {nodes} | {e['workers']} | {e['rollout_s']:.2f} | {e['transfer_s']:.2f} | {e['update_s']:.2f} "
              f"| {e['rate']:,.0f} | {e['rate'] / results['Ray, 2 workers']['rate']:.1f}x |")
    print("\nThe update does not shrink with more nodes: past a few nodes it is most of an update's time, and "
          "larger rollouts (decisions_per_rollout) or a faster learner are what scale further.")


if __name__ == "__main__":
    # Here, not at the top: tests load this file as a module, without scripts/ on sys.path.
    from require_install import require_install

    require_install()
    main()
