"""The gettext catalogs' upkeep, with Babel: extract the messages from the code, update every language's catalog,
compile them, and check that none misses a message or keeps a stale one (`python -m service i18n ...`,
docs/ui.md#languages). Not imported when the service runs.

Two domains, each a `.pot` template and one `.po` (+ compiled `.mo`) per language under
`service/translations/<lang>/LC_MESSAGES/`:
- `messages`: the server's texts: `_()`, `ngettext()`, `N_()` and the engine's `text()`/`ntext()` in service/**.py,
  and `_()` in the Jinja templates;
- `pages`: `t()` and `tn()` in the pages' scripts (service/ui/static/*.js).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from .i18n import DEFAULT, DOMAINS, LANGUAGES, TRANSLATIONS

PACKAGE = Path(__file__).resolve().parent
#: What each domain extracts: (file pattern relative to service/, extractor) and the keywords (name: argument
#: positions of the singular and plural).
METHODS = {
    "messages": [("translations/**", "ignore"), ("**.py", "python"),
                 ("ui/templates/**.html", "jinja2.ext:babel_extract")],
    "pages": [("ui/static/**.js", "javascript")],
}
#: Extractor options: the pages' `t()` calls inside template literals (`${t("...")}`) count too.
OPTIONS = {"messages": {}, "pages": {"ui/static/**.js": {"parse_template_string": "yes"}}}
KEYWORDS = {
    "messages": {"_": None, "N_": None, "text": None, "ntext": (1, 2), "ngettext": (1, 2), "gettext": None},
    "pages": {"t": None, "tn": (1, 2)},
}
PROJECT = "longcards-service"
PLACEHOLDER = re.compile(r"\{(\w+)\}|%\((\w+)\)s")


def languages() -> list[str]:
    """The languages with catalogs (every supported one but the source language)."""
    return [lang for lang in LANGUAGES if lang != DEFAULT]


def extract(domain: str) -> Catalog:
    """The messages the code holds now for a domain, as a template catalog."""
    template = Catalog(project=PROJECT, domain=domain, fuzzy=False)
    for path, line, message, comments, context in extract_from_dir(
            str(PACKAGE), METHODS[domain], options_map=OPTIONS[domain], keywords=KEYWORDS[domain],
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        template.add(message, None, [(f"service/{path}", line)], auto_comments=comments, context=context)
    return template


def po_path(lang: str, domain: str) -> Path:
    """Where a language's catalog of a domain lives."""
    return TRANSLATIONS / lang / "LC_MESSAGES" / f"{domain}.po"


def read(path: Path, lang: str, domain: str) -> Catalog:
    """A catalog file (an empty catalog for the language when there is none)."""
    if not path.exists():
        return Catalog(locale=lang, domain=domain, project=PROJECT, fuzzy=False)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=domain)


def write(catalog: Catalog, path: Path) -> None:
    """Write a catalog as a `.po` file (no line numbers: a moved line is no change)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, width=120, ignore_obsolete=True, include_lineno=False, sort_output=True)


def update() -> list[Path]:
    """Extract both domains, write their templates, and bring every language's catalog in line: new messages
    added untranslated, messages the code no longer has dropped (no fuzzy matching: a changed text is a new one)."""
    written = []
    for domain in DOMAINS:
        template = extract(domain)
        pot = TRANSLATIONS / f"{domain}.pot"
        if pot.exists() and _same(read(pot, DEFAULT, domain), template):
            template = read(pot, DEFAULT, domain)  # unchanged: its date stays, so do the catalogs' (no churn)
        else:
            write(template, pot)
            written.append(pot)
        for lang in languages():
            path = po_path(lang, domain)
            catalog = read(path, lang, domain)
            catalog.update(template, no_fuzzy_matching=True)
            catalog.obsolete.clear()
            catalog.fuzzy = False  # the header: a fuzzy one would be left out of the .mo, plural forms with it
            write(catalog, path)
            written.append(path)
    return written


def _same(one: Catalog, other: Catalog) -> bool:
    """Whether two templates hold the same messages at the same places."""
    def listed(catalog: Catalog) -> list[tuple]:
        return sorted((str(m.id), sorted({path for path, _ in m.locations}), m.auto_comments) for m in catalog if m.id)
    return listed(one) == listed(other)


def compiled(path: Path, lang: str, domain: str) -> bytes:
    """The `.mo` bytes of a catalog file."""
    out = io.BytesIO()
    write_mo(out, read(path, lang, domain), use_fuzzy=False)
    return out.getvalue()


def compile_all() -> list[Path]:
    """Compile every catalog to its `.mo` (the files the service reads)."""
    written = []
    for domain in DOMAINS:
        for lang in languages():
            po = po_path(lang, domain)
            mo = po.with_suffix(".mo")
            mo.write_bytes(compiled(po, lang, domain))
            written.append(mo)
    return written


def placeholders(text: str) -> set[str]:
    """The `{name}` and `%(name)s` placeholders of a message."""
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def _ids(message: Message) -> tuple[str, ...]:
    """A message's id and plural id."""
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def problems(domains: Iterable[str] = DOMAINS) -> list[str]:
    """Everything wrong with the catalogs: a message missing or untranslated, a stale one (no longer in the code,
    obsolete or fuzzy), a translation whose placeholders differ from its id's, a `.mo` not compiled from its `.po`."""
    found = []
    for domain in domains:
        wanted = {m.id: m for m in extract(domain) if m.id}
        for lang in languages():
            path = po_path(lang, domain)
            catalog = read(path, lang, domain)
            have = {m.id: m for m in catalog if m.id}
            where = f"{lang}/{domain}"
            found += [f"{where}: missing {_ids(wanted[key])[0]!r}" for key in wanted if key not in have]
            found += [f"{where}: stale {_ids(have[key])[0]!r}" for key in have if key not in wanted]
            found += [f"{where}: obsolete {m.id!r}" for m in catalog.obsolete.values()]
            for key, message in have.items():
                if key not in wanted:
                    continue
                shown = _ids(message)[0]
                forms = list(message.string) if isinstance(message.string, (list, tuple)) else [message.string]
                if message.fuzzy:
                    found.append(f"{where}: fuzzy {shown!r}")
                if not all(forms):
                    found.append(f"{where}: untranslated {shown!r}")
                    continue
                expected = set().union(*(placeholders(i) for i in _ids(message)))
                for form in forms:
                    if placeholders(form or "") != expected:
                        found.append(f"{where}: placeholders of {shown!r} differ in {form!r}")
            mo = path.with_suffix(".mo")
            if path.exists() and (not mo.exists() or mo.read_bytes() != compiled(path, lang, domain)):
                found.append(f"{where}: {mo.name} is not compiled from {path.name}")
    return found
