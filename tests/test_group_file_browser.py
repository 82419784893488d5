"""The whole group out and in on a phone (headless Chromium at 390×844 and 360×740; issue
18, part 4): "Download all games" on the Group page, the file imported into another group
from its Group page, the report seen, every game equal; a second import stores nothing and
says so, a broken game is named. Screenshots of the report in English, German, Finnish and
Arabic: screenshots/group-file-*.png."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser_support import new_page, no_sideways_scroll, serve, shot, sync_api

pytestmark = pytest.mark.browser
expect = sync_api.expect

PHONES = [(390, 844), (360, 740)]


def make_groups(database: Path) -> tuple[str, str]:
    """The served database's group ("Tuesday table") with a season of games, and a second,
    empty group ("Friday club"); returns the second group's token and name."""
    from scorekeeper import groups, store
    from scorekeeper.db import connect
    from scorekeeper.gamefile import from_dict
    from tests.test_group_file import SEASON

    db = connect(str(database))
    try:
        first = groups.only_group(db)
        groups.rename(db, first.id, "Tuesday table")
        for data in SEASON:
            store.create_game(db, from_dict(data), group_id=first.id)
        second = groups.create(db, "Friday club")
    finally:
        db.conn.close()
    return second.token or "", second.name


def download_all(page, base: str, folder: Path, name: str) -> Path:
    """Tap "Download all games" on the Group page; the file, kept as folder/name."""
    page.goto(f"{base}/group")
    link = page.get_by_role("link", name="Download all games")
    link.scroll_into_view_if_needed()
    expect(link).to_be_visible()
    with page.expect_download() as download:
        link.click()
    path = folder / name
    download.value.save_as(path)
    return path


def import_from_group_page(page, base: str, path: Path) -> None:
    """From the Group page, "Import games", choose the file, Import."""
    page.goto(f"{base}/group")
    page.get_by_role("link", name="Import games").click()
    page.set_input_files("input[type=file]", str(path))
    page.get_by_role("button", name="Import").click()


@pytest.mark.parametrize(("width", "height"), PHONES, ids=["390x844", "360x740"])
def test_download_all_games_then_import_them_into_another_group(browser, tmp_path, width, height):
    database = tmp_path / "group-file.sqlite3"
    with serve(database) as base:
        token, name = make_groups(database)
        page = new_page(browser, width, height)
        try:
            exported = download_all(page, base, tmp_path, "tuesday.json")
            data = json.loads(exported.read_text(encoding="utf-8"))
            assert data["group"] == "Tuesday table" and len(data["games"]) == 5
            assert no_sideways_scroll(page)
            shot(page, f"group-file-1-group-page-{width}")

            # the phone opens the other group's link, and imports the file there
            page.goto(f"{base}/g/{token}")
            page.get_by_role("button", name=f"Open {name}").click()
            expect(page.get_by_role("link", name=f"Group: {name}")).to_be_visible()
            import_from_group_page(page, base, exported)
            report = page.locator("[data-import-report]")
            expect(report).to_contain_text("5 games imported.")
            expect(report.locator("li")).to_have_count(5)
            expect(report.locator("li[data-imported=stored]")).to_have_count(5)
            expect(report.locator("li").nth(2)).to_contain_text("Trix with سارة, محمد, Jörg, Aino")
            assert no_sideways_scroll(page)
            shot(page, f"group-file-2-report-{width}")
            # the report in another language, from the switch at the foot of the page
            # (tester 7: the switch showed the empty import page), and back
            page.locator("nav a[hreflang=fi]").click()
            expect(report).to_contain_text("5 peliä tuotu.")
            expect(report.locator("li[data-imported=stored]")).to_have_count(5)
            page.locator("nav a[hreflang=en]").click()
            expect(report).to_contain_text("5 games imported.")

            # every game equal: the other group's own file holds the same games
            moved = json.loads(download_all(page, base, tmp_path, "friday.json").read_text(encoding="utf-8"))
            assert moved["group"] == name
            assert moved["games"] == data["games"]

            # a game of the report opens that game
            import_from_group_page(page, base, exported)
            expect(page.locator("[data-import-report]")).to_contain_text(
                "0 games imported. 5 games were here already: not stored again.")
            expect(page.locator("li[data-imported=already]")).to_have_count(5)
            page.locator("[data-import-report] li a").first.click()
            expect(page.get_by_text("Jörg").first).to_be_visible()
        finally:
            page.context.close()


@pytest.mark.parametrize("language", ["en", "de", "fi", "ar"])
def test_the_import_report_and_a_refused_file_in_each_language(browser, tmp_path, language):
    database = tmp_path / f"group-file-{language}.sqlite3"
    with serve(database) as base:
        token, name = make_groups(database)
        page = new_page(browser, 360, 740)
        try:
            # the group's file, as "Download all games" on the Group page gives it (the page
            # itself is the first test's)
            exported = tmp_path / "tuesday.json"
            exported.write_bytes(page.request.get(f"{base}/group/games.json").body())
            broken = json.loads(exported.read_text(encoding="utf-8"))
            broken["games"][2]["deals"][3]["tricks"] = [3, 3, 3, 3]
            broken_path = tmp_path / "broken.json"
            broken_path.write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
            page.goto(f"{base}/g/{token}")
            page.get_by_role("button", name=f"Open {name}").click()
            page.goto(f"{base}/language/{language}?next=/group")

            import_from_group_page_in_any_language(page, base, broken_path)
            problems = page.locator("[data-group-problems]")
            expect(problems).to_be_visible()
            expect(problems.locator("h3")).to_have_count(1)
            expect(problems.locator("h3")).to_contain_text("سارة")
            expect(problems.locator("h4")).to_have_count(2)  # the game's note, and deal 4
            assert page.locator("html").get_attribute("lang") == language
            assert no_sideways_scroll(page)
            shot(page, f"group-file-3-refused-{language}")

            import_from_group_page_in_any_language(page, base, exported)
            report = page.locator("[data-import-report]")
            expect(report.locator("li[data-imported=stored]")).to_have_count(5)
            assert no_sideways_scroll(page)
            shot(page, f"group-file-4-report-{language}")
        finally:
            page.context.close()


def import_from_group_page_in_any_language(page, base: str, path: Path) -> None:
    """:func:`import_from_group_page` by the page's structure, not its words."""
    page.goto(f"{base}/group")
    page.locator("a[href='/games/import']").click()
    page.set_input_files("input[type=file]", str(path))
    page.locator(".upload-form button[type=submit]").click()
    page.wait_for_load_state()
