#!/usr/bin/env bash
# The recipe of the shipped v2 bots, checkpoints/rlyeh_v2.pt (`make train`; checkpoints/README.md,
# "v2" and "After v1: the accusation step").
#
# v1's bots, cloned accusing on their belief, train in the league (acc5, acc7); then rounds in the
# manner of PSRO: scripts/exploit.py trains a best response to each side of the round's result,
# and the next round trains against those exploiters as league anchors (acc8-acc11); the last
# two runs (acc12, acc13) train only the investigators, against every cultist the rounds produced.
# acc13's policies.pt is v2: acc13's investigators and acc11's cultists.
#
# About 3 hours on 2 cores with native bfloat16. A finished step is skipped and an interrupted
# one resumed from its checkpoint, so the script can be run again after a stop. DRY_RUN=1 prints
# the commands instead of running them.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-python}

. scripts/recipe_steps.sh  # run, train, exploit, heuristic_clone

heuristic_clone

# The anchors every round keeps: the clone sampled, greedy and bluffing, the untrained network
# (plain and bluffing), v1 and v1 bluffing.
ANCHORS="runs/warm_start.pt runs/warm_start.pt:greedy untrained untrained:bluffs checkpoints/rlyeh_v1.pt runs/warm_start.pt:bluffs checkpoints/rlyeh_v1.pt:bluffs"

train acc5 --preset accuse --run-name acc5
train acc7 --resume runs/acc5/checkpoint.pt --run-name acc7 --total-decisions 42000000 --league-anchor-pfsp hard
exploit acc7
run cp runs/acc7_cult_exploiter.pt runs/acc7_exploiter.pt  # acc8-acc11 know it by this name
train acc8 --resume runs/acc7/checkpoint.pt --run-name acc8 --total-decisions 54000000 \
    --league-anchors $ANCHORS runs/acc7_exploiter.pt
exploit acc8
train acc9 --resume runs/acc8/checkpoint.pt --run-name acc9 --total-decisions 66000000 \
    --league-anchors $ANCHORS runs/acc7_exploiter.pt runs/acc8_inv_exploiter.pt runs/acc8_cult_exploiter.pt
exploit acc9
train acc10 --resume runs/acc9/checkpoint.pt --run-name acc10 --total-decisions 78000000 --table-sizes 4 4 5 5 6 7 8 \
    --league-anchors $ANCHORS runs/acc7_exploiter.pt runs/acc8_inv_exploiter.pt runs/acc8_cult_exploiter.pt \
    runs/acc9_inv_exploiter.pt runs/acc9_cult_exploiter.pt
exploit acc10
train acc11 --resume runs/acc10/checkpoint.pt --run-name acc11 --total-decisions 90000000 --table-sizes 4 4 5 5 6 7 8 \
    --league-anchors $ANCHORS runs/acc7_exploiter.pt runs/acc8_inv_exploiter.pt runs/acc8_cult_exploiter.pt \
    runs/acc9_inv_exploiter.pt runs/acc9_cult_exploiter.pt runs/acc10_inv_exploiter.pt runs/acc10_cult_exploiter.pt
exploit acc11
for name in acc9 acc10 acc11; do run cp "runs/$name/policies.pt" "runs/${name}_main.pt"; done

# Every cultist the rounds produced (with the clone and v1, plain and bluffing): the anchors of
# the investigator-only runs.
CULTISTS="runs/warm_start.pt runs/warm_start.pt:bluffs checkpoints/rlyeh_v1.pt checkpoints/rlyeh_v1.pt:bluffs
    runs/acc9_main.pt runs/acc10_main.pt runs/acc11_main.pt runs/acc7_cult_exploiter.pt runs/acc8_cult_exploiter.pt
    runs/acc9_cult_exploiter.pt runs/acc10_cult_exploiter.pt runs/acc11_cult_exploiter.pt"

# The investigators alone, from acc11, against every cultist above in every game (hard PFSP,
# sharper), the 4- and 5-seat tables twice: the rounds' investigators lost most there.
train acc12 --preset accuse --run-name acc12 --init-from runs/acc11/policies.pt --imitation-decisions 0 \
    --learner-sides investigator --opponent-latest 0 --exploiter-share 0 --league-anchor-share 1.0 \
    --league-anchor-pfsp hard --pfsp-power 3 --learning-rate 1e-4 --table-sizes 4 4 5 5 6 7 8 \
    --total-decisions 8000000 --league-anchors $CULTISTS
exploit acc12
train acc13 --resume runs/acc12/checkpoint.pt --run-name acc13 --total-decisions 16000000 \
    --league-anchors $CULTISTS runs/acc12_cult_exploiter.pt
echo "== done: runs/acc13/policies.pt is checkpoints/rlyeh_v2.pt"
