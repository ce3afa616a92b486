"""Makes `rlyeh_env_testkit` (the shared helpers of tests/env) importable under importlib mode."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
