"""Phrase banks, one module per language, all written for this test (none copied from src/).

Each module defines ``BANK`` with:

* ``addressees``: addressee key -> prefixes ("" for no explicit addressee);
* ``requests``: request kind -> ``(style, template)`` pairs, style ``plain`` (blunt),
  ``subtle`` (no instruction-override wording) or ``drift`` (reuses the host goal, ``{goal}``);
  templates use ``{marker}`` (always), ``{url}``, ``{control}``, ``{line}``, ``{goal}``;
* ``labels``: short UI words for the carriers (notice, close, ok, reply, ...);
* ``benign``: an innocent review and forum post that sit next to the injected one;
* ``names``: user names for the fake review / post authors.
"""

from __future__ import annotations

from benchmarks.injections.phrases import de, en, es, extra, fr, ja, ru, zh

_BASE = {"en": en.BANK, "de": de.BANK, "es": es.BANK, "fr": fr.BANK, "ru": ru.BANK, "ja": ja.BANK, "zh": zh.BANK}
BANKS = {lang: extra.extended(bank, lang) for lang, bank in _BASE.items()}
