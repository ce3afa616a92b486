"""Win rates of line-ups at every table size, with the default rules (RULES.md, "Balance").

    python scripts/balance.py --games 2000                   # every size, the four scripted line-ups
    python scripts/balance.py --games 200 --sizes 4 5 --lineups heuristic,heuristic checkpoint,checkpoint

A line-up `INVESTIGATORS,CULTISTS` seats the first player at every investigator seat and the
second at every cultist seat (roles are dealt at random by the engine); the names are those of
`rlyeh eval` (random, heuristic, checkpoint or a checkpoint file). Games are played by the one
tournament runner (`rlyeh_env.tournament`): game i of table size n uses the same engine seed in
every line-up, so line-ups are compared on the same deals, and results do not depend on
--workers. Prints a Markdown table at the end.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from require_install import require_install

require_install()

from rlyeh_env.arguments import ArgumentParser, add_tournament_options, fail, output_file, rules_config  # noqa: E402
from rlyeh_env.engine import GameConfig  # noqa: E402
from rlyeh_env.files import atomic_write_text  # noqa: E402
from rlyeh_env.players import TABLE_SIZES, check_checkpoints, parse_lineup  # noqa: E402
from rlyeh_env.tournament import (  # noqa: E402
    POLICIES, MatchResult, TournamentError, tournament_results, until_interrupted,
)

LINEUPS = ["heuristic,heuristic", "random,random", "heuristic,random", "random,heuristic"]


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lineups", type=parse_lineup, nargs="+", default=[parse_lineup(text) for text in LINEUPS],
                        metavar="INV,CULT", help="INVESTIGATORS,CULTISTS line-ups")
    add_tournament_options(parser, sizes=TABLE_SIZES, games=2000, workers=2)
    parser.add_argument("--json", type=output_file, default=None, help="also write the results to this file")
    args = parser.parse_args(argv)
    lineups = args.lineups
    began = time.time()
    try:
        rules = rules_config(args.rule, args.sizes)
        check_checkpoints(lineups, POLICIES)  # a bad file is reported before any game is played
        results, interrupted = until_interrupted(tournament_results(
            lineups, args.sizes, args.games, args.seed, args.greedy, rules, progress=not args.no_progress,
            workers=args.workers))
    except (ValueError, TournamentError) as err:
        return fail(parser.prog, str(err))
    rows = [row(result, rules) for result in sorted(results, key=lambda r: (lineups.index((r.investigators, r.cultists)),
                                                                     r.num_players))]
    print(markdown(rows))
    if interrupted:
        print(f"\ninterrupted: {len(rows)} of {len(lineups) * len(args.sizes)} cells finished", file=sys.stderr)
        return 130
    print(f"\n{sum(r['games'] for r in rows)} games in {time.time() - began:.0f} s (seed {args.seed})")
    if args.json is not None:
        settings = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}
        settings["lineups"] = [",".join(lineup) for lineup in lineups]
        atomic_write_text(args.json, json.dumps({"args": settings, "rows": rows}, indent=1))
    return 0


def row(result: MatchResult, rules: dict) -> dict:
    """One table row: the table's settings (under the --rule overrides) and the line-up's figures."""
    config = GameConfig(num_players=result.num_players, **rules)
    return {
        "players": result.num_players,
        "cultists": config.cultists,
        "start_hour": config.first_hour,
        "incantation_threshold": config.incantation_threshold,
        "lineup": f"{result.investigators},{result.cultists}",
        "games": result.games,
        "investigators_won": result.investigator_wins,
        "investigator_win_rate": result.investigator_win_rate,
        "ci95": [result.ci_low, result.ci_high],
        "mean_rounds": result.mean_rounds,
        "mean_decisions": result.mean_decisions,
        "ends": dict(sorted(result.ends.items())),
    }


def markdown(rows: list[dict]) -> str:
    lines = [
        "| Players | Cultists | Start hour | Line-up (investigators,cultists) | Games "
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
    sys.exit(main())
