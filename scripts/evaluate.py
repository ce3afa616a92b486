"""Tournament of random, heuristic and checkpoint bots (same as `rlyeh eval`).

    python scripts/evaluate.py --sizes 4 5 6 7 8 --games 2000 --json results.json
    python scripts/evaluate.py --lineup checkpoint,heuristic --lineup runs/full/policies.pt,random
"""

import sys

from require_install import require_install

require_install()

from training.commands import eval_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(eval_main(prog="evaluate.py"))
