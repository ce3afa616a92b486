# rlyeh-env developer entry points. `make play` / `make test` set up .venv on first use.

SHELL  := /bin/bash
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
STAMP  := $(VENV)/.installed
# Interpreter used only to create the venv.
PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
# CPU build; a local wheel of this version is found via pip's find-links on this machine.
TORCH_SPEC ?= torch==2.13.0

# The machine has 2 cores. Single-process targets get both for torch/BLAS;
# test targets run 2 pytest-xdist workers with 1 thread each to avoid oversubscription.
THREADS2 := OMP_NUM_THREADS=2 MKL_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2
THREADS1 := OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1

.PHONY: venv test test-slow test-browser play serve bench bench-web balance calibrate train train-league train-smoke evaluate bench-train bench-ray clean

venv: $(STAMP)

$(PY):
	$(PYTHON) -m venv $(VENV)

# Also reinstall when a top-level package appears (e.g. training/), so the editable install maps it.
$(STAMP): pyproject.toml $(wildcard rlyeh_env/__init__.py training/__init__.py) | $(PY)
	$(PIP) install --upgrade pip
	$(PIP) install "$(TORCH_SPEC)"
	$(PIP) install -e ".[play,train,web,dev]"
	touch $@

test: venv
	$(THREADS1) $(PY) -m pytest -n 2 -q

test-slow: venv
	$(THREADS1) $(PY) -m pytest -n 2 -q -m slow

# The browser table's end-to-end tests alone (also in `make test`): headless Debian chromium.
test-browser: venv
	$(THREADS1) $(PY) -m pytest -q -k browser tests/web

play: venv
	$(THREADS2) $(PY) -m rlyeh_env.play

# The browser table on http://127.0.0.1:8000/ (rlyeh serve --help for the network options).
serve: venv
	$(THREADS1) $(PY) -m rlyeh_env.cli serve

bench: venv
	$(THREADS2) $(PY) scripts/benchmark_env.py

# 20 browser tables at once over loopback: message latency percentiles and the server's memory.
bench-web: venv
	$(THREADS1) $(PY) scripts/load_web.py

balance: venv
	$(THREADS2) $(PY) scripts/balance.py

# RULES.md section 14 under trained play: the shipped bots on both sides (and the heuristic) at
# start hours around each size's own and 1-3 hours won back by Turn back time (R9.6), the
# investigators' win rate with the pick per size (45 candidates; about 7 minutes on 2 cores).
calibrate: venv
	$(THREADS2) $(PY) scripts/calibrate.py --hour-offsets -1 0 1 --hours-back 1 2 3 --games 1000

# The recipe of the shipped bots (checkpoints/README.md, "v5"): scripts/train_v5.sh, v4's recipe
# (one league round from v3, the last bots of rules version 2, under today's rules, and its
# average), then one more round from v4 whose exploiters learn at their own rate, its average and
# its exploitability. A finished step is skipped and an interrupted one
# resumed, so running it again after a stop loses nothing.
train: venv
	$(THREADS2) PY=$(PY) bash scripts/train_v5.sh

# A league from scratch, one run of the `league` preset (v1's recipe under rules version 2; about
# 70 min): self-play only, the heuristic's clone as the warm start.
train-league: venv
	$(THREADS2) $(PY) scripts/train.py --preset league

train-smoke: venv
	$(THREADS2) $(PY) scripts/train.py --preset smoke

# The evaluation of checkpoints/README.md, one run: the tournament (the shipped bots against the
# scripted ones, against themselves and against the version before them if one plays today's
# rules, with the bars and what the players did), then their approximate exploitability (an
# exploiter per side, 3M decisions each; 2,000 games a cell). About 25 minutes on 2 cores.
evaluate: venv
	$(THREADS2) $(PY) scripts/evaluate.py --sizes 4 5 6 7 8 --games 2000 --greedy --workers 2 --usage --json checkpoints/evaluation.json
	$(THREADS2) $(PY) scripts/exploit.py checkpoint --decisions 3000000 --games 2000 --out runs/exploit-checkpoint

# Rollouts on Ray workers against local ones, and a paper estimate for a cluster (the ray extra
# comes with the dev extra that `make venv` installs).
bench-ray: venv
	$(THREADS2) $(PY) scripts/benchmark_ray.py

# Our trainer against sb3-contrib's MaskablePPO (installs the `bench` extra first).
bench-train: venv
	$(PIP) install -e ".[bench]"
	$(THREADS2) $(PY) scripts/benchmark_training.py

# Removes build/test artefacts; keeps .venv, runs/ and replays/.
clean:
	rm -rf build dist *.egg-info .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -exec rm -rf {} +
