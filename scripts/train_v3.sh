#!/usr/bin/env bash
# The recipe of the candidate for v3, from the shipped v2 (checkpoints/README.md, "After v2";
# v2's own recipe is scripts/train_v2.sh; `make train` runs this one). No round alone met the
# exploitability bar (5 points) in its one measurement: v2q3 missed it by 0.1-0.3 points, v2q4
# and v2q5 did worse; the weight average of the rounds' trajectory, swa29, met it (+4.6) and is v3
# (checkpoints/README.md, "v3" and "After v2").
#
# Rounds in the manner of PSRO, both sides learning from v2's policies, the league's draws by
# hard PFSP on each entry's per-size records: v2p1 trains against v2 and its exploiters; v2q2
# starts again from v2, reads each size's record against the league's rate at that size and adds
# v2p1's exploiters (whose cultist taught the investigators to vote No) and v2 bluffing; v2q3
# resumes v2q2 against v2q2's exploiters too, each cultist snapshot joining also as a bluffer;
# v2q4 and v2q5 resume it against each later round's exploiters (v2q5 with the exploiters drawn
# more often). The last steps average the lineage and measure the average's exploitability as the
# bar asks (runs/exploit-swa29/report.md).
#
# About 3.5 hours on 2 cores with native bfloat16 (8,000-12,000 training decisions a second), about
# 5 without (about 6,000 a second: 2 h 20 min of training and six exploit.py runs of 25-33
# minutes). A finished step is skipped and an interrupted one resumed from its checkpoint, so the
# script can be run again after a stop. DRY_RUN=1 prints the commands.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python}

. scripts/recipe_steps.sh  # run, train, exploit, heuristic_clone

heuristic_clone
# The intermediate reports need only their exploiters, so their evaluations are short.
exploit v2 500 checkpoints/rlyeh_v2.pt

# Every round's anchors: the clone (sampled, greedy, bluffing), the untrained network bluffing,
# v1 (plain and bluffing) and v2; v2p1 adds v2's exploiters, the later rounds v2 bluffing too.
ANCHORS="runs/warm_start.pt runs/warm_start.pt:greedy untrained:bluffs runs/warm_start.pt:bluffs
    checkpoints/rlyeh_v1.pt checkpoints/rlyeh_v1.pt:bluffs checkpoints/rlyeh_v2.pt"
ROUND="--preset accuse --init-from v2 --imitation-decisions 0 --league-anchor-pfsp hard --pfsp-by-size true
    --learning-rate 5e-5 --table-sizes 4 4 5 5 6 7 8 --total-decisions 8000000"

train v2p1 $ROUND --run-name v2p1 --league-anchors $ANCHORS runs/v2_inv_exploiter.pt runs/v2_cult_exploiter.pt
exploit v2p1 500
ANCHORS="$ANCHORS checkpoints/rlyeh_v2.pt:bluffs runs/v2_inv_exploiter.pt runs/v2_cult_exploiter.pt
    runs/v2p1_inv_exploiter.pt runs/v2p1_cult_exploiter.pt"
train v2q2 $ROUND --pfsp-size-relative true --run-name v2q2 --league-anchors $ANCHORS
exploit v2q2 500
train v2q3 --resume runs/v2q2/checkpoint.pt --run-name v2q3 --total-decisions 16000000 --snapshot-bluffs true \
    --league-anchors $ANCHORS runs/v2q2_inv_exploiter.pt runs/v2q2_cult_exploiter.pt
exploit v2q3 500
ANCHORS="$ANCHORS runs/v2q2_inv_exploiter.pt runs/v2q2_cult_exploiter.pt"
train v2q4 --resume runs/v2q3/checkpoint.pt --run-name v2q4 --total-decisions 24000000 \
    --league-anchors $ANCHORS runs/v2q3_inv_exploiter.pt runs/v2q3_cult_exploiter.pt
exploit v2q4 500
ANCHORS="$ANCHORS runs/v2q3_inv_exploiter.pt runs/v2q3_cult_exploiter.pt"
# The last round weighs the exploiters more: self-play 35% -> 20% of the games, the anchors 50% ->
# 70% of the league games (drawn by hard PFSP, so mostly the exploiters that still beat it).
train v2q5 --resume runs/v2q4/checkpoint.pt --run-name v2q5 --total-decisions 32000000 --opponent-latest 0.2 \
    --league-anchor-share 0.7 --league-anchors $ANCHORS runs/v2q4_inv_exploiter.pt runs/v2q4_cult_exploiter.pt
# The candidate, shipped as v3: the weight average of every snapshot file of the lineage (one each
# 50 updates) and of the four rounds' final policies, stochastic weight averaging over the
# rounds (scripts/average.py; the average of the four finals alone, avg4, missed the bar by 0.3).
SNAPSHOTS="runs/v2q2/snapshots/*.pt runs/v2q3/snapshots/*.pt runs/v2q4/snapshots/*.pt runs/v2q5/snapshots/*.pt"
# shellcheck disable=SC2086  # the globs expand here, each run's snapshots in update order
[ -f runs/swa29/policies.pt ] && [ -z "${DRY_RUN:-}" ] || run "$PY" scripts/average.py $SNAPSHOTS \
    runs/v2q2/policies.pt runs/v2q3/policies.pt runs/v2q4/policies.pt runs/v2q5/policies.pt --out runs/swa29/policies.pt
exploit swa29
echo "== done: runs/swa29/policies.pt is v3 (checkpoints/rlyeh_v3.pt; runs/exploit-swa29/report.md its exploitability)"
