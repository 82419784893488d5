"""Past games, players and charts through Flask's test client: the home page's filters
and lists, every figure's link on a player page, and the SVG charts (tests/history.py
has the hand-scored history).
"""

from __future__ import annotations

import html
import itertools
import re
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree

import pytest

from scorekeeper import groups, stats, store
from tests.history import G1, store_history
from tests.test_web import text

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def history(db, make_game):
    """The history stored, started on 1 to 4 March 2025 (G3 at 23:30 UTC, already the 4th
    in Helsinki): ({"G1": id, …}, {"Anna": player id, …})."""
    ids = store_history(make_game)
    for name, when in (("G1", "2025-03-01T20:00:00+00:00"), ("G2", "2025-03-02T20:00:00+00:00"),
                       ("G3", "2025-03-03T23:30:00+00:00"), ("G4", "2025-03-04T20:00:00+00:00")):
        db["games"].update(ids[name], {"created_at": when})
    players = {name: pid for pid, name in store.player_names(db).items()}
    return ids, players


def listed(page: str, section: str | None = None) -> list[str]:
    """The ids of the games the home page lists (in the "unfinished" or "finished"
    list, or both), in order."""
    if section is not None:
        match = re.search(rf'<ul class="game-list" id="{section}">(.*?)</ul>', page, re.S)
        page = match.group(1) if match else ""
    found: list[str] = []
    for game_id in re.findall(r'href="/games/([A-Za-z0-9_-]+)[#"]', page):
        if game_id != "new" and game_id not in found:
            found.append(game_id)
    return found


def home(client, **query) -> str:
    response = client.get("/", query_string=query)
    assert response.status_code == 200
    return response.get_data(as_text=True)


# ----------------------------------------------------------------- past games


def test_unfinished_and_finished_games_are_listed_apart(client, history):
    ids, _players = history
    page = home(client)
    # newest first in each list
    assert listed(page, "unfinished") == [ids["G3"], ids["G2"]]
    assert listed(page, "finished") == [ids["G4"], ids["G1"]]
    assert page.index('id="unfinished"') < page.index('id="finished"')


def test_each_unfinished_game_has_a_carry_on_link_to_its_sheet(client, history):
    ids, _players = history
    page = home(client)
    carry_on = re.findall(r'<a class="button primary carry-on" href="/games/([^"#]+)#latest"', page)
    assert carry_on == [ids["G3"], ids["G2"]]
    assert "Carry on" in text(client.get("/"))
    sheet = client.get(f"/games/{ids['G2']}")
    assert "Add deal 3" in text(sheet)
    # New game stays at the top
    assert page.index("New game") < page.index("Find past games")


def test_filter_by_kind(client, history):
    ids, _players = history
    assert set(listed(home(client, kind="trix"))) == {ids["G3"], ids["G4"]}
    assert set(listed(home(client, kind="trigami"))) == {ids["G1"], ids["G2"]}
    page = home(client, kind="bugami3")
    assert listed(page) == []
    assert "No games match these filters." in page


def test_filter_by_player(client, history):
    ids, players = history
    assert set(listed(home(client, player=players["Dan"]))) == {ids["G3"], ids["G4"]}
    assert set(listed(home(client, player=players["Anna"]))) == set(ids.values())
    assert listed(home(client, player=players["Dan"], kind="trigami")) == []


def test_filter_by_days_from_and_to(client, history):
    ids, _players = history
    assert set(listed(home(client, start="2025-03-02", end="2025-03-03"))) == {ids["G2"], ids["G3"]}
    assert listed(home(client, start="2025-03-04")) == [ids["G4"]]
    assert listed(home(client, end="2025-03-01")) == [ids["G1"]]
    # in the viewer's time zone (sent by app.js) G3, started 23:30 UTC on the 3rd, is the 4th
    page = home(client, start="2025-03-04", tz="Europe/Helsinki")
    assert set(listed(page)) == {ids["G3"], ids["G4"]}
    assert "Days are counted in your time zone." in page
    assert "Days are counted in UTC." in home(client, start="2025-03-04", tz="Not/AZone")


def test_the_first_and_the_last_day_of_the_calendar_find_games_not_an_error(client, history):
    """31/12/9999 as the last day (a player's "until whenever") lists every game up to
    then, whatever else is filtered; 1/1/0001 as the first day likewise, in a time zone
    east of UTC too (its first moment is before the year 1 in UTC)."""
    ids, players = history
    everything = set(ids.values())
    page = home(client, end="9999-12-31")
    assert set(listed(page)) == everything
    assert 'value="9999-12-31"' in page  # the form keeps the day
    assert set(listed(home(client, end="9999-12-31", tz="Pacific/Kiritimati"))) == everything
    assert set(listed(home(client, end="9999-12-31", tz="Etc/GMT+12"))) == everything
    assert set(listed(home(client, start="0001-01-01", tz="Pacific/Kiritimati"))) == everything
    assert set(listed(home(client, start="0001-01-01", end="9999-12-31", tz="Pacific/Kiritimati"))) == everything
    assert listed(home(client, end="9999-12-31", kind="trix", status="finished")) == [ids["G4"]]
    assert set(listed(home(client, end="9999-12-31", player=players["Dan"], page="1"))) == {ids["G3"], ids["G4"]}
    # a player page's figure link, with the days narrowed by hand
    won = home(client, player=players["Anna"], figure="won", start="0001-01-01", end="9999-12-31",
               tz="Pacific/Kiritimati")
    assert set(listed(won)) == {ids["G1"], ids["G4"]}


def test_days_at_the_ends_of_the_calendar_when_no_game_was_played_find_none(client, history):
    for query in ({"start": "0001-01-01", "end": "0001-01-01", "tz": "Pacific/Kiritimati"},
                  {"end": "0001-01-01", "tz": "Etc/GMT+12"}, {"end": "0001-01-01"},
                  {"start": "9999-12-31", "tz": "Etc/GMT+12"}, {"start": "9999-12-31", "tz": "Pacific/Kiritimati"},
                  {"start": "9999-12-31", "end": "9999-12-31"}):
        page = home(client, **query)
        assert listed(page) == [], query
        assert "No games match these filters." in page, query


@pytest.mark.parametrize("zone", ["America", "Europe/", "../../../../etc/passwd", "/etc/localtime", "a\x00b",
                                  "%FF", "UTC\n", "", " ", "x" * 65, "zone.tab"])
def test_a_time_zone_that_is_not_one_counts_days_in_utc(client, history, zone):
    ids, _players = history
    # G3 was started at 23:30 UTC on the 3rd: not on the 4th in UTC
    page = home(client, start="2025-03-04", tz=zone)
    assert listed(page) == [ids["G4"]]
    assert "Days are counted in UTC." in page


def test_a_time_zone_sent_as_bytes_that_are_not_text_counts_days_in_utc(client, history):
    ids, _players = history
    response = client.get("/?start=2025-03-04&tz=%FF%FE&end=9999-12-31")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert listed(page) == [ids["G4"]] and "Days are counted in UTC." in page


@pytest.mark.parametrize("day", ["0000-01-01", "10000-01-01", "275760-09-13", "9999-13-01", "2025-02-30",
                                 "-0001-01-01", "9" * 40])
def test_a_day_the_filter_cannot_read_is_explained_beside_its_field_and_kept(client, history, day):
    ids, _players = history
    for name in ("start", "end"):
        page = home(client, kind="trix", **{name: day})
        field = re.search(r'<div class="text-field date-field has-error">(.*?)</div>', page, re.S)
        assert field and f'name="{name}"' in field.group(1), (name, day)
        assert "Not a valid date value." in text_of(field.group(1))
        assert f'value="{day}"' in field.group(1)  # what was typed stays
        assert set(listed(page)) == {ids["G3"], ids["G4"]}  # the other filters still apply


def test_one_day_the_filter_cannot_read_leaves_the_other_day_unapplied_too(client, history):
    """From a day that is no day, To 2020 (before every game): the page says what is wrong
    and lists the games as if no day were given, not those to 2020 alone, which here
    would be none (tester 11: half a period, "No games match"); the players' and season's
    pages do the same."""
    everything = sorted(listed(home(client)))
    assert everything
    for days in ({"start": "2026-13-45", "end": "2020-01-01"}, {"start": "2099-01-01", "end": "2026-02-30"},
                 {"start": "2099-01-01", "end": "2020-01-01"}):  # (the last: To before From)
        page = home(client, **days)
        assert "Not a valid date value." in text_of(page) or "The last day comes before the first." in text_of(page)
        assert sorted(listed(page)) == everything, days
        # nor does the folded filter's line say a day is on (tester 30: "from Dec 7, 2026"
        # over games of every day)
        summary = text_of(re.search(r"<summary>.*?</summary>", page, re.S).group(0))
        assert summary == "Find past games", (days, summary)


def test_filter_by_finished_or_unfinished(client, history):
    ids, _players = history
    page = home(client, status="unfinished")
    assert listed(page) == [ids["G3"], ids["G2"]] and 'id="finished"' not in page
    page = home(client, status="finished", kind="trix")
    assert listed(page) == [ids["G4"]] and 'id="unfinished"' not in page


def test_a_bad_filter_is_explained_and_not_applied(client, history):
    ids, _players = history
    page = home(client, start="yesterday", kind="trix")
    assert "Not a valid date value." in text_of(page)
    assert set(listed(page)) == {ids["G3"], ids["G4"]}  # the kind still applies
    page = home(client, start="2025-03-04", end="2025-03-01")
    assert "The last day comes before the first." in text_of(page)
    assert home(client, kind="poker", player="x")  # unknown values: an error, not a crash


def test_filters_work_as_a_plain_get_form(client, history):
    page = home(client)
    form = re.search(r'<form method="get" action="/" class="filter-form">(.*?)</form>', page, re.S).group(1)
    for name in ("kind", "player", "status", "start", "end", "tz"):
        assert f'name="{name}"' in form
    assert 'type="date"' in form and 'type="submit"' in form


def test_dates_show_utc_without_javascript(client, history):
    # the UTC day in the page's language (CLDR's "yMMMd"), written on the server
    page = home(client)
    assert re.search(r'<time datetime="2025-03-01T20:00:00\+00:00" data-local-time="" data-alike="[^"]+">Mar 1, 2025 UTC</time>', page)


def test_home_without_games_offers_a_new_game_and_no_filters(client):
    page = home(client)
    assert "No games yet" in page and "Find past games" not in page


# ----------------------------------------------------------------- players


def test_players_list_everyone_with_games_played_and_won(client, history):
    _ids, players = history
    page = client.get("/players").get_data(as_text=True)
    rows = re.findall(r'<tr>\s*<th scope="row"><a href="/players/(\d+)"><bdi>([^<]+)</bdi></a></th>(.*?)</tr>', page, re.S)
    assert [(int(pid), name) for pid, name, _rest in rows] == [
        (players[n], n) for n in ("Anna", "Ben", "Carla", "Dan")]
    cells = {name: re.findall(r">(\d+)</a>|>\s*(0)\s*<", rest) for _pid, name, rest in rows}
    assert [c for pair in cells["Anna"] for c in pair if c] == ["4", "2"]  # played 4, won 2
    assert [c for pair in cells["Dan"] for c in pair if c][:2] == ["2", "0"]


def test_players_list_links_lead_to_the_games(client, history):
    ids, players = history
    page = client.get("/players").get_data(as_text=True)
    won = html.unescape(re.search(rf'href="([^"]*player={players["Anna"]}[^"]*figure=won[^"]*)"', page).group(1))
    assert set(listed(client.get(won).get_data(as_text=True))) == {ids["G1"], ids["G4"]}
    played = html.unescape(re.search(rf'data-figure="played" href="([^"]*player={players["Dan"]})"', page).group(1))
    assert set(listed(client.get(played).get_data(as_text=True))) == {ids["G3"], ids["G4"]}


def test_player_page_shows_the_hand_scored_figures(client, history):
    _ids, players = history
    page = text(client.get(f"/players/{players['Anna']}"))
    for expected in ("Games 4 Finished 2 Won 2 of 2 finished games",
                     "Points per deal +66.0 over 5 deals", "Best deal +200 Doublets ♦ · deal 3",
                     "Doublets made (points scored) 1 of 1 Doublets bid", "Points per Turnip bid +80.0",
                     "Bugs per deal 1.0", "Tricks per deal 3.8",
                     "Points per deal +33.7 over 26 deals",
                     "Led to the trick in which the doubler took back the K♥ 1",
                     "Queens doubled 1", "Doubled queens taken back 1", "Out first 4 of 5 deals"):
        assert expected in page, expected
    # head to head: Ben, 2 games, Anna ahead in 2, behind in 0, level 0
    assert "Ben 2 2 0 0" in page and "Dan 1 1 0 0" in page


def figure_links(page: str) -> dict[str, str]:
    return {key: html.unescape(href) for key, href in
            re.findall(r'data-figure="([^"]+)"\s+href="([^"]+)"', page)}


def test_every_figure_links_to_the_games_it_comes_from(client, db, history):
    _ids, players = history
    for name in ("Anna", "Ben", "Carla", "Dan"):
        pid = players[name]
        page = client.get(f"/players/{pid}").get_data(as_text=True)
        expected = stats.player_stats(
            stats.seat_games(store.list_games(db), store.player_seats(db)), pid, store.player_names(db))
        links = figure_links(page)
        shown = {f.key for f in expected.all_figures() if f.games and not (f.detail and not f.value)}
        assert shown <= set(links), shown - set(links)
        for key in shown:
            query = parse_qs(urlsplit(links[key]).query)
            assert query == {"player": [str(pid)], "figure": [key]}, key
            games_page = client.get(links[key]).get_data(as_text=True)
            assert set(listed(games_page)) == set(expected.figure(key).game_ids), (name, key)
            assert "The games behind" in text_of(games_page)


def test_figure_links_checked_by_hand(client, history):
    """A few links whose games are known from tests/history.py without the code."""
    ids, players = history
    anna = figure_links(client.get(f"/players/{players['Anna']}").get_data(as_text=True))
    for key, games in (("won", {"G1", "G4"}), ("trigami.doublets.made", {"G1"}),
                       ("trigami.bids.turnip", {"G1"}), ("trix.king.led", {"G3"}),
                       ("trix.trix.first", {"G4"}), (f"vs.{players['Dan']}.ahead", {"G4"}),
                       (f"vs.{players['Ben']}", {"G1", "G4"})):
        page = client.get(anna[key]).get_data(as_text=True)
        assert set(listed(page)) == {ids[g] for g in games}, key
    ben = figure_links(client.get(f"/players/{players['Ben']}").get_data(as_text=True))
    assert set(listed(client.get(ben["trix.king.caught"]).get_data(as_text=True))) == {ids["G3"]}
    assert set(listed(client.get(ben["trigami.every_trick"]).get_data(as_text=True))) == {ids["G2"]}


def test_best_and_worst_deals_link_to_the_deal_on_its_sheet(client, history):
    ids, players = history
    page = client.get(f"/players/{players['Anna']}").get_data(as_text=True)
    deals = re.findall(r'data-deal="[^"]+"\s+href="([^"]+)"', page)
    # Trigami best: G1 deal 3 (+200), worst: G2 deal 2 (0); Trix best: G4 deal 5, worst: G3 deal 2
    assert deals == [f"/games/{ids['G1']}#deal-3", f"/games/{ids['G2']}#deal-2",
                     f"/games/{ids['G4']}#deal-5", f"/games/{ids['G3']}#deal-2"]
    sheet = client.get(deals[0].split("#")[0]).get_data(as_text=True)
    assert 'id="deal-3"' in sheet


def test_unknown_player_or_figure_is_not_found(client, history):
    _ids, players = history
    assert client.get("/players/999").status_code == 404
    assert client.get("/", query_string={"player": players["Anna"], "figure": "nonsense"}).status_code == 404
    assert client.get("/", query_string={"figure": "won"}).status_code == 404


def test_player_without_finished_games(client, make_game, db):
    make_game(players=["Ida", "Jon", "Kai"])
    pid = next(p for p, n in store.player_names(db).items() if n == "Ida")
    page = text(client.get(f"/players/{pid}"))
    assert "Games 1 Finished 0 Won 0 of 0 finished games" in page
    assert "No finished games against anyone yet." in page


def test_nobody_yet(client):
    assert "Nobody has played yet." in text(client.get("/players"))


# ----------------------------------------------------------------- charts


def chart_svg(page: str) -> str:
    match = re.search(r"<svg[^>]*class=\"pygal-chart chart-svg\".*?</svg>", page, re.S)
    assert match, "no chart"
    return match.group(0)


def line_colours(svg: str) -> list[str]:
    """The stroke colour of each drawn line, in series order."""
    colours = dict(re.findall(r"\.color-(\d+)[^{]*\{stroke:([^;]+);", svg))
    root = ElementTree.fromstring(svg)
    out = []
    for group in root.iter(f"{SVG_NS}g"):
        classes = group.get("class", "").split()
        if "series" in classes and any(
                "line" in (p.get("class") or "").split() for p in group.iter(f"{SVG_NS}path")):
            out.append(colours[next(c for c in classes if c.startswith("color-")).removeprefix("color-")])
    return out


def external_urls(svg: str) -> list[str]:
    """Every http(s) address in the SVG other than the SVG and XLink namespaces."""
    namespaces = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    return [url for url in re.findall(r"https?://[^\s\"'<>)]+", svg) if url not in namespaces]


def test_score_sheet_draws_running_totals_one_line_per_player(client, history):
    ids, _players = history
    page = client.get(f"/games/{ids['G4']}").get_data(as_text=True)
    svg = chart_svg(page)
    assert line_colours(svg) == [f"var(--seat-{seat})" for seat in range(4)]
    # from 0 before the first deal to the 20th: 21 points a line
    root = ElementTree.fromstring(svg)
    dots = [c for c in root.iter(f"{SVG_NS}circle") if "dot" in (c.get("class") or "")]
    assert len(dots) == 4 * 21
    # the legend names every player with their total, in their seat's colour
    legend = text_of(re.search(r'<ul class="chart-legend">.*?</ul>', page, re.S).group(0))
    assert legend == "Anna 800 Ben 600 Carla 400 Dan −1800"


def test_the_y_axis_labels_reach_past_the_highest_and_the_lowest_total():
    """Tester 30: a Trix kingdom whose last deal took Anna to 150 was drawn with 80 as its
    top label, her point above it as if off the scale. Running totals from −270 to +150:
    the labels, evenly spaced, run from at most −270 to at least +150."""
    from scorekeeper import charts

    lines = [charts.Line("Anna", [0, 75, 75, 45, 0, 150], "var(--seat-0)", "", None),
             charts.Line("Carla", [0, -150, -190, -205, -270, -80], "var(--seat-2)", "", None)]
    svg = str(charts.line_chart(lines, [str(n) for n in range(6)], title="Running totals", description="…"))
    axis = ElementTree.fromstring(svg)
    labels = [int(t.text.replace("\u2212", "-")) for g in axis.iter(f"{SVG_NS}g")
              if "y" in (g.get("class") or "").split() and "axis" in (g.get("class") or "").split()
              for t in g.iter(f"{SVG_NS}text") if t.text]
    assert labels and min(labels) <= -270 and max(labels) >= 150
    steps = {b - a for a, b in itertools.pairwise(sorted(labels))}
    assert len(steps) == 1 and 0 in labels  # evenly spaced, through 0
    assert len(labels) <= 6  # legible on a phone


def test_trigami_chart_marks_the_target_apart_from_the_players(client, history):
    ids, _players = history
    svg = chart_svg(client.get(f"/games/{ids['G1']}").get_data(as_text=True))
    # three players, then the target 300 (Anna passed half of it): a thin muted line
    assert line_colours(svg) == ["var(--seat-0)", "var(--seat-1)", "var(--seat-2)", "var(--muted)"]


def test_chart_svg_has_no_external_resource_and_no_script(client, history):
    ids, players = history
    for url in (f"/games/{ids['G4']}", f"/games/{ids['G1']}", f"/players/{players['Anna']}"):
        page = client.get(url).get_data(as_text=True)
        for svg in re.findall(r"<svg[^>]*class=\"pygal-chart chart-svg\".*?</svg>", page, re.S):
            assert external_urls(svg) == []
            assert "<script" not in svg and "xml-stylesheet" not in svg and "<!--" not in svg
            assert not re.search(r'(?:href|src)="//', svg)
        # nor anywhere else on the page (the sheet shows its own address as text, for
        # another phone to open: it loads nothing)
        assert external_urls(re.sub(r'<p class="join-address">.*?</p>', "", page, flags=re.S)) == []


def test_chart_has_an_accessible_name_and_description(client, history):
    ids, _players = history
    svg = chart_svg(client.get(f"/games/{ids['G1']}").get_data(as_text=True))
    root = ElementTree.fromstring(svg)
    assert root.get("role") == "img"
    assert root.find(f"{SVG_NS}title").text == "Running totals"
    assert "now \u2068Anna\u2069 310, \u2068Ben\u2069 220, \u2068Carla\u2069 143" in root.find(f"{SVG_NS}desc").text


def test_no_chart_before_the_first_deal(client, make_game):
    gid = make_game()
    assert "pygal-chart" not in client.get(f"/games/{gid}").get_data(as_text=True)


def test_player_page_charts_results_over_time_linked_to_games(client, make_game, history):
    ids, players = history
    # a second finished Trigami game for Anna (to 100: she takes every trick, 100): Ben wins
    # nothing, and the chart has two points
    second = make_game(**{**G1, "options": {"target": 100}, "deals": [
        {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}]})
    page = client.get(f"/players/{players['Anna']}").get_data(as_text=True)
    svg = chart_svg(page)
    assert line_colours(svg) == ["var(--muted)", "var(--accent)"]  # the others' best, Anna
    links = re.findall(r'<a [^>]*xlink:href="([^"]+)"', svg)
    # Anna's line and the others' best each link their dots to the games, oldest first
    assert links == [f"/games/{ids['G1']}", f"/games/{second}"] * 2
    assert external_urls(svg) == []
    # one finished Trix game only: no line to draw yet
    assert len(re.findall(r'class="pygal-chart chart-svg"', page)) == 1


def test_a_long_record_charts_its_latest_hundred_games(client, db):
    from scorekeeper import store, summaries
    from scorekeeper.gamefile import from_dict
    from tests.conftest import game_file

    slam = {"bids": [{"kind": "plain", "suit": "S"}] * 3, "tricks": [13, 0, 0], "bugs": [10, 0, 0]}
    ids = [store.create_game(db, from_dict(game_file(options={"target": 100}, deals=[slam])))  # Anna 100: won
           for _n in range(103)]
    anna = next(r.player_id for r in summaries.records(db, groups.only_group(db).id) if r.name == "Anna")
    page = client.get(f"/players/{anna}").get_data(as_text=True)
    svg = chart_svg(page)
    links = re.findall(r'<a [^>]*xlink:href="/games/([^"]+)"', svg)
    assert links == ids[3:] * 2  # the latest 100, oldest first, on both lines
    assert "final totals in 103 finished games" in text_of(page) and "The chart shows the latest 100." in text_of(page)


def text_of(page: str) -> str:
    # a name's <bdi> is inline: "<bdi>Anna</bdi>'s total" reads "Anna's total"
    body = re.sub(r"</?bdi>", "", re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


@pytest.mark.parametrize("partnership", ["sum", "worst-loses"])
def test_an_unfinished_partners_game_names_the_side_ahead_not_level(client, make_game, partnership):
    """Tester 1 (stop 31): a partners' Trix card on the games list said "level at the top"
    while one side was clearly ahead. After one kingdom (tests/history.py: Anna +200,
    Ben +150, Carla +100, Dan −450) Anna & Carla lead by either reading (SCORING.md §2.5:
    the team total 300 against −300; the team's worst 100 against −450)."""
    from tests.history import KINGDOM

    make_game(kind="trix", options={"partnership": partnership}, deals=KINGDOM)
    card = text(client.get("/"))
    assert "Anna & Carla ahead" in card and "level at the top" not in card


def test_an_unfinished_game_level_at_the_top_says_so_and_one_ahead_is_named(client, make_game):
    from tests.history import KINGDOM

    make_game(kind="trix", deals=KINGDOM)
    assert "Anna ahead" in text(client.get("/"))
    # both sides level: the K♥ to Anna (−75), then the tricks 4, 5, 0, 4 (−15 each):
    # Anna & Carla −75 −60 = −135, Ben & Dan −75 −60 = −135: both sides at the top
    level = [{"contracts": ["king"], "king": {"taker": 0}}, {"contracts": ["tricks"], "tricks": [4, 5, 0, 4]}]
    make_game(kind="trix", players=["Eva", "Finn", "Gus", "Hal"], options={"partnership": "sum"}, deals=level)
    assert "level at the top" in text(client.get("/"))
