"""Save the HTML of every page with a form, for comparing before and after a change that
must not change them (issue 17: the forms moved into scorekeeper/forms/):

    .venv/bin/python tools/form_pages.py /tmp/before   # on the old code
    .venv/bin/python tools/form_pages.py /tmp/after    # on the new code
    diff -r /tmp/before /tmp/after

Each page (new game of each kind, new deal of each kind and contract, edit deal, edit
game, what-if, import, paper sheet, calculator, group page, passcode, codes; some sent
with mistakes, some in German) is one file: its status, then its HTML, with what differs
from run to run (form tokens, nonces, ids of games and links, QR codes, times) replaced.
"""

import pathlib
import re
import sys
import tempfile

sys.path.insert(0, ".")
import tests.conftest  # noqa: F401 - its test client joins the group, like a phone
from scorekeeper import create_app, groups, store
from scorekeeper.db import connect
from scorekeeper.gamefile import from_dict
from tests.conftest import WORKED_TRIGAMI_DEAL, game_file

out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
tmp = tempfile.mkdtemp()
app = create_app({"TESTING": True, "SECRET_KEY": "test", "DATABASE": tmp + "/t.sqlite3",
                  "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False})
db = connect(app.config["DATABASE"])
group = groups.only_group(db) or groups.all_groups(db)[0]
games = {}
games["trigami"] = store.create_game(db, from_dict(game_file("trigami", deals=[WORKED_TRIGAMI_DEAL])))
games["bugami3"] = store.create_game(db, from_dict(game_file("bugami3", options={"target": 300})))
games["trix"] = store.create_game(db, from_dict(game_file("trix", options={"doubling": True}, deals=[
    {"contracts": ["king"], "king": {"taker": 1, "doubled_by": 2}}])))
games["trixc"] = store.create_game(db, from_dict(game_file("trix", options={"complex": True, "doubling": False})))
games["trixn"] = store.create_game(db, from_dict(game_file("trix", options={"doubling": False, "partnership": "sum"})))
client = app.test_client()

def norm(html):
    html = re.sub(r'(name="(?:nonce|csrf_token|link_nonce)"[^>]*value=")[^"]*"', r'\1X"', html)
    html = re.sub(r'(value=")[^"]*("[^>]*name="(?:nonce|csrf_token)")', r'\1X\2', html)
    html = re.sub(r'(id="(?:nonce|csrf_token)"[^>]*value=")[^"]*"', r'\1X"', html)
    html = html.replace(group.token, "GROUPTOKEN")
    for k, v in games.items():
        html = html.replace(v, "GAME-" + k)
    html = re.sub(r'\?v=[0-9a-f]+', '?v=V', html)
    html = re.sub(r'<path d="M4 4[^"]*"', "<path QR", html)
    html = re.sub(r"datetime=\"[^\"]*\"", "datetime=T", html)
    return html

def save(name, resp):
    (out / (name + ".html")).write_text(f"{resp.status_code}\n" + norm(resp.get_data(as_text=True)))

for kind in ("trigami", "bugami3", "trix"):
    save(f"newgame-{kind}", client.get(f"/games/new?kind={kind}"))
    save(f"newgame-{kind}-post", client.post(f"/games/new?kind={kind}", data={"player_0": "A", "player_1": "", "target": "x", "fixed_order": "y", "order_1": "king", "order_2": "king"}))
save("newgame-choose", client.get("/games/new"))
for key, gid in games.items():
    save(f"newdeal-{key}", client.get(f"/games/{gid}/deals/new"))
    save(f"newdeal-{key}-post", client.post(f"/games/{gid}/deals/new", data={"tricks_0": "5", "tricks_1": "x", "bugs_2": "-1", "contracts": "king", "king_taker": "7", "diamonds_0": "3", "diamonds_0_chip": "4", "diamonds_0_was": "1", "trix_place_1": "0", "trix_place_2": "0"}))
    save(f"editgame-{key}", client.get(f"/games/{gid}/edit"))
    save(f"editgame-{key}-post", client.post(f"/games/{gid}/edit", data={"player_0": "", "target": "1"}))
    save(f"whatif-{key}", client.get(f"/games/{gid}/what-if?target=40&values=swapped"))
    save(f"print-{key}", client.get(f"/games/{gid}/print"))
    for c in ("king", "queens", "diamonds", "tricks", "trix"):
        save(f"newdeal-{key}-{c}", client.get(f"/games/{gid}/deals/new?contract={c}"))
for key in ("trigami", "trix"):
    gid = games[key]
    g = store.get_game(db, gid)
    did = g.deals[0].id
    save(f"editdeal-{key}", client.get(f"/games/{gid}/deals/{did}/edit"))
    save(f"editdeal-{key}-post", client.post(f"/games/{gid}/deals/{did}/edit", data={"tricks_0": "99", "king_taker": ""}))
    save(f"deletedeal-{key}", client.get(f"/games/{gid}/deals/{did}/delete"))
save("import", client.get("/games/import"))
save("import-post", client.post("/games/import", data={}))
for kind in ("trigami", "bugami3", "trix"):
    save(f"paper-{kind}", client.get(f"/check?kind={kind}"))
    save(f"paper-{kind}-sent", client.get(f"/check?kind={kind}&sent=1&complex=1&rows=2&player_0=A&row_0_contract=king&row_0_points_0=x"))
save("calculator", client.get("/calculator"))
save("calculator-trix", client.get("/calculator?kind=trix"))
save("calculator-trix-calc", client.get("/calculator?kind=trix&calc=1&settings=1&contracts=king&king_taker=1"))
save("home", client.get("/?kind=trix&start=2026-01-02&end=2025-01-01"))
save("settings", client.get("/group"))
save("settings-rename", client.post("/group", data={"action": "rename", "rename-name": ""}))
save("settings-passcode", client.post("/group", data={"action": "passcode", "pass-passcode": "123"}))
save("settings-passcode2", client.post("/group", data={"action": "passcode", "pass-passcode": "111111"}))
save("settings-newlink", client.post("/group", data={"action": "new_link"}))
save("gamelink", client.get(f"/games/{games['trix']}/read-only-link"))
save("letin", client.get("/group/let-in"))
other = app.test_client(join=False)
save("welcome", other.get("/welcome"))
save("welcome-post", other.post("/groups/new", data={"name": "\u200b"}))
save("code", other.get("/code?c=ABCD"))
save("code-post", other.post("/code", data={"code": "nope"}))
de = app.test_client()
H = {"Accept-Language": "de"}
for key, gid in games.items():
    save(f"de-newdeal-{key}", de.get(f"/games/{gid}/deals/new", headers=H))
    save(f"de-newdeal-{key}-post", de.post(f"/games/{gid}/deals/new", data={"tricks_0": "x", "contracts": "king", "diamonds_0": "-3"}, headers=H))
for kind in ("trigami", "trix"):
    save(f"de-newgame-{kind}", de.get(f"/games/new?kind={kind}", headers=H))
save("de-settings", de.get("/group", headers=H))
client.post("/group", data={"action": "passcode", "pass-passcode": "river stone tide"})
pc = app.test_client()
save("passcode", pc.get("/passcode"))
save("passcode-post", pc.post("/passcode", data={"passcode": "wrong"}))
save("passcode-empty", pc.post("/passcode", data={}))
print(len(list(out.iterdir())), "pages")
