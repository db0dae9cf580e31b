# The two commands a fresh machine needs: `make play` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp

.PHONY: play test install bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

play: $(STAMP)
	$(VENV)/bin/fiefdom $(ARGS)

# Snapshots depend on the theme and colour settings: unset them for the run.
test: $(STAMP)
	env -u TEXTUAL_THEME -u NO_COLOR $(PY) -m pytest -q -n 2 $(PYTEST_ARGS)

bench: $(STAMP)
	$(VENV)/bin/fiefdom simulate tafl --variant traditional --games 200 --seed 1 --players random,random
	$(VENV)/bin/fiefdom simulate tafl --variant gild-9 --games 20 --seed 1 --players ai,ai --ai-time 0.05

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
