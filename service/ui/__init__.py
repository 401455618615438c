"""The browser pages: the hand lab (`/ui`) and the replay viewer (`/ui/replay`).

Plain HTML, CSS and JavaScript modules served as static files (no build step, no external host): the pages call
the same `/v1` API any client does, so they show exactly what it answers.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Flask, Response, redirect, send_from_directory

HERE = Path(__file__).resolve().parent
PAGES = HERE / "pages"

blp = Blueprint("ui", __name__, static_folder=str(HERE / "static"), static_url_path="/ui/static")


def page(name: str) -> Response:
    """An HTML page, revalidated on every load so a new release is picked up."""
    answer = send_from_directory(PAGES, name, mimetype="text/html", max_age=0)
    answer.headers["Cache-Control"] = "no-cache"
    return answer


@blp.get("/ui")
def lab() -> Response:
    """The hand lab."""
    return page("lab.html")


@blp.get("/ui/")
def lab_slash() -> Response:
    """`/ui/` is the hand lab too."""
    return redirect("/ui", code=308)


@blp.get("/ui/replay")
def replay() -> Response:
    """The replay viewer."""
    return page("replay.html")


def init_app(app: Flask) -> None:
    """Serve the pages and their static files."""
    app.register_blueprint(blp)
