"""Makes `web_testkit` (the shared helpers of tests/web) and the scripts' `require_install`
(scripts/load_web.py imports it) importable under pytest's importlib import mode."""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for folder in (_HERE, _HERE.parents[1] / "scripts"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
