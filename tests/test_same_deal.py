"""The same deal from two phones is one deal (issue 18, part 8).

Two phones at the table open "Add deal" on the same game and both tap in the deal just
played. The second to save is told "Already saved, once — the other phone had entered this very
deal" and nothing is added; only when the entries differ is the player asked, and then
the page sets the other phone's deal beside this phone's, says where they differ, and
offers "Discard mine" as plainly as "Add mine as deal N+1". The check runs inside the
write's transaction, so two phones saving the same deal at the same instant store one.

Points are SCORING.md §1.2's, worked by hand: the worked example gives Anna +80, Ben +200,
Carla +13; PLAIN (plain bids ♠ ♥ ♣, tricks 5 4 4, bugs 0 2 4) gives Anna 20 × 5 clean tricks
= 100, Ben ⌊40 / 2⌋ = 20, Carla ⌊40 / 4⌋ = 10; with Carla's bugs 2 instead, Carla
⌊40 / 2⌋ = 20.
"""

from __future__ import annotations

import re
from functools import partial
from html import unescape

from scorekeeper import actions, store
from tests.conftest import WORKED_TRIGAMI_DEAL
from tests.race_support import assert_race_invariants, at_once, statuses, with_deal
from tests.test_conflicts import hidden, open_form
from tests.test_web import WORKED_FORM, text, trigami_form

ROUNDS = 5
PLAIN = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
         "tricks": [5, 4, 4], "bugs": [0, 2, 4]}
CARLA_TWO_BUGS = {**PLAIN, "bugs": [0, 2, 2]}
PLAIN_FORM = trigami_form(["S", "H", "C"], ["5", "4", "4"], ["0", "2", "4"], nonce="phone B")
CARLA_TWO_BUGS_FORM = trigami_form(["S", "H", "C"], ["5", "4", "4"], ["0", "2", "2"], nonce="phone B")
SAID = "Already saved, once — the other phone had entered this very deal"


def plain(page: str) -> str:
    """A page's text without the isolation around names: FSI … PDI, or a <bdi> element
    (the comparison's names, which may break anywhere)."""
    return page.replace("\u2068", "").replace("\u2069", "").replace("<bdi>", "").replace("</bdi>", "")


def compare_rows(table: str) -> dict[str, list[str]]:
    """The side-by-side table's rows: label → [theirs, mine], as the player reads them."""
    def words(cell: str) -> str:
        return unescape(re.sub(r"<[^>]+>", "", cell)).strip()
    return {words(m.group(1)): [words(td) for td in re.findall(r"<td>(.*?)</td>", m.group(2), re.S)]
            for m in re.finditer(r"<th scope=\"row\">(.*?)</th>(.*?)</tr>", table, re.S)}


def _add(db, game_id: str, entry, *, nonce: str, seen: int, mine=()):
    game = store.get_game(db, game_id)
    return actions.add_deal(db, game, entry, nonce=nonce, seen=seen, mine=mine)


# ------------------------------------------------------------------------- actions


def test_the_same_entries_from_another_phone_are_one_deal_already_entered(db, make_game):
    game_id = make_game()
    seen = store.get_game(db, game_id).version  # both phones open "Add deal 1"
    first = _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="phone A", seen=seen)
    second = _add(db, game_id, dict(WORKED_TRIGAMI_DEAL), nonce="phone B", seen=seen)
    assert isinstance(first, actions.Saved)
    assert isinstance(second, actions.SameDeal)
    assert second.deal_id == first.deal_id and second.number == 1
    game = store.get_game(db, game_id)
    assert [d.entry for d in game.deals] == [WORKED_TRIGAMI_DEAL]
    assert [c.action for c in store.changes(db, game_id)].count("deal_added") == 1  # nothing else written


def test_entries_that_say_the_same_in_another_order_are_the_same_deal(db, make_game):
    game_id = make_game()
    seen = store.get_game(db, game_id).version
    _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="phone A", seen=seen)
    reordered = {key: WORKED_TRIGAMI_DEAL[key] for key in reversed(list(WORKED_TRIGAMI_DEAL))}
    assert isinstance(_add(db, game_id, reordered, nonce="phone B", seen=seen), actions.SameDeal)
    assert len(store.get_game(db, game_id).deals) == 1


def test_different_entries_are_stale_with_what_arrived_and_nothing_written(db, make_game):
    game_id = make_game()
    seen = store.get_game(db, game_id).version
    _add(db, game_id, PLAIN, nonce="phone A", seen=seen)
    stale = _add(db, game_id, CARLA_TWO_BUGS, nonce="phone B", seen=seen)  # one count differs
    assert isinstance(stale, actions.Stale)
    assert [(c.action, c.after) for c in stale.arrived] == [("deal_added", PLAIN)]
    assert [d.entry for d in store.get_game(db, game_id).deals] == [PLAIN]


def test_a_phones_own_earlier_deal_with_the_same_entries_is_a_second_deal(db, make_game):
    # Two deals alike, both entered on this phone without connection and sent from its
    # outbox: its own first deal is no other phone's, so the second is added after it
    game_id = make_game()
    seen = store.get_game(db, game_id).version
    _add(db, game_id, PLAIN, nonce="outbox 1", seen=seen)
    saved = _add(db, game_id, PLAIN, nonce="outbox 2", seen=seen, mine=["outbox 1"])
    assert isinstance(saved, actions.Saved) and saved.number == 2
    assert len(store.get_game(db, game_id).deals) == 2


def test_a_deal_entered_on_a_form_opened_after_it_is_a_deal_of_its_own(db, make_game):
    # The same entries twice in a row, the second form opened after the first deal was
    # saved: two deals were played alike, nothing was entered twice
    game_id = make_game()
    _add(db, game_id, PLAIN, nonce="deal 1", seen=store.get_game(db, game_id).version)
    saved = _add(db, game_id, PLAIN, nonce="deal 2", seen=store.get_game(db, game_id).version)
    assert isinstance(saved, actions.Saved) and saved.number == 2


def test_the_other_phones_deal_deleted_meanwhile_is_no_twin(db, make_game):
    game_id = make_game()
    seen = store.get_game(db, game_id).version
    first = _add(db, game_id, PLAIN, nonce="phone A", seen=seen)
    store.delete_deal(db, game_id, first.deal_id)  # taken back on phone A
    assert isinstance(_add(db, game_id, PLAIN, nonce="phone B", seen=seen), actions.Stale)
    assert store.get_game(db, game_id).deals == ()


def test_the_same_deal_among_several_added_meanwhile_is_found(db, make_game):
    game_id = make_game()
    seen = store.get_game(db, game_id).version
    _add(db, game_id, WORKED_TRIGAMI_DEAL, nonce="phone A 1", seen=seen)
    _add(db, game_id, PLAIN, nonce="phone A 2", seen=store.get_game(db, game_id).version)
    same = _add(db, game_id, PLAIN, nonce="phone B", seen=seen)
    assert isinstance(same, actions.SameDeal) and same.number == 2
    assert len(store.get_game(db, game_id).deals) == 2


# ------------------------------------------------------------------------- the pages


def test_the_second_phone_is_told_saved_already_on_the_sheet_not_asked(client, make_game, db):
    game_id = make_game()
    seen = open_form(client, game_id)  # phone B opens "Add deal"
    # phone A saves the worked example first
    assert client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "phone A",
                                                            "seen": open_form(client, game_id)}).status_code == 302
    answer = client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "phone B", "seen": seen})
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/games/{game_id}#deal-1")
    sheet = plain(text(client.get(f"/games/{game_id}")))
    assert f"{SAID} (deal 1: Anna +80, Ben +200, Carla +13)." in sheet
    assert "Nothing of yours was saved yet" not in sheet
    assert len(store.get_game(db, game_id).deals) == 1


def test_the_outboxs_send_of_the_same_deal_hears_it_in_a_page_of_its_own(client, make_game, db):
    game_id = make_game()
    seen = open_form(client, game_id)
    client.post(f"/games/{game_id}/deals/new", data={**WORKED_FORM, "nonce": "phone A", "seen": seen})
    answer = client.post(f"/games/{game_id}/deals/new",
                         data={**WORKED_FORM, "nonce": "outbox", "seen": seen, "mine": "", "outbox": "1"})
    assert answer.status_code == 200  # the outbox follows no redirect: the words come in the answer
    said = re.search(r"data-same-deal data-nonce=\"([^\"]*)\">([^<]*)<", answer.get_data(as_text=True))
    assert plain(said.group(2)).startswith(SAID)
    # the other phone's token, which the outbox counts as its own from now on: the next
    # deal waiting on this phone, made after this one, is no conflict
    assert said.group(1) == "phone A"
    after = client.post(f"/games/{game_id}/deals/new",
                        data={**PLAIN_FORM, "nonce": "outbox 2", "seen": seen, "mine": "outbox,phone A", "outbox": "1"})
    assert after.status_code == 302
    assert [d.entry["tricks"] for d in store.get_game(db, game_id).deals] == [[4, 5, 4], [5, 4, 4]]
    assert SAID not in plain(text(client.get(f"/games/{game_id}")))  # said once, by the outbox


def theirs_then_mine(client, game_id: str, theirs: dict, mine: dict):
    """Both phones open deal 1's form; phone A saves ``theirs`` first (302), then this
    phone saves ``mine``, made for the same deal: its answer, asked about (409, asserted)."""
    seen = open_form(client, game_id)
    assert client.post(f"/games/{game_id}/deals/new", data={**theirs, "nonce": "phone A", "seen": seen}
                       ).status_code == 302
    asked = client.post(f"/games/{game_id}/deals/new", data={**mine, "seen": seen})
    assert asked.status_code == 409
    return asked


def test_a_deal_different_in_many_entries_is_said_to_differ_in_several_marked_below(client, make_game, db):
    """Tester 34: "they differ in Eva's bid, Eva's tricks, Eva's bugs, Frank's bid, …":
    past three fields the sentence says they differ in several entries and the table
    below marks each; every field that differs is still marked there."""
    game_id = make_game()
    asked = theirs_then_mine(client, game_id, WORKED_FORM, PLAIN_FORM)
    page = plain(text(asked))
    assert ("Deal 1 from the other phone and yours are not the same: they differ in several entries, "
            "marked below.") in page
    table = re.search(r"<table class=\"compare\".*?</table>", plain(asked.get_data(as_text=True)), re.S).group(0)
    # Anna's and Ben's bids, Anna's and Ben's tricks, Anna's, Ben's and Carla's bugs, the turnip
    assert table.count('class="differs"') >= 7


def test_a_different_deal_is_shown_beside_theirs_and_where_they_differ(client, make_game, db):
    game_id = make_game()
    asked = theirs_then_mine(client, game_id, PLAIN_FORM, CARLA_TWO_BUGS_FORM)
    page = plain(text(asked))
    assert "Deal 1 from the other phone and yours are not the same: they differ in Carla's bugs." in page
    html = plain(asked.get_data(as_text=True))
    table = re.search(r"<table class=\"compare\".*?</table>", html, re.S).group(0)
    rows = compare_rows(table)
    assert "Theirs: deal 1" in table and "Mine" in table
    assert rows["Carla's bugs"] == ["4", "2"]  # the field that differs, both ways
    assert rows["Anna's bid"] == ["♠", "♠"] and rows["Ben's tricks"] == ["4", "4"]
    assert rows["Last trick won by"] == ["not noted", "not noted"]
    # the points: theirs as stored (100, 20, 10), mine in its place (100, 20, 20)
    assert rows["Anna"] == ["+100", "+100"] and rows["Ben"] == ["+20", "+20"] and rows["Carla"] == ["+10", "+20"]
    assert re.findall(r"<tr class=\"differs\">", table) and len(re.findall(r"<mark>", table)) == 2
    # Discard first, then Add: the same button class, neither the green main one
    discard = html.index("Discard mine")
    add = html.index("Add mine as deal 2")
    assert discard < add
    bar = html[html.index('<div class="action-bar">'):]
    assert re.search(r'<a class="button choice"[^>]*data-discard-draft>Discard mine', bar)
    assert re.search(r'<button class="button choice" type="submit">Add mine as deal 2', bar)
    assert "primary" not in bar
    assert [d.entry for d in store.get_game(db, game_id).deals] == [PLAIN]
    # "Add mine as deal 2" saves it knowingly, after the other
    added = client.post(f"/games/{game_id}/deals/new", data={**CARLA_TWO_BUGS_FORM, "seen": hidden(html, "seen")})
    assert added.status_code == 302
    assert [d.entry["bugs"] for d in store.get_game(db, game_id).deals] == [[0, 2, 4], [0, 2, 2]]


def test_trix_contracts_that_differ_are_named_field_by_field(client, make_game, db):
    # SCORING.md §2.1: the King of Hearts −75 to its taker; Dan took it on the other
    # phone, Carla on this one
    game_id = make_game(kind="trix")
    seen = open_form(client, game_id)
    king = {"nonce": "phone A", "contracts": "king", "king_taker": "3"}
    assert client.post(f"/games/{game_id}/deals/new", data={**king, "seen": seen}).status_code == 302
    asked = client.post(f"/games/{game_id}/deals/new", data={**king, "nonce": "phone B", "king_taker": "2",
                                                              "seen": seen})
    assert asked.status_code == 409
    page = plain(text(asked))
    # the field named as a sentence says it (tester 55: "they differ in K♥ taken by.")
    assert "Deal 1 from the other phone and yours are not the same: they differ in who took the K♥." in page
    assert "K♥ taken by Dan Carla" in page  # the table's row keeps its label
    html = plain(asked.get_data(as_text=True))
    assert re.search(r"<th scope=\"row\">Contract</th>\s*<td>King of Hearts</td><td>King of Hearts</td>", html)
    assert re.search(r"<th scope=\"row\">Dan</th><td>−75</td><td>0</td>", html)
    assert re.search(r"<th scope=\"row\">Carla</th><td>0</td><td>−75</td>", html)
    # the same King to the same player from the second phone: one deal
    same = client.post(f"/games/{game_id}/deals/new", data={**king, "nonce": "phone C", "seen": seen})
    assert same.status_code == 302
    assert len(store.get_game(db, game_id).deals) == 1


# ------------------------------------------------------------------------- at the same instant


def _two_phones(server, game_id):
    path = f"/games/{game_id}/deals/new"
    phones = [server.phone(), server.phone()]
    return path, phones, [p.form(path) for p in phones]  # both opened before either saves


def test_two_phones_saving_the_same_deal_at_once_store_one_and_both_hear_saved(race_server):
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game()
        path, phones, forms = _two_phones(race_server, game_id)
        sent = [with_deal(f, "trigami", WORKED_TRIGAMI_DEAL) for f in forms]
        assert sent[0]["nonce"] != sent[1]["nonce"]  # two phones, two forms
        replies = at_once(*[partial(p.post, path, s) for p, s in zip(phones, sent, strict=True)])
        assert all(r.redirects_to(f"/games/{game_id}") for r in replies), f"{what}{statuses(replies)}"
        with race_server.db() as db:
            deals = store.get_game(db, game_id).deals
        assert [d.entry for d in deals] == [WORKED_TRIGAMI_DEAL], f"{what}{len(deals)} deals stored"
        # one phone hears "Deal 1 saved", the other that it was entered already: no conflict page
        sheets = sorted(plain(p.get(f"/games/{game_id}").text) for p in phones)
        assert sum("Deal 1 saved: Anna +80" in s for s in sheets) == 1, what
        assert sum(SAID in s for s in sheets) == 1, what
        assert_race_invariants(race_server, replies, what)


def test_two_phones_saving_different_deals_at_once_store_one_and_the_other_sees_both(race_server):
    for round_ in range(1, ROUNDS + 1):
        what = f"round {round_}: "
        game_id = race_server.store_game()
        path, phones, forms = _two_phones(race_server, game_id)
        entries = [PLAIN, CARLA_TWO_BUGS]
        sent = [with_deal(f, "trigami", e) for f, e in zip(forms, entries, strict=True)]
        replies = at_once(*[partial(p.post, path, s) for p, s in zip(phones, sent, strict=True)])
        saved = [i for i, r in enumerate(replies) if r.redirects_to(f"/games/{game_id}")]
        asked = [i for i, r in enumerate(replies) if r.status == 409]
        assert len(saved) == 1 and len(asked) == 1, f"{what}{statuses(replies)}"
        with race_server.db() as db:
            assert [d.entry for d in store.get_game(db, game_id).deals] == [entries[saved[0]]], what
        page = plain(replies[asked[0]].text)
        assert "Deal 1 from the other phone and yours are not the same: they differ in Carla's bugs." in page, what
        assert "Theirs: deal 1" in page and "Discard mine" in page and "Add mine as deal 2" in page, what
        assert_race_invariants(race_server, replies, what)
