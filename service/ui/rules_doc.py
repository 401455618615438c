"""The rules document as a page (`/docs/rules`): docs/rules.md rendered to HTML once, on first use, then cached.

The service cites its rules by anchor (`docs/rules.md#fc-claims` in an audit violation's `rule`, a rule option's
`rule`, the code's comments). The document writes each anchor as an explicit `<a id="...">` before the rule it
names (or just under a heading it names); rendering moves that id onto the rule itself (the heading, paragraph or
list), so
`/docs/rules#fc-claims` lands on the rule and the page can highlight it. Headings without an anchor of their own get
GitHub's slug of their text, as the document reads on GitHub. The page's headings sit one level below the site
header's (the document's `#` becomes an `<h2>`), and every table scrolls inside its own box on a narrow screen.

The document is read from `rules.md` beside this module: in the repository a symbolic link to docs/rules.md (so
there is one text), in an installed package (a wheel, the Docker image) a copy of it, as package data. The page
speaks the reader's language: `rules.<tag>.md` (docs/rules.vi.md, docs/rules.zh-Hant.md, ...) is the same
document written for that language's players, with the same anchors, headings, tables and developer blocks (a
test holds every translation to the English); a language without one reads the English.

The page is the rules as a player reads them. What the service names things and how a client sends them (rule-set
ids, option and field names, API paths) stays in the document for developers, each time in a developer block:
`<details class="dev"><summary>For developers</summary>`, a blank line, markdown, a blank line, `</details>` (the
summary in the document's language). On GitHub the block is a closed `<details>` as written; on the page too, so
a player's visible text holds none of it.

The documents are trusted but rendered as if they were not: the raw HTML they write, an explicit anchor (`<a id="...">`
with a plain id, then `</a>`) and a developer block's opening and closing lines, is kept (the summary's text
escaped); any other HTML shows as text, and a link or image leads only to a relative address, a `#fragment`, or an
http, https or mailto one (a `<meta http-equiv="refresh">`, which the Content-Security-Policy does not stop, a
`javascript:` link or an `onerror` attribute never reach the page).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from .. import i18n

#: The document: a link to docs/rules.md in the repository, a regular file in an installed package.
SOURCE = Path(__file__).resolve().parent / "rules.md"
#: The English document's language.
ENGLISH = "en"
#: The page's address, and how code and answers cite the document (`docs/rules.md#fc-claims`).
URL = "/docs/rules"
CITED = "docs/rules.md"
#: An explicit anchor as the document writes it.
ANCHOR = re.compile(r'<a id="([A-Za-z0-9_-]+)"></a>')
#: The two halves of an explicit anchor, as the parser splits them.
ANCHOR_OPEN, ANCHOR_CLOSE = re.compile(r'<a id="[A-Za-z0-9_-]+">'), "</a>"
#: A developer block's opening and closing lines, as the document writes them (one block at a time, never nested).
DEV_OPEN, DEV_CLOSE = re.compile(r'<details class="dev"><summary>([^<>]+)</summary>'), "</details>"
#: The schemes a link may name; a link without one (relative, `#fragment`) is kept too.
LINK_SCHEMES = frozenset({"http", "https", "mailto"})
#: Heading levels listed in the table of contents (the document's `##` and `###`).
TOC_LEVELS = (2, 3)


@dataclass(frozen=True)
class Entry:
    """A line of the table of contents: the heading's level in the document, its id and its text."""

    level: int
    id: str
    text: str


@dataclass(frozen=True)
class RulesPage:
    """The rendered document: its title, its body (HTML), its table of contents and every id it holds."""

    title: str
    html: str
    toc: tuple[Entry, ...]
    ids: frozenset[str]

    @property
    def sections(self) -> list[tuple[Entry, list[Entry]]]:
        """The table of contents as parts (`##`) and the sections (`###`) under each."""
        parts: list[tuple[Entry, list[Entry]]] = []
        for entry in self.toc:
            if entry.level == TOC_LEVELS[0] or not parts:
                parts.append((entry, []))
            else:
                parts[-1][1].append(entry)
        return parts


def slug(text: str, seen: dict[str, int]) -> str:
    """GitHub's anchor for a heading's text: lower case, punctuation dropped (letters of any script, digits, `-`
    and `_` kept), spaces as `-`; a repeated slug gets `-1`, `-2`, ..."""
    kept = "".join(c for c in text.strip().lower()
                   if c in " -_" or unicodedata.category(c)[0] in "LN" or unicodedata.category(c) == "Mn")
    base = kept.replace(" ", "-")
    count = seen.get(base, 0)
    seen[base] = count + 1
    return base if count == 0 else f"{base}-{count}"


def plain(inline: Token) -> str:
    """The text of an inline token, without its markup."""
    return "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))


def anchor_only(tokens: list[Token], i: int) -> str | None:
    """The anchor's id when tokens[i:i+3] are a paragraph holding nothing but one explicit anchor."""
    if tokens[i].type != "paragraph_open" or i + 2 >= len(tokens) or tokens[i + 2].type != "paragraph_close":
        return None
    found = ANCHOR.fullmatch(tokens[i + 1].content.strip())
    return found.group(1) if found else None


def leading_anchor(inline: Token) -> str | None:
    """The id of an explicit anchor that opens a paragraph's text (removed from it, with the line break after it)."""
    children = inline.children or []
    if len(children) < 2 or children[0].type != "html_inline" or children[1].type != "html_inline":
        return None
    found = ANCHOR.fullmatch(children[0].content + children[1].content)  # the tags are two tokens
    if found is None:
        return None
    del children[:2]
    if children and children[0].type == "softbreak":
        del children[0]
    return found.group(1)


def safe_link(url: str) -> bool:
    """Whether a link or image may lead to `url`: no scheme (a colon only after a `/`, `?` or `#`), or one of
    LINK_SCHEMES."""
    head = re.split(r"[/?#]", url, maxsplit=1)[0]
    return ":" not in head or head.partition(":")[0].lower() in LINK_SCHEMES


def dev_summary(token: Token) -> str | None:
    """The summary's text when `token` opens a developer block."""
    found = DEV_OPEN.fullmatch(token.content.strip()) if token.type == "html_block" else None
    return found.group(1).strip() if found else None


def anchors_only(tokens: list[Token]) -> None:
    """Show every piece of raw HTML as text, but an explicit anchor (`<a id="...">` followed at once by `</a>`) and a
    developer block's opening and closing lines, which become a closed `<details class="dev">` (a closing line
    without an open block, or an opening one inside a block, shows as text; a block left open is closed at the
    document's end)."""
    inside = False
    for token in tokens:
        summary = dev_summary(token)
        if summary is not None and not inside:
            token.content = f'<details class="dev"><summary>{escapeHtml(summary)}</summary>\n'
            inside = True
        elif token.type == "html_block" and inside and token.content.strip() == DEV_CLOSE:
            token.content = f"{DEV_CLOSE}\n"
            inside = False
        elif token.type == "html_block":
            token.content = f"<p>{escapeHtml(token.content.strip())}</p>\n"
        children = token.children or []
        i = 0
        while i < len(children):
            if (children[i].type == "html_inline" and ANCHOR_OPEN.fullmatch(children[i].content)
                    and i + 1 < len(children) and children[i + 1].type == "html_inline"
                    and children[i + 1].content == ANCHOR_CLOSE):
                i += 2
                continue
            if children[i].type == "html_inline":
                children[i].type = "text"  # the text renderer escapes it
            i += 1
    if inside:
        closing = Token("html_block", "", 0)
        closing.content = f"{DEV_CLOSE}\n"
        tokens.append(closing)


def region(label: str) -> Token:
    """The box a table scrolls in: focusable, so a keyboard can scroll it too, and named for screen readers."""
    token = Token("html_block", "", 0)
    safe = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    token.content = f'<div class="table-scroll" role="region" tabindex="0" aria-label="{safe}">\n'
    return token


def render(text: str) -> RulesPage:
    """The document's HTML, table of contents and ids."""
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    md.validateLink = safe_link  # type: ignore[method-assign]
    tokens = md.parse(text)
    anchors_only(tokens)
    out: list[Token] = []
    seen: dict[str, int] = {}
    toc: list[Entry] = []
    title = ""
    heading = ""
    pending: str | None = None  # an anchor waiting for the block it names
    slugged: str | None = None  # the id of the last heading, when it is a slug of its text
    i = 0
    while i < len(tokens):
        token = tokens[i]
        anchor = anchor_only(tokens, i)
        if anchor is not None and out and out[-1].type == "heading_close" and slugged:
            # an anchor written just under a heading names that heading
            out[-3].attrSet("id", anchor)
            if toc and toc[-1].id == slugged:
                toc[-1] = Entry(toc[-1].level, anchor, toc[-1].text)
            slugged = None
            i += 3
            continue
        if anchor is not None and pending is None:
            pending = anchor
            i += 3
            continue
        if token.type == "heading_open":
            level = int(token.tag[1])
            text_of = plain(tokens[i + 1])
            ident = pending or slug(text_of, seen)
            slugged = None if pending else ident
            pending = None
            token.attrSet("id", ident)
            token.tag = tokens[i + 2].tag = f"h{min(level + 1, 6)}"
            if level == 1 and not title:
                title = text_of
            if level in TOC_LEVELS:
                toc.append(Entry(level, ident, text_of))
            heading = text_of
        elif token.nesting == 1 and token.level == 0:
            if token.type == "paragraph_open" and pending is None:
                pending = leading_anchor(tokens[i + 1])
            if pending is not None:
                token.attrSet("id", pending)
                pending = None
            if token.type == "table_open":
                out.append(region(heading or title))  # the section it is in, in the document's language
        out.append(token)
        if token.type == "table_close":
            closing = Token("html_block", "", 0)
            closing.content = "</div>\n"
            out.append(closing)
        i += 1
    html = md.renderer.render(out, md.options, {})
    ids = frozenset(re.findall(r'\bid="([^"]+)"', html))
    return RulesPage(title, html, tuple(toc), ids)


def source(language: str = ENGLISH) -> Path:
    """The document of a language (`i18n.LANGUAGES` code): `rules.<tag>.md` where it exists, else the English."""
    if language != ENGLISH:
        found = SOURCE.with_name(f"rules.{i18n.tag(language)}.md")
        if found.exists():
            return found
    return SOURCE


@cache
def language_of(language: str) -> str:
    """The language the page of `language` is written in: itself where it has its document, else English (looked
    up once per language: the documents ship with the package)."""
    return language if source(language) != SOURCE else ENGLISH


def page(language: str = ENGLISH) -> RulesPage:
    """The rendered document of a language (the English where it has none), rendered once per process."""
    return rendered(language_of(language))


@cache
def rendered(language: str) -> RulesPage:
    """The document written in `language` (`language_of`), rendered."""
    return render(source(language).read_text(encoding="utf-8"))

