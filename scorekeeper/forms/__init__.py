"""Every form of the app, one module a job (WTForms, through Flask-WTF):

- :mod:`.fields`: what the forms are built from (count fields, choices, messages);
- :mod:`.deals`: the deal forms at the table (Trigami and plain Bugami, Trix);
- :mod:`.games`: a new game, its players and settings, filters, what-if, calculator;
- :mod:`.transfer`: the game-file upload and the paper sheet check;
- :mod:`.groups`: start a group, its name and passcode, a one-time code.

The names below are the ones the views and templates use as ``forms.X``.
"""

from __future__ import annotations

from ..names import CONTRACT_NAMES, CONTRACTS, KIND_NAMES, KING_LABEL, PLACES, SUIT_NAMES
from .deals import (
    DealForm,
    TrigamiDealForm,
    TrixDealForm,
    attach_error,
    per_seat,
    trigami_form,
    trix_form,
)
from .fields import (
    MAX_COUNT_INPUT,
    TARGET_RANGE,
    ChipCountField,
    CountField,
    DigitsInput,
    capitalized,
    check_names,
    choices,
    clause,
    count_field,
    csrf_failed,
    sentence,
)
from .games import (
    NO_SUCH_SEAT,
    EditGameForm,
    EmptyForm,
    FirstDealerForm,
    GameSetupForm,
    NewGameForm,
    SeatChangeForm,
    calculator_settings_form,
    edit_game_form,
    first_dealer_form,
    new_game_form,
    past_games_form,
    seat_change_form,
    what_if_form,
)

__all__ = [
    "CONTRACTS",
    "CONTRACT_NAMES",
    "KIND_NAMES",
    "KING_LABEL",
    "MAX_COUNT_INPUT",
    "NO_SUCH_SEAT",
    "PLACES",
    "SUIT_NAMES",
    "TARGET_RANGE",
    "ChipCountField",
    "CountField",
    "DealForm",
    "DigitsInput",
    "EditGameForm",
    "EmptyForm",
    "FirstDealerForm",
    "GameSetupForm",
    "NewGameForm",
    "SeatChangeForm",
    "TrigamiDealForm",
    "TrixDealForm",
    "attach_error",
    "calculator_settings_form",
    "capitalized",
    "check_names",
    "choices",
    "clause",
    "count_field",
    "csrf_failed",
    "edit_game_form",
    "first_dealer_form",
    "new_game_form",
    "past_games_form",
    "per_seat",
    "seat_change_form",
    "sentence",
    "trigami_form",
    "trix_form",
    "what_if_form",
]
