"""The `rlyeh` command: `rlyeh play`, `rlyeh watch`, `rlyeh replay`, `rlyeh serve`, `rlyeh train`,
`rlyeh eval`, one subcommand per entry point of the group `rlyeh.commands`.

`pyproject.toml` registers `play`, `watch`, `replay` (this package's terminal table), `serve` (its
browser table) and `train`, `eval`, `exploit` (the `training` package), so the env package reaches
the trainer's commands without importing it. Each subcommand has its own `--help`. `play`,
`watch` and `replay` need the `play` extra (rich; checkpoint bots also PyTorch), `serve` the `web`
extra, the others the `train` extra.
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points

GROUP = "rlyeh.commands"
COMMANDS = {
    "play": "sit at a table against bots (the shipped checkpoint by default)",
    "watch": "watch bots play, with the full truth and the bots' suspicions",
    "replay": "step through a saved game, forward and back",
    "serve": "the browser table: people and bots at one game, each in their own browser",
    "train": "PPO self-play of the investigator and cultist policies",
    "eval": "tournament of bots and checkpoints: win rates with confidence intervals",
    "exploit": "approximate exploitability: best responses trained against a checkpoint's two sides",
    "average": "average the weights of checkpoints of one lineage into one policy file",
}
EXTRAS = {"play": "play", "watch": "play", "replay": "play", "serve": "web"}  # the rest need the train extra


def commands() -> dict:
    """Subcommand name -> its entry point, as installed."""
    return {point.name: point for point in entry_points(group=GROUP)}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    installed = commands()
    if argv and argv[0] in COMMANDS and argv[0] not in installed:
        print(f"rlyeh {argv[0]} is not installed: pip install -e . registers the commands (make venv does)",
              file=sys.stderr)
        return 2
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in installed:
        asked_for_help = not argv or argv[0] in ("-h", "--help")
        stream = sys.stdout if asked_for_help else sys.stderr
        if not asked_for_help:
            print(f"rlyeh: unknown command {argv[0]!r}", file=stream)
        usage = "\n".join(f"  {name:<8} {COMMANDS.get(name, '')}" for name in sorted(installed, key=_order))
        print(f"usage: rlyeh COMMAND [options]\n\ncommands:\n{usage}", file=stream)
        return 0 if asked_for_help else 2
    command, rest = argv[0], argv[1:]
    try:
        run = installed[command].load()
    except ImportError as err:
        extra = EXTRAS.get(command, "train")
        print(f"rlyeh {command} needs the {extra} extra: pip install -e '.[{extra}]' ({err})", file=sys.stderr)
        return 2
    return run(rest, prog=f"rlyeh {command}") or 0


def _order(name: str) -> int:
    return list(COMMANDS).index(name) if name in COMMANDS else len(COMMANDS)


if __name__ == "__main__":
    sys.exit(main())
