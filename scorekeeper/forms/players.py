"""The period and game filters (issue 20, part 4) of the players list's ranking and of the
season page (/season): which period and which game they count. A plain GET form read from
the query string (no CSRF: it changes nothing), drawn by templates/_period_filter.html.
And a player's new name (PlayerNameForm: the player's "Change the name" page).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from flask_wtf import FlaskForm
from wtforms import DateField, HiddenField, SelectField, StringField
from wtforms.validators import Optional, ValidationError

from ..gamefile import MAX_NAME_LENGTH, name_fault
from ..i18n import gettext as _
from ..i18n import lazy_gettext as _l
from ..inputs import clean_name
from ..names import KIND_NAMES
from .fields import choices

#: The periods offered: every game, this calendar year, the last 12 months (today and the
#: 364 days before it, or 365 across a 29 February), the days chosen in From and To
PERIODS = ("", "year", "months", "days")


class RankingForm(FlaskForm):
    """``period`` (one of :data:`PERIODS`; "" all time), ``start`` and ``end`` (days,
    inclusive: used with the period "days", which a day typed in either chooses by
    itself), ``kind`` ("" any game, or a kind of game), ``tz`` (the viewer's IANA time
    zone, filled in by static/app.js: the days are theirs, else UTC's). Build it with
    ``formdata=request.args``; a field that does not parse carries its message and is
    not applied (:meth:`days`)."""

    class Meta:
        csrf = False

    period = SelectField(_l("Period"), default="", choices=choices([
        ("", _l("All time")), ("year", _l("This year")), ("months", _l("Last %(n)s months", n=12)),
        ("days", _l("Chosen days"))]))
    start = DateField(_l("From"), validators=[Optional()], render_kw={"autocomplete": "off"})
    end = DateField(_l("To"), validators=[Optional()], render_kw={"autocomplete": "off"})
    kind = SelectField(_l("Game"), default="", choices=choices([("", _l("Any game")), *list(KIND_NAMES.items())]))
    tz = HiddenField(render_kw={"data-time-zone": ""})

    def _typed(self) -> bool:
        """Whether a day was typed in From or To (whether or not it parses)."""
        return any(field.raw_data and field.raw_data[0].strip() for field in (self.start, self.end))

    def validate_period(self, field: Any) -> None:
        # a day typed chooses the period of chosen days by itself: what was meant
        if self._typed():
            field.data = "days"

    def validate(self, extra_validators: Any = None) -> bool:
        """Every field's checks, then one of the form: the period of chosen days needs a
        day (said beside From; From's own Optional check stops at an empty field)."""
        valid = super().validate(extra_validators)
        if self.period.data == "days" and not self.period.errors and not self._typed():
            self.start.errors = [*self.start.errors, _("Choose the first day, the last day or both.")]
            return False
        return valid

    def validate_end(self, field: Any) -> None:
        if field.data and self.start.data and field.data < self.start.data:
            raise ValidationError(_("The last day comes before the first."))

    def days(self, today: date) -> tuple[date | None, date | None]:
        """The first and the last day the ranking counts (both included; None: no
        bound), from what parsed: "year" 1 January of ``today``'s year to today;
        "months" the day after the same day a year before, to today; "days" the days
        typed (when either is bad, or the last comes first, neither bounds anything)."""
        period = self.period.data if not self.period.errors else ""
        if period == "year":
            return today.replace(month=1, day=1), today
        if period == "months":
            try:
                year_before = today.replace(year=today.year - 1)
            except ValueError:  # 29 February: a year before, there was none
                year_before = today.replace(year=today.year - 1, day=28)
            return year_before + timedelta(days=1), today
        if period == "days":
            if self.start.errors or self.end.errors:
                return None, None  # half a period would count what nobody asked for
            return self.start.data, self.end.data
        return None, None

    @property
    def chosen_kind(self) -> str | None:
        """The kind of game asked for, or None (any, or one that is no choice)."""
        return (self.kind.data or None) if not self.kind.errors else None


class PlayerNameForm(FlaskForm):
    """A player's new name, for every game of the group (store.rename_player): ``name``,
    checked as every player's name is (gamefile.name_fault: something visible, at most
    40 characters, no invisible control characters) and cleaned (:attr:`cleaned`);
    ``confirm``: the name key the page asked about, sent back when the player taps again
    to make two players one; ``was``: the name the page showed (another phone may rename
    the player meanwhile)."""

    name = StringField(_l("New name"), render_kw={"autocomplete": "off", "autocapitalize": "words"})
    confirm = HiddenField()
    was = HiddenField()

    def validate_name(self, field: Any) -> None:
        fault = name_fault(field.data)
        if fault == "blank":
            raise ValidationError(_("Enter the player's name."))
        if fault == "not text":
            raise ValidationError(_("The name has characters that are not text: type it again."))
        if fault == "long":
            raise ValidationError(_("At most %(most)s characters, please.", most=MAX_NAME_LENGTH))
        if fault == "control":
            raise ValidationError(_("The name has invisible control characters: type it again."))

    @property
    def cleaned(self) -> str:
        """The name as it is stored (inputs.clean_name), once :meth:`validate` passed."""
        return clean_name(self.name.data or "")
