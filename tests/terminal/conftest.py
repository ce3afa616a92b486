"""Makes `terminal_testkit` and the env tests' state sampler and perturbation
(`rlyeh_env_testkit`) importable under pytest's importlib import mode."""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for folder in (_HERE, _HERE.parent / "env"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
