# Two commands for a fresh clone: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
HOST   ?= 127.0.0.1
PORT   ?= 5000
BIN    := $(VENV)/bin
# The translation catalogues: installing compiles them (hatch_build.py), so a changed one
# installs again
CATALOGUES := $(wildcard scorekeeper/translations/*/LC_MESSAGES/messages.po)

.PHONY: run replicate test test-fast screenshots lint lock install messages icons bench clean

# pytest's own arguments for one test or a few: make test ARGS="tests/test_web.py -k undo"
ARGS ?=
# pytest-xdist workers (JOBS=0: no workers, for a debugger). make test: two per core, as
# a browser test waits on its page's timers and round trips (measured on 2 cores: 9 min 46
# with 4 workers, 10 min 35 with 2); make test-fast, which waits on nothing: one per core
JOBS ?=
CORES := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
# pytest keeps each test module's rewritten bytecode in __pycache__ and reuses it on the
# next run (about 8 s of each worker's start), unless PYTHONDONTWRITEBYTECODE is set in the
# shell: it is emptied for the tests' run alone
KEEP_BYTECODE := PYTHONDONTWRITEBYTECODE=
# The pinned versions of every dependency (make lock), installed with pip alone
LOCK     := requirements/lock.txt
APP_LOCK := requirements/app.txt

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The app alone, editable: the instance folder (database, secret key, config.py) is then
# this checkout's instance/. Its dependencies at the locked versions, then the app itself
$(VENV)/.app-installed: $(BIN)/python pyproject.toml $(APP_LOCK) hatch_build.py $(CATALOGUES)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(APP_LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# The app with the test extras, editable so tests see the working tree
$(VENV)/.test-installed: $(BIN)/python pyproject.toml $(LOCK) hatch_build.py $(CATALOGUES)
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@ $(VENV)/.app-installed

install: $(VENV)/.app-installed

run: $(VENV)/.app-installed
	$(BIN)/scorekeeper serve --host $(HOST) --port $(PORT)

# Beside `make run`: every change of the database copied to the replica that
# instance/litestream.yml names (copy instance/litestream.example.yml; README, Backups)
replicate: $(VENV)/.app-installed
	$(BIN)/scorekeeper replicate

# The whole suite on every core (pytest-xdist: each test to whichever worker is free).
# A module-scoped fixture (an app served with its games) is made by each worker that runs
# one of its tests; what is slow to make is made once for the run (tests/run_support.py).
# Keeping a module's tests on one worker (--dist loadgroup, which pytest 9.2 leaves
# ungrouped: pytest-dev/pytest-xdist#1386) was slower, measured on 2 cores with pytest
# 9.1: 6 min 42 against 6 min 01, the workers waiting on each other at the end.
# The tests come in the order tests/conftest.py gives them: the browser modules spread
# between the quick tests, quick tests last, so that no worker is left alone with browser
# tests at the end (measured on 2 cores the same hour: 350 s against 394 s in
# alphabetical order; handed out four at a time, 361 s: a module's fixtures made again on
# each worker its tests went to).
# ARGS: a file, a test, -k …
# In a fresh clone (CI's) the test modules are rewritten once, by one collection, before
# the workers start: each worker would otherwise rewrite every one of them itself (four
# workers' start measured on 2 cores: 25 s and 35 s of CPU, against 12 + 7 s and 23 s)
# (a collection that fails says so in the run itself)
REWRITTEN = ls tests/__pycache__/conftest.*-pytest-*.pyc >/dev/null 2>&1 || \
	$(KEEP_BYTECODE) $(BIN)/python -m pytest --collect-only -q -p no:cacheprovider >/dev/null 2>&1 || true
test: $(VENV)/.test-installed
	@$(REWRITTEN)
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -n $(or $(JOBS),$(shell echo $$(( $(CORES) * 2 )))) --dist load $(ARGS)

# While working: no browser, no slow test (about 1 minute 45 on 2 cores); every
# rule, store and web path is still covered
test-fast: $(VENV)/.test-installed
	@$(REWRITTEN)
	$(KEEP_BYTECODE) $(BIN)/python -m pytest -n $(or $(JOBS),$(CORES)) --dist load -m "not browser and not slow" $(ARGS)

# The browser tests with their screenshots saved into screenshots/ (390×844 and the
# other sizes each test names), to open and look at; make test takes none, to be quick.
# ARGS: a file, a test, -k …
screenshots: $(VENV)/.test-installed
	SCREENSHOTS=1 $(KEEP_BYTECODE) $(BIN)/python -m pytest -n $(or $(JOBS),$(shell echo $$(( $(CORES) * 2 )))) --dist load -m browser $(ARGS)

# ruff (style and likely bugs) and mypy (types; strict on scorekeeper/rules/), both
# configured in pyproject.toml: 0 findings, run by .ci/run before the tests
lint: $(VENV)/.test-installed
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/mypy --strict scorekeeper/rules

# Extract every gettext string into scorekeeper/translations/messages.pot and bring each
# language's catalogue up to date with it (new strings empty, changed ones marked fuzzy:
# ../shared/tools/po-check lists what is left to translate). Keywords beyond pybabel's own
# (gettext, ngettext, pgettext …): _l (lazy), the rules' _n (count first) and _p and the
# forms' _lp (a context first: "diamonds" the suit or counted); "# TRANSLATORS:" comments
# go into the catalogues beside their string
messages: $(VENV)/.test-installed
	mkdir -p scorekeeper/translations
	$(BIN)/pybabel extract -F babel.cfg -k _l -k _n:2,3 -k _np:1c,2,3 -k _p:1c,2 -k _lp:1c,2 -c TRANSLATORS: \
		-o scorekeeper/translations/messages.pot .
	$(if $(CATALOGUES),$(BIN)/pybabel update -i scorekeeper/translations/messages.pot -d scorekeeper/translations,)

# Render static/icons/*.png from their SVG sources with the system's Chromium
icons: $(VENV)/.test-installed
	$(BIN)/python tools/render_icons.py

# Page speed against a bare Flask hello world, growth with 10 to 5,000 games, bytes and
# memory (bench/bench.py; not part of `make test`). QUICK=1: 10 and 1,000 games, < 3 min.
# CLUB=1: a club night's phones on one real server, 50 to 200 tables (bench/club.py, about
# 10 minutes; CLUB_ARGS="--tables 50,200 --seconds 60" for a shorter run)
bench: $(VENV)/.test-installed
	$(if $(CLUB),$(BIN)/python bench/club.py $(CLUB_ARGS),$(BIN)/python bench/bench.py $(if $(QUICK),--quick,))

# Pin every dependency anew (after a change of pyproject.toml's lists, or to take newer
# releases): uv resolves the app's (requirements/app.txt) and the app's with the test
# extras (requirements/lock.txt) for every Python >= 3.11, with hashes. Installing from
# them needs pip alone; raise pyproject.toml's floors to what is locked (and so tested)
lock: $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --extra test --universal --python-version 3.11 \
		--generate-hashes --quiet -o $(LOCK)
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 \
		--generate-hashes --quiet -c $(LOCK) -o $(APP_LOCK)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
