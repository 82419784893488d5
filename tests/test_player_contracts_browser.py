"""A player's Trix figures, contract by contract (templates/players/show.html), on a phone:
each contract's name stays whole in its row's head (tester 11, LOW: "Diamond / s" at 390
px, the head given less than its word beside three columns of figures), at 360 and 390 px
in English and Finnish, and the page never scrolls sideways."""

from __future__ import annotations

import pytest

from scorekeeper import groups, store
from scorekeeper.db import connect
from tests.browser_support import (
    FITS_WIDTH,
    PHONE_LOCALES,
    new_page,
    serve,
    shot,
    store_game,
    words_cut,
)
from tests.conftest import game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    path = tmp_path_factory.mktemp("player-contracts") / "contracts.sqlite3"
    with serve(path) as url:
        store_game(path, game_file("trix", deals=TRIX_KINGDOM * 4))  # a whole game: every contract
        db = connect(str(path))
        try:
            anna = next(pid for pid, name in store.player_names(db, groups.only_group(db).id).items()
                        if name == "Anna")
        finally:
            db.conn.close()
        yield url, anna


# English at 390 px (where "Diamond / s" was seen), Finnish, the longest words, at 360
@pytest.mark.parametrize(("language", "width", "height"), [("en", 390, 844), ("fi", 360, 740)])
def test_the_contracts_names_stay_whole_on_a_phone(browser, site, language, width, height):
    url, anna = site
    page = new_page(browser, width, height, locale=PHONE_LOCALES[language])
    try:
        page.goto(f"{url}/players/{anna}")
        # the loaded page's contract rows and its fit in one call
        heads, fits = page.evaluate(f"[document.querySelectorAll('.contracts-table tbody th').length, {FITS_WIDTH}]")
        assert heads == 5  # King of Hearts, Queens, Diamonds, Tricks, Trix
        assert words_cut(page, ".contracts-table tbody th") == []
        assert fits  # no sideways scroll
        shot(page, f"player-contracts-{language}-{width}")
    finally:
        page.context.close()
