"""The `train` command line (`scripts/train.py`, `rlyeh train`): `Args` parsed by tyro.

It is read in two passes. The first takes how the run starts: `--preset NAME` (full when not
given) or `--resume CHECKPOINT` (the run's saved settings). Those values are the defaults of the
second pass, in which tyro reads every option on top of them. So `--help` shows the values that
would apply (`--preset smoke --help` shows smoke's), and an option given to a resumed run is
validated against that run's own settings.

A resumed run is handed only the options given, found by comparing with its saved settings: an
option given with the saved value changes nothing, so leaving it out is the same run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Sequence

import tyro
from tyro.constructors import ConstructorRegistry, PrimitiveConstructorSpec, PrimitiveTypeInfo

from .config import PRESETS, Args, preset

DESCRIPTION = "PPO self-play of the investigator and cultist policies."


@dataclass(frozen=True)
class Start:
    """how the run starts, which gives every other option its default"""

    preset: Annotated[str | None, tyro.conf.arg(metavar="{" + ",".join(PRESETS) + "}",
                                                help_behavior_hint="(default: full)")] = None
    """the starting values of a new run (listed above)"""
    resume: Annotated[Path | None, tyro.conf.arg(metavar="CHECKPOINT", help_behavior_hint="(optional)")] = None
    """continue the run saved in this training checkpoint (its settings, with any option given here applied on top)"""


@dataclass(frozen=True)
class _Command:
    """Everything the second pass reads, so that `--help` lists both groups."""

    start: Annotated[Start, tyro.conf.OmitArgPrefixes]
    settings: Annotated[Args, tyro.conf.OmitArgPrefixes]


@dataclass(frozen=True)
class TrainCommand:
    """A parsed `train` command line."""

    args: Args
    """the settings of the run (for a resumed run: its saved settings with the options given applied)"""
    resume: Path | None
    """the checkpoint to continue, if any"""
    overrides: dict
    """the settings given that differ from the base (the preset, or the resumed run's saved settings)"""


def _parse_bool(text: str) -> bool:
    lowered = text.lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


_REGISTRY = ConstructorRegistry()


@_REGISTRY.primitive_rule
def _bool_as_value(type_info: PrimitiveTypeInfo) -> PrimitiveConstructorSpec | None:
    """Booleans take a value, in any case (`--shared-trunk true`, as the docs write them); tyro's own
    spelling would be `True` only."""
    if type_info.type is not bool:
        return None
    return PrimitiveConstructorSpec(
        nargs=1, metavar="{true,false}", instance_from_str=lambda values: _parse_bool(values[0]),
        is_instance=lambda value: isinstance(value, bool), str_from_instance=lambda value: [str(value).lower()],
    )


def _tyro(kind, argv: Sequence[str] | None, prog: str | None = None, **kwargs):
    """tyro.cli, with its boxed error message turned into the one line every command gives."""
    captured = io.StringIO()
    try:
        with contextlib.redirect_stderr(captured):
            parsed = tyro.cli(kind, args=argv, prog=prog, config=(tyro.conf.FlagConversionOff,), registry=_REGISTRY,
                              **kwargs)
        sys.stderr.write(captured.getvalue())  # warnings, if tyro had any
        return parsed
    except SystemExit as stop:
        if stop.code:
            name = prog or Path(sys.argv[0]).name
            print(f"{name}: error: {one_line(captured.getvalue())} (see {name} --help)", file=sys.stderr)
        else:
            sys.stderr.write(captured.getvalue())
        raise


def one_line(box: str) -> str:
    """The message of a tyro error box in one line: its first section (or title), and the option
    it suggests for a mistyped one."""
    rows = [line.strip().strip("│╭╮╰╯").strip() for line in box.splitlines()]
    title = next((row.strip("─ ") for row in rows if row.startswith("─")), "")
    body = []
    for row in rows:
        if row.startswith("─"):
            if body:
                break
        elif row:
            body.append(row)
    message = " ".join(" ".join(body).split()) or title or " ".join(box.split())
    hint = next((i for i, row in enumerate(rows) if row.startswith("Perhaps you meant")), None)
    if hint is not None and hint + 1 < len(rows) and rows[hint + 1]:
        message += f"; did you mean {rows[hint + 1].split()[0]}?"
    return message.replace("Error parsing ", "", 1)


def _description() -> str:
    """What `--help` says above the options: where their defaults come from, and each preset's values."""
    def shown(value):
        if isinstance(value, tuple):
            return " ".join(map(str, value))
        return str(value).lower() if isinstance(value, bool) else str(value)

    presets = [
        textwrap.fill(f"{name}: " + ", ".join(f"{key} {shown(value)}" for key, value in values.items()),
                      width=80, subsequent_indent="    ")
        for name, values in PRESETS.items()
    ]
    return "\n\n".join([
        DESCRIPTION,
        textwrap.fill("Each option's default below is the value it takes if not given: the preset's (full when "
                      "no --preset is given), or under --resume the saved run's. The presets set:", width=80),
        *presets,
    ])


def _saved_args(checkpoint: Path) -> Args:
    # Read here for the defaults and again by Trainer.resume: about 20 MB for the full preset, once.
    from rlyeh_env.policy.checkpoint import load_checkpoint

    from .trainer import args_from_dict

    return args_from_dict(load_checkpoint(checkpoint, kind="training")["args"])


ALIASES = {"--num-workers": "--rollout-workers"}  # other spellings of an option (a cluster's word for it)


def _spelled_out(argv: Sequence[str]) -> list[str]:
    """`argv` with every alias (`--num-workers 4`, `--num-workers=4`) in its option's own name."""
    out = []
    for token in argv:
        flag, equals, value = token.partition("=")
        out.append(ALIASES[flag] + equals + value if flag in ALIASES else token)
    return out


def parse_train_command(argv: Sequence[str] | None = None, prog: str | None = None) -> TrainCommand:
    """Parse a `train` command line (default: `sys.argv[1:]`). `--help` exits 0; an option tyro
    cannot read, or a value `Args` refuses, exits 2 with tyro's message. `--preset` with
    `--resume` or an unknown preset raise `ValueError`, an unreadable checkpoint `CheckpointError`."""
    argv = _spelled_out(sys.argv[1:] if argv is None else argv)
    start, _ = _tyro(Start, argv, prog=prog, return_unknown_args=True, add_help=False)
    if start.resume is not None and start.preset is not None:
        raise ValueError("--preset starts a new run; a resumed run keeps its own settings (override single options "
                         "instead)")
    base = _saved_args(start.resume) if start.resume is not None else preset(start.preset or "full")
    args = _tyro(_Command, argv, prog=prog, description=_description(), default=_Command(start, base)).settings
    overrides = {f.name: getattr(args, f.name) for f in dataclasses.fields(Args)
                 if getattr(args, f.name) != getattr(base, f.name)}
    return TrainCommand(args, start.resume, overrides)
