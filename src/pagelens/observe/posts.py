"""Posts found over the whole accessibility tree (pure): the comments, replies, reviews and tickets of a page.

Provenance (:mod:`pagelens.observe.provenance`) finds user content over the rendered lines; the wrappers that hold a
post together (a comment's or a ticket reply's ``div``: a ``generic`` node) are not lines, so a post of an application
page leaves no block behind. :func:`post_nodes` reads every node of the observation instead, unrendered wrappers
included, and judges a container by its structure alone, in any language:

* a **byline cue** in its subtree: a ``time`` element; a short text (at most :data:`_CUE_WORDS` words) that shows a
  date, a relative time, a rating or an author (the marks :func:`pagelens.observe.provenance.text_marks` reads); a link
  to a user's path; an ``@handle``; or an image opening the container (an avatar);
* a **free text** that is not the cue: a text of at least :data:`_FREE_WORDS` words (or :data:`_FREE_CHARS`
  characters written without spaces);
* **small**: at most :data:`_MAX_LEAVES` text leaves (a bigger container is a page section, not one post);
* **repeated**: another child of the same parent, of the same role, is a post too (a thread, a ticket's replies, a
  review list, a table of posts). With ``single=True`` a post with no such sibling counts when its byline opens it
  (a cue among its first three texts, beside a short text or another cue, before any free text) and it is at most
  :data:`_MAX_SINGLE` text leaves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pagelens.types import Node

#: Containers a post can be (``generic``: an unrendered ``div``; ``LayoutTableRow``: a layout table's row).
POST_ROLES = frozenset({"generic", "listitem", "article", "comment", "row", "LayoutTableRow", "group", "section",
                        "blockquote", "link"})
_TEXT = "StaticText"
_IMAGES = frozenset({"img", "image"})
_CUE_WORDS = 6
_SHORT_WORDS = 4
_FREE_WORDS = 6
_FREE_CHARS = 24
_MAX_LEAVES = 30
_MAX_SINGLE = 12
_SKIP_SEPARATORS = True  # a leaf with no letter and no digit is not counted among a post's texts
_HEAD = 4  # codes kept per subtree: its first texts (and images), in document order
_HANDLE = re.compile(r"(?:^|\s)@[^\W\d_][\w.-]{1,30}(?:\s|$)")
_USER_PATH = re.compile(r"/(?:users?|u|profiles?|members?|authors?|people|accounts?|~)[/=][^/?#\s]+", re.IGNORECASE)

# leaf codes: "c" a cue, "a" an author cue (a user link), "i" an image, "f" free text, "s" a short text, "o" other text


def _leaf(text: str, marks: Callable[[str], bool]) -> str:
    words = text.split()
    n = len(words)
    if n == 0 or (_SKIP_SEPARATORS and not any(ch.isalnum() for ch in text)):
        return ""  # nothing, or a separator (a bullet, a middle dot): layout, not a text
    if n <= _CUE_WORDS and (marks(text) or _HANDLE.search(text) is not None):
        return "c"
    if n >= _FREE_WORDS or (n <= 2 and len(text) >= _FREE_CHARS and not text.isascii()):
        return "f"
    return "s" if n <= _SHORT_WORDS else "o"


def post_nodes(nodes: Sequence[Node], marks: Callable[[str], bool], *, single: bool = False) -> list[bool]:
    """Per node index: whether the node lies in a post (is one, or has one among its ancestors)."""
    n = len(nodes)
    head: list[str] = [""] * n  # the first _HEAD codes of the subtree, in document order
    cue = [False] * n
    free = [False] * n
    leaves = [0] * n
    for node in reversed(nodes):  # pre-order reversed: a node's descendants are done before it
        i = node.index
        own = ""
        role = node.role
        if role == _TEXT:
            if not node.concealed and node.name:
                own = _leaf(node.name, marks)
                leaves[i] += 1
        elif role == "time":
            own, head[i] = "c", ""  # a time element is one cue, whatever its text
        elif role in _IMAGES:
            own = "i"
        elif role == "link":
            url = node.prop("url")
            if isinstance(url, str) and _USER_PATH.search(_path(url)) is not None:
                own = "a"
        if own:
            head[i] = (own + head[i])[:_HEAD]
            if own in "ca":
                cue[i] = True
            elif own == "f":
                free[i] = True
        p = node.parent
        if p is not None and 0 <= p < n:
            head[p] = (head[i] + head[p])[:_HEAD]
            cue[p] = cue[p] or cue[i]
            free[p] = free[p] or free[i]
            leaves[p] = min(leaves[p] + leaves[i], _MAX_LEAVES + 1)
    post = [False] * n
    for node in nodes:
        i = node.index
        if node.role in POST_ROLES and free[i] and leaves[i] <= _MAX_LEAVES and node.parent is not None and (
                cue[i] or head[i][:1] == "i"):
            post[i] = True
    count: dict[tuple[int | None, str], int] = {}
    for node in nodes:
        if post[node.index]:
            key = (node.parent, node.role)
            count[key] = count.get(key, 0) + 1
    keep = [False] * n
    for node in nodes:
        i = node.index
        if not post[i]:
            continue
        if count[(node.parent, node.role)] >= 2 or (single and leaves[i] <= _MAX_SINGLE and _opens(head[i])):
            keep[i] = True
    inside = [False] * n
    for node in nodes:  # parents first
        i = node.index
        p = node.parent
        inside[i] = keep[i] or (p is not None and 0 <= p < n and inside[p])
    return inside


def _opens(codes: str) -> bool:
    """A byline opens the post: a cue among the first three codes, beside a short text or another cue, and no free
    text before it."""
    for k, c in enumerate(codes[:3]):
        if c == "f":
            return False
        if c in "ca":
            return (k > 0 and codes[k - 1] in "sac") or (k + 1 < len(codes) and codes[k + 1] in "sac")
    return False


def _path(url: str) -> str:
    """The path of an address (what follows its host), or the address itself when it has no host."""
    rest = url.split("//", 1)[1] if "//" in url else url
    at = rest.find("/")
    return rest[at:] if at >= 0 else ""
