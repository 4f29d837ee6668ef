"""Generated prompt-injection variants for the defense's generalisation test (issue 10, item 4).

Everything here lives outside ``src/`` on purpose: the library must never see these phrasings.
``generator.generate(seed, hosts, n)`` is pure and deterministic; the browser run is
``benchmarks/injection_generalisation.py``.
"""
