"""Win rates of bot line-ups at every table size, with the default rules (RULES.md, "Balance").

    python scripts/balance.py --games 2000                   # every size, every line-up
    python scripts/balance.py --games 200 --sizes 4 5 --lineups heuristic-vs-heuristic

A line-up "A-vs-B" seats bot A at every investigator seat and bot B at every cultist seat (roles
are dealt at random by the engine). Game g of table size n uses the same engine seed in every
line-up, so line-ups are compared on the same deals. Results do not depend on --workers: each
game's seed is fixed by (--seed, size, game index). Prints a Markdown table at the end.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from collections import Counter
from pathlib import Path

from require_install import require_install

require_install()

from rlyeh_env.arena import play_lineup, wilson_interval  # noqa: E402
from rlyeh_env.bots import BOTS, make_bot  # noqa: E402
from rlyeh_env.engine import GameConfig  # noqa: E402

LINEUPS = ["heuristic-vs-heuristic", "random-vs-random", "heuristic-vs-random", "random-vs-heuristic"]
CHUNK = 25  # games per task handed to a worker


def parse_lineup(text: str) -> tuple[str, str]:
    parts = text.split("-vs-")
    if len(parts) != 2 or any(p not in BOTS for p in parts):
        raise argparse.ArgumentTypeError(
            f"line-up must be INVESTIGATOR-vs-CULTIST with bots from {sorted(BOTS)}, got {text!r}"
        )
    return parts[0], parts[1]


def game_seed(seed: int, size: int, game: int) -> int:
    return (seed * 100 + size) * 10_000_000 + game


def run_chunk(task: tuple) -> tuple:
    """Play games [start, stop) of one (size, line-up) cell; returns the cell key and tallies."""
    seed, size, lineup, start, stop = task
    investigator, cultist = parse_lineup(lineup)
    config = GameConfig(num_players=size)
    tally = Counter()
    for g in range(start, stop):
        result = play_lineup(
            config,
            game_seed(seed, size, g),
            lambda s: make_bot(investigator, s, config=config),
            lambda s: make_bot(cultist, s, config=config),
        )
        tally["games"] += 1
        tally["investigators"] += result.investigators_won
        tally["rounds"] += result.rounds
        tally["decisions"] += result.decisions
        tally[f"end_{result.end_reason.name.lower()}"] += 1
    return (size, lineup), tally, stop - start


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per table size and line-up")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5, 6, 7, 8], choices=range(4, 9))
    parser.add_argument("--lineups", nargs="+", default=LINEUPS, help="INVESTIGATOR-vs-CULTIST bot names")
    parser.add_argument("--seed", type=int, default=0, help="base seed (the run is deterministic given it)")
    parser.add_argument("--workers", type=int, default=2, help="processes (one per core)")
    parser.add_argument("--json", type=Path, default=None, help="also write the results to this file")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    for lineup in args.lineups:
        try:
            parse_lineup(lineup)
        except argparse.ArgumentTypeError as err:
            parser.error(str(err))
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")

    tasks = [
        (args.seed, size, lineup, start, min(args.games, start + CHUNK))
        for lineup in args.lineups
        for size in args.sizes
        for start in range(0, args.games, CHUNK)
    ]
    totals: dict[tuple, Counter] = {(size, lineup): Counter() for lineup in args.lineups for size in args.sizes}
    began = time.time()
    bar = None
    if not args.no_progress:
        try:
            from tqdm import tqdm

            bar = tqdm(total=args.games * len(totals), unit="game", smoothing=0.05)
        except ImportError:  # pragma: no cover - tqdm is in the train extra
            bar = None
    if args.workers == 1:
        outcomes = map(run_chunk, tasks)
        pool = None
    else:
        pool = multiprocessing.get_context("spawn").Pool(args.workers)
        outcomes = pool.imap_unordered(run_chunk, tasks)
    try:
        for key, tally, played in outcomes:
            totals[key].update(tally)
            if bar is not None:
                bar.update(played)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
        if bar is not None:
            bar.close()

    rows = []
    for lineup in args.lineups:
        for size in args.sizes:
            t = totals[(size, lineup)]
            config = GameConfig(num_players=size)
            lo, hi = wilson_interval(t["investigators"], t["games"])
            rows.append(
                {
                    "players": size,
                    "cultists": config.cultists,
                    "start_hour": config.first_hour,
                    "incantation_threshold": config.incantation_threshold,
                    "lineup": lineup,
                    "games": t["games"],
                    "investigators_won": t["investigators"],
                    "investigator_win_rate": t["investigators"] / t["games"],
                    "ci95": [lo, hi],
                    "mean_rounds": t["rounds"] / t["games"],
                    "mean_decisions": t["decisions"] / t["games"],
                    "ends": {k[4:]: v for k, v in sorted(t.items()) if k.startswith("end_")},
                }
            )
    print(markdown(rows))
    print(f"\n{sum(r['games'] for r in rows)} games in {time.time() - began:.0f} s (seed {args.seed})")
    result = {"args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}, "rows": rows}
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    return result


def markdown(rows: list[dict]) -> str:
    lines = [
        "| Players | Cultists | Start hour | Line-up (investigators-vs-cultists) | Games "
        "| Investigators win | 95% CI | Mean rounds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lo, hi = r["ci95"]
        lines.append(
            f"| {r['players']} | {r['cultists']} | {r['start_hour']} | {r['lineup']} | {r['games']} "
            f"| {100 * r['investigator_win_rate']:.1f}% | {100 * lo:.1f}-{100 * hi:.1f}% | {r['mean_rounds']:.1f} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
