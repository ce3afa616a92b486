"""Agent steps per second of random legal play: our AEC env against PettingZoo classics, in one run.

Every contender plays the same loop (`agent_iter`, `last`, a uniformly random legal action from
the mask, `step`). The contenders take turns in short slices, repeated, and each figure is the
median over its slices, so a burst of load on a shared machine hits all of them alike. The
ratios are the result; absolute numbers vary from machine to machine.

    python scripts/benchmark_env.py [--seconds 2] [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from require_install import require_install

require_install()

import numpy as np  # noqa: E402

from rlyeh_env.arguments import ArgumentParser, at_least, positive_float  # noqa: E402
from rlyeh_env.players import TABLE_SIZES  # noqa: E402
from rlyeh_env.rlyeh import ENV_NAME  # noqa: E402


def aec_slice(env, rng: np.random.Generator, seconds: float) -> float:
    """Agent steps per second of random legal play for about `seconds` of CPU time."""
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=int(rng.integers(1 << 31)))
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            env.step(action)
            steps += 1
    return steps / (time.process_time() - start)


def engine_slice(num_players: int, rng: np.random.Generator, seconds: float) -> float:
    """Decisions per second of our engine driven directly (no observation encoding)."""
    from rlyeh_env.engine import Game, GameConfig

    config = GameConfig(num_players=num_players)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = Game(config, int(rng.integers(1 << 31)))
        chooser = random.Random(int(rng.integers(1 << 31)))
        while not game.over:
            game.step(chooser.choice(game.legal_actions()))
            steps += 1
    return steps / (time.process_time() - start)


def main() -> None:
    parser = ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=positive_float, default=2.0, help="CPU seconds per slice")
    parser.add_argument("--repeats", type=at_least(1), default=5, help="slices per contender")
    parser.add_argument("--players", type=int, default=5, choices=TABLE_SIZES, help="table size of our env (4 to 8)")
    args = parser.parse_args()

    from pettingzoo.classic import texas_holdem_v4, tictactoe_v3

    from rlyeh_env import env as rlyeh_env

    contenders = {
        f"{ENV_NAME} AEC ({args.players} players)": lambda rng: aec_slice(
            rlyeh_env(num_players=args.players), rng, args.seconds
        ),
        "tictactoe_v3 AEC": lambda rng: aec_slice(tictactoe_v3.env(), rng, args.seconds),
        "texas_holdem_v4 AEC": lambda rng: aec_slice(texas_holdem_v4.env(), rng, args.seconds),
        f"rlyeh engine direct ({args.players} players)": lambda rng: engine_slice(args.players, rng, args.seconds),
    }
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    rng = np.random.default_rng(0)
    for repeat in range(args.repeats):
        for name, run in contenders.items():
            rates[name].append(run(rng))
        print(f"slice {repeat + 1}/{args.repeats} done", flush=True)

    medians = {name: statistics.median(values) for name, values in rates.items()}
    ours = medians[next(iter(contenders))]
    print()
    print("| contender | agent steps / s (median) | our AEC env / this |")
    print("|---|---|---|")
    for name, rate in medians.items():
        print(f"| {name} | {rate:,.0f} | {ours / rate:.2f} |")


if __name__ == "__main__":
    main()
