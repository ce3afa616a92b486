"""`Screen`: where the terminal commands write and read, in colour on a terminal, plain text otherwise.

On a terminal the board is drawn with rich (panels, tables, coloured sigils); when stdout is a
pipe or a file, every view is the plain text of `rlyeh_env.text` and input is read line by line,
so scripts and tests can drive a game. A seat's board is drawn from its projection (`SeatView`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TextIO

from rich.console import Console
from rich.text import Text

from ..engine.state import State
from ..seat_view import SeatView
from ..text import render_truth, seat_text
from .views import seat_panels, suspicion_table, truth_view


class Screen:
    def __init__(self, out: TextIO | None = None, inp: TextIO | None = None, fancy: bool | None = None,
                 width: int | None = None):
        self.out = out if out is not None else sys.stdout
        self.inp = inp if inp is not None else sys.stdin
        self.fancy = self.out.isatty() if fancy is None else fancy
        self.console = Console(file=self.out, force_terminal=self.fancy, no_color=not self.fancy,
                               highlight=False, width=width, soft_wrap=not self.fancy)

    def say(self, line: str, style: str = "") -> None:
        """One line of narration (or a message)."""
        if self.fancy:
            self.console.print(Text(line, style=style))
        else:
            print(line, file=self.out, flush=True)

    def rule(self, title: str = "") -> None:
        if self.fancy:
            self.console.rule(title)
        else:
            print(f"--- {title} ---" if title else "", file=self.out, flush=True)

    def seat(self, view: SeatView) -> None:
        """The board as a seat may see it: its projection."""
        if self.fancy:
            self.console.print(seat_panels(view))
        else:
            print(seat_text(view, with_choices=False), file=self.out, flush=True)

    def truth(self, state: State, suspicions: Mapping[int, Sequence[float]] | None = None) -> None:
        """The whole truth, and the checkpoint bots' suspicions when given."""
        if self.fancy:
            self.console.print(truth_view(state, suspicions))
            return
        print(render_truth(state), file=self.out)
        if suspicions:
            # the same table without colour: rich renders it as plain characters
            plain = Console(file=self.out, force_terminal=False, no_color=True, width=200, highlight=False)
            plain.print(suspicion_table(state, suspicions))
        self.out.flush()

    def choices(self, heading: str, choices: Sequence[str]) -> None:
        self.say(heading, "bold")
        for number, text in enumerate(choices, 1):
            self.say(f"  [{number}] {text}")

    def ask(self, prompt: str) -> str | None:
        """One line typed by the person (stripped), or None at end of input."""
        if self.fancy:
            self.console.print(Text(prompt, style="bold"), end="")
        else:
            print(prompt, end="", file=self.out, flush=True)
        line = self.inp.readline()
        if not line:
            return None
        if not self.inp.isatty() and not self.fancy:
            print(line.rstrip("\n"), file=self.out)  # echo piped input so a transcript reads well
        return line.strip()
