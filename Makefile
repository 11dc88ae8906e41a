# heron — every target is a thin shell over the `heron` CLI.
#   make bench   the main job on the embedded default (fresh machine: makes the venv first)
#   make test    the whole test suite against a real PostgreSQL the tests start themselves, on
#                TEST_WORKERS parallel workers (default 2: CI's cores), each with its own server
#   make check   the edit-test loop: the same suite without the end-to-end runs of a minute or more
#                (UI, Celery, S3, VES timing, the small states, fault injection), the same workers

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
HERON  := $(VENV)/bin/heron
STAMP  := $(VENV)/.heron-installed
SCALE  ?= tiny
SEED   ?= 42
SEEDS  ?= 42,43,44
ADAPTER ?=
TEST_WORKERS ?= 2
PYTEST := $(PY) -m pytest -n $(TEST_WORKERS) --dist loadscope

.PHONY: install up down status schema seed fingerprint dump verify-data audit bench test check dev clean submissions leaderboard

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

up: install
	$(HERON) db up

down: install
	$(HERON) db down

status: install
	$(HERON) db status

schema: up
	$(HERON) schema

seed: up
	$(HERON) seed --scale $(SCALE) --seed $(SEED)

fingerprint: install
	$(HERON) fingerprint --scale $(SCALE) --seed $(SEED)

dump: up
	$(HERON) dump --scale $(SCALE) --seed $(SEED)

verify-data: install
	$(HERON) verify-data --scale $(SCALE) --seed $(SEED)

# The question audit (release gate): every rule over the gold and alt SQL on every seeded state.
audit: up
	$(HERON) audit --scale $(SCALE) --seeds $(SEEDS)

# The main job: seed the states, audit the gold on them, predictions of every tool, scores on every
# state, standings and leaderboard files (local results folder); prints the standings table.
# ADAPTER=llm (or a comma list) scores only those tools; empty means gold, alt and llm if configured.
bench: up
	$(HERON) schema
	$(HERON) audit --scale $(SCALE) --seeds $(SEEDS)
	$(HERON) bench --scale $(SCALE) --seeds $(SEEDS) $(if $(ADAPTER),--tools $(ADAPTER))

test: install
	$(PYTEST)

check: install
	$(PYTEST) -m "not e2e and not slow and not fault and not submissions"

# The committed submissions (gold, alt and the offline retrievers bm25, bm25-fk on small 42/43/44), in
# both question modes: submissions/<tool> in natural mode (the headline) and submissions/<tool>-full in
# full mode (the told-everything upper bound); the expected public-state fingerprints and the published
# leaderboard in docs/leaderboard/, regenerated in one command after a change of the questions, a metric
# or the generator. Every file is produced by heron's own commands, none by hand.
SUBMITTED := gold alt bm25 bm25-fk
submissions: up
	for seed in 42 43 44; do $(HERON) seed --scale tiny --seed $$seed; done
	for mode in natural full; do $(HERON) bench --scale small --seeds 42,43,44 --tools gold,alt,bm25,bm25-fk --question-mode $$mode || exit 1; done
	$(PY) -m heron_pipeline.submissions.fingerprints --state tiny:42,43,44 --state small:42,43,44
	for tool in $(SUBMITTED); do \
	  $(HERON) submit --tool $$tool --scale small --seeds 42,43,44 --question-mode natural --out submissions/$$tool && \
	  $(HERON) submit --tool $$tool --scale small --seeds 42,43,44 --question-mode full --out submissions/$$tool-full || exit 1; \
	done
	$(PY) benchmarks/attack_tools/copycat.py --prepare .heron/copycat-tool
	$(HERON) bench --scale small --seeds 42,43,44 --tools cli --cli-command "python3 copycat.py" --cli-cwd .heron/copycat-tool --cli-name copycat
	$(HERON) submit --tool copycat --scale small --seeds 42,43,44 --out submissions/copycat --runnable --tool-path .heron/copycat-tool --model gpt-4o
	$(HERON) bench --scale small --seeds 42,43,44 --tools cli --cli-command "python3 keyword_tool.py" --cli-cwd examples/cli --cli-name keyword
	$(HERON) submit --tool keyword --scale small --seeds 42,43,44 --out submissions/keyword --runnable --tool-path examples/cli --model none
	$(HERON) leaderboard

# The published leaderboard from the folders under submissions/ (HERON_HIDDEN_SEEDS_FILE adds hidden states).
leaderboard: up
	$(HERON) leaderboard

dev: up
	$(HERON) dev

clean:
	rm -rf $(VENV) .heron
