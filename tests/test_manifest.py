"""Installing the app on a phone's home screen: the web app manifest (views/app_shell.py),
its icons (static/icons/) and the links in every page's <head> (base.html).

What a phone needs (W3C Web Application Manifest; Chromium's install criteria): a name,
start_url and scope, display "standalone", colours, and PNG icons of 192 and 512 pixels,
one of them maskable, each file really of the size the manifest states.
"""

from __future__ import annotations

import json
import math
import re
from xml.etree import ElementTree

import pytest

from tests.png_support import read_header, read_png

GREEN = (0x1D, 0x5C, 0x3A)  # base.html's theme colour, #1d5c3a


@pytest.fixture
def manifest(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    return json.loads(response.get_data(as_text=True))


def head_links(html: str) -> dict[str, dict[str, str]]:
    """The <link> elements of a page's <head>, by rel: {"icon": {"href": …, "type": …}}."""
    head = re.search(r"<head>(.*?)</head>", html, re.S).group(1)
    links = {}
    for tag in re.findall(r"<link\b[^>]*>", head):
        attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
        links[attributes["rel"]] = attributes
    return links


def test_manifest_names_the_app_and_opens_on_the_home_page_without_browser_bars(manifest, client):
    assert manifest["name"] == "Scorekeeper"
    assert 0 < len(manifest["short_name"]) <= 12  # fits under a home-screen icon
    assert manifest["description"]
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "en" and manifest["dir"] == "ltr"
    assert client.get(manifest["start_url"]).status_code == 200


def test_manifest_colours_are_the_pages_theme_colour(manifest, client):
    meta = re.search(r'<meta name="theme-color" content="([^"]+)" media="\(prefers-color-scheme: light\)">',
                     client.get("/").get_data(as_text=True))
    assert manifest["theme_color"] == meta.group(1) == "#1d5c3a"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])


def test_manifest_lists_192_and_512_icons_and_a_maskable_one(manifest):
    icons = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= icons
    assert all(icon["type"] == "image/png" for icon in manifest["icons"])


def test_every_icon_in_the_manifest_is_a_png_of_the_stated_size(manifest, client):
    for icon in manifest["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == "image/png"
        header = read_header(response.data)  # the PNG signature, then IHDR
        width, height = (int(n) for n in icon["sizes"].split("x"))
        assert (header.width, header.height) == (width, height), icon["src"]
        response.close()


def test_maskable_icon_is_green_to_the_edges_with_the_spade_in_the_safe_zone(manifest, client):
    """A phone cuts its own shape out of a maskable icon, keeping at least the central circle
    of 40 % radius: the whole icon is opaque, its edges green, and every white (spade) pixel
    lies inside that circle."""
    src = next(icon["src"] for icon in manifest["icons"] if icon["purpose"] == "maskable")
    response = client.get(src)
    png = read_png(response.data)
    response.close()
    assert png.colour_type == 2  # RGB: no transparency for the mask to show through
    size = png.width
    for x, y in ((0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1), (size // 2, 2)):
        assert png.pixel(x, y) == GREEN
    white = [(x, y) for y in range(0, size, 4) for x in range(0, size, 4) if min(png.pixel(x, y)) > 200]
    assert white, "no spade drawn"
    centre = size / 2
    assert max(math.dist((x, y), (centre, centre)) for x, y in white) < 0.4 * size


def test_any_purpose_icon_is_a_white_spade_on_green(manifest, client):
    src = next(icon["src"] for icon in manifest["icons"] if icon["sizes"] == "512x512" and icon["purpose"] == "any")
    response = client.get(src)
    png = read_png(response.data)
    response.close()
    assert png.pixel(256, 256)[:3] == (255, 255, 255)  # the spade's heart
    assert png.pixel(40, 256)[:3] == GREEN  # beside it


def test_every_page_links_the_manifest_and_the_icons(client, make_game):
    game_id = make_game()
    for url in ("/", f"/games/{game_id}", "/games/new?kind=trix"):
        links = head_links(client.get(url).get_data(as_text=True))
        assert links["manifest"]["href"] == "/manifest.webmanifest"
        assert links["icon"]["type"] == "image/svg+xml"
        assert links["apple-touch-icon"]["href"].split("?")[0].endswith(".png")


def test_page_icon_is_an_svg_and_the_touch_icon_an_opaque_png(client):
    links = head_links(client.get("/").get_data(as_text=True))
    svg = client.get(links["icon"]["href"])
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(svg.data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox") == "0 0 512 512"
    assert b"<text" not in svg.data  # drawn with paths: no font needed to show the spade
    svg.close()
    touch = client.get(links["apple-touch-icon"]["href"])
    header = read_header(touch.data)
    touch.close()
    # iOS draws transparency black and rounds the corners itself: 180 px, no alpha
    assert (header.width, header.height, header.colour_type) == (180, 180, 2)
