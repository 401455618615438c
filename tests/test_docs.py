"""The documents stay true: docs/api.md lists every violation code exactly as the audit reports them, every rule
the code and the answers cite is explained in docs/rules.md, every relative link of the README, docs/ and bench/'s
READMEs lands on a file and, with a fragment, on a heading or anchor of it, every command they give names a
subcommand or a script that exists with options it has, and bench/README.md's table lists every script of bench/.
They do not check the figures the prose quotes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service.replay.violations import CODES, table
from tests.support.rules_citations import ANCHOR, FOREIGN, REFERENCE, ROOT, RULES_DOC, anchors, answers, project_texts

API_DOC = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")


def test_api_doc_has_the_violation_code_table():
    """Regenerate with service.replay.violations.table() when a code changes."""
    assert table() in API_DOC
    assert all(f"`{code}`" in API_DOC for code in CODES)


# --- docs/rules.md: every rule the code and the answers cite is there ------------------------------------------

def test_rules_doc_defines_the_anchors_it_links_to():
    """In-page links of docs/rules.md (`](#x)`) land on its own anchors."""
    text = RULES_DOC.read_text(encoding="utf-8")
    missing = set(re.findall(r"\]\(#([A-Za-z0-9_-]+)\)", text)) - anchors()
    assert not missing, missing


def test_every_docs_rules_reference_names_an_existing_anchor(client):
    """Code comments, docstrings, tests, README, the spec and the answers point only at anchors that exist."""
    known, broken = anchors(), []
    for where, text in {**project_texts(), **answers(client)}.items():
        broken += [f"{where}: #{name}" for name in REFERENCE.findall(text) if name not in known]
    assert not broken, broken


def test_answers_cite_docs_rules_for_every_rule(client):
    """Each violation code, each rule option and each rule-set cites an anchor of docs/rules.md."""
    assert all(REFERENCE.match(rule) for rule, _ in CODES.values())
    for ruleset in client.get("/v1/rulesets").get_json()["rulesets"]:
        assert REFERENCE.match(ruleset["source"]), ruleset["id"]
        for option in ruleset["options"]:
            assert REFERENCE.match(option["rule"]), (ruleset["id"], option["name"])
            assert option["name"] in RULES_DOC.read_text(encoding="utf-8"), option["name"]


def test_nothing_points_at_rule_texts_outside_the_project(client):
    """The project explains its rules itself: no code, document or answer names an outside rule text."""
    for where, text in {**project_texts(), **answers(client)}.items():
        for name in FOREIGN:
            assert name not in text, f"{where} mentions {name}"


# --- links: the README and docs/ send the reader only where something is ----------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def targets(path: Path) -> set[str]:
    """The fragments a link may name in this Markdown file: its headings' slugs and its explicit anchors."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    headings = [slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)]
    # GitHub numbers a repeated heading's anchor: x, x-1, x-2 ...
    numbered = {f"{h}-{i}" for h in set(headings) for i in range(1, headings.count(h))}
    return set(headings) | numbered | set(ANCHOR.findall(text))


def documents() -> list[Path]:
    """The README and every document under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_readme_links_every_document_of_docs():
    """No document is out of the newcomer's reach."""
    linked = set(LINK.findall((ROOT / "README.md").read_text(encoding="utf-8")))
    missing = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if f"docs/{p.name}" not in linked]
    assert not missing, missing


#: bench/'s documents: the log of measurements and tries, and the kept searched decisions.
BENCH_DOCS = [ROOT / "bench" / "README.md", ROOT / "bench" / "pairs" / "README.md"]


def links(doc: Path) -> list[str]:
    """The relative links of a Markdown file (outside code blocks; http:, https:, mailto: leave the repository)."""
    return [link for link in LINK.findall(FENCE.sub("", doc.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", link)]


def broken_links(doc: Path) -> list[str]:
    """The links of `doc` that name no file, or a fragment that is no heading or anchor of the Markdown file."""
    broken = []
    for link in links(doc):
        name, _, fragment = link.partition("#")
        target = (doc.parent / name).resolve() if name else doc
        if not target.exists():
            broken.append(f"{doc.relative_to(ROOT)}: {link} (no such file)")
        elif fragment and (target.suffix != ".md" or fragment not in targets(target)):
            broken.append(f"{doc.relative_to(ROOT)}: {link} (no such heading)")
    return broken


def test_every_relative_link_resolves_to_a_file_and_a_heading():
    """Each `[text](path#fragment)` of the README, docs/*.md and bench/'s READMEs names a file that exists and,
    with a fragment, one of its headings or anchors."""
    docs = [*documents(), *BENCH_DOCS]
    broken = [line for doc in docs for line in broken_links(doc)]
    assert sum(len(links(doc)) for doc in docs) > 20 and not broken, broken
    assert all(links(doc) for doc in BENCH_DOCS)


def test_the_link_check_sees_a_missing_file_and_a_missing_heading(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "a.md").write_text("# Top\n\n[ok](#top) [gone](b.md) [no heading](#nowhere)\n", encoding="utf-8")
    assert broken_links(tmp_path / "a.md") == ["a.md: b.md (no such file)", "a.md: #nowhere (no such heading)"]


# --- size: the README and docs/advice.md are read, not searched --------------------------------------------------

def test_the_readme_and_the_advice_stay_short():
    """The README is what it is, how to run it, a tour, the pages, the strength and the index (at most 160 lines);
    docs/advice.md is the advice as it is now (at most 600), the log of tries being bench/README.md's."""
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 160
    assert len((ROOT / "docs" / "advice.md").read_text(encoding="utf-8").splitlines()) <= 600


def test_the_readme_keeps_its_strength_table_short_and_points_at_the_log_of_tries():
    """One Strength table of at most six lines, one command to reproduce it, and bench/README.md in the index."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Strength\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert 3 <= len(rows) <= 6
    assert len(re.findall(r"^\.venv/bin/python -m service arena ", section, re.M)) == 1
    assert "](bench/README.md)" in text


# --- bench/README.md: one table, every script in it ---------------------------------------------------------------

BENCH_README = ROOT / "bench" / "README.md"
#: A script of bench/ as a command names it: a path, or a module run with -m.
SCRIPT = re.compile(r"(?<![\w/.-])(bench/[\w/.-]*[\w/])|-m (bench(?:\.\w+)+)")


def bench_table() -> list[list[str]]:
    """The rows of bench/README.md's table, as cells (the header and its rule left out)."""
    lines = [line for line in BENCH_README.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    assert len(lines) > 2 and set(lines[1]) <= set("|-")
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines[2:]]


def scripts_named(text: str) -> set[str]:
    """The files and folders of bench/ a text names (`bench/x.py`, `bench/pairs/`, `-m bench.x`)."""
    found = set()
    for path, module in SCRIPT.findall(text):
        found.add(path if path else module.replace(".", "/") + ".py")
    return found


def test_every_script_the_bench_table_names_exists():
    rows = bench_table()
    assert all(len(row) == 4 for row in rows), [row[0] for row in rows if len(row) != 4]
    named = set().union(*(scripts_named(" ".join(row)) for row in rows))
    missing = sorted(name for name in named if not (ROOT / name).exists())
    assert named and not missing, missing


def test_the_bench_table_lists_every_script_of_bench_once():
    """Each script of bench/ (and the kept pairs) has its line, first in its row."""
    first = [scripts_named(row[0]) for row in bench_table()]
    listed = [name.rstrip("/") for names in first for name in names]
    scripts = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "bench").rglob("*")
                     if p.suffix in (".py", ".sh") and p.name != "__init__.py" and "__pycache__" not in p.parts)
    assert sorted(set(scripts) - set(listed)) == []
    assert len(listed) == len(set(listed)) and "bench/pairs" in listed


# --- commands: every command the documents give runs something that exists ----------------------------------------

FENCED = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)
INLINE = re.compile(r"`([^`\n]+)`")
SERVICE = re.compile(r"python -m service ([a-z][a-z0-9-]*)")
FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def commands() -> list[tuple[str, str]]:
    """Every command of the README, docs/*.md and bench/README.md, with its document: each line of a fenced block
    (a line that ends in a backslash joined with the next) and each inline code span."""
    found = []
    for doc in [*documents(), BENCH_README]:
        text = doc.read_text(encoding="utf-8")
        for block in FENCED.findall(text):
            found += [(doc.name, line) for line in block.replace("\\\n", " ").splitlines()]
        found += [(doc.name, span) for span in INLINE.findall(FENCE.sub("", text))]
    return found


def options_of(command: str) -> list[str]:
    """The options a command gives its program: quoted arguments (a bot's own command line) and a trailing shell
    comment left out."""
    bare = re.sub(r"\"[^\"]*\"|'[^']*'", "", command)
    return FLAG.findall(re.split(r"\s#\s", bare)[0])


def test_every_service_command_names_a_subcommand_and_its_options(capsys):
    """`python -m service SUB ...`: SUB is a subcommand (its --help exits 0) and every --option is one of its own."""
    from service.__main__ import main

    helps: dict[str, str] = {}
    wrong = []
    for doc, command in commands():
        for match in SERVICE.finditer(command):
            sub = match.group(1)
            if sub not in helps:
                with pytest.raises(SystemExit) as done:
                    main([sub, "--help"])
                helps[sub] = capsys.readouterr().out if done.value.code == 0 else ""
            rest = command[match.end():].split("python -m service ")[0]
            if not helps[sub]:
                wrong.append(f"{doc}: no subcommand {sub!r}: {command}")
            wrong += [f"{doc}: {sub} has no {flag}: {command}" for flag in options_of(rest)
                      if not re.search(rf"(?<![\w-]){flag}(?![\w-])", helps[sub])]
    assert {"arena", "learn", "serve", "audit", "i18n"} <= set(helps)
    assert not wrong, wrong


def after(command: str, script: str) -> str:
    """What follows a script of bench/ in a command (named by its path, or with -m by its module)."""
    module = script.removesuffix(".py").replace("/", ".")
    return command.split(script if script in command else module, 1)[1]


@pytest.mark.slow  # over 2 s on 2 cores
def test_every_bench_command_names_a_script_and_its_options():
    """A command naming a script of bench/ names one that exists, and a Python script's --options are its own (its
    --help, run once per script given options, lists them); a script given to `python -m service` (a bot) is only
    checked to exist."""
    wrong, given = [], {}
    for doc, command in commands():
        named = scripts_named(command)
        wrong += [f"{doc}: no {name}: {command}" for name in named if not (ROOT / name).exists()]
        for name in named:
            if name.endswith(".py") and (ROOT / name).exists() and len(named) == 1 and not SERVICE.search(command):
                given.setdefault(name, set()).update(options_of(after(command, name)))
    for name, options in sorted(given.items()):
        if not options:
            continue
        done = subprocess.run([sys.executable, str(ROOT / name), "--help"], capture_output=True, text=True,
                              cwd=ROOT, timeout=60)
        assert done.returncode == 0, (name, done.stderr[-500:])
        wrong += [f"{name} has no {option}" for option in sorted(options)
                  if not re.search(rf"(?<![\w-]){option}(?![\w-])", done.stdout)]
    assert given and not wrong, wrong


# --- the README's drill example is the live answer ----------------------------------------------------------------

def test_the_readmes_drill_example_shows_the_live_answer(client):
    """The README sends a drill's request on and shows the first four options by value: the same drill, the same
    request, the same cards, ranks and values as the service answers now; the values fall along the ranks."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    query = re.search(r"curl -s 'localhost:8000(/v1/drills\?[^']+)'", text).group(1)
    shown = re.search(r"```text\n((?:\{.*\}\n)+)```", text.split(query, 1)[1]).group(1).splitlines()
    drill = client.get(query).get_json()
    assert drill["request"]["path"] == "/v1/discards"
    answer = client.post(drill["request"]["path"], json=drill["request"]["body"]).get_json()
    live = [json.dumps({k: d[k] for k in ("card", "rank", "value")}, separators=(",", ":"))
            for d in answer["discards"][:4]]
    assert shown == live
    values = [d["value"] for d in answer["discards"]]
    assert values == sorted(values, reverse=True)
