"""The title of each rule the service cites, in a language: a page shows a citation (`docs/rules.md#fc-claims`) as
a link named by the rule's own heading on the rules page, in the reader's words, never by its path.

An anchor that is a heading is titled by that heading; an anchor on a paragraph or a list (most rules) by the
heading of the section it stands in. Built once per language from the rendered page (service/ui/rules_doc.py).
"""

from __future__ import annotations

import html
import re
from functools import cache

from . import rules_doc

#: A heading with its id, or any other element's id (the rendered page moves each anchor onto its rule).
_IDS = re.compile(r'<h([2-6])\b[^>]*\bid="([^"]+)"[^>]*>(.*?)</h\1>|\bid="([^"]+)"', re.S)
_TAGS = re.compile(r"<[^>]+>")


def _text(fragment: str) -> str:
    """A heading's words: no tags, no section number before them, single spaces."""
    words = " ".join(html.unescape(_TAGS.sub("", fragment)).replace("`", "").split())
    return re.sub(r"^\d+(?:\.\d+)*\.?\s+", "", words)


@cache
def titles(language: str) -> dict[str, str]:
    """Every anchor of the rules page in `language` (one the page is written in) and its rule's title."""
    page = rules_doc.rendered(language)
    found: dict[str, str] = {}
    current = page.title
    for match in _IDS.finditer(page.html):
        if match.group(2):
            current = _text(match.group(3)) or current
            found[match.group(2)] = current
        else:
            found.setdefault(match.group(4), current)
    return found
