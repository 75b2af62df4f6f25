# pbem: the everyday commands. A fresh machine needs only Python 3.11+ and make:
# every target creates .venv and installs the project (with its dev tools; `make run` without
# them) on first use, and again whenever pyproject.toml changes.
#
#   make run        migrate, then serve web + SMTP ingress + periodic jobs (embedded: SQLite, no broker)
#   make test       the whole test suite (real PostgreSQL/Redis when they answer; see tests/conftest.py)
#   make check      lint + typecheck + contracts + schema + test (CI, .ci/run, also runs schemathesis
#                   and a short fault suite: bash .ci/schemathesis, make chaos)
#
# Knobs: PYTHON=python3.12, PYTEST_ARGS='-k mail -x', GAME=maretta PLAYERS=4 GAMES=1000
# OPTIONS='side=B', BENCH_ARGS='--games 50'.

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
STAMP := $(VENV)/.pbem-installed
# The project without its dev tools (pytest, mypy, playwright, schemathesis...): all `make run` needs,
# so that a fresh `make run` serves sooner; every other target installs the dev tools too.
RUN_STAMP := $(VENV)/.pbem-installed-run

PYTEST_ARGS ?=
GAME ?= maretta
PLAYERS ?= 4
GAMES ?= 200
SEED ?= 1
OPTIONS ?=
BENCH_ARGS ?=
# The full fault suite (about 15 minutes): a 3-minute relay outage, bursts of 1,000 mails to one game
# and 4,000 over 50 games. CI runs a small size (.ci/run).
CHAOS_ARGS ?= --seconds 240 --relay-outage 180 --kill-mid-send --burst-one 1000 --burst-many 4000 --burst-games 50 --settle 600
SCHEMA_FILE ?= var/openapi.yml

.PHONY: messages locale compile screenshots help install run test lint format typecheck contracts schema simulate bench chaos check mail-volume clean distclean

help:
	@echo "make run        start pbem on this machine (web 127.0.0.1:8000, SMTP 127.0.0.1:2525)"
	@echo "make test       run the whole test suite (PYTEST_ARGS='...' to narrow it)"
	@echo "make lint       ruff check (make format: report formatting only)"
	@echo "make typecheck  mypy (engine strictly, pbem/workers with the Django plugin)"
	@echo "make contracts  import-linter: the engine imports no framework, pbem never imports workers, no circles"
	@echo "make schema     validate the OpenAPI schema (drf-spectacular, warnings are errors)"
	@echo "make simulate   random games: GAME=$(GAME) PLAYERS=$(PLAYERS) GAMES=$(GAMES) OPTIONS='k=v ...'"
	@echo "make bench      engine benchmark (bench/engine.py $(BENCH_ARGS))"
	@echo "make chaos      the fault suite: own PostgreSQL + Redis, workers killed, relay down 3 min, bursts (CHAOS_ARGS='...')"
	@echo "make check      lint, typecheck, contracts, schema and test (CI also runs .ci/schemathesis and a short make chaos)"
	@echo "make screenshots  docs/screenshots: mail and pages in headless Chromium at 1280 and 390 px"
	@echo "make locale     the engine's catalogues (make messages: the service's), extracted and compiled"
	@echo "make install    only create .venv and install"
	@echo "make compile    opt-in: compile the rules with mypyc (python -m engine compile status: what runs)"

# The virtual environment, made with the first Python that is new enough.
$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null || { \
	  echo "pbem needs Python 3.11 or newer, but '$(PYTHON)' is: $$($(PYTHON) --version 2>&1)." >&2; \
	  echo "Install one and run e.g.: make PYTHON=python3.11 $(MAKECMDGOALS)" >&2; exit 1; }
	@echo "creating $(VENV) with $$($(PYTHON) --version)"
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "Could not create $(VENV). On Debian/Ubuntu: apt-get install python3-venv" >&2; exit 1; }

# Reinstalled whenever pyproject.toml is newer than the stamp.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --disable-pip-version-check -e '.[dev]'
	@touch $@ $(RUN_STAMP)

# The runtime part only, unless the whole install is there and up to date already.
$(RUN_STAMP): pyproject.toml | $(PY)
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then touch $@; else \
	  $(PY) -m pip install --disable-pip-version-check -e . && touch $@; fi

# The rules compiled with mypyc (engine/compiled.py) are opt-in: everything runs as plain Python
# until `make compile` (2 to 5 minutes on 2 cores, for a move about a third cheaper in the engine,
# which is a small part of a move's cost: docs/scaling.md). A build whose sources changed since is
# never run (the guard runs the sources); `make compile` again to use it.
install: $(STAMP)

compile: $(STAMP)
	@echo "compiling the rules with mypyc (2 to 5 minutes; python -m engine compile status says what runs)"
	$(PY) -m engine compile build
	@$(PY) -m engine compile status

run: $(RUN_STAMP)
	@mkdir -p "$${PBEM_VAR_DIR:-var}"  # SQLite cannot create the folder of its database file
	$(PY) manage.py migrate --noinput
	$(PY) manage.py runall

# -n auto: one test process per core (each with its own database); PYTEST_ARGS='-n 0' for one.
test: $(STAMP)
	$(PY) -m pytest -n auto $(PYTEST_ARGS)

lint: $(STAMP)
	$(PY) -m ruff check .

# Formatting is not enforced (the code base is not ruff-formatted); this only reports.
format: $(STAMP)
	@$(PY) -m ruff format --check . || echo "(a report only: formatting is not enforced, make lint is)"

# The folders of [tool.mypy] files that hold Python files yet (mypy refuses an empty one).
MYPY_PATHS = $(foreach d,engine pbem workers bench,$(if $(wildcard $(d)/*.py),$(d)))

typecheck: $(STAMP)
	$(PY) -m mypy $(MYPY_PATHS)

# The engine's catalogues (issue 27): every marked string of engine/ into engine.pot, merged into each
# language's .po (translate the new entries there), compiled to the .mo the engine reads (committed).
ENGINE_LOCALES = $(wildcard engine/locale/*/LC_MESSAGES/engine.po)
locale:
	xgettext --language=Python --from-code=UTF-8 --no-location --sort-output --add-comments=i18n \
	  --keyword=_ --keyword=N_ --keyword=ngettext:1,2 --keyword=msg --keyword=word --keyword=text \
	  -o engine/locale/engine.pot $$(find engine -name '*.py' | sort)
	for po in $(ENGINE_LOCALES); do msgmerge -q --update --backup=none --no-fuzzy-matching --sort-output $$po engine/locale/engine.pot \
	  && msgfmt --check -o $${po%.po}.mo $$po; done

# The service's catalogue (issue 27): the marked strings of pbem/ and templates/ into each language's
# django.po (translate the new entries there; a guess by a similar text is never kept), compiled to the
# django.mo Django reads (committed). Only gettext's tools, no network.
DJANGO_IGNORE = -i 'engine/*' -i 'tests/*' -i 'bench/*' -i 'docs/*' -i 'tools/*' -i 'var/*' -i 'build/*'
messages: $(STAMP)
	$(PY) manage.py makemessages -l pt --no-location --no-obsolete $(DJANGO_IGNORE)
	for po in pbem/locale/*/LC_MESSAGES/django.po; do msgattrib --clear-fuzzy --empty --no-wrap -o $$po $$po \
	  && msgfmt --check -o $${po%.po}.mo $$po; done

contracts: $(STAMP)
	$(BIN)/lint-imports --no-cache

schema: $(STAMP)
	@mkdir -p $(dir $(SCHEMA_FILE))
	$(PY) manage.py spectacular --validate --fail-on-warn --file $(SCHEMA_FILE)

simulate: $(STAMP)
	$(PY) -m engine simulate $(GAME) --players $(PLAYERS) --games $(GAMES) --seed $(SEED) \
	  $(addprefix --option ,$(OPTIONS))

bench: $(STAMP)
	$(PY) bench/engine.py $(BENCH_ARGS)

# Starts its own PostgreSQL cluster and Redis on free ports (needs their server binaries).
chaos: $(STAMP)
	$(PY) bench/chaos.py $(CHAOS_ARGS)

check: lint typecheck contracts schema test

# Mails per player over whole games of every game, played by mail through the real SMTP
# socket (docs/mail.md "When a mail goes"); the tests assert the bounds, this prints them.
mail-volume: $(STAMP)
	$(PY) -m pytest -n 0 -q -s tests/mail/test_maretta_by_mail.py tests/mail/test_caravelas_by_mail.py \
	  tests/mail/test_maracaibo_by_mail.py tests/mail/test_maracaibo_solo_by_mail.py | grep -E "MAILVOLUME|passed|failed"

# The screenshots in docs/screenshots (mail and pages, 1280 and 390 px), made by the browser
# tests in headless Chromium (Debian's chromium package).
screenshots: $(STAMP)
	PBEM_SCREENSHOTS=docs/screenshots $(PY) -m pytest -n 0 -q tests/browser

clean:
	-$(PY) -m engine compile clean
	rm -rf .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache build dist
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

# Also removes the virtual environment and var/ (the local database and caught mail).
distclean: clean
	rm -rf $(VENV) var
