"""What a phone on a slow connection waits for before it sees a page (issue 7, "Fast at
any size"): the page itself and one stylesheet, nothing more.

- the stylesheet is the only thing in <head> that holds back the first paint: the script
  is deferred, and app.css pulls in nothing further (no @import, no web font, no image);
- every file <head> names from static/ carries the app's fingerprint, so after the first
  visit the phone asks for none of them again, not even the icon (an icon without it was
  asked again, 304, on every page).
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.conftest import WORKED_TRIGAMI_DEAL

CSS = Path(__file__).resolve().parent.parent / "static" / "app.css"


class Head(HTMLParser):
    """The elements of a page's <head>: (tag, attributes) in order."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "head":
            self.inside = True
        elif self.inside:
            self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag == "head":
            self.inside = False


def head(html: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = Head()
    parser.feed(html)
    return parser.elements


@pytest.fixture
def pages(client, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    urls = ["/", f"/games/{game_id}", f"/games/{game_id}/deals/new", "/calculator", f"/games/{game_id}/print"]
    return {url: client.get(url).get_data(as_text=True) for url in urls}


def test_only_the_stylesheet_holds_back_the_first_paint(pages):
    for url, html in pages.items():
        elements = head(html)
        styles = [a for tag, a in elements if tag == "link" and a.get("rel") == "stylesheet"]
        assert len(styles) == 1, url
        assert not [tag for tag, _ in elements if tag == "style"], url
        scripts = [a for tag, a in elements if tag == "script"]
        assert scripts, url
        for script in scripts:
            assert script.get("src") and ("defer" in script or "async" in script), (url, script)


def test_the_stylesheet_fetches_nothing_further():
    css = CSS.read_text(encoding="utf-8")
    assert "@import" not in css and "@font-face" not in css and "url(" not in css


def test_every_static_file_in_head_is_kept_a_year(client, pages):
    for url, html in pages.items():
        static = [a.get("href") or a.get("src") for _, a in head(html)
                  if (a.get("href") or a.get("src") or "").startswith("/static/")]
        assert {"stylesheet", "icon", "apple-touch-icon"} <= {a.get("rel") for tag, a in head(html) if tag == "link"}
        # style, icon, touch icon, app.js; and a page's own script: the sheet's and the deal
        # form's wake lock, the welcome page's QR scanner (issue 18, parts 5 and 6)
        own = [a for a in static if a.split("?")[0] in ("/static/wake.js", "/static/join.js")]
        assert len(static) - len(own) == 4 and len(own) <= 1, (url, static)
        for address in static:
            response = client.get(address)
            assert response.status_code == 200, address
            cache = response.headers["Cache-Control"]
            assert "max-age=31536000" in cache and "immutable" in cache, address
            response.close()
