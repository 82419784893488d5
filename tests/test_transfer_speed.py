"""What makes pages cheap to fetch again on a slow phone connection (no timings here:
`make bench` measures; these check the behaviour a phone relies on).

- a score sheet the phone has already is answered 304, until the game or what this
  browser is offered on it changes;
- every text response is compressed when the browser accepts it;
- static files carry the app's fingerprint in their URL and are kept a year, immutable.
"""

from __future__ import annotations

import gzip
import re

from scorekeeper import store
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.test_web import WORKED_FORM


def again(client, url: str, response):
    return client.get(url, headers={"If-None-Match": response.headers["ETag"]})


def test_an_unchanged_sheet_is_answered_304_and_a_changed_one_in_full(client, make_game, db):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    url = f"/games/{game_id}"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    assert "no-cache" in first.headers["Cache-Control"] and "private" in first.headers["Cache-Control"]
    repeat = again(client, url, first)
    assert repeat.status_code == 304 and repeat.data == b""
    store.add_deal(db, game_id, {**WORKED_TRIGAMI_DEAL, "tricks": [4, 4, 5]})  # another phone
    changed = again(client, url, first)
    assert changed.status_code == 200 and "Deal 2" in changed.get_data(as_text=True)
    assert changed.headers["ETag"] != first.headers["ETag"]


def test_a_sheet_with_a_message_or_an_undo_for_this_phone_is_drawn_anew(client, make_game):
    game_id = make_game()
    url = f"/games/{game_id}"
    before = client.get(url)
    client.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)  # flashes "Deal 1 saved", offers Undo
    shown = again(client, url, before)
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    assert "Deal 1 saved" in page and "Undo deal 1" in page
    # the message was shown once; the page with Undo is then a page of its own
    plain = client.get(url)
    assert "Deal 1 saved" not in plain.get_data(as_text=True) and "Undo deal 1" in plain.get_data(as_text=True)
    assert again(client, url, plain).status_code == 304


def test_text_is_compressed_when_the_browser_accepts_it(client, make_game):
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/game.json"):
        plain = client.get(url)
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.headers.get("Content-Encoding") == "gzip", url
        assert gzip.decompress(packed.data) == plain.data, url
        assert len(packed.data) < len(plain.data), url
    form = client.get(f"/games/{game_id}/deals/new", headers={"Accept-Encoding": "gzip"})  # a new token each time
    assert form.headers.get("Content-Encoding") == "gzip" and b"Save deal 2" in gzip.decompress(form.data)


def test_static_files_are_kept_a_year_under_their_versioned_address(client):
    page = client.get("/").get_data(as_text=True)
    for url in re.findall(r'(?:href|src)="(/static/app\.(?:css|js)\?v=[0-9a-f]+)"', page):
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert response.status_code == 200
        cache = response.headers["Cache-Control"]
        assert "max-age=31536000" in cache and "immutable" in cache, url
        assert response.headers["Content-Encoding"] == "gzip"
        response.close()
    unversioned = client.get("/static/app.css")
    assert "immutable" not in unversioned.headers.get("Cache-Control", "")
    unversioned.close()


def test_a_kept_sheet_shows_a_name_corrected_in_another_game(client, make_game, db):
    first = make_game(deals=[WORKED_TRIGAMI_DEAL])
    other = make_game(deals=[WORKED_TRIGAMI_DEAL])  # the same three people
    kept = client.get(f"/games/{other}")  # drawn and kept at this version of the game
    assert "CARLA" not in kept.get_data(as_text=True)
    # Carla's name is spelt better in the first game: she is one person, so everywhere
    store.update_game(db, first, players=["Anna", "Ben", "CARLA"])
    shown = again(client, f"/games/{other}", kept)
    assert shown.status_code == 200 and "CARLA" in shown.get_data(as_text=True)


def test_a_kept_sheet_is_sent_in_the_encoding_each_browser_accepts(client, make_game):
    import brotli

    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    url = f"/games/{game_id}"
    # drawn first for a browser with a stale copy and a conditional header it should not trip on
    first = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": 'W/"stale"', "If-Match": '"x"'})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    plain = client.get(url)
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    assert gzip.decompress(first.data) == plain.data and b"Anna" in plain.data
    for accept, encoding in [("br", "br"), ("gzip", "gzip"), ("gzip, br", "br"), ("", None), ("identity", None),
                             ("br", "br")]:
        response = client.get(url, headers={"Accept-Encoding": accept})
        assert response.status_code == 200, accept
        assert response.headers.get("Content-Encoding") == encoding, accept
        assert "Accept-Encoding" in response.headers["Vary"] and "Cookie" in response.headers["Vary"]
        body = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding](response.data)
        assert body == plain.data, accept
        assert int(response.headers["Content-Length"]) == len(response.data)
        assert response.headers["ETag"] == plain.headers["ETag"]  # weak: one page, however it is sent


def test_one_phones_undo_is_never_on_anothers_sheet(app, make_game):
    game_id = make_game()
    url = f"/games/{game_id}"
    mine, other = app.test_client(), app.test_client()
    seen_before = other.get(url, headers={"Accept-Encoding": "gzip"})
    mine.post(f"/games/{game_id}/deals/new", data=WORKED_FORM)
    mine.get(url)  # "Deal 1 saved" shown once
    with_undo = mine.get(url, headers={"Accept-Encoding": "gzip"})
    assert "Undo deal 1" in gzip.decompress(with_undo.data).decode()
    for _ in range(2):  # the other phone, with and without its old copy: the sheet, no Undo
        shown = other.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": seen_before.headers["ETag"]})
        assert shown.status_code == 200
        page = gzip.decompress(shown.data).decode()
        assert "Deal 1" in page and "Undo deal 1" not in page
    assert shown.headers["ETag"] != with_undo.headers["ETag"]
    # the other phone never gets a 304 for the page with my Undo, nor I for the one without
    assert other.get(url, headers={"If-None-Match": with_undo.headers["ETag"]}).status_code == 200
    mine_again = mine.get(url, headers={"If-None-Match": shown.headers["ETag"]})
    assert mine_again.status_code == 200 and "Undo deal 1" in mine_again.get_data(as_text=True)
    assert mine.get(url, headers={"If-None-Match": with_undo.headers["ETag"]}).status_code == 304


def test_a_sheet_opened_on_another_address_shows_that_address_never_a_304(client, make_game):
    game_id = make_game()
    url = f"/games/{game_id}"

    def shown(response) -> str:  # the page, without the line breaks the address may take
        return response.get_data(as_text=True).replace("<wbr>", "")

    first = client.get(url, base_url="http://192.168.1.20:5000")
    assert f"http://192.168.1.20:5000/g/{client.group_token}?game={game_id}" in shown(first)
    other = client.get(url, base_url="http://10.0.0.7:8000", headers={"If-None-Match": first.headers["ETag"]})
    assert other.status_code == 200 and f"http://10.0.0.7:8000/g/{client.group_token}?game={game_id}" in shown(other)
    assert "192.168.1.20" not in shown(other)
    again_first = client.get(url, base_url="http://192.168.1.20:5000")  # each address keeps its own page
    assert "192.168.1.20:5000" in shown(again_first) and "10.0.0.7" not in shown(again_first)


def test_a_new_version_of_the_app_sends_the_sheet_again_with_its_new_files(app, client, make_game):
    game_id = make_game()
    url = f"/games/{game_id}"
    first = client.get(url)
    app.extensions["scorekeeper_assets"] = "0123456789ab"  # the app's files changed: a new fingerprint
    after = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and "app.css?v=0123456789ab" in after.get_data(as_text=True)


def test_kept_pages_hold_a_bounded_number_of_bytes_the_least_recently_used_go_first():
    from scorekeeper.views.games import DrawnSheet
    from scorekeeper.views.kept import KeptPages

    kept = KeptPages(most=1000)
    sheets = [DrawnSheet(b"x" * 300, None, True) for _ in range(3)]
    for n, sheet in enumerate(sheets):
        kept.set((n,), sheet)
    assert kept.get((0,)) is sheets[0]  # used: the most recent now
    kept.set(("compressed", 0), b"y" * 300)  # compressed bytes count too
    assert kept.get((1,)) is None and kept.get((2,)) is sheets[2]
    kept.set(("compressed", 2), b"z" * 500)
    assert kept.get((0,)) is None and kept.get((2,)) is sheets[2]
    assert kept.get(("compressed", 2)) == b"z" * 500
    kept.set("longest", b"w" * 5000)  # larger than the whole cache: kept, alone
    assert kept.get("longest") == b"w" * 5000 and len(kept) == 1


def test_a_kept_list_or_player_page_is_sent_in_the_encoding_each_browser_accepts(client, make_game, db):
    """The lists and player pages (views/pages.py) are compressed once per encoding and
    kept; each browser still gets the page it can read, and a change sends the new one."""
    import brotli

    make_game(deals=[WORKED_TRIGAMI_DEAL])
    anna = next(pid for pid, name in store.player_names(db).items() if name == "Anna")
    for url in ("/", "/players", f"/players/{anna}"):
        plain = client.get(url)
        assert plain.status_code == 200 and "Content-Encoding" not in plain.headers and b"Anna" in plain.data
        for accept, encoding in [("br", "br"), ("gzip", "gzip"), ("gzip, br", "br"), ("", None), ("br", "br")]:
            response = client.get(url, headers={"Accept-Encoding": accept})
            assert response.headers.get("Content-Encoding") == encoding, (url, accept)
            assert "Accept-Encoding" in response.headers["Vary"]
            body = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding](response.data)
            assert body == plain.data, (url, accept)
            assert response.headers["ETag"] == plain.headers["ETag"]
    make_game(players=["Anna", "Ben", "Zora"], deals=[WORKED_TRIGAMI_DEAL])  # a change: the new page
    assert b"Zora" in brotli.decompress(client.get("/players", headers={"Accept-Encoding": "br"}).data)


def test_a_deal_changed_on_one_phone_sends_another_phone_the_new_sheet_not_a_304(app, make_game, db):
    """The kept sheet is per version of the game (views/kept.py): a phone that has the old
    sheet is sent the new one, with the new totals, once another phone changes a deal."""
    from tests.test_web import _three_deals, text

    game_id = _three_deals(make_game)
    url = f"/games/{game_id}"
    mine, other = app.test_client(), app.test_client()
    seen = other.get(url)
    assert "Anna 230" in text(seen) and again(other, url, seen).status_code == 304  # 80 + 100 + 50
    first = store.get_game(db, game_id).deals[0]
    data = {**WORKED_FORM, "bids_0": "C"}  # Anna's bid was clubs, not Turnip: 40, not 80
    data.pop("turnip")
    assert mine.post(f"{url}/deals/{first.id}/edit", data=data).status_code == 302
    after = again(other, url, seen)
    assert after.status_code == 200 and after.headers["ETag"] != seen.headers["ETag"]
    assert "Anna 190" in text(after) and "Anna 230" not in text(after)
    assert again(other, url, after).status_code == 304


def test_a_kept_page_is_compressed_once_per_encoding_then_sent_as_kept(app, make_game, monkeypatch):
    """Flask-Compress keeps the compressed bytes of a kept page (its cache is the app's,
    views/kept.py): another phone asking for the same sheet or list in the same encoding
    is sent the same bytes, not compressed again. A sheet with this phone's own Undo is
    compressed for it alone, each time, and never kept."""
    import flask_compress.flask_compress as compress

    made: list[str] = []
    real = compress._compress_data

    def counted(app, data, algorithm):
        made.append(algorithm)
        return real(app, data, algorithm)

    monkeypatch.setattr(compress, "_compress_data", counted)
    game_id = make_game(deals=[WORKED_TRIGAMI_DEAL])
    sheet = f"/games/{game_id}"
    for url in (sheet, "/", "/players"):
        one, two = app.test_client(), app.test_client()
        made.clear()
        first = one.get(url, headers={"Accept-Encoding": "br"})
        second = two.get(url, headers={"Accept-Encoding": "br"})
        assert first.headers["Content-Encoding"] == second.headers["Content-Encoding"] == "br", url
        assert second.data == first.data and made == ["br"], url
        packed = two.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip" and made == ["br", "gzip"], url
        assert one.get(url, headers={"Accept-Encoding": "gzip"}).data == packed.data and made == ["br", "gzip"]
    one.post(f"{sheet}/deals/new", data=WORKED_FORM)  # "Deal 2 saved", and Undo for this phone
    made.clear()
    for _ in range(2):
        own = one.get(sheet, headers={"Accept-Encoding": "br"})
        assert own.headers["Content-Encoding"] == "br" and b"Undo deal 2" in brotli_text(own)
    assert made == ["br", "br"]
    assert b"Undo deal 2" not in brotli_text(two.get(sheet, headers={"Accept-Encoding": "br"}))


def brotli_text(response) -> bytes:
    import brotli

    return brotli.decompress(response.data)
