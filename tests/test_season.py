"""The season (issue 20, part 4): three Trigami club nights of six played through the pages,
then the season page's table worked out by hand from docs/club-nights.md ("The standing",
"The season"), the period filter, and every player's rating checked against openskill's
own computation.

The nights (A Aino, B Bruno, C Carla, D Dmitri, E Eeva, F Farid, G Greta). Each has two
rounds; round 1 is seated "by the group's ranking" (the best three at table 1), its tables
played through the deal form; round 2 is seated, then closed by the organiser before any
deal, so its tables count as they stand: all level, 0 each ("A round closed early"), which
at a table of three is 2 placing points each (1 for each of two sides level).

Deals (SCORING.md §1.2): "play X, Y, Z" is one deal ending the game to 100 with X 140,
Y 120, Z 50: places 1, 2, 3, placing points 4, 2, 0. "sweep X" is one deal where X takes
every trick: X 100, the other two 0, level second: points 4, 1, 1.

Night 1, "First night", 400 days ago (outside the last 12 months). Nobody is rated yet, so
the ranking's order is the order typed: table 1 A B C, table 2 D E F.
    play A, B, C; sweep D.  Night: A 6/140, D 6/100, B 4/120, E 3/0, F 3/0, C 2/50.
    Ranked by points, then score: A 1, D 2, B 3, E and F 4= (level in both), C 6.
Night 2, "Second night" (A–F). Ratings after night 1 (openskill, worked in the test): A
and D first, B third; table 1 A B D, table 2 C E F.
    play D, B, A; sweep E.  Night: D 6/140, E 6/100, B 4/120, C 3/0, F 3/0, A 2/50.
    Winner D.
Night 3, "Third night" (A–E and the newcomer G; F is away). The ratings put D, E, B first;
G, unrated, last: table 1 B D E, table 2 A C G.
    play D, B, E; sweep G.  Night: D 6/140, G 6/100, B 4/120, A 3/0, C 3/0, E 2/50.
    Winner D.

The season, all time (placing points; then more nights won; then fewer rounds played):
    D 6+6+6 = 18, 2 nights won                      1
    B 4+4+4 = 12                                    2
    A 6+2+3 = 11, 1 night won                       3   (points level with E: won decides)
    E 3+6+2 = 11, none won                          4
    C 2+3+3 = 8                                     5
    G 6 in 2 rounds (one night)                     6   (level with F in points and won:
    F 3+3 = 6 in 4 rounds                           7    fewer rounds decides)
Nights: 3 each, F 2, G 1; rounds: 6 each, F 4, G 2. Total score (decides nothing):
A 190, B 360, C 50, D 380, E 150, F 0, G 100.

The last 12 months (nights 2 and 3): D 12 (1); B 4+4 = 8 and E 6+2 = 8, neither won a
night, 4 rounds each: level in all three, 2= and 2=; G 6 in 2 rounds (4) ahead of C 3+3 =
6 in 4 rounds (5); A 2+3 = 5 (6); F 3 (7).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from openskill.models import BradleyTerryFull

from scorekeeper import groups, ratings, store
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.test_nights import night, play_trigami, start, sweep_trigami, text

A, B, C, D, E, F, G = "Aino", "Bruno", "Carla", "Dmitri", "Eeva", "Farid", "Greta"
NAMES = "First night", "Second night", "Third night"

#: Each night's players and round 1's games as (table 1, table 2): ("play", first,
#: second, third) or ("sweep", winner), as in the module's docstring
NIGHTS = (
    ([A, B, C, D, E, F], ({A, B, C}, ("play", A, B, C)), ({D, E, F}, ("sweep", D))),
    ([A, B, C, D, E, F], ({A, B, D}, ("play", D, B, A)), ({C, E, F}, ("sweep", E))),
    ([A, B, C, D, E, G], ({B, D, E}, ("play", D, B, E)), ({A, C, G}, ("sweep", G))),
)

#: The rated games (round 1's tables; round 2's are never finished), in the order they
#: were started: (teams, places) as openskill's ``rate`` takes them
RATED = (
    ([A, B, C], [1, 2, 3]), ([D, E, F], [1, 2, 2]),
    ([D, B, A], [1, 2, 3]), ([E, C, F], [1, 2, 2]),
    ([D, B, E], [1, 2, 3]), ([G, A, C], [1, 2, 2]),
)


def library(games) -> dict[str, tuple[float, float]]:
    """openskill's own ratings after ``games`` (its BradleyTerryFull, defaults), rated in
    order: {name: (mu, sigma)}."""
    model = BradleyTerryFull()
    current: dict[str, object] = {}
    for names, places in games:
        teams = [[current.setdefault(name, model.rating())] for name in names]
        for name, (after,) in zip(names, model.rate(teams, ranks=places), strict=True):
            current[name] = after
    return {name: (r.mu, r.sigma) for name, r in current.items()}


def play_night(client, db, number: int) -> int:
    """Night ``number`` (0-based) of :data:`NIGHTS` through the pages; its id."""
    players, *tables = NIGHTS[number]
    known = {name for _, name in store.player_names(db, groups.only_group(db).id).items()}
    night_id = start(client, "trigami", [name for name in players if name not in known], 2,
                     ticked=[name for name in players if name in known], seating="ranking", name=NAMES[number])
    first = night(db, night_id).current
    assert [set(table.game.players) for table in first.tables] == [seats for seats, _ in tables]
    for table, (_, game) in zip(first.tables, tables, strict=True):
        seats = table.game.players
        if game[0] == "play":
            play_trigami(client, table.game.id, seats, list(game[1:]), f"n{number}t{table.number}")
        else:
            sweep_trigami(client, table.game.id, seats, game[1], f"n{number}t{table.number}")
    assert client.post(f"/nights/{night_id}/next").status_code == 302
    assert client.post(f"/nights/{night_id}/close").status_code == 302
    assert night(db, night_id).finished
    return night_id


def dated(db, night_id: int, when: str) -> None:
    """Date a night and its tables' games (the store stamps them with the time they are
    made)."""
    games = [row[0] for row in db.execute("select game_id from night_tables where night_id = ?", [night_id])]
    with store.writing(db):
        db.execute("update nights set created_at = ? where id = ?", [when, night_id])
        for game_id in games:
            db.execute("update games set created_at = ? where id = ?", [when, game_id])
            db.execute("update seat_stats set created_at = ? where game_id = ?", [when, game_id])


def play_season(client, db) -> list[int]:
    """The three nights of the module's docstring, the first dated 400 days ago."""
    ids = [play_night(client, db, 0)]
    dated(db, ids[0], (datetime.now(UTC) - timedelta(days=400)).isoformat(timespec="seconds"))
    ids += [play_night(client, db, 1), play_night(client, db, 2)]
    return ids


@pytest.fixture
def season(client, db):
    """The three nights played (no draw matters: round 1 follows the ranking, round 2
    has no deal)."""
    return play_season(client, db)


def season_rows(page: str) -> list[tuple[str, str, int, int, int, int, int]]:
    """The season table's rows: (rank as shown, player, nights, rounds, placing points,
    nights won, total score)."""
    table = page[page.index('<table class="stats-table ranking-table season-table">'):]
    table = table[:table.index("</table>")]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
        # the total under the name (a 320 px phone shows it there, its column gone) is the
        # total of the row's last cell
        under = re.search(r'<span class="score-under">(.*?)</span>', row, re.S)
        row = row.replace(under.group(0), "") if under else row
        cells = [text_of(cell) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        assert under and text_of(under.group(1)).endswith(" " + cells[-1]), (under, cells)
        rows.append((cells[0], cells[1], *(int(cell.replace("−", "-")) for cell in cells[2:])))
    return rows


def text_of(fragment: str) -> str:
    return re.sub(r"<[^>]+>", "", fragment).replace("\u2068", "").replace("\u2069", "").strip()


def test_the_season_table_worked_by_hand(client, db, season):
    page = client.get("/season")
    assert page.status_code == 200
    assert season_rows(page.get_data(as_text=True)) == [
        ("1", D, 3, 6, 18, 2, 380),
        ("2", B, 3, 6, 12, 0, 360),
        ("3", A, 3, 6, 11, 1, 190),
        ("4", E, 3, 6, 11, 0, 150),
        ("5", C, 3, 6, 8, 0, 50),
        ("6", G, 1, 2, 6, 0, 100),
        ("7", F, 2, 4, 6, 0, 0),
    ]
    words = text(page)
    assert "Total score is shown but decides nothing" in words
    # the past nights, the latest first, each with its game, rounds, players and winner
    listed = words[words.index("Past nights"):]
    assert [listed.index(name) for name in reversed(NAMES)] == sorted(listed.index(name) for name in NAMES)
    assert "Third night" in listed and "Trigami · 2 rounds · 6 players Winner: Dmitri" in listed
    assert "First night" in listed and "Winner: Aino" in listed
    for night_id in season:
        assert f'href="/nights/{night_id}/standing"' in page.get_data(as_text=True)


def test_a_players_figures_are_added_up_night_by_night(client, db, season):
    ids = {name: pid for pid, name in store.player_names(db, groups.only_group(db).id).items()}
    page = text(client.get(f"/season/players/{ids[A]}"))
    assert "Rank 3 of the season" in page
    assert "3 nights" in page and "Rounds played at a table: 2 + 2 + 2 = 6." in page
    assert "Placing points: 6 + 2 + 3 = 11." in page
    assert "Nights won (first in the night's standing, shared or not): First night." in page
    assert "Total score: 140 + 50 + 0 = 190. It is shown but decides nothing." in page
    # the nights that make it up, each with Aino's rank, rounds, points and score there
    assert "First night" in page and "Second night" in page and "Third night" in page
    # the filter carries to the player's page and back
    filtered = client.get(f"/season/players/{ids[B]}?period=months").get_data(as_text=True)
    assert "Rank 2= of the season" in text(client.get(f"/season/players/{ids[B]}?period=months"))
    assert "First night" not in text_of(filtered.split("<main", 1)[-1])
    assert 'href="/season?period=months"' in filtered
    # Greta, one night: her two rounds, 6 points, ranked ahead of Farid by fewer rounds
    greta = text(client.get(f"/season/players/{ids[G]}"))
    assert "1 night" in greta and "Placing points: 6." in greta and "Nights won: none." in greta
    # a period without her nights
    day = (datetime.now(UTC) - timedelta(days=400)).date()
    before = text(client.get(f"/season/players/{ids[G]}?period=days&end={day}"))
    assert "Greta played no club night in this period." in before


def test_the_period_leaves_out_a_night_before_it(client, db, season):
    page = client.get("/season?period=months")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert season_rows(html) == [
        ("1", D, 2, 4, 12, 2, 280),
        ("2=", B, 2, 4, 8, 0, 240),
        ("2=", E, 2, 4, 8, 0, 150),
        ("4", G, 1, 2, 6, 0, 100),
        ("5", C, 2, 4, 6, 0, 0),
        ("6", A, 2, 4, 5, 0, 50),
        ("7", F, 1, 2, 3, 0, 0),
    ]
    assert "First night" not in text(page) and "Second night" in text(page)
    # chosen days around the first night alone: that night only
    day = (datetime.now(UTC) - timedelta(days=400)).date()
    only = client.get(f"/season?period=days&start={day - timedelta(days=1)}&end={day + timedelta(days=1)}")
    assert [row[1:5] for row in season_rows(only.get_data(as_text=True))] == [
        (A, 1, 2, 6), (D, 1, 2, 6), (B, 1, 2, 4), (E, 1, 2, 3), (F, 1, 2, 3), (C, 1, 2, 2)]
    assert "Second night" not in text(only)
    # another game: no night
    assert "No club night with a deal in this period." in text(client.get("/season?kind=trix"))


ALL_TIME = [D, B, A, E, C, G, F]


@pytest.mark.parametrize(("query", "field", "message", "shown"), [
    ("start=2026-02-30", "start", "Not a valid date value.", ALL_TIME),
    # the last day before the first: neither day applies (not half a period nobody asked for)
    ("start=2026-03-04&end=2026-03-01", "end", "The last day comes before the first.", ALL_TIME),
    ("period=forever", "period", "Not a valid choice.", ALL_TIME),
    ("kind=poker", "kind", "Not a valid choice.", ALL_TIME),
])
def test_a_bad_filter_is_answered_beside_its_field(client, db, season, query, field, message, shown):
    """The message beside the field, what was typed kept, status 200 (as the games list
    and the players list answer a filter they cannot read); the filter is not applied
    and the rest of the page still works."""
    response = client.get(f"/season?{query}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    box = re.search(rf'<div class="text-field[^"]*has-error">((?:(?!</div>).)*name="{field}"(?:(?!</div>).)*)</div>',
                    html, re.S)
    assert box and message in text_of(box.group(1))
    assert " open>" in html  # the filters show themselves
    typed = dict(part.split("=") for part in query.split("&")).get(field)
    if field in ("start", "end"):
        assert f'value="{typed}"' in box.group(1)
    # nothing else broken: the season without the filter that did not parse
    assert [row[1] for row in season_rows(html)] == shown
    ids = {name: pid for pid, name in store.player_names(db, groups.only_group(db).id).items()}
    assert client.get(f"/season/players/{ids[A]}?{query}").status_code == 200
    assert client.get("/season").status_code == 200


def test_every_rating_is_openskills_own(client, db, season):
    """Every player's rating after the three nights, and the ranking on /players, as the
    library rates the six finished games (round 1's tables) in the order they were
    started."""
    expected = library(RATED)
    found = ratings.ratings(db, groups.only_group(db).id)
    assert set(found) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert found[name].mu == pytest.approx(mu, abs=1e-9) and found[name].sigma == pytest.approx(sigma, abs=1e-9)
    best_first = sorted(expected, key=lambda name: -(expected[name][0] - 3 * expected[name][1]))
    players = text(client.get("/players"))
    ranking = players.split("Rank Player Rating Finished", 1)[1]
    assert [ranking.index(f" {name} ") for name in best_first] == sorted(ranking.index(f" {name} ") for name in best_first)
    for name, (mu, sigma) in expected.items():
        ranked_by = f"{abs(mu - 3 * sigma):.2f}"
        ranked_by = f"\u2212{ranked_by}" if round(mu - 3 * sigma, 2) < 0 else ranked_by
        assert f"{name} {mu:.1f} ± {sigma:.1f} ranked by {ranked_by}" in ranking


def test_the_season_is_linked_from_the_nights_the_group_and_the_players(client, season):
    for page in ("/nights", "/group", "/players"):
        response = client.get(page)
        assert response.status_code == 200, page
        assert 'href="/season"' in response.get_data(as_text=True), page


def test_a_group_without_club_nights_is_sent_to_the_players_ranking(client, make_game):
    """Tester 46: a whole season of games at home, and the Season page said only "No club
    night with a deal yet": it points to where those games are ranked."""
    make_game(deals=[WORKED_TRIGAMI_DEAL] * 3)
    page = client.get("/season").get_data(as_text=True)
    link = re.search(r'<p class="panel empty">.*?<a href="([^"]+)">([^<]+)</a>', page, re.S)
    assert link and link.groups() == ("/players", "Games played outside a club night are ranked under Players.")
    assert "Anna" in text(client.get(link.group(1)))


def test_a_night_without_a_deal_counts_nothing(client, db, season):
    """A night just started, no deal at any table (everyone would be level first): not
    in the list, nothing added (docs/club-nights.md, "The season")."""
    before = season_rows(client.get("/season").get_data(as_text=True))
    start(client, "trigami", [], 2, ticked=[A, B, C, D, E, F], seating="ranking", name="Fourth night")
    page = client.get("/season")
    assert season_rows(page.get_data(as_text=True)) == before
    assert "Fourth night" not in text(page)
    assert "Fourth night" in text(client.get("/nights"))


def test_a_night_still_being_played_has_a_leader_not_a_winner(client, db, season):
    """A night counts in the season as it stands (docs/club-nights.md, "The season"), but
    the list of nights does not call its leader the winner before its last round is over."""
    night_id = start(client, "trigami", [], 2, ticked=[A, B, C, D, E, F], seating="ranking", name="Fourth night")
    table = night(db, night_id).current.tables[0]
    order = sorted(table.game.players)
    play_trigami(client, table.game.id, table.game.players, order, "n4t1")
    words = text(client.get("/season"))
    fourth = words[words.index("Fourth night"):words.index("Third night")]
    assert f"Still being played · Leading: {order[0]}" in fourth
    assert "Winner" not in fourth
    assert "Winner: Dmitri" in words[words.index("Third night"):]  # a night over keeps its winner


def negative_season(client, db) -> int:
    """Two Trix nights of four where Aino takes the King of Hearts (−75, SCORING.md §2)
    in the first and Bruno in the second (Aino 0): her season's total −75 + 0 = −75. Her
    player id."""
    from tests.test_nights import king_taken

    for number in range(2):
        night_id = start(client, "trix", [] if number else [A, B, C, D], 1, ticked=[A, B, C, D] if number else [],
                         name=f"Trix {number + 1}")
        table = night(db, night_id).current.tables[0]
        king_taken(client, table.game.id, table.game.players.index(B if number else A), f"king{number}")
        client.post(f"/nights/{night_id}/close")
    return next(pid for pid, name in store.player_names(db, groups.only_group(db).id).items() if name == A)


def test_a_negative_score_is_written_alike_in_the_table_and_the_sentence_in_arabic(client, db):
    """Arabic: the season table's −75 and the same −75 in the sentence that adds it up are
    the same characters (Arabic-Indic digits, the true minus with its Arabic letter mark
    before it: locale_numbers.number), so they show alike."""
    aino = negative_season(client, db)
    client.set_cookie("lang", "ar")
    minus_75 = "\u061c\u2212\u0667\u0665"
    season_page = client.get("/season").get_data(as_text=True)
    assert re.search(rf'<td class="num score">{minus_75}</td>', season_page)
    # the shared rank its hint shows, in the table's digits (tester 73: "(1=)" in Western ones)
    assert "(\u0661=)" in season_page and "(1=)" not in season_page
    page = client.get(f"/season/players/{aino}").get_data(as_text=True)
    cells = re.findall(r'<td class="num score">(.*?)</td>', page)
    assert cells == [minus_75, "\u0660"]  # her two nights: −75, then 0
    total = next(li for li in re.findall(r"<li>(.*?)</li>", page) if "\u0660\u00a0=\u00a0" in li)
    # "−75 + 0 = −75" written with the table's own −75, twice
    assert f"{minus_75} + \u0660\u00a0=\u00a0{minus_75}" in total
    # Western digits chosen on an Arabic page: the table's left-to-right isolate, in both
    client.set_cookie("digits", "latn")
    page = client.get(f"/season/players/{aino}").get_data(as_text=True)
    western = "\u2066\u200e\u221275\u2069"
    assert re.findall(r'<td class="num score">(.*?)</td>', page)[0] == western
    assert f"{western} + 0\u00a0=\u00a0{western}" in page


@pytest.mark.parametrize("address", ["/", "/players", "/season"])
@pytest.mark.parametrize(("query", "field", "message"), [
    ("start=2026-02-30", "start", "Not a valid date value."),
    ("start=2026-03-04&end=2026-03-01", "end", "The last day comes before the first."),
])
def test_the_games_players_and_season_answer_a_bad_day_alike(client, db, make_game, address, query, field, message):
    """One answer to a day the filter cannot read, on every list that filters by days:
    200, the page drawn without that filter, the message beside its field and what was
    typed kept in it."""
    make_game()  # the games list shows its filters once there is a game
    response = client.get(f"{address}?{query}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    box = re.search(rf'<div class="text-field[^"]*has-error">((?:(?!</div>).)*name="{field}"(?:(?!</div>).)*)</div>',
                    html, re.S)
    assert box and message in text_of(box.group(1))
    typed = dict(part.split("=") for part in query.split("&"))[field]
    assert f'value="{typed}"' in box.group(1)
