# Steps of the recipe scripts (scripts/train_v4.sh, train_v5.sh; the retired ones in the history); sourced, not run.
#
# Each step is skipped when its result is on disk and resumed from its checkpoint when it was
# interrupted, so a recipe can be run again after a stop; a result trained under other rules (a
# recipe of another rules version run in the same folder) stops it instead. DRY_RUN=1 prints the
# commands instead.
# The caller sets PY (the interpreter) and runs from the project's root.

run() {
    if [ -n "${DRY_RUN:-}" ]; then echo "$*"; else "$@"; fi
}

# same_rules FILE: stop the recipe, saying why, if FILE (a finished step's policies) was trained
# under other rules than this code plays: a step left by a recipe of another rules version must
# not be reused (a later step would refuse its files, or train against bots of another game).
same_rules() {
    "$PY" - "$1" <<'PYTHON'
import sys
from rlyeh_env.policy.checkpoint import CheckpointError, load_checkpoint
try:
    load_checkpoint(sys.argv[1])
except CheckpointError as err:
    sys.exit(f"{err}\nIt is a finished step of a recipe run under other rules: move runs/ aside and run the recipe again.")
PYTHON
}

# train NAME ARGS...: scripts/train.py ARGS as run NAME, unless it finished (or resume it).
train() {
    local name=$1; shift
    if [ -f "runs/$name/learning_curves.png" ] && [ -z "${DRY_RUN:-}" ]; then
        same_rules "runs/$name/policies.pt"
        echo "== $name: done"
    elif [ -f "runs/$name/checkpoint.pt" ] && [ -z "${DRY_RUN:-}" ]; then
        run "$PY" scripts/train.py --resume "runs/$name/checkpoint.pt"
    else
        run "$PY" scripts/train.py "$@"
    fi
}

# exploit NAME [GAMES [POLICIES]]: best responses to the two sides of POLICIES (default
# runs/NAME/policies.pt), 3M decisions each, kept as runs/NAME_inv_exploiter.pt and
# runs/NAME_cult_exploiter.pt (an anchor is named after its file, so each needs its own name).
# GAMES (default 2000) sizes only the report's evaluation: the exploiters do not depend on it.
exploit() {
    local name=$1 games=${2:-2000} policies=${3:-runs/$1/policies.pt}
    if [ -f "runs/exploit-$name/report.json" ] && [ -z "${DRY_RUN:-}" ]; then
        same_rules "runs/exploit-$name/investigator/policies.pt"
    else
        run "$PY" scripts/exploit.py "$policies" --decisions 3000000 --games "$games" --out "runs/exploit-$name"
    fi
    run cp "runs/exploit-$name/investigator/policies.pt" "runs/${name}_inv_exploiter.pt"
    run cp "runs/exploit-$name/cultist/policies.pt" "runs/${name}_cult_exploiter.pt"
}

# The heuristic's clone, the anchor every league keeps: the league preset's warm start and one
# update that does not move it, as runs/warm_start.pt.
heuristic_clone() {
    train hclone --preset league --total-decisions 1 --learning-rate 1e-9 --eval-every 0 --run-name hclone
    run cp runs/hclone/policies.pt runs/warm_start.pt
}

# The anchors of the rounds under rules version 3 (v4's w1 and v5's y1): the heuristic's clone
# (sampled, greedy, bluffing), the untrained network (plain and bluffing) and v3 re-stamped (plain
# and bluffing).
ROUND_ANCHORS="runs/warm_start.pt runs/warm_start.pt:greedy runs/warm_start.pt:bluffs untrained untrained:bluffs
    runs/v3r.pt runs/v3r.pt:bluffs"
