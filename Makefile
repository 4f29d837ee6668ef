# Two commands on a fresh Debian machine: `make demo` and `make test`.
# Both install what they need, idempotently: Debian chromium, a .venv with pagelens and its extras.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
EXTRAS := test,browsergym,embedding,ray,vision,mcp,fast
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-10)

.PHONY: install chromium demo test test-fast bench-observe clean

install: chromium $(STAMP)

chromium:
	@bash scripts/ensure-chromium.sh
	@bash scripts/ensure-tesseract.sh
	@bash scripts/ensure-dictionaries.sh

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --upgrade pip
	$(PY) -m pip install -q --disable-pip-version-check -e '.[$(EXTRAS)]'
	@rm -f $(VENV)/.installed-*
	@touch $@

demo: install
	$(VENV)/bin/pagelens demo

test: install
	$(PY) -m pytest -q

test-fast: install
	$(PY) -m pytest -q -m "not browser and not slow"

bench-observe: install
	$(PY) benchmarks/compare_browsergym.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache
