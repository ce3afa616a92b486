"""`python -m rlyeh_env.play` (what `make play` runs): the same as `rlyeh play`; see
`rlyeh_env.terminal.play` for the table itself."""

from __future__ import annotations

import sys

from .terminal.play import main

if __name__ == "__main__":
    sys.exit(main())
