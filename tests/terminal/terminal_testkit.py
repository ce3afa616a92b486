"""Driving the terminal commands with typed lines, in-process (fast) or as a real subprocess."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from rlyeh_env.terminal.screen import Screen


def scripted_screen(lines: list[str], fancy: bool = False) -> Screen:
    """A screen reading `lines` as typed input and writing to a string (`screen.out.getvalue()`)."""
    return Screen(out=io.StringIO(), inp=io.StringIO("".join(line + "\n" for line in lines)), fancy=fancy, width=120)


def run_rlyeh(args: list[str], lines: list[str] = (), timeout: float = 300) -> subprocess.CompletedProcess:
    """`rlyeh ARGS` as a user runs it, with `lines` piped in."""
    return subprocess.run(
        [sys.executable, "-m", "rlyeh_env.cli", *args],
        input="".join(line + "\n" for line in lines), capture_output=True, text=True, timeout=timeout,
    )


def only_replay(folder: Path) -> Path:
    files = sorted(folder.glob("*.json"))
    assert len(files) == 1, files
    return files[0]
