"""The game's and the cards' names as the page's language says them: kinds of game,
Trix contracts, suits by name, the places of Trix's finishing order. Lazy strings
(translated when shown), kept below the web layer: the forms, the templates and the change
history (history.py) all name contracts the same way.
"""

from __future__ import annotations

from flask_babel import lazy_pgettext as _lp
from flask_babel.speaklater import LazyString

from .i18n import lazy_gettext as _l
from .rules.trix import card_label

# A suit by name (what a screen reader says for its symbol), apart from the same words
# counted ("How many diamonds …?": pgettext "counted")
SUIT_NAMES = {"S": _lp("suit", "spades"), "H": _lp("suit", "hearts"), "D": _lp("suit", "diamonds"),
              "C": _lp("suit", "clubs")}
# The contracts by name, apart from the game "Trix" (KIND_NAMES) and the counts "Diamonds",
# "Tricks" (count fields): Arabic names the contract التركس, the game تركس
CONTRACT_NAMES = {
    "king": _lp("contract", "King of Hearts"),
    "queens": _lp("contract", "Queens"),
    "diamonds": _lp("contract", "Diamonds"),
    "tricks": _lp("contract", "Tricks"),
    "trix": _lp("contract", "Trix"),
}
CONTRACTS = tuple(CONTRACT_NAMES)
# The K♥ as the reader's players write it, for labels made before any request
KING_LABEL = LazyString(card_label, "K", "H")
# The Trix finishing order's places, as a sentence names them ("Anna is tapped as both out first and second")
PLACES = (_l("out first"), _l("second"), _l("third"), _l("last"))
KIND_NAMES = {"trigami": _l("Trigami"), "bugami3": _l("Plain Bugami for three"), "trix": _l("Trix")}
