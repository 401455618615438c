"""The rules page (`/docs/rules`): docs/rules.md rendered with every anchor the service cites, served like the other
pages (their head, header and Content-Security-Policy), documented in the OpenAPI document, the cited path
`/docs/rules.md` leading to it, and the document carried inside an installed package (the Docker image's wheel)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from service.app import create_app
from service.http.auth import entry
from service.http.security_headers import PAGES
from service.ui import rules_doc
from tests.support.dockerfile import dockerfile_instructions
from tests.support.rules_citations import REFERENCE, anchors, answers, project_texts

ROOT = Path(__file__).resolve().parents[2]
KEY = "rules-test-key-0123456789abcdef"
DOCUMENT = ROOT / "docs" / "rules.md"


class Ids(HTMLParser):
    """Every id of an HTML text (with repeats), the in-page links and the tags of the elements holding an id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.tags: dict[str, str] = {}
        self.links: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if "id" in found:
            self.ids.append(found["id"])
            self.tags[found["id"]] = tag
        if tag == "a" and (found.get("href") or "").startswith("#"):
            self.links.append(found["href"][1:])


@pytest.fixture
def served(client):
    return client.get("/docs/rules")


def test_the_page_is_served_like_the_other_pages(served):
    assert served.status_code == 200 and served.mimetype == "text/html"
    assert served.headers["Cache-Control"] == "no-cache"
    assert served.headers["Content-Security-Policy"] == PAGES  # no inline script or style
    html = served.get_data(as_text=True)
    assert "<title>Rules · Long Cards</title>" in html
    assert '<script type="module" src="/ui/static/rules.js">' in html and 'href="/ui/static/rules.css"' in html
    assert re.findall(r'<a href="([^"]+)" aria-current="page">', html) == ["/docs/rules"]
    assert " style=" not in html and "<style" not in html and not re.search(
        r'<script(?![^>]*\b(?:src=|type="application/json"))', html)  # a JSON data block (the catalog) runs nothing
    assert "{{" not in html and "{%" not in html


def test_every_page_links_to_it(client):
    for path in ("/ui", "/ui/replay", "/docs/rules"):
        assert '<a href="/docs/rules"' in client.get(path).get_data(as_text=True), path


def test_every_anchor_the_project_cites_is_on_the_page(served, client):
    """What code, tests, docs and answers cite (each an anchor of docs/rules.md: tests/test_docs.py) is an id of
    the page, so each citation's link lands."""
    ids = set(Ids(served.get_data(as_text=True)).ids)
    cited = {anchor for text in {**project_texts(), **answers(client)}.values() for anchor in REFERENCE.findall(text)}
    assert {"fc-claims", "chan-capture-3", "logs", "fc-threshold"} <= cited  # the search finds citations
    assert sorted(cited - ids) == []


def test_every_anchor_the_document_writes_is_an_id_once_and_every_link_lands(served):
    found = Ids(served.get_data(as_text=True))
    assert len(anchors()) > 60 and anchors() <= set(found.ids)
    repeated = sorted({i for i in found.ids if found.ids.count(i) > 1})
    assert repeated == []
    assert found.links and sorted(set(found.links) - set(found.ids)) == []  # the contents and the text's links


def test_an_anchor_names_the_rule_itself(served):
    """The id sits on the rule (heading, paragraph, list), not on an empty element before it."""
    tags = Ids(served.get_data(as_text=True)).tags
    assert tags["fc-claims"] == "h4" and tags["chan"] == "h3" and tags["decisions"] == "h3"  # `###` -> h4
    assert tags["fc-concealed"] == "p" and tags["logs-draw"] == "ul"
    assert "<a id=" not in served.get_data(as_text=True)


def test_the_contents_list_the_parts_and_their_sections():
    doc = rules_doc.page()
    parts = [part.text for part, _ in doc.sections]
    headings = re.findall(r"^## (.+)$", DOCUMENT.read_text(encoding="utf-8"), re.M)
    assert parts == [h.replace("`", "") for h in headings]
    assert [s.id for s in doc.sections[0][1]][:2] == ["fc-cards", "fc-melds"]


def test_tables_scroll_in_a_named_focusable_box():
    html = rules_doc.page().html
    assert html.count("<table") == html.count('<div class="table-scroll" role="region" tabindex="0" aria-label=')
    assert html.count("<table") >= 4


@pytest.mark.parametrize(("text", "slug"), [
    ("1.2 Melds and their points", "12-melds-and-their-points"),
    ("2. Chắn (`cardavia-chan`)", "2-chắn-cardavia-chan"),
    ("What's new?  Twice", "whats-new--twice"),
])
def test_headings_without_an_anchor_get_githubs_slug(text, slug):
    html = rules_doc.render(f"# {text}\n\n## {text}\n").html
    assert f'<h2 id="{slug}">' in html and f'<h3 id="{slug}-1">' in html


class Elements(HTMLParser):
    """Every element of an HTML text: its tag and attributes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.found: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


@pytest.mark.parametrize("attack", [
    '<meta http-equiv="refresh" content="0;url=https://elsewhere.example">',
    'text <meta http-equiv="refresh" content="0;url=https://elsewhere.example">',
    '<img src="x" onerror="alert(1)">', 'a <img src=x onerror=alert(1)> b', '<script>alert(1)</script>',
    '<a href="javascript:alert(1)">rule</a>', 'see <a href="javascript:alert(1)">rule</a>',
    '[rule](javascript:alert(1))', '[rule](JavaScript:alert(1))', '[rule](&#106;avascript:alert(1))',
    '<javascript:alert(1)>', '[rule](data:text/html;base64,PHNjcmlwdD4=)', '![card](javascript:alert(1))',
    '[rule](vbscript:msgbox)', '<a id="fc-x" onclick="alert(1)"></a>', '<a id="fc-x" href="javascript:q"></a>',
    '<a id="x y"></a>', '<div onmouseover="alert(1)">rule</div>', '<svg onload="alert(1)"></svg>',
    '| a |\n|---|\n| <img src=x onerror=alert(1)> |', '<iframe src="https://elsewhere.example"></iframe>',
    '<details open class="dev"><summary>For developers</summary>', '<details class="dev" open><summary>x</summary>',
    '<details class="dev"><summary><img src=x onerror=alert(1)></summary>', '</details>',
    '<details>\n\nx\n\n</details>',
])
def test_the_documents_raw_html_is_text_but_an_anchor(attack):
    html = rules_doc.render(f"# Rules\n\n{attack}\n\n<a id=\"fc-kept\"></a>\nA rule.\n").html
    elements = Elements(html).found
    assert {tag for tag, _ in elements} <= {"h2", "p", "a", "div", "table", "thead", "tbody", "tr", "th", "td"}
    assert ("p", {"id": "fc-kept"}) in elements  # the one raw HTML the documents write still works
    for tag, attrs in elements:
        assert not any(name.startswith("on") for name in attrs), html
        href = attrs.get("href")
        if href is not None:
            assert href.startswith(("https:", "http:", "mailto:", "#")) or ":" not in href, html
        if tag == "a":
            assert set(attrs) <= {"id", "href"}, html


def test_a_developer_block_is_closed_details_the_player_can_skip():
    html = rules_doc.render('# Rules\n\nA rule.\n\n<details class="dev"><summary>Pour les développeurs & co</summary>'
                            "\n\nThe option `general_triple`.\n\n</details>\n\n</details>\n\n"
                            '<details class="dev"><summary>Again</summary>\n\nLeft open.\n').html
    assert ('<details class="dev"><summary>Pour les développeurs &amp; co</summary>\n'
            "<p>The option <code>general_triple</code>.</p>\n</details>") in html
    assert "<p>&lt;/details&gt;</p>" in html  # a closing line with no block open is text
    assert html.count("<details") == html.count("</details>") == 2  # one left open is closed
    assert not re.search(r"<details[^>]*\bopen", html)  # a player opens a block, the page never does


def test_links_keep_to_safe_schemes():
    html = rules_doc.render("[a](https://a.example/x) [b](http://b.example) [c](mailto:c@d.example) [d](api.md#e) "
                            "[f](#fc-claims) [g](ftp://g.example) [h](file:///etc/passwd)\n").html
    hrefs = [attrs["href"] for tag, attrs in Elements(html).found if tag == "a"]
    assert hrefs == ["https://a.example/x", "http://b.example", "mailto:c@d.example", "api.md#e", "#fc-claims"]


@pytest.mark.parametrize("document", sorted(p.name for p in DOCUMENT.parent.glob("rules*.md")))
def test_every_document_still_renders_its_anchors_and_no_html_as_text(document):
    text = (DOCUMENT.parent / document).read_text(encoding="utf-8")
    written = set(re.findall(r'<a id="([A-Za-z0-9_-]+)"></a>', re.sub(r"`[^`]*`", "", text)))
    page = rules_doc.render(text)
    assert len(written) > 60 and written <= page.ids
    assert "&lt;a id=" not in re.sub(r"<code>.*?</code>", "", page.html, flags=re.S)
    assert "&lt;details" not in page.html and "&lt;/details" not in page.html  # every developer block is one
    assert page.html.count('<details class="dev">') == text.count('<details class="dev">') > 10


@pytest.mark.parametrize("docs_url", ["/docs", "/apidocs"])
def test_the_page_needs_no_key_wherever_the_api_docs_are(docs_url):
    keyed = create_app({"TESTING": True, "DOCS_URL": docs_url, "API_KEYS": entry("ui", KEY)}).test_client()
    assert keyed.get("/docs/rules").status_code == 200
    assert keyed.get("/docs/rules.md").status_code == 308
    assert keyed.get("/v1/rulesets").status_code == 401  # the API is not open


def test_the_cited_path_leads_to_the_page(client):
    answer = client.get("/docs/rules.md")
    assert answer.status_code == 308 and answer.headers["Location"] == "/docs/rules"


def test_the_page_and_the_redirect_are_documented(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    page, source = paths["/docs/rules"]["get"], paths["/docs/rules.md"]["get"]
    assert page["operationId"] == "get_rules" and page["security"] == [] and page["tags"] == ["ui"]
    assert list(page["responses"]["200"]["content"]) == ["text/html"]
    assert list(source["responses"]) == ["308"] and source["security"] == []


@pytest.mark.slow  # builds the project's package
def test_the_package_the_image_installs_carries_the_document(tmp_path):
    """The build stage of deploy/Dockerfile copies its files into a folder and builds a wheel there; the same
    copies here build a package holding service/ui/rules.md as the document itself (not a link to a missing
    file)."""
    instructions = dockerfile_instructions()
    starts = [i for i, (keyword, _) in enumerate(instructions) if keyword == "FROM"]
    build = instructions[starts[0]:starts[1]]
    context = tmp_path / "src"
    for keyword, rest in build:
        if keyword != "COPY" or "--from" in rest:
            continue
        *patterns, destination = rest.split()
        sources = [str(found.relative_to(ROOT)) for pattern in patterns for found in sorted(ROOT.glob(pattern))]
        assert sources, rest
        for source in sources:
            target = context / destination / (Path(source).name if destination.endswith("/") else "")
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, target, symlinks=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / source, target)
    assert (context / "service" / "ui" / "rules.md").is_symlink()
    # setuptools' build_py gathers the package data a wheel holds (bdist_wheel packs what it built)
    subprocess.run([sys.executable, "-c", "from setuptools import setup; setup()", "--quiet", "build_py",
                    "--build-lib", str(tmp_path / "lib")], check=True, cwd=context)
    built = tmp_path / "lib" / "service" / "ui"
    assert not (built / "rules.md").is_symlink()
    assert (built / "rules.md").read_text(encoding="utf-8") == DOCUMENT.read_text(encoding="utf-8")
    for translated in sorted(DOCUMENT.parent.glob("rules.*.md")):  # each language's document, carried whole
        assert (built / translated.name).read_text(encoding="utf-8") == translated.read_text(encoding="utf-8")
    assert (built / "templates" / "ui" / "rules.html").is_file() and (built / "static" / "rulelinks.js").is_file()
