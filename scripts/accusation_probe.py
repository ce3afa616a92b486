"""Would accusing pay the trained investigators? Their own beliefs, acted on.

    python scripts/accusation_probe.py                       # the shipped bots, 1,000 games a cell
    python scripts/accusation_probe.py runs/league/policies.pt --thresholds 0.8 0.95 --sizes 5 7

The checkpoint's investigators play as they would, except that at any decision where they may
accuse, the one whose belief head is surest of a seat (P(cultist) at least a threshold) accuses
that seat; in a second line-up per threshold they also vote Yes on every vote (the trained ones
already vote Yes on nearly every Necronomicon proposal, and their cultist never accuses), so a
sure accusation passes. Everything else is the policy's own. Played against the
checkpoint's own cultists on the same deals as the plain line-up (the tournament's seeds), the
gain says whether the rules make a right accusation worth its risk to players who can find the
cultist, whether or not training taught them to make it (RULES.md, section 14).
"""

from __future__ import annotations

import json
import sys

from require_install import require_install

require_install()

from rlyeh_env.accuser import BeliefAccuser  # noqa: E402
from rlyeh_env.arguments import ArgumentParser, add_tournament_options, fail, output_file, rules_config  # noqa: E402
from rlyeh_env.engine import Role  # noqa: E402
from rlyeh_env.files import atomic_write_text  # noqa: E402
from rlyeh_env.players import PolicyCache, check_player, make_side_player  # noqa: E402
from rlyeh_env.tournament import play_match  # noqa: E402


def _row(result, label: str) -> dict:
    usage = result.usage
    return {
        "num_players": result.num_players, "investigators": label, "games": result.games,
        "win_rate": result.investigator_win_rate, "ci": [result.ci_low, result.ci_high],
        "accusations": usage.get("investigator/accuse", 0), "right": usage.get("investigator/accusation:right", 0),
        "wrong": usage.get("investigator/accusation:wrong", 0), "failed": usage.get("investigator/accusation:failed", 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint", type=check_player, nargs="?", default="checkpoint",
                        help="the bots on both sides (default: the shipped ones)")
    parser.add_argument("--thresholds", type=float, nargs="+", default=[0.9, 0.99],
                        help="beliefs (P(cultist), 0-1) at which the investigators accuse (default 0.9 0.99)")
    add_tournament_options(parser, sizes=(4, 5, 6, 7, 8), games=1000, greedy=True)
    parser.add_argument("--json", type=output_file, help="also save the rows here")
    args = parser.parse_args(argv)
    if any(not 0.0 <= t <= 1.0 for t in args.thresholds):
        return fail(parser.prog, f"--thresholds must lie within 0 and 1, got {args.thresholds}")
    import torch

    torch.set_num_threads(1)
    try:
        rules = rules_config(args.rule, args.sizes)
        cache = PolicyCache()
        investigators = make_side_player(args.checkpoint, Role.INVESTIGATOR, args.greedy, args.seed, cache)
        cultists = make_side_player(args.checkpoint, Role.CULTIST, args.greedy, args.seed, cache)
    except ValueError as err:
        return fail(parser.prog, str(err))
    sides = [("as trained", investigators)]
    for t in args.thresholds:
        sides += [(f"accuse at {t:g}", BeliefAccuser(investigators, t)),
                  (f"accuse at {t:g}, vote Yes", BeliefAccuser(investigators, t, yes_to_all=True))]
    rows = []
    print("| players | investigators | win rate (95% CI) | accusations | right | wrong | failed the vote |")
    print("|---|---|---|---|---|---|---|")
    for n in args.sizes:
        for label, side in sides:
            result = play_match(side, cultists, n, args.games, seed=args.seed, config=rules or None)
            row = _row(result, label)
            rows.append(row)
            low, high = row["ci"]
            print(f"| {n} | {label} | {row['win_rate']:.1%} ({low:.1%}-{high:.1%}) | {row['accusations']} "
                  f"| {row['right']} | {row['wrong']} | {row['failed']} |", flush=True)
    if args.json:
        atomic_write_text(args.json, json.dumps({"checkpoint": args.checkpoint, "rows": rows}, indent=1))
        print(f"saved {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
