"""The `rlyeh` command: `rlyeh play`, `rlyeh watch`, `rlyeh replay`, `rlyeh train`, `rlyeh eval`
(each has its own --help).

`play`, `watch` and `replay` need the `play` extra (rich); `train` and `eval` need the `train`
extra (PyTorch), and so do `play` and `watch` with checkpoint bots (their default).
"""

from __future__ import annotations

import sys

COMMANDS = {
    "play": "sit at a table against bots (the shipped checkpoint by default)",
    "watch": "watch bots play, with the full truth and the bots' suspicions",
    "replay": "step through a saved game, forward and back",
    "train": "PPO self-play of the investigator and cultist policies",
    "eval": "tournament of bots and checkpoints: win rates with confidence intervals",
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in COMMANDS:
        usage = "\n".join(f"  {name:<6} {text}" for name, text in COMMANDS.items())
        stream = sys.stdout if not argv or argv[0] in ("-h", "--help") else sys.stderr
        if argv and argv[0] not in ("-h", "--help"):
            print(f"rlyeh: unknown command {argv[0]!r}", file=stream)
        print(f"usage: rlyeh COMMAND [options]\n\ncommands:\n{usage}", file=stream)
        return 0 if stream is sys.stdout else 2
    command, rest = argv[0], argv[1:]
    if command in ("play", "watch", "replay"):
        from importlib import import_module

        try:
            module = import_module(f".terminal.{command}", __package__)
        except ImportError as err:
            print(f"rlyeh {command} needs the play extra: pip install -e '.[play]' ({err})", file=sys.stderr)
            return 2
        return module.main(rest, prog=f"rlyeh {command}") or 0
    try:
        from training import commands
    except ImportError as err:
        print(f"rlyeh {command} needs the training extra: pip install -e '.[train]' ({err})", file=sys.stderr)
        return 2
    run = commands.train_main if command == "train" else commands.eval_main
    return run(rest, prog=f"rlyeh {command}")


if __name__ == "__main__":
    sys.exit(main())
