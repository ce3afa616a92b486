"""Cross-play: the investigators of every player against the cultists of every player, and ratings.

    python scripts/crossplay.py checkpoint runs/league/snapshots/u00500.pt heuristic \\
        --sizes 5 7 --games 400 --greedy --json crossplay.json --plot crossplay.png

Players are named as everywhere (`random`, `heuristic`, `checkpoint`, a checkpoint file). Every
(investigators of A, cultists of B) cell is played at every size by the one tournament runner,
on the same deals. Prints the matrix of the investigators' win rates per size, and one rating
per role per player (Bradley-Terry on the Elo scale with 95% bootstrap intervals,
`rlyeh_env/ratings.py`), fitted on the games of all sizes together; `--plot` draws both. Then
each player's worst case per size: its investigators' lowest win rate in the matrix and its
cultists' highest loss, with the opponent's name (a rating averages over the opponents named;
the worst case is the self-play yardstick, the result against the strongest of them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from require_install import require_install

require_install()

import numpy as np  # noqa: E402

from rlyeh_env.arguments import ArgumentParser, add_tournament_options, at_least, fail, output_file, rules_config  # noqa: E402
from rlyeh_env.files import atomic_write_text  # noqa: E402
from rlyeh_env.players import check_checkpoints, check_player  # noqa: E402
from rlyeh_env.ratings import Rating, WorstCase, ratings, worst_cases  # noqa: E402
from rlyeh_env.tournament import POLICIES, TournamentError, tournament_results, until_interrupted  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("players", type=check_player, nargs="+", metavar="PLAYER",
                        help="two or more of random, heuristic, checkpoint, v4 (a shipped version) or checkpoint files")
    add_tournament_options(parser, workers=2)
    parser.add_argument("--bootstrap", type=at_least(0), default=500, help="bootstrap fits for the intervals")
    parser.add_argument("--json", type=output_file, help="also save the matrix and ratings here")
    parser.add_argument("--plot", type=output_file, help="also draw the matrix and ratings (PNG)")
    args = parser.parse_args(argv)
    names = list(dict.fromkeys(args.players))  # each player once, in the order given
    if len(names) < 2:
        parser.error("argument PLAYER: name at least two different players")
    lineups = [(a, b) for a in names for b in names]
    try:
        rules = rules_config(args.rule, args.sizes)
        check_checkpoints(lineups, POLICIES)
        results, interrupted = until_interrupted(tournament_results(
            lineups, args.sizes, args.games, args.seed, args.greedy, rules, progress=not args.no_progress,
            workers=args.workers))
    except (ValueError, TournamentError) as err:
        return fail(parser.prog, str(err))
    if interrupted:
        return fail(parser.prog, f"interrupted after {len(results)} of {len(lineups) * len(args.sizes)} cells")
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(args.sizes), len(names), len(names)), dtype=np.int64)
    games = np.zeros_like(wins)
    for r in results:
        cell = (args.sizes.index(r.num_players), index[r.investigators], index[r.cultists])
        wins[cell], games[cell] = r.investigator_wins, r.games
    rated = ratings(names, wins.sum(0), games.sum(0), bootstrap=args.bootstrap, seed=args.seed)
    rates = wins / games  # per size: the investigators' win rate of every cell
    for k, size in enumerate(args.sizes):
        print(f"\nInvestigators' win rate at {size} players (rows: investigators, columns: cultists)\n")
        print(matrix_table(names, rates[k]))
    print("\nRatings (Bradley-Terry, Elo scale, 95% bootstrap interval; all sizes together)\n")
    print(ratings_table(rated))
    worst = {size: worst_cases(names, rates[k]) for k, size in enumerate(args.sizes)}
    print("\nWorst cases: each side's result against its strongest opponent here (investigators' win rate)\n")
    print(worst_table(names, worst))
    if args.json:
        data = {"players": names, "sizes": args.sizes, "games": args.games, "seed": args.seed,
                "wins": wins.tolist(), "played": games.tolist(), "ratings": [vars(r) for r in rated],
                "worst_cases": {str(size): [vars(w) for w in cases] for size, cases in worst.items()}}
        atomic_write_text(args.json, json.dumps(data, indent=1))
        print(f"\nsaved {args.json}")
    if args.plot:
        plot(names, wins.sum(0) / games.sum(0), rated, args.plot)
        print(f"saved {args.plot}")
    return 0


def matrix_table(names: list[str], rates: np.ndarray) -> str:
    short = [Path(name).name for name in names]
    lines = ["| investigators \\ cultists | " + " | ".join(short) + " |", "|---" * (len(names) + 1) + "|"]
    for name, row in zip(short, rates):
        lines.append(f"| {name} | " + " | ".join(f"{100 * rate:.1f}%" for rate in row) + " |")
    return "\n".join(lines)


def ratings_table(rated: list[Rating]) -> str:
    lines = ["| player | role | rating | 95% interval |", "|---|---|---|---|"]
    for r in sorted(rated, key=lambda r: (r.role, -r.elo)):
        lines.append(f"| {Path(r.name).name} | {r.role} | {r.elo:+.0f} | {r.low:+.0f} to {r.high:+.0f} |")
    return "\n".join(lines)


def worst_table(names: list[str], worst: dict[int, list[WorstCase]]) -> str:
    """One row per player and role, one column per size: `rate (opponent)`."""
    sizes = list(worst)
    lines = ["| player | role | " + " | ".join(f"{size} players" for size in sizes) + " |",
             "|---|---|" + "---|" * len(sizes)]
    for k in range(2 * len(names)):
        first = worst[sizes[0]][k]
        cells = [f"{100 * worst[size][k].investigators_win:.1f}% ({Path(worst[size][k].opponent).name})"
                 for size in sizes]
        lines.append(f"| {Path(first.name).name} | {first.role} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def plot(names: list[str], rates: np.ndarray, rated: list[Rating], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    short = [Path(name).name for name in names]
    figure, (left, right) = plt.subplots(1, 2, figsize=(6 + len(names), 3 + 0.5 * len(names)))
    image = left.imshow(rates, vmin=0, vmax=1, cmap="RdBu")
    left.set_xticks(range(len(names)), short, rotation=45, ha="right")
    left.set_yticks(range(len(names)), short)
    left.set_xlabel("cultists")
    left.set_ylabel("investigators")
    left.set_title("investigators' win rate")
    for (i, j), rate in np.ndenumerate(rates):
        left.text(j, i, f"{100 * rate:.0f}", ha="center", va="center", fontsize=8)
    figure.colorbar(image, ax=left, fraction=0.046)
    for offset, role in ((-0.15, "investigator"), (0.15, "cultist")):
        rows = [r for r in rated if r.role == role]
        y = np.arange(len(rows)) + offset
        right.errorbar([r.elo for r in rows], y, xerr=[[r.elo - r.low for r in rows], [r.high - r.elo for r in rows]],
                       fmt="o", capsize=3, label=role)
    right.set_yticks(range(len(names)), short)
    right.set_xlabel("rating (Elo scale)")
    right.legend()
    right.set_title("ratings, 95% intervals")
    figure.tight_layout()
    from rlyeh_env.files import atomic_write

    atomic_write(path, lambda handle: figure.savefig(handle, format="png", dpi=110))
    plt.close(figure)


if __name__ == "__main__":
    sys.exit(main())
