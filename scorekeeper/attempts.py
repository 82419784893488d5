"""Guessing a group's passcode, bounded exactly; one-time codes that let a phone in.

No Flask here: each function takes the ``sqlite_utils.Database`` and plain values.

**Wrong passcodes** are counted per phone (the random id in its session cookie), per
address (looser: one mistyping player does not block a café's Wi-Fi, but someone who
clears their cookies is still bounded) and per group from everyone together (the
hourly cap that bounds guessing for any number of addresses). Each limit is a moving
window: at most ``amount`` wrong attempts in the last ``seconds``.

Why the database and not Flask-Limiter (which counted them before, issue 16):
Flask-Limiter checks a limit before the view runs and deducts a wrong attempt after it,
so twelve guesses sent at the same instant all pass the check before any is deducted,
and all twelve are judged (limit 5). Here one ``BEGIN IMMEDIATE`` transaction checks the
counts and records the attempt (:func:`count_passcode`): attempts arriving together take
their turn at SQLite's write lock, so the sixth sees five and is refused. The same holds
for several server processes on one database, and the counts survive a restart (an
attacker gains nothing by waiting for one). The attempt is recorded *before* it is
judged and taken back when the passcode was right (:func:`forget`): the judging (a
deliberately slow password hash) then runs outside the write lock, so guesses never hold
up the deals being saved, and the count is as exact as judging inside the transaction
(a slot is taken before judging; a server killed mid-judging leaves it counted, on the
safe side). Rows older than the longest window are pruned on each attempt.

**One-time codes** (:func:`make_code`) are made by a phone already in a group and let
the next phone in without the passcode, even while the group's cap is used up: 10
characters of Crockford's base 32 (50 random bits), valid 15 minutes, once. Wrong codes
are counted per phone and per address only, never against a group (a code names no
group), and a right code lets its phone in whatever those counts say, so nobody can lock
this door: not a stranger, and not someone on the same Wi-Fi typing wrong codes to shut a
newcomer's address out (tester 70). 50 bits are what make that safe: even a thousand
guesses a second from unlimited addresses for the whole 15 minutes (900,000 guesses of
2^50) find a given waiting code with odds of about one in a billion. The limits only
slow down wrong codes (429, "Too many wrong codes"). Table cards' tokens (192 bits,
:func:`count_wrong_card`) are looked up the same way: a working card always opens.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlite_utils

from .store import DiskFullError, now, writing

#: A limit: at most ``amount`` (first) wrong attempts in the last ``seconds`` (second)
Limit = tuple[int, float]

PASSCODE, CODE, CARD = "passcode", "code", "card"
PHONE, ADDRESS, GROUP = "phone", "address", "group"

#: How long a one-time code lets a phone in, seconds
CODE_LIFETIME = 15 * 60
#: Crockford's base 32: digits and capitals without I, L, O, U (read as 1, 1, 0 or not at all)
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 10  # 50 bits
#: Attempts are kept at least this long (seconds), so a limit made longer still sees them
KEPT = 3600.0


@dataclass(frozen=True)
class Limits:
    """The limits on wrong attempts, each a sequence of :data:`Limit`: per ``phone``,
    per ``address`` and per ``group`` (passcodes only; codes are never counted against a
    group). An empty sequence: no limit of that kind."""

    phone: Sequence[Limit] = ()
    address: Sequence[Limit] = ()
    group: Sequence[Limit] = ()


@dataclass(frozen=True)
class Refused:
    """Over a limit: nothing was judged. ``by`` is :data:`PHONE`, :data:`ADDRESS` or
    :data:`GROUP` (the one that frees last when several are over); ``retry_after`` the
    seconds until one more attempt would be judged (at least 1)."""

    by: str
    retry_after: int


@dataclass(frozen=True)
class Counted:
    """An attempt recorded as wrong until :func:`forget` takes it back: its row ``id``."""

    id: int


def _clock(at: float | None) -> float:
    return time.time() if at is None else at


def _over(db: sqlite_utils.Database, column: str, value: object, kind: str, limits: Sequence[Limit],
          at: float) -> int:
    """Seconds until the attempts of ``column`` = ``value`` are under every limit again
    (0: they are now)."""
    wait = 0.0
    for amount, seconds in limits:
        if amount <= 0:
            wait = max(wait, seconds)
            continue
        # the amount-th most recent attempt in the window: when it leaves, one more fits
        row = db.execute(f"select at from passcode_attempts where {column} = ? and kind = ? and at > ? "
                         "order by at desc limit 1 offset ?", [value, kind, at - seconds, amount - 1]).fetchone()
        if row is not None:
            wait = max(wait, row[0] + seconds - at)
    return math.ceil(wait) if wait > 0 else 0


def _check(db: sqlite_utils.Database, kind: str, group_id: int | None, phone: str, address: str,
           limits: Limits, at: float) -> Refused | None:
    """Inside a write transaction: prune old attempts, then the limit that refuses one
    more attempt, or None."""
    longest = max([KEPT, *(s for _, s in (*limits.phone, *limits.address, *limits.group))])
    db.execute("delete from passcode_attempts where at < ?", [at - longest])
    waits = [(_over(db, "phone", phone, kind, limits.phone, at), PHONE),
             (_over(db, "address", address, kind, limits.address, at), ADDRESS)]
    if kind == PASSCODE and group_id is not None:
        waits.append((_over(db, "group_id", group_id, kind, limits.group, at), GROUP))
    wait, by = max(waits)
    return Refused(by, max(wait, 1)) if wait > 0 else None


def _record(db: sqlite_utils.Database, kind: str, group_id: int | None, phone: str, address: str,
            at: float) -> int:
    cursor = db.execute("insert into passcode_attempts (at, kind, group_id, phone, address) values (?, ?, ?, ?, ?)",
                        [at, kind, group_id, phone, address])
    return int(cursor.lastrowid or 0)


def _counted(db: sqlite_utils.Database, kind: str, group_id: int | None, phone: str, address: str,
             limits: Limits, at: float) -> Refused | Counted:
    """In one write transaction: :func:`_check` the limits, and record the attempt (as
    wrong until forgotten) when it is under them."""
    with writing(db):
        refused = _check(db, kind, group_id, phone, address, limits, at)
        if refused is not None:
            return refused
        return Counted(_record(db, kind, group_id, phone, address, at))


def count_passcode(db: sqlite_utils.Database, group_id: int, phone: str, address: str, limits: Limits,
                   at: float | None = None) -> Refused | Counted:
    """Before a passcode for group ``group_id`` is judged: in one ``BEGIN IMMEDIATE``
    transaction, check the counts of ``phone`` (its session's id), ``address`` and the
    group against ``limits``, and record the attempt as wrong when under them. Returns
    :class:`Refused` (judge nothing) or :class:`Counted` (judge it, then :func:`forget` it
    if it was right). ``at``: the time, Unix seconds (default now)."""
    return _counted(db, PASSCODE, group_id, phone, address, limits, _clock(at))


def count_wrong_card(db: sqlite_utils.Database, phone: str, address: str, limits: Limits,
                     at: float | None = None) -> Refused | Counted | None:
    """A table card's address (``/t/<token>``) that opens no card, counted: as
    :func:`count_passcode`, against the limits of ``phone`` and ``address`` only (a token
    names no group, so nobody can lock a group's cards), apart from passcodes and codes
    (kind :data:`CARD`). Returns :class:`Refused` (over a limit: 429, "too many") or
    :class:`Counted`. A working card is looked up first and never counted, so no number
    of wrong ones (cookie-less requests from any page a phone on the club's Wi-Fi opens,
    tester 70) keeps a table's phone out; a card's token has 192 random bits, so guessing
    one is hopeless anyway, and the count only slows down whoever tries tokens.

    None when the disk refuses the count (store.DiskFullError: full, read-only): the
    wrong card is said so all the same (tester 66)."""
    try:
        return _counted(db, CARD, None, phone, address, limits, _clock(at))
    except DiskFullError:
        return None


def forget(db: sqlite_utils.Database, attempt: Counted) -> None:
    """Take back an attempt counted by :func:`count_passcode`: it was the right passcode
    (right ones are never counted)."""
    with writing(db):
        db.execute("delete from passcode_attempts where id = ?", [attempt.id])


# ------------------------------------------------------------------ one-time codes


def normal_code(text: str) -> str | None:
    """A typed code as it is stored, or None when it cannot be one: any script's digits
    as 0-9, full-width forms folded, capitals, spaces and dashes dropped, O read as 0 and
    I or L as 1 (Crockford); exactly :data:`CODE_LENGTH` characters of the alphabet."""
    folded = unicodedata.normalize("NFKC", text)
    folded = "".join(str(unicodedata.decimal(c)) if c.isdecimal() else c for c in folded)
    code = folded.upper().replace(" ", "").replace("-", "").translate(str.maketrans("OIL", "011"))
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def shown_code(code: str) -> str:
    """A code as a phone shows it: two groups of five ("K7QM4-9XP3H")."""
    return f"{code[:5]}-{code[5:]}"


def _hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def make_code(db: sqlite_utils.Database, group_id: int, at: float | None = None,
              replacing: str | None = None) -> str:
    """A new one-time code for the group (as :func:`normal_code` gives it), valid
    :data:`CODE_LIFETIME` seconds from ``at`` (default now), for one phone. Codes long
    expired are pruned. ``replacing``: the code this one takes the place of ("Make another
    code" on the phone that showed it), which stops working in the same transaction, if
    it is the group's and still unused (a code shown to the wrong person, or on a screen
    left open, is not left working for its fifteen minutes)."""
    at = _clock(at)
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    with writing(db):
        db.execute("delete from entry_codes where expires_at < ?", [at - 86400])
        if replacing is not None:
            db.execute("update entry_codes set expires_at = min(expires_at, ?) "
                       "where hash = ? and group_id = ? and used_at is null", [at, _hash(replacing), group_id])
        db.execute("insert into entry_codes (hash, group_id, created_at, expires_at, used_at) values (?, ?, ?, ?, null)",
                   [_hash(code), group_id, now(), at + CODE_LIFETIME])
    return code


@dataclass(frozen=True)
class CodeUsed:
    """A one-time code used (:func:`use_code`): the group it lets the phone into, and that
    group's play link and passcode id as they were when it was used, read in the same
    transaction. (Read afterwards, a new link made in between was handed to the phone the
    new link was made to shut out: tester 68.) ``token`` None: the group has no working
    play link."""

    group_id: int
    token: str | None
    passcode_id: str | None


def use_code(db: sqlite_utils.Database, typed: str, phone: str, address: str, limits: Limits,
             at: float | None = None) -> Refused | CodeUsed | None:
    """Let a phone in with a one-time code: in one ``BEGIN IMMEDIATE`` transaction, use
    the code up if it is unused and unexpired, whatever this phone's and address's wrong
    codes (a right code always opens: see the module's docstring); else check the wrong
    codes of ``phone`` and ``address`` against ``limits`` (``limits.group`` is not used)
    and record this one. Returns :class:`CodeUsed` (the code is used: no other phone can
    use it), None (a wrong, used or expired code) or :class:`Refused` (a wrong one over a
    limit: not recorded)."""
    given = at
    code = normal_code(typed)
    with writing(db):
        # the time read once the write is this request's: a new link (or code) made while it
        # waited stopped the code at its own time, which must not be later than this one's
        # (tester 68: a use that began first, then waited, still found the code unexpired)
        at = _clock(given)
        row = None
        if code is not None:
            row = db.execute("update entry_codes set used_at = ? where hash = ? and used_at is null and expires_at > ? "
                             "returning group_id", [now(), _hash(code), at]).fetchone()
        if row is None:
            refused = _check(db, CODE, None, phone, address, limits, at)
            if refused is not None:
                return refused
            _record(db, CODE, None, phone, address, at)
            return None
        group_id = int(row[0])
        link = db.execute("select token from links where group_id = ? and access = 'play' and game_id is null "
                          "and revoked_at is null", [group_id]).fetchone()
        passcode = db.execute("select passcode_id from groups where id = ?", [group_id]).fetchone()
        return CodeUsed(group_id, link[0] if link else None, passcode[0] if passcode else None)


def stop_codes(db: sqlite_utils.Database, group_id: int, at: float | None = None) -> int:
    """Stop every unused one-time code of the group, inside the caller's write
    transaction: a new play link or a new passcode shuts out whoever it is made against,
    and a code such a phone made beforehand (one every quarter of an hour, kept unused)
    must not let it back in (tester 66). Returns how many stopped."""
    at = _clock(at)
    return int(db.execute("update entry_codes set expires_at = ? where group_id = ? and used_at is null "
                          "and expires_at > ?", [at, group_id, at]).rowcount)


def code_state(db: sqlite_utils.Database, code: str, at: float | None = None) -> str:
    """What became of a code this phone made: "waiting", "used", "expired" (also for a
    code not found: pruned) or "stopped" (before its time, by :func:`stop_codes`: the group
    has a new link or passcode since)."""
    row = db.execute("select used_at, expires_at, created_at from entry_codes where hash = ?",
                     [_hash(code)]).fetchone()
    if row is None:
        return "expired"
    if row[0] is not None:
        return "used"
    if row[1] > _clock(at):
        return "waiting"
    made = datetime.fromisoformat(row[2]).timestamp()
    return "stopped" if row[1] < made + CODE_LIFETIME - 2 else "expired"
