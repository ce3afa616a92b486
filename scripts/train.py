"""Train the investigator and cultist policies by PPO self-play (same as `rlyeh train`).

    python scripts/train.py --preset smoke            # under two minutes, end to end
    python scripts/train.py --preset league           # a league from scratch, self-play only (v1's recipe)
    python scripts/train.py --resume runs/league/checkpoint.pt
    python scripts/train.py --help                    # every setting, with its help text
"""

import sys

from require_install import require_install

require_install()

from training.commands import train_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(train_main(prog="train.py"))
