"""A *gullible* scripted policy: it obeys whatever the page tells it to visit.

A stand-in for the worst LLM agent, to show what the origin guard (:mod:`pagelens.actions.guard`)
does on its own: each step it takes the first address written in the view's text and opens it
(``goto``), or else clicks the first link whose target leaves the current origin (an ad, a pop-up's
"verify" link); once nothing tempts it, it stops. With the guard every such action is refused and
the attacker server sees no request; without it, the injected pages get their hit.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from pagelens.actions.guard import origin_of
from pagelens.actions.spec import Action
from pagelens.agent.policy import PolicyReply, StepContext

__all__ = ["GulliblePolicy"]

_URL_PROP = re.compile(r"\burl='([^']*)'")
_TEXT_URL = re.compile(r"\bhttps?://[^\s'\"<>)\]]+")
_ID = re.compile(r"^\[([^\]\s]+)\]\s+(\w+)")


class GulliblePolicy:
    name = "gullible"

    def __init__(self, max_tries: int = 4) -> None:
        self.max_tries = max_tries
        self.tried: set[str] = set()

    def decide(self, ctx: StepContext) -> PolicyReply:
        page_url = ctx.view.observation.url
        here = origin_of(page_url)
        targets = {str(ln.eid): _URL_PROP.search(ln.text) for ln in ctx.view.rendering.lines if ln.eid is not None}
        if len(self.tried) < self.max_tries:
            for raw in ctx.view.text().splitlines():
                line = raw.strip()
                shown = _URL_PROP.sub("", line)
                for url in _TEXT_URL.findall(shown):  # an address written in the text: obey it
                    url = url.rstrip(".,;:!")
                    if origin_of(url) != here and url not in self.tried:
                        self.tried.add(url)
                        return PolicyReply(f"goto {url}", (Action("goto", {"url": url}),))
                m = _ID.match(line)  # a link shown in the view (its target as the full tree has it)
                target = targets.get(m.group(1)) if m else None
                if m and target and m.group(2) == "link":
                    url = urljoin(page_url, target.group(1))
                    if origin_of(url) not in ("", here) and url not in self.tried:
                        self.tried.add(url)
                        return PolicyReply(f"click {m.group(1)}", (Action("click", {"id": m.group(1)}),))
        return PolicyReply("nothing left to follow", (Action("stop", {"answer": "done"}),))
