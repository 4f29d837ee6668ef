"""An independent verifier before ``stop``: a fresh-context model call with the task, the final
screenshot and the candidate answer (WebFovea). It sees nothing of the agent's reasoning, so
it cannot inherit its mistakes; it answers ``YES`` or ``NO: <why>``.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pagelens.llm.base import ChatModel
    from pagelens.vision.hybrid import HybridView

__all__ = ["Verdict", "Verifier"]

_SYSTEM = ("You check a web agent's final answer. You get the user's task, a screenshot of the page the agent "
           "ended on, the list of elements on it, and the agent's answer. Reply YES if the screenshot supports the "
           "answer (or shows the task done), otherwise NO: followed by a short reason.")


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    reason: str
    raw: str


class Verifier:
    """Asks ``model`` whether the final screen supports the answer (one call, no history)."""

    def __init__(self, model: ChatModel, *, max_tokens: int = 60) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.calls = 0

    def check(self, goal: str, answer: str, screen: HybridView | None, page_text: str = "") -> Verdict:
        from pagelens.llm.base import Message

        parts = [f"# Task\n{goal}", f"# Agent's answer\n{answer or '(empty)'}"]
        images: tuple[str, ...] = ()
        if screen is not None:
            parts.append(f"# Elements on the final screen\n{screen.text()}")
            shot = screen.screenshot
            images = (f"data:{shot.media_type};base64,{base64.b64encode(shot.data).decode()}",)
        elif page_text:
            parts.append(f"# Final page (text)\n{page_text[:6000]}")
        self.calls += 1
        reply = self.model.complete([Message("system", _SYSTEM), Message("user", "\n\n".join(parts), images)],
                                    max_tokens=self.max_tokens, temperature=0.0)
        text = reply.text.strip()
        word = (re.findall(r"[A-Za-z]+", text) or [""])[0].casefold()
        reason = re.sub(r"^\W*no\W*", "", text, flags=re.IGNORECASE).strip() or "no reason given"
        return Verdict(word == "yes", "" if word == "yes" else reason, text)
