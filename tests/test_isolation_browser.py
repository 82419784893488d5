"""Mixed Arabic and Latin names as Chromium lays them out at 390×844 (issue 10).

The saved message and a history line are measured, not only read: each name and signed
number must stand left of the next one in the order the sentence says them (the page is
left to right). Without isolation "Deal 5 saved: سارة +150, محمد +50, …" is drawn as
"… ,50+ محمد ,150+ سارة". Screenshots: screenshots/isolation-*.png — open them and look.
"""

from __future__ import annotations

from itertools import pairwise

import pytest

from tests.browser_support import new_page, serve, shot, store_game
from tests.conftest import game_file
from tests.test_gamefile import TRIX_KINGDOM

pytestmark = pytest.mark.browser

PLAYERS = ["سارة", "محمد", "Anna", "Bob"]

#: The [top, left] of each of ``parts``, found in that order in the text of the first
#: element matching the selector (a part is looked for after the one before it).
LEFT_EDGES = """([selector, parts]) => {
  const element = document.querySelector(selector);
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const nodes = [];
  let text = "";
  while (walker.nextNode()) { nodes.push([walker.currentNode, text.length]); text += walker.currentNode.data; }
  const edges = [];
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at < 0) return null;
    from = at + part.length;
    const [node, start] = nodes.filter(([, s]) => s <= at).pop();
    const range = document.createRange();
    range.setStart(node, at - start);
    range.setEnd(node, Math.min(node.data.length, at - start + part.length));
    const rect = range.getBoundingClientRect();
    edges.push([rect.top, rect.left]);
  }
  return edges;
}"""


def reads_in_order(page, selector: str, parts: list[str]) -> bool:
    """Whether ``parts`` stand in reading order: each right of the one before on its line,
    or on a later line (a long message wraps on a phone)."""
    edges = page.evaluate(LEFT_EDGES, [selector, parts])
    assert edges is not None, f"{parts} not all in {selector}"
    return all(b_top > a_top + 2 or (abs(b_top - a_top) <= 2 and b_left > a_left)
               for (a_top, a_left), (b_top, b_left) in pairwise(edges))


def test_mixed_names_keep_their_order_on_the_sheet_and_in_the_history(browser, tmp_path):
    path = tmp_path / "isolation.sqlite3"
    with serve(path, WTF_CSRF_ENABLED=False) as url:
        game_id = store_game(path, game_file("trix", players=PLAYERS, deals=TRIX_KINGDOM[:4]))
        page = new_page(browser)
        try:
            # the kingdom's last contract, Trix, saved from this phone: Anna out first (+200),
            # سارة second (+150), Bob third (+100), محمد last (+50) (SCORING.md §2.1)
            answer = page.request.post(f"{url}/games/{game_id}/deals/new", max_redirects=0, form={
                "nonce": "trix-1", "contracts": "trix",
                "trix_place_1": "2", "trix_place_2": "0", "trix_place_3": "3", "trix_place_4": "1"})
            assert answer.status == 302
            page.goto(f"{url}/games/{game_id}")
            flash = page.locator(".flash-saved").inner_text()
            assert flash == "Deal 5 saved: \u2068سارة\u2069 +150, \u2068محمد\u2069 +50, \u2068Anna\u2069 +200, \u2068Bob\u2069 +100."
            assert reads_in_order(page, ".flash-saved", ["Deal 5", "سارة", "+150", "محمد", "+50", "Anna", "+200",
                                                         "Bob", "+100"])
            assert reads_in_order(page, ".sheet thead", ["سارة", "محمد", "Anna", "Bob"])
            shot(page, "isolation-sheet")
            page.goto(f"{url}/games/{game_id}/history")
            assert reads_in_order(page, ".history .change-details", ["سارة", "+150", "محمد", "+50", "Anna", "+200"])
            shot(page, "isolation-history")
        finally:
            page.context.close()
