"""Training decisions per second and peak memory: sb3-contrib's MaskablePPO against our trainer.

Every side trains on our game with torch on 2 threads, one after the other, each in its own
spawned process so that its peak RSS (`ru_maxrss`) is its own: MaskablePPO through the AEC env,
ours stepping the engine's `Table`s directly (rlyeh_env/table.py). A decision is one env step
(one SB3 timestep). Each side warms up with one update, then trains for `--seconds` of wall time.

- MaskablePPO: `MaskablePPO("MlpPolicy", env)` with SB3's default hyperparameters, one policy
  playing every seat through `rlyeh_env.wrappers.SingleAgentEnv(learner="every")` (the pattern of
  PettingZoo's SB3 action-masking tutorial) and `ActionMasker`; it learns in chunks of
  one rollout (`n_steps`) plus one update until the time is up.
- Ours: `training.speed.our_training_rate(seconds, num_players)`, which warms up and measures
  itself and returns `{"decisions": int, "seconds": float}`; three times: in one process with a
  float32 update, in one process with the bf16 update (the trunks under bfloat16 autocast), and
  as the `full` preset trains: the rollouts in worker processes (`--rollout-workers`; that side's
  peak RSS adds the workers', each counted as the largest), bf16 where the CPU has it.
  A fourth time as the `full` preset trains but with MaskablePPO's network, hidden widths
  (64, 64) for a policy and a value trunk of their own (`shared_trunk=False`): the same model
  size on both sides, so that ratio compares the trainers alone. (The shipped bots' networks,
  (128, 128) with the value head on the policy trunk, have 201k parameters per policy against
  SB3's 188k.)

A fifth time as the `league` preset trains (its own opponent mix whatever `--opponents` says:
self-play, hard PFSP over a full league with its anchors, exploiter games; four networks
trained per update): the speed of the self-play recipe the shipped bots come from.

`--opponents mixed` measures our sides only, in the `full` preset's opponent mix (heuristic
and random bots, a full snapshot pool), as most of a real run trains; there the ratios are
against our float32 one-process side.

A decision counted is a learner's (a training decision); "learner share" says what fraction of
all the decisions its games played that is: the rest are the frozen opponents' (league entries,
scripted bots), played at the same cost but training nothing. In pure self-play it is 100%.

The ratios ours / MaskablePPO are the result; absolute numbers vary from machine to machine.
Run it on an otherwise idle machine: with torch on 2 threads of 2 cores, any other CPU load
slows MaskablePPO's batch-of-one inference many times over (seen: 700 -> 14 decisions/s).
Needs the `bench` extra (`pip install -e ".[bench]"`).

    python scripts/benchmark_training.py [--seconds 60] [--num-players 5] [--opponents mixed] [--json PATH]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version

TORCH_THREADS = 2
SB3 = "MaskablePPO (sb3-contrib)"
OURS_FLOAT32 = "ours, one process, float32 update"
OURS_ONE_PROCESS = "ours, one process, bf16 update"
OURS = "ours, as the full preset trains (rollout workers; bf16 where the CPU has it)"
OURS_SB3_NET = "ours, as the full preset trains, with MaskablePPO's network (64, 64)"
OURS_LEAGUE = "ours, as the league preset trains (a full league, anchors, exploiters)"
SB3_NET = (64, 64)  # the hidden widths of SB3's default MlpPolicy, for policy and value alike


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory of this process so far (or of its largest finished child), in MB
    (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(who).ru_maxrss
    return peak / (1024**2 if sys.platform == "darwin" else 1024)


def sb3_rate(seconds: float, num_players: int, opponents: str) -> dict:
    """Train MaskablePPO (SB3 defaults) for one warm-up chunk, then for `seconds` of wall time."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.wrappers import ActionMasker

    from rlyeh_env import env as rlyeh_env
    from rlyeh_env.wrappers import SingleAgentEnv

    masked = ActionMasker(SingleAgentEnv(rlyeh_env(num_players=num_players), learner="every"), SingleAgentEnv.action_masks)
    model = MaskablePPO("MlpPolicy", masked, seed=0, device="cpu")
    chunk = model.n_steps * model.n_envs  # one rollout and one update per learn() call
    model.learn(chunk)  # warm-up
    start_steps = model.num_timesteps
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        model.learn(chunk, reset_num_timesteps=False)
    return {"decisions": model.num_timesteps - start_steps, "seconds": time.perf_counter() - start}


def ours_rate(seconds: float, num_players: int, opponents: str = "selfplay", **overrides) -> dict:
    """Our trainer's own measurement (it warms up itself)."""
    from training.speed import our_training_rate

    return our_training_rate(seconds, num_players, opponents=opponents, **overrides)


def ours_float32_rate(seconds: float, num_players: int, opponents: str) -> dict:
    return ours_rate(seconds, num_players, opponents, rollout_workers=1, bf16=False)


def ours_one_process_rate(seconds: float, num_players: int, opponents: str) -> dict:
    return ours_rate(seconds, num_players, opponents, rollout_workers=1, bf16=True)


def ours_sb3_net_rate(seconds: float, num_players: int, opponents: str) -> dict:
    return ours_rate(seconds, num_players, opponents, hidden=SB3_NET, shared_trunk=False)


def ours_league_rate(seconds: float, num_players: int, opponents: str) -> dict:
    return ours_rate(seconds, num_players, "mixed", recipe="league")


SIDES = {
    SB3: sb3_rate,
    OURS_FLOAT32: ours_float32_rate,
    OURS_ONE_PROCESS: ours_one_process_rate,
    OURS: ours_rate,
    OURS_SB3_NET: ours_sb3_net_rate,
    OURS_LEAGUE: ours_league_rate,
}


def rollout_workers(side: str) -> int:
    """Worker processes of a side, whose memory counts towards its peak RSS."""
    if side in (OURS, OURS_SB3_NET, OURS_LEAGUE):
        from training.config import preset

        return preset("league" if side == OURS_LEAGUE else "full").rollout_workers
    return 0


def run_side(side: str, seconds: float, num_players: int, opponents: str) -> dict:
    """Body of a side's child process: 2 torch threads, train, add rate and peak RSS (with its
    rollout workers': each as much as the largest of them, which ru_maxrss of children gives)."""
    import torch

    torch.set_num_threads(TORCH_THREADS)
    result = SIDES[side](seconds, num_players, opponents)
    memory = peak_rss_mb() + rollout_workers(side) * peak_rss_mb(resource.RUSAGE_CHILDREN)
    return {**result, "rate": result["decisions"] / result["seconds"], "peak_rss_mb": memory}


def run_in_child(side: str, seconds: float, num_players: int, opponents: str) -> dict:
    """Run one side in a fresh spawned process, so its peak RSS is its own."""
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
        # A side trains for `seconds` after a warm-up update; ten minutes more means it is stuck.
        return pool.submit(run_side, side, seconds, num_players, opponents).result(timeout=seconds + 600)


def _share(result: dict) -> str:
    """The learners' decisions among all decisions their games played (MaskablePPO's: all)."""
    played = result.get("played", result["decisions"])
    return f"{result['decisions'] / played:.0%}" if played else "-"


def markdown(results: dict[str, dict], settings: dict, baseline: str = SB3) -> str:
    """The results table, each other side's ratio to `baseline`, and the settings."""
    lines = ["| side | decisions / s | learner share | peak RSS MB |", "|---|---|---|---|"]
    lines += [f"| {side} | {r['rate']:,.0f} | {_share(r)} | {r['peak_rss_mb']:,.0f} |" for side, r in results.items()]
    ratios = [f"{side} / {baseline}: **{r['rate'] / results[baseline]['rate']:.2f}x**"
              for side, r in results.items() if side != baseline]
    lines += [""] + ratios if ratios else []
    lines += ["", "settings: " + ", ".join(f"{key}={value}" for key, value in settings.items())]
    return "\n".join(lines)


def main() -> None:
    from rlyeh_env.arguments import ArgumentParser, output_file, positive_float
    from rlyeh_env.players import TABLE_SIZES

    parser = ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive_float, default=60.0, help="wall seconds of training per side")
    parser.add_argument("--num-players", type=int, default=5, choices=TABLE_SIZES, help="table size (4 to 8)")
    parser.add_argument("--json", type=output_file, metavar="PATH", help="also write the results as JSON here")
    parser.add_argument(
        "--opponents", choices=("selfplay", "mixed"), default="selfplay",
        help="selfplay: the comparison with MaskablePPO; mixed: our sides only, in the full preset's opponent mix "
        "with a full pool, as a real run trains (ratios against our float32 one-process side)",
    )
    args = parser.parse_args()
    if args.opponents == "selfplay" and importlib.util.find_spec("sb3_contrib") is None:
        sys.exit('MaskablePPO needs the bench extra: pip install -e ".[bench]" (make bench-train installs it)')
    sides = list(SIDES) if args.opponents == "selfplay" else [side for side in SIDES if side != SB3]
    baseline = SB3 if args.opponents == "selfplay" else OURS_FLOAT32

    settings = {
        "num_players": args.num_players,
        "opponents": args.opponents,
        "seconds": args.seconds,
        "torch_threads": TORCH_THREADS,
        "torch": version("torch"),
        "sb3_contrib": version("sb3-contrib") if args.opponents == "selfplay" else "not used",
        "load_before": round(os.getloadavg()[0], 2),
    }
    if settings["load_before"] > 0.5:
        print(f"warning: the machine is not idle (load average {settings['load_before']}); figures are unreliable")
    results = {}
    for side in sides:
        print(f"training: {side} ...", flush=True)
        try:
            results[side] = run_in_child(side, args.seconds, args.num_players, args.opponents)
        except ImportError as error:
            if side == SB3:
                raise
            print(f"our trainer not available yet (training.speed.our_training_rate: {error})", flush=True)

    print()
    print(markdown(results, settings, baseline))
    if args.json:
        from rlyeh_env.files import atomic_write_text

        atomic_write_text(args.json, json.dumps({"settings": settings, "results": results}, indent=2))


if __name__ == "__main__":
    # Here, not at the top: tests load this file as a module, without scripts/ on sys.path.
    from require_install import require_install

    require_install()
    main()
