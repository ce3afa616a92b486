"""Average the weights of checkpoints of one lineage into one policy file (same as `rlyeh average`;
training/averaging.py says when that means something).

    python scripts/average.py runs/v2q3/policies.pt runs/v2q4/policies.pt --out runs/avg/policies.pt
    python scripts/average.py A.pt B.pt C.pt --weights 1 1 2 --out runs/avg/policies.pt

Then measure it as any candidate: scripts/evaluate.py --candidate runs/avg/policies.pt and
scripts/exploit.py runs/avg/policies.pt.
"""

import sys

from require_install import require_install

require_install()

from training.averaging import average_main  # noqa: E402

if __name__ == "__main__":
    sys.exit(average_main(prog="average.py"))
