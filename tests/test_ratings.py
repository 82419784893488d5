"""Players' ratings (issue 20, part 4; scorekeeper/ratings.py, docs/club-nights.md,
"Ratings"): every finished game of the group rated with openskill's BradleyTerryFull, in
the order the games were started, from each game's finishing places.

The games, worked by hand from SCORING.md (no rating number is copied from the code: each
is the library's own, computed here by calling its ``rate`` with the teams and places
written out below):

    Trigami to 150, the worked deal (§1.2): seat totals 80, 200, 13 — seat 1 alone at
    or over 150 wins (§1.4); places: seat 1 first, seat 0 second, seat 2 third.
    Trigami to 100, one plain deal (§1.2): seats 0 and 1 take 4 tricks with 2 bugs each:
    40 ÷ 2 = 20 each; seat 2 takes 5 clean tricks: 5 × 20 = 100, alone at 100: wins.
    Places: seat 2 first, seats 0 and 1 level second (they share it).
    Trix, the kingdom of tests/test_gamefile.py four times (§2.1, §2.2): totals Anna 200,
    Ben 260, Carla −220, Dan −240. Alone: Ben, Anna, Carla, Dan. Reversed (§2.5: every
    sign flipped, lowest wins): −200, −260, 220, 240: still Ben, Anna, Carla, Dan (read
    as highest-wins it would be Dan first). Partners, "sum" (§2.5): Anna + Carla −20,
    Ben + Dan +20: Ben and Dan's side first. "worst-loses": Dan's −240 is the worst,
    so Anna and Carla's side first.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import BradleyTerryFull

from scorekeeper import groups, ratings, store
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file
from tests.test_gamefile import TRIX_KINGDOM
from tests.test_past_games import text_of
from tests.test_seat_changes import DEAL_2, DEAL_3, DEAL_4, DORA

#: seats 0 and 1 level at 20, seat 2 alone at 100 (see the module's docstring)
TIE_DEAL = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"},
                     {"kind": "plain", "suit": "D"}], "tricks": [4, 4, 5], "bugs": [2, 2, 0]}


def trigami_won_by_seat_1(make_game, players):
    """Seat 1 first, seat 0 second, seat 2 third."""
    return make_game(players=players, options={"target": 150}, deals=[WORKED_TRIGAMI_DEAL])


def trix(make_game, players=("Anna", "Ben", "Carla", "Dan"), **options):
    """Ben (seat 1) 260, Anna (0) 200, Carla (2) −220, Dan (3) −240, before any option."""
    return make_game(kind="trix", players=list(players), options=options, deals=TRIX_KINGDOM * 4)


def started(db, game_id: str, when: str) -> None:
    """Date a stored game (the store stamps games with the time they are made)."""
    with store.writing(db):
        db.execute("update games set created_at = ? where id = ?", [when, game_id])
        db.execute("update seat_stats set created_at = ? where game_id = ?", [when, game_id])


def group(db) -> int:
    return groups.only_group(db).id


def library(*games):
    """The library's own ratings after ``games``: each (teams of names, ranks), rated in
    order with a fresh BradleyTerryFull, openskill's defaults. {name: (mu, sigma)}."""
    model = BradleyTerryFull()
    current: dict[str, object] = {}
    for teams, ranks in games:
        rated = model.rate([[current.setdefault(n, model.rating()) for n in team] for team in teams],
                           ranks=ranks)
        for team, after in zip(teams, rated, strict=True):
            current.update(zip(team, after, strict=True))
    return {name: (r.mu, r.sigma) for name, r in current.items()}


def mu_sigma(found):
    return {name: (r.mu, r.sigma) for name, r in found.items()}


def assert_same(found, expected):
    assert set(found) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert found[name].mu == pytest.approx(mu, abs=1e-9), name
        assert found[name].sigma == pytest.approx(sigma, abs=1e-9), name


def test_ratings_after_several_games_are_the_librarys_own(db, make_game):
    trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])   # Ben, Anna, Carla
    trigami_won_by_seat_1(make_game, ["Carla", "Dan", "Anna"])   # Dan, Carla, Anna
    trix(make_game)                                               # Ben, Anna, Carla, Dan
    make_game(players=["Anna", "Ben", "Dan"], options={"target": 150})  # not finished: not rated
    found = ratings.ratings(db, group(db))
    assert_same(found, library(
        ([["Anna"], ["Ben"], ["Carla"]], [2, 1, 3]),
        ([["Carla"], ["Dan"], ["Anna"]], [2, 1, 3]),
        ([["Anna"], ["Ben"], ["Carla"], ["Dan"]], [2, 1, 3, 4]),
    ))
    assert {name: r.games for name, r in found.items()} == {"Anna": 3, "Ben": 2, "Carla": 3, "Dan": 2}
    # two games, both won: Ben is rated above Dan (one won, one last) and Anna
    ranked = [row.name for row in ratings.ranking(db, group(db))]
    assert ranked[0] == "Ben"
    for row in ratings.ranking(db, group(db)):
        assert row.ordinal == pytest.approx(row.mu - 3 * row.sigma)


def test_the_order_games_were_started_in_is_the_order_they_are_rated_in(db, make_game):
    first = trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])
    second = trigami_won_by_seat_1(make_game, ["Carla", "Anna", "Ben"])
    started(db, first, "2026-03-02T20:00:00+00:00")
    started(db, second, "2026-03-01T20:00:00+00:00")  # started the day before
    assert_same(ratings.ratings(db, group(db)), library(
        ([["Carla"], ["Anna"], ["Ben"]], [2, 1, 3]),
        ([["Anna"], ["Ben"], ["Carla"]], [2, 1, 3]),
    ))


def test_players_level_at_the_end_share_their_place(db, make_game):
    make_game(players=["Anna", "Ben", "Carla"], options={"target": 100}, deals=[TIE_DEAL])
    found = ratings.ratings(db, group(db))
    assert_same(found, library(([["Anna"], ["Ben"], ["Carla"]], [2, 2, 1])))
    assert found["Anna"].mu == found["Ben"].mu < 25 < found["Carla"].mu
    rows = ratings.ranking(db, group(db))
    assert [(row.rank, row.name) for row in rows] == [(1, "Carla"), (2, "Anna"), (2, "Ben")]


def test_reversed_trix_ranks_the_lowest_total_first(db, make_game):
    trix(make_game, scoring="reversed")  # −200, −260, 220, 240: Ben first, Dan last
    found = ratings.ratings(db, group(db))
    assert_same(found, library(([["Anna"], ["Ben"], ["Carla"], ["Dan"]], [2, 1, 3, 4])))
    assert [row.name for row in ratings.ranking(db, group(db))] == ["Ben", "Anna", "Carla", "Dan"]


@pytest.mark.parametrize(("partnership", "ranks"), [
    ("sum", [2, 1]),           # Anna + Carla −20, Ben + Dan +20
    ("worst-loses", [1, 2]),   # Dan's −240 sinks Ben and Dan
])
def test_partners_are_rated_as_two_teams(db, make_game, partnership, ranks):
    trix(make_game, partnership=partnership)
    found = ratings.ratings(db, group(db))
    assert_same(found, library(([["Anna", "Carla"], ["Ben", "Dan"]], ranks)))
    # partners move together: both of a side have one rating after one game
    assert found["Anna"].mu == found["Carla"].mu and found["Ben"].mu == found["Dan"].mu
    winners = ("Anna", "Carla") if ranks[0] == 1 else ("Ben", "Dan")
    assert {row.name for row in ratings.ranking(db, group(db)) if row.rank == 1} == set(winners)


def test_a_deleted_game_is_not_rated(db, make_game):
    trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])
    gone = trigami_won_by_seat_1(make_game, ["Carla", "Anna", "Ben"])
    store.delete_game(db, gone)
    found = ratings.ratings(db, group(db))
    assert_same(found, library(([["Anna"], ["Ben"], ["Carla"]], [2, 1, 3])))
    assert {r.games for r in found.values()} == {1}
    store.restore_game(db, gone)  # back: rated again
    assert {r.games for r in ratings.ratings(db, group(db)).values()} == {2}


def test_who_sits_at_a_seat_at_the_end_gets_its_result(db, client):
    """tests/test_seat_changes.py's game: Dora takes Carla's seat from deal 3; totals 160,
    305, 393: the seat Dora sits at wins, Ben second, Anna third; Carla is not rated. The
    ranking says so (tester 69: Dora ranked after two deals, Carla with none, unexplained)."""
    store.create_game(db, from_dict({
        **game_file(options={"target": 300}, deals=[WORKED_TRIGAMI_DEAL, DEAL_2, DEAL_3, DEAL_4]),
        "seat_changes": DORA}))
    found = ratings.ratings(db, group(db))
    assert_same(found, library(([["Anna"], ["Ben"], ["Dora"]], [3, 2, 1])))
    assert "Carla" not in found
    assert ("Someone who took over a seat gets that seat's place; who left before the end is not rated for "
            "that game.") in text_of(client.get("/players").get_data(as_text=True))


def test_a_period_and_a_kind_choose_the_games_rated(db, make_game):
    last_year = trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])
    started(db, last_year, "2025-12-31T23:59:59+00:00")
    this_year = trigami_won_by_seat_1(make_game, ["Carla", "Anna", "Ben"])
    started(db, this_year, "2026-01-01T00:00:00+00:00")
    game = trix(make_game)
    started(db, game, "2026-02-10T19:00:00+00:00")
    # 2026 alone: the Trigami game of 1 January and the Trix game
    assert_same(ratings.ratings(db, group(db), since="2026-01-01"), library(
        ([["Carla"], ["Anna"], ["Ben"]], [2, 1, 3]),
        ([["Anna"], ["Ben"], ["Carla"], ["Dan"]], [2, 1, 3, 4]),
    ))
    # before 2026: the first game alone
    assert_same(ratings.ratings(db, group(db), before="2026-01-01"), library(
        ([["Anna"], ["Ben"], ["Carla"]], [2, 1, 3])))
    # Trigami only: both Trigami games, no Dan
    assert_same(ratings.ratings(db, group(db), kind="trigami"), library(
        ([["Anna"], ["Ben"], ["Carla"]], [2, 1, 3]),
        ([["Carla"], ["Anna"], ["Ben"]], [2, 1, 3]),
    ))
    assert ratings.ratings(db, group(db), kind="bugami3") == {}
    assert ratings.ranking(db, group(db), since="2026-03-01") == []


def test_ranking_order_puts_the_best_first_and_the_unrated_last_as_given(db, make_game):
    trix(make_game)  # Ben, Anna, Carla, Dan
    order = ratings.ranking_order(db, group(db), ["Zoe", "dan", "Anna", "Yusuf", "BEN", "Carla"])
    assert order == ["BEN", "Anna", "Carla", "dan", "Zoe", "Yusuf"]
    assert ratings.ranking_order(db, group(db), []) == []


# ----------------------------------------------------------------- the pages


def page_text(client, url: str, **headers) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return text_of(response.get_data(as_text=True))


def ranking_text(text: str) -> str:
    """The ranking table of a page's text: between its head and the A–Z list."""
    return text.split("Rank Player Rating Finished", 1)[1].split("Ratings come from", 1)[0]


def one_decimal(value: float, sign: str = ".", places: int = 1) -> str:
    """``value`` as the pages write it, one decimal (``places``), a minus (U+2212) below
    0, never "−0.0"."""
    written = f"{abs(value):.{places}f}".replace(".", sign)
    return f"\u2212{written}" if round(value, places) < 0 else written


def test_the_players_list_ranks_above_the_a_to_z_list(client, db, make_game):
    trix(make_game)  # Ben, Anna, Carla, Dan
    expected = library(([["Anna"], ["Ben"], ["Carla"], ["Dan"]], [2, 1, 3, 4]))
    text = page_text(client, "/players")
    assert text.index("Ranking") < text.index("Everyone, A–Z")
    shown = ranking_text(text)
    # each line: rank, name, the rating and what the ranking goes by (the rating less
    # three times its ±, shown since tester 8 read a higher rating ranked lower as a mistake)
    lines = [f"{rank} {name} {one_decimal(expected[name][0])} ± {one_decimal(expected[name][1])} "
             f"ranked by {one_decimal(expected[name][0] - 3 * expected[name][1], places=2)} 1"
             for rank, name in enumerate(["Ben", "Anna", "Carla", "Dan"], 1)]
    assert " ".join(shown.split()) == " ".join(lines)


def test_players_shown_with_the_same_ranked_by_share_their_rank():
    """Tester 19 (LOW): two players each shown "ranked by 5.17" had ranks 3 and 4, on a
    page that says players level share a rank. Ordinals equal to the two decimals shown
    share the rank (the higher rating first among them); 5.16 is below them."""
    rated = [ratings.Rating(1, "Anna", 5.168, 0.0, 3), ratings.Rating(2, "Carla", 5.1712, 0.0, 3),
             ratings.Rating(3, "Ben", 5.164, 0.0, 3), ratings.Rating(4, "Dan", 9.0, 0.0, 3)]
    ranked = ratings.rank(rated)
    assert [(row.rank, row.rating.name) for row in ranked] == [(1, "Dan"), (2, "Carla"), (2, "Anna"), (4, "Ben")]


def test_players_level_share_a_rank_on_the_page(client, db, make_game):
    make_game(players=["Anna", "Ben", "Carla"], options={"target": 100}, deals=[TIE_DEAL])
    shown = ranking_text(page_text(client, "/players"))
    assert re.findall(r"(\d) (Anna|Ben|Carla) ", shown) == [("1", "Carla"), ("2", "Anna"), ("2", "Ben")]


def test_a_players_page_shows_their_rating_in_the_pages_numbers(client, db, make_game):
    trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])
    trigami_won_by_seat_1(make_game, ["Carla", "Anna", "Ben"])
    make_game(players=["Anna", "Ben", "Zoe"])  # Zoe: no finished game yet
    names = {name: pid for pid, name in store.player_names(db, group(db)).items()}
    mu, sigma = library(([["Anna"], ["Ben"], ["Carla"]], [2, 1, 3]),
                        ([["Carla"], ["Anna"], ["Ben"]], [2, 1, 3]))["Anna"]
    text = page_text(client, f"/players/{names['Anna']}")
    assert f"Rating {one_decimal(mu)} ± {one_decimal(sigma)}" in text
    assert "finishing places of Anna's 2 finished games" in text
    assert "shrinks as they play more" in text
    german = page_text(client, f"/players/{names['Anna']}", **{"Accept-Language": "de"})
    assert f"{one_decimal(mu, ',')} ± {one_decimal(sigma, ',')}" in german  # the decimal comma
    assert "No rating yet" in page_text(client, f"/players/{names['Zoe']}")


def test_the_period_and_game_filters_on_the_page(client, db, make_game):
    now = datetime.now(UTC)
    old = trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])   # Ben first, 400 days ago
    started(db, old, (now - timedelta(days=400)).isoformat(timespec="seconds"))
    trigami_won_by_seat_1(make_game, ["Ben", "Carla", "Anna"])        # Carla first, today
    trix(make_game)                                                    # Ben first, today
    everything = ranking_text(page_text(client, "/players"))
    assert "Dan" in everything and "Ben" in everything
    for period in ("year", "months"):
        text = page_text(client, f"/players?period={period}&kind=trigami")
        assert re.findall(r"(\d) (Anna|Ben|Carla|Dan) ", ranking_text(text))[0] == ("1", "Carla")
        assert "Dan" not in ranking_text(text)
    day = (now - timedelta(days=400)).date().isoformat()
    text = page_text(client, f"/players?period=days&start={day}&end={day}")
    assert re.findall(r"(\d) (Anna|Ben|Carla|Dan) ", ranking_text(text)) == [
        ("1", "Ben"), ("2", "Anna"), ("3", "Carla")]
    # a day typed chooses the chosen days by itself
    assert ranking_text(page_text(client, f"/players?end={day}")) == ranking_text(text)
    # no game of that kind at all (tester 14: "in this period" blamed the period), and the
    # table below, of every game, says it is not narrowed
    text = page_text(client, "/players?kind=bugami3")
    assert "No finished games match the period and game chosen." in text and "Rank Player Rating Finished" not in text
    assert "Every game of every period: the choice above narrows the ranking only." in text
    assert "narrows the ranking only" not in page_text(client, "/players")


@pytest.mark.parametrize(("query", "field", "message"), [
    ("period=days&start=yesterday&kind=trigami", "start", "Not a valid date value."),
    ("start=2026-02-30", "start", "Not a valid date value."),
    ("start=2026-03-04&end=2026-03-01", "end", "The last day comes before the first."),
    ("period=days", "start", "Choose the first day, the last day or both."),
    ("period=forever", "period", "Not a valid choice."),
    ("kind=poker", "kind", "Not a valid choice."),
])
def test_a_bad_filter_is_explained_beside_its_field_and_not_applied(client, db, make_game, query, field, message):
    trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])
    response = client.get(f"/players?{query}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    box = re.search(rf'<div class="text-field[^"]*has-error">((?:(?!</div>).)*name="{field}"(?:(?!</div>).)*)</div>',
                    html, re.S)
    assert box, (query, field)
    assert message in text_of(box.group(1))
    assert " open>" in html  # the filters show themselves
    typed = dict(part.split("=") for part in query.split("&")).get(field)
    if field in ("start", "end") and typed:
        assert f'value="{typed}"' in box.group(1)  # what was typed stays
    # the ranking still shows, without the filter that did not parse
    assert re.findall(r"(\d) (Anna|Ben|Carla) ", ranking_text(text_of(html)))[0] == ("1", "Ben")


def test_this_years_ranking_moves_on_at_new_year_though_no_game_changed(client, db, make_game, monkeypatch):
    """The players list is kept per version of the games; "this year" depends on the date
    too, so the page is drawn again in each new hour (views/pages.shared_hourly)."""
    from scorekeeper.views import pages, players

    game = trigami_won_by_seat_1(make_game, ["Anna", "Ben", "Carla"])
    started(db, game, "2025-12-31T12:00:00+00:00")
    clock = {"now": datetime(2025, 12, 31, 23, 30, tzinfo=UTC)}

    class Clock(datetime):
        @classmethod
        def now(cls, tz=None):
            return clock["now"].astimezone(tz)

    monkeypatch.setattr(pages, "datetime", Clock)
    monkeypatch.setattr(players, "datetime", Clock)
    assert "Ben" in ranking_text(page_text(client, "/players?period=year"))
    clock["now"] = datetime(2026, 1, 1, 0, 30, tzinfo=UTC)
    assert "No finished games match the period and game chosen." in page_text(client, "/players?period=year")
