# The two commands a fresh machine needs: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# The bench's own environment: the PyPI hnefatafl package it compares against, never in the app's.
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed-stamp

.PHONY: play test install bench bench-startup bench-big bench-records bench-review bench-jobs goldens goldens-tafl goldens-taifa \
	goldens-kingdom snapshots-golden clean

$(STAMP): pyproject.toml
	@echo "fiefdom: installing into $(VENV) (the first time takes a minute or so)..."
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

$(BENCH_STAMP):
	$(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install --quiet hnefatafl==0.1.1 numpy  # it imports numpy, undeclared
	touch $(BENCH_STAMP)

# `make play` starts the app; ARGS="..." runs another command instead.
play: $(STAMP)
	$(VENV)/bin/fiefdom $(or $(ARGS),play)

# Snapshots depend on the theme and colour settings: unset them for the run. Work stealing keeps
# the workers busy to the end (the long TUI games would otherwise finish on one). Three workers on
# two cores: the tests wait (AI processes, timers, programs they start) for about a fifth of the
# time, which a third worker fills (2026-11-27, fresh clone, quiet: 7:22 with two, 6:35 with
# three, 6:54 with four). Compiled modules are kept (in the ignored __pycache__ folders) even where
# PYTHONDONTWRITEBYTECODE is set: each worker and each program a test starts would compile every
# module again (a collection takes 9 CPU s without them, 3 with). TEXTUAL_ANIMATIONS=none: a scroll
# or a fade is drawn at once (a test waits for what it asserts, never for an animation's end;
# about 6% of the app's tests' time).
test: $(STAMP)
	$(PY) -m ruff check --quiet .
	$(PY) -m mypy
	env -u TEXTUAL_THEME -u NO_COLOR -u PYTHONDONTWRITEBYTECODE TEXTUAL_ANIMATIONS=none $(PY) -m pytest -q -n 3 --dist worksteal $(PYTEST_ARGS)

# The figures in docs/performance.md come from these commands.
bench: $(STAMP) $(BENCH_STAMP)
	$(PY) scripts/bench_tafl_anchor.py --anchor-python $(BENCH_VENV)/bin/python --runs 3
	for v in traditional gild-9 gild-11; do \
		$(VENV)/bin/fiefdom simulate tafl --variant $$v --games 200 --seed 1 \
			--seat attackers=random --seat defenders=random | tail -2; \
		$(VENV)/bin/fiefdom tafl bench --variant $$v --seconds 1; \
		$(VENV)/bin/fiefdom tafl bench --variant $$v --seconds 3; \
	done
	$(VENV)/bin/fiefdom simulate tafl --variant gild-9 --games 4 --seed 1 --seat attackers=ai --seat defenders=ai \
		--ai-time 0.2 | tail -2
	for s in standard el-cid; do \
		$(VENV)/bin/fiefdom simulate taifa --variant $$s --games 1000 --seed 1 | tail -2; \
	done
	$(VENV)/bin/fiefdom simulate kingdom --variant multi-4 --games 1000 --seed 1 \
		--seat 1=random --seat 2=random --seat 3=random --seat 4=random | tail -2
	$(VENV)/bin/fiefdom simulate kingdom --variant solo --games 1000 --seed 1 --seat You=random | tail -2

# What writing records adds to `fiefdom simulate`'s CPU time, with and without --out, paired runs
# (docs/performance.md, "Writing records"). DIR=folder puts the records there: this machine's root
# file system (ext4 without a journal) makes a new file dear for a minute or more after many were deleted.
bench-records: $(STAMP)
	$(PY) scripts/bench_records.py $(if $(DIR),--dir $(DIR))

# Start to first frame of the app (docs/performance.md, "The app").
bench-startup: $(STAMP)
	$(PY) scripts/startup_time.py 9
	$(PY) scripts/startup_time.py 9 --cli

# `fiefdom replay analyse` at each game's default budget: CPU s a decision with --jobs 1, wall clock with
# --jobs 2, the two JSON reports compared, the reviewer's work counted (docs/performance.md, "Reviewing
# a record"). The records are made in the temporary folder; ONLY=tafl-brandubh,taifa,... for some.
bench-review: $(STAMP)
	$(PY) scripts/bench_review.py $(if $(ONLY),--only $(ONLY))

# simulate and verify on 1 and 2 processes and a local Dask cluster; peak memory of long runs
# (docs/performance.md, "Every core, then a cluster")
bench-jobs: $(STAMP)
	$(PY) scripts/bench_jobs.py --games 2000
	$(PY) scripts/bench_memory.py

# A 188,000-move record and each command's time and peak memory on it (docs/performance.md,
# "Big records"). The record is written once to the temporary folder; RECORD=path to choose.
bench-big: $(STAMP)
	$(PY) scripts/bench_big_record.py $(if $(RECORD),--record $(RECORD))

# Golden records for tests/golden, then their snapshots. Tafl: whole AI-against-AI games,
# depth 3 (deterministic). Taifa: six rulebook bots (standard), and El Cid played by the
# Taifa AI against three bots (deterministic for a seed).
# `make goldens-taifa snapshots-golden` redoes only Taifa's. Take the Kingdom: a three-player
# game and a solo game of random seats under each rules revision kept; `make goldens-kingdom`
# redoes the current revision's (seed 4: revision 4) and the snapshot. The older revisions' records
# (seed 1: revision 1, seed 3: revision 3) are kept as they are: they prove old records still
# replay, and cannot be played anew.
goldens: goldens-tafl goldens-taifa goldens-kingdom snapshots-golden

goldens-tafl: $(STAMP)
	rm -f replays/tafl-*.fief
	for v in traditional gild-9 gild-11; do \
		$(VENV)/bin/fiefdom simulate tafl --variant $$v --games 2 --seed 5 --seat attackers=ai \
			--seat defenders=ai --ai-depth 3 --ai-time 60 --out replays | tail -3; \
	done

goldens-taifa: $(STAMP)
	rm -f replays/taifa-*.fief
	$(VENV)/bin/fiefdom simulate taifa --variant standard --games 1 --seed 7 --out replays | tail -3
	$(VENV)/bin/fiefdom simulate taifa --variant el-cid --seat "El Cid=ai" --games 1 --seed 5 \
		--out replays | tail -3

goldens-kingdom: $(STAMP)
	rm -f replays/kingdom-multi-3-4-*.fief replays/kingdom-solo-4-*.fief
	$(VENV)/bin/fiefdom simulate kingdom --variant multi-3 --seat 1=random --seat 2=random --seat 3=random \
		--games 1 --seed 4 --out replays | tail -3
	$(VENV)/bin/fiefdom simulate kingdom --variant solo --seat You=random --games 1 --seed 4 --out replays | tail -3
	env -u TEXTUAL_THEME -u NO_COLOR $(PY) -m pytest -q tests/golden/test_golden_kingdom.py --snapshot-update

snapshots-golden: $(STAMP)
	env -u TEXTUAL_THEME -u NO_COLOR $(PY) -m pytest -q tests/golden tests/tui/test_tui_snapshots.py -k "golden or replay" --snapshot-update

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache
