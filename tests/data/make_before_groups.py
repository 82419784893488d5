"""Made with Scorekeeper at 091cf9c (before groups): tests/data/before-groups.sqlite3 and
the scores that version showed (before-groups.json)."""
import json
import os
import sys

sys.path.insert(0, "/tmp/oldsk")
from scorekeeper import store
from scorekeeper.db import connect, migrate
from scorekeeper.gamefile import from_dict

path = sys.argv[1]
if os.path.exists(path):
    os.remove(path)
db = connect(path)
migrate(db)
W = {"turnip": "D", "bids": [{"kind": "turnip"}, {"kind": "doublets", "suit": "S"}, {"kind": "plain", "suit": "H"}],
     "tricks": [4, 5, 4], "bugs": [1, 0, 3]}
P = {"bids": [{"kind": "plain", "suit": "S"}, {"kind": "plain", "suit": "H"}, {"kind": "plain", "suit": "C"}],
     "tricks": [5, 4, 4], "bugs": [2, 1, 0]}
games = []
games.append(store.create_game(db, from_dict({"format": 1, "game": "trigami", "players": ["Anna", "Ben", "Carla"],
    "first_dealer": 0, "options": {}, "deals": [W, P, W]})))
games.append(store.create_game(db, from_dict({"format": 1, "game": "trigami", "players": ["Ben", "Carla", "Dora"],
    "first_dealer": 1, "options": {"target": 100}, "deals": [P, P]})))
trix = [{"contracts": ["king"], "king": {"taker": 2, "doubled_by": 1, "leader": None}},
        {"contracts": ["diamonds"], "diamonds": [3, 4, 3, 3]},
        {"contracts": ["tricks"], "tricks": [3, 4, 3, 3]},
        {"contracts": ["trix"], "trix": [2, 0, 3, 1]}]
games.append(store.create_game(db, from_dict({"format": 1, "game": "trix", "players": ["Anna", "Ben", "Carla", "Émile"],
    "first_dealer": 0, "options": {}, "deals": trix})))
g = store.get_game(db, games[0])
store.delete_deal(db, games[0], g.deals[1].id)
store.update_game(db, games[1], players=["Ben", "Carla", "Dorothea"])
scores = {}
for gid in games:
    game = store.get_game(db, gid)
    scores[gid] = {"players": list(game.players), "totals": list(game.game_file().score().totals),
                   "deals": len(game.deals)}
db.conn.close()
with open(sys.argv[2], "w") as out:
    json.dump(scores, out, indent=1, ensure_ascii=False)
print(scores)
