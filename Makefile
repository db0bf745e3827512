# The two commands of the README: `make run` and `make test`.
# Both create (once) and reuse .venv/ at the project root.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint format venv clean

$(BIN)/python:
	@$(PY) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed: installing Debian's python3-venv"; \
	  (command -v sudo >/dev/null && [ "$$(id -u)" != 0 ] && SUDO=sudo; \
	   $${SUDO:-} apt-get update && $${SUDO:-} apt-get install -y python3-venv) && \
	  rm -rf $(VENV) && $(PY) -m venv $(VENV); }

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[all,dev]' -c constraints.txt
	@touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/arbitre run

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV)
