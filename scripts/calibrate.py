"""Calibrate the per-size settings: the investigators' win rate at candidate cultist counts, start hours and hours back.

    python scripts/calibrate.py --sizes 4 5 6 7 8 --games 1000 --workers 2 --json calibration.json
    python scripts/calibrate.py --target v4,v4 --hour-offsets -1 0 1 --cultists 1 2 --sizes 7 8
    python scripts/calibrate.py --hour-offsets -1 0 1 --hours-back 1 2 3

At each table size, every candidate (today's start hour plus each of --hour-offsets, for each of
--cultists and of --hours-back, the hours the Necronomicon's Turn back time wins back) is played
by two line-ups on the same seeded deals: the target line-up (default the shipped bots on both
sides, greedy) and the reference line-up (default the heuristic on both sides). The pick per size is the candidate with the fewest changes from today's setting whose
target win rate lies in --target-band and reference win rate in --reference-band, nearest the
target band's centre (rlyeh_env/calibration.py gives the whole rule). Bots trained on today's
settings are a proxy under other settings; retrain on the pick to confirm it (RULES.md, section 14).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

from require_install import require_install

require_install()

from rlyeh_env.arguments import (  # noqa: E402
    ArgumentParser, add_tournament_options, fail, output_file, positive_float, rules_config,
)
from rlyeh_env.engine import GameConfig  # noqa: E402
from rlyeh_env.calibration import Band, Measured, Pick, candidate_settings, pick  # noqa: E402
from rlyeh_env.files import atomic_write_text  # noqa: E402
from rlyeh_env.players import TABLE_SIZES, check_checkpoints, parse_lineup  # noqa: E402
from rlyeh_env.tournament import POLICIES, MatchResult, TournamentError, job_results, until_interrupted  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=parse_lineup, default=parse_lineup("checkpoint,checkpoint"), metavar="INV,CULT",
                        help="the line-up steered into --target-band: the best self-play bots (default checkpoint,checkpoint)")
    parser.add_argument("--reference", type=parse_lineup, default=parse_lineup("heuristic,heuristic"), metavar="INV,CULT",
                        help="the line-up kept inside --reference-band (default heuristic,heuristic)")
    parser.add_argument("--target-band", type=positive_float, nargs=2, default=[35.0, 45.0], metavar=("LOW", "HIGH"),
                        help="the target line-up's investigators' win rate to aim for, in %% (default 35 45)")
    parser.add_argument("--reference-band", type=positive_float, nargs=2, default=[35.0, 65.0], metavar=("LOW", "HIGH"),
                        help="the reference line-up's investigators' win rate to stay within, in %% (default 35 65)")
    parser.add_argument("--hour-offsets", type=int, nargs="+", default=[-2, -1, 0, 1, 2], metavar="H",
                        help="start hours tried: today's plus each offset, within 0-11 (default -2 -1 0 1 2)")
    parser.add_argument("--cultists", type=int, nargs="+", default=None, metavar="C",
                        help="cultist counts tried at every size, within 1 to half the table (default: today's count)")
    parser.add_argument("--hours-back", type=int, nargs="+", default=None, metavar="B", choices=range(0, 13),
                        help="hours Turn back time wins back (R9.6) tried at every size, within 0-12 (default: "
                             "today's at each size)")
    add_tournament_options(parser, sizes=TABLE_SIZES, games=1000, workers=2, greedy=True)
    parser.add_argument("--json", type=output_file, default=None, help="also write every measurement and the picks here")
    args = parser.parse_args(argv)
    try:
        target_band = Band(args.target_band[0] / 100, args.target_band[1] / 100)
        reference_band = Band(args.reference_band[0] / 100, args.reference_band[1] / 100)
    except ValueError as err:
        return fail(parser.prog, str(err))
    candidates = {n: candidate_settings(n, args.hour_offsets, args.cultists, args.hours_back) for n in args.sizes}
    lineups = [args.target, args.reference]
    try:
        rules = rules_config(args.rule, args.sizes)
        if set(rules) & {"num_cultists", "start_hour", "necronomicon_hours_back"}:
            raise ValueError("--rule cannot set num_cultists, start_hour or necronomicon_hours_back here")
        for setting in (s for n in args.sizes for s in candidates[n]):
            GameConfig(num_players=setting.num_players, **{**rules, **setting.config})
    except (TypeError, ValueError) as err:
        return fail(parser.prog, f"{err} (the candidates set num_cultists, start_hour and necronomicon_hours_back "
                                 "themselves: --cultists, --hour-offsets, --hours-back)")
    jobs = [(*lineup, n, args.games, args.seed, args.greedy, {**rules, **setting.config})
            for n in args.sizes for setting in candidates[n] for lineup in lineups]
    try:
        check_checkpoints(lineups, POLICIES)  # a bad file is reported before any game is played
        results, interrupted = until_interrupted(job_results(jobs, progress=not args.no_progress, workers=args.workers))
    except (ValueError, TournamentError) as err:
        return fail(parser.prog, str(err))
    if interrupted:
        return fail(parser.prog, f"interrupted after {len(results)} of {len(jobs)} match-ups")
    measured = {n: [] for n in args.sizes}
    settings = [setting for n in args.sizes for setting in candidates[n]]
    for setting, (target, reference) in zip(settings, zip(results[0::2], results[1::2])):
        measured[setting.num_players].append(Measured(setting, target, reference))
    picks = {n: pick(measured[n], target_band, reference_band) for n in args.sizes}
    print(report(measured, picks, args))
    if args.json is not None:
        atomic_write_text(args.json, json.dumps(as_json(measured, picks, args), indent=1))
    missing = [n for n, p in picks.items() if not p.qualifies]
    if missing:
        print(f"\nno candidate met both bands at {', '.join(map(str, missing))} players: widen --hour-offsets "
              "or try --cultists or --hours-back", file=sys.stderr)
    return 0


def rate(result: MatchResult) -> str:
    return f"{result.investigator_win_rate:.1%} ({result.ci_low:.1%}-{result.ci_high:.1%})"


def report(measured: dict[int, list[Measured]], picks: dict[int, Pick], args) -> str:
    target, reference = ",".join(args.target), ",".join(args.reference)
    lines = [f"Investigators' win rate, {args.games} games a cell ({'greedy' if args.greedy else 'sampled'}, seed "
             f"{args.seed}); target band {args.target_band[0]:g}-{args.target_band[1]:g}%, reference band "
             f"{args.reference_band[0]:g}-{args.reference_band[1]:g}%.", ""]
    lines += [f"| players | cultists | start hour | hours back | {target} | {reference} | |",
              "|---|---|---|---|---|---|---|"]
    for n, candidates in measured.items():
        for m in candidates:
            mark = ("picked" if picks[n].qualifies else "nearest (misses)") if m is picks[n].chosen else ""
            today = " (today)" if m.setting.changes == 0 else ""
            lines.append(f"| {n} | {m.setting.cultists} | {m.setting.start_hour}{today} | {m.setting.hours_back} "
                         f"| {rate(m.target)} | {rate(m.reference)} | {mark} |")
    lines += ["", "Picked settings:", "", "| players | cultists | start hour | hours back | changes | in both bands |",
              "|---|---|---|---|---|---|"]
    for n, p in picks.items():
        s = p.chosen.setting
        lines.append(f"| {n} | {s.cultists} | {s.start_hour} | {s.hours_back} | {s.changes} "
                     f"| {'yes' if p.qualifies else 'no'} |")
    return "\n".join(lines)


def as_json(measured: dict[int, list[Measured]], picks: dict[int, Pick], args) -> dict:
    def cell(result: MatchResult) -> dict:
        return {"investigators_won": result.investigator_wins, "games": result.games,
                "investigator_win_rate": result.investigator_win_rate, "ci95": [result.ci_low, result.ci_high],
                "mean_rounds": result.mean_rounds}

    return {
        "target": ",".join(args.target), "reference": ",".join(args.reference),
        "target_band": args.target_band, "reference_band": args.reference_band,
        "games": args.games, "seed": args.seed, "greedy": args.greedy,
        "candidates": [{**asdict(m.setting), "changes": m.setting.changes, "target": cell(m.target),
                        "reference": cell(m.reference), "picked": m is picks[n].chosen}
                       for n, candidates in measured.items() for m in candidates],
        "picks": {str(n): {**asdict(p.chosen.setting), "qualifies": p.qualifies} for n, p in picks.items()},
    }


if __name__ == "__main__":
    sys.exit(main())
