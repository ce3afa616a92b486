#!/usr/bin/env bash
# The recipe of v5 (checkpoints/README.md, "v5"): v4's recipe (scripts/train_v4.sh), then one more
# league round from v4 whose exploiters learn at a constant rate of their own, and its average.
# `make train` runs it.
#
# The round (y1) keeps w1's anchors and settings and changes what the exploiters do: each learns
# at 3e-4 (exploit.py's rate; the main learners stay at 5e-5), restarts every 250 updates instead
# of 100, and plays 40% of the games instead of 30%, so the holes a best response finds are found
# inside the league. Its average (swy1: the round's 13 snapshot files and its final policies) is
# v5; its exploitability is the league issue's bar (runs/exploit-swy1/report.md: +2.5 points at
# most).
#
# About 46 minutes on 2 cores with native bfloat16 after v4's 37 (83 in all). A finished step is skipped and an
# interrupted one resumed from its checkpoint, so the script can be run again after a stop.
# DRY_RUN=1 prints the commands.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python}

bash scripts/train_v4.sh
. scripts/recipe_steps.sh  # run, train, exploit, ROUND_ANCHORS

# shellcheck disable=SC2086  # the anchors are one word each
train y1 --preset league --init-from runs/swaw1/policies.pt --imitation-decisions 0 --league-anchor-pfsp hard \
    --pfsp-by-size true --pfsp-size-relative true --snapshot-bluffs true --learning-rate 5e-5 \
    --table-sizes 4 4 5 5 6 7 8 --total-decisions 16000000 --exploiter-learning-rate 3e-4 --exploiter-period 250 \
    --exploiter-share 0.4 --eval-every 0 --run-name y1 --league-anchors $ROUND_ANCHORS
# shellcheck disable=SC2086  # the glob expands here, the snapshots in update order
[ -f runs/swy1/policies.pt ] && [ -z "${DRY_RUN:-}" ] || run "$PY" scripts/average.py runs/y1/snapshots/*.pt \
    runs/y1/policies.pt --out runs/swy1/policies.pt
exploit swy1
echo "== done: runs/swy1/policies.pt is v5 (checkpoints/rlyeh_v5.pt; runs/exploit-swy1/report.md its exploitability)"
