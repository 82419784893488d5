"""Groups: the people who play together, each with its own games, players and links.

No Flask here: each function takes the ``sqlite_utils.Database``. A group is reached
through a private link: an address with an unguessable token (:func:`new_token`, 192
random bits). Its **play link** ("play" access) opens everything; making a new one
(:func:`new_play_link`) stops the old one working. **View links** ("view" access) show
the whole group, or one game, and change nothing. A club night's **table cards** ("table"
access, :data:`TABLE`) each open one table's game: they enter deals there while the night
runs (club.table_card_open) and only show it afterwards. A group may have a **passcode**: then
a phone that opens its play link must also give the passcode once (:func:`check_passcode`;
wrong ones are counted in attempts.py, which also keeps the one-time codes that let a
phone in without it).

Every write of the games (store.py) moves its group's ``version`` to the id of the change
it records, so a group's lists are kept per version without seeing other groups'
changes (:func:`version`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import Any, cast

import sqlite_utils
from werkzeug.security import check_password_hash, generate_password_hash

from . import attempts, club
from .store import now, writing

#: What a link lets a phone do: everything, look only, enter deals at one table of a night
PLAY, VIEW, TABLE = "play", "view", "table"
#: Passcodes: at least this many characters, at most the second (any passcode, also one
#: set before :func:`passcode_rule`; a longer one is never judged)
PASSCODE_LENGTH = (4, 64)
#: A new passcode of digits only has at least this many (a million passcodes and more)
PASSCODE_DIGITS = 6
#: A new passcode of words has at least this many words and this many characters
PASSPHRASE = (2, 8)


#: How long after a group was started (a link was made) the same "Start a group" ("Make a
#: new link") form sent again (a double tap, a resend) is answered with it: a few minutes,
#: so an old page kept in a browser's history never hands out a group's link
STARTED_AGAIN = timedelta(minutes=10)


def _fresh(made_at: str, at: str) -> bool:
    """Whether something made at ``made_at`` is new enough at ``at`` (both :func:`now`'s
    ISO times) for its form sent again to be answered with it (:data:`STARTED_AGAIN`)."""
    return datetime.fromisoformat(at) - datetime.fromisoformat(made_at) <= STARTED_AGAIN


class NoSuchGroupError(LookupError):
    """No group answers to that id or name."""


class FormUsedError(Exception):
    """The "Start a group" (or "Make a new link") form's token made a group (a link)
    already, longer ago than :data:`STARTED_AGAIN` or before that link was replaced:
    nothing was made."""


class LinkReplacedError(Exception):
    """The play link a phone sent "Make a new link" with was replaced meanwhile (by another
    phone): nothing was made."""


@dataclass(frozen=True)
class Group:
    """A group: its ``id``, ``name``, its play link's ``token`` (None when asked for
    without it) and whether a passcode guards the play link (``passcode_id``, the
    passcode's random id, None without one)."""

    id: int
    name: str
    token: str | None = None
    passcode_id: str | None = None
    created_at: str = ""


@dataclass(frozen=True)
class TableCard:
    """Where a table card's game sits in its night (docs/club-nights.md, "Table cards"):
    ``night_id``, the night's ``name`` (None: unnamed), ``round`` and ``table`` numbers,
    and ``open``: whether the card lets a phone enter deals now (club.table_card_open).
    ``shut``: why it no longer does, for its words: "night" (the night is over), "round"
    (its round closed, or the next one seated), "time" (12 hours past); "" while open."""

    night_id: int
    name: str | None
    round: int
    table: int
    open: bool
    shut: str = ""


@dataclass(frozen=True)
class Access:
    """What a link opens: the ``group``, ``access`` (:data:`PLAY`, :data:`VIEW` or
    :data:`TABLE`) and, for a link to one game (a view link to one game, a table card),
    that ``game_id`` (None: the whole group). ``token`` is the link's own; ``table``
    where a table card's game sits in its night (None for other links)."""

    group: Group
    access: str
    token: str
    game_id: str | None = None
    table: TableCard | None = None

    @property
    def full(self) -> bool:
        """Whether the link opens everything in the group (a play link): its pages, its
        settings, every game."""
        return self.access == PLAY

    @property
    def can_write(self) -> bool:
        """Whether the link may change anything: a play link, or a table card while its
        night runs (in its own game only: access.admit; read again inside a deal's write:
        :func:`card_writes`)."""
        return self.access == PLAY or (self.table is not None and self.table.open)


def new_token() -> str:
    """A link's token: 24 random bytes (192 bits), URL-safe, 32 characters; never starting
    with "-" (a command line would take it for an option)."""
    while (token := secrets.token_urlsafe(24)).startswith("-"):
        pass
    return token


def _group(row: tuple[Any, ...]) -> Group:
    return Group(id=row[0], name=row[1], token=row[2], passcode_id=row[3], created_at=row[4])


_SELECT = ("select g.id, g.name, l.token, g.passcode_id, g.created_at from groups g left join links l "
           "on l.group_id = g.id and l.access = 'play' and l.game_id is null and l.revoked_at is null ")


def create(db: sqlite_utils.Database, name: str | None = None, default: str = "Our games",
           nonce: str | None = None) -> Group:
    """A new group called ``name`` (else ``default``, numbered when taken: "Our games 2")
    with its play link; returns it, with the link's token. The web page gives the default
    in the starting phone's language ("Unsere Spiele"); once stored, the name is the
    group's, the same in every language, like a name typed.

    ``nonce``: the Start form's one-time token, kept with the group: if a group was started
    with it already (a double tap), nothing is made and that group is returned, as long
    as it is new (:data:`STARTED_AGAIN`) and its first link still works; else raises
    FormUsedError."""
    with writing(db):
        return _insert(db, name, default, nonce)


def first_group(db: sqlite_utils.Database, name: str | None = None) -> Group | None:
    """A new database's first group, called ``name`` (else "Our games"), with its play
    link; None, and nothing made, when the database has a group already. The check is
    made inside the write: two commands (or a command and a phone) starting on a new
    database at the same instant make one group between them, not one each."""
    with writing(db):
        if db.execute("select 1 from groups limit 1").fetchone() is not None:
            return None
        return _insert(db, name)


def _insert(db: sqlite_utils.Database, name: str | None = None, default: str = "Our games",
            nonce: str | None = None) -> Group:
    """:func:`create`'s checks and write, inside the caller's write transaction."""
    at = now()
    if nonce:
        row = db.execute(_SELECT + "where g.nonce = ?", [nonce]).fetchone()
        if row is not None:
            started = _group(row)
            links = db.execute("select count(*) from links where group_id = ? and access = 'play'",
                               [started.id]).fetchone()[0]
            if _fresh(started.created_at, at) and links == 1 and started.token is not None:  # its first link, never replaced
                return started
            raise FormUsedError(f"the form token started group {started.id} already")
    taken = {row[0] for row in db.execute("select name from groups")}
    if not name:
        name, n = default, 1
        while name in taken:
            n += 1
            name = f"{default} {n}"
    record = {"name": name, "version": 0, "created_at": at}
    if nonce:
        record["nonce"] = nonce  # (a column since m009: migration m006 makes a group without it)
    group_id = cast(int, db.table("groups").insert(record).last_pk)
    token = new_token()
    db.table("links").insert({"token": token, "group_id": group_id, "game_id": None, "access": PLAY,
                              "created_at": at, "revoked_at": None})
    return Group(group_id, name, token, None, at)


def get(db: sqlite_utils.Database, group_id: int) -> Group:
    """The group with its play link; raises NoSuchGroupError."""
    row = db.execute(_SELECT + "where g.id = ?", [group_id]).fetchone()
    if row is None:
        raise NoSuchGroupError(f"no group {group_id}")
    return _group(row)


def find(db: sqlite_utils.Database, wanted: str) -> Group:
    """The group whose id or name (any case) is ``wanted``; raises NoSuchGroupError, its
    message quoting ``wanted`` cut to 60 characters (a command line's whole 3,000: tester
    68) and, when one group has it as its number and another as its name, saying so."""
    text = wanted.strip()
    rows = db.execute(_SELECT + "where cast(g.id as text) = ? or lower(g.name) = lower(?) order by g.id",
                      [text, text]).fetchall()
    if len(rows) == 1:
        return _group(rows[0])
    shown = repr(text if len(text) <= 60 else text[:60] + "…")
    if not rows:
        raise NoSuchGroupError(f"no group {shown}")
    numbered = [row for row in rows if str(row[0]) == text]
    named = [row for row in rows if str(row[0]) != text]
    if numbered and named:
        raise NoSuchGroupError(f"{shown} is the number of group {numbered[0][0]} ({numbered[0][1]}) and the name "
                               f"of group {', '.join(str(row[0]) for row in named)}: say which by its other "
                               "number or name")
    raise NoSuchGroupError(f"several groups called {shown}")


def all_groups(db: sqlite_utils.Database) -> list[Group]:
    """Every group, oldest first, with its play link."""
    return [_group(row) for row in db.execute(_SELECT + "order by g.id")]


def only_group(db: sqlite_utils.Database) -> Group | None:
    """The one group there is: made if there is none; None if there are several (the
    caller must then be told which: ``scorekeeper import --group``)."""
    found = all_groups(db)
    if not found:
        made = first_group(db)
        if made is not None:
            return made
        found = all_groups(db)  # another request made the first group meanwhile
    return found[0] if len(found) == 1 else None


def only_group_id(db: sqlite_utils.Database) -> int | None:
    """:func:`only_group`'s id (None when there are several): which group a game stored
    without one named goes into (db.connect hands it to store.default_group)."""
    only = only_group(db)
    return only.id if only is not None else None


def open_link(db: sqlite_utils.Database, token: str, at: str | None = None) -> Access | None:
    """What the link with ``token`` opens, or None for no such link or one that was
    replaced (one indexed look-up; a table card one more, for its night's state at ``at``,
    default now: :func:`table_card`)."""
    if not token or len(token) > 64:
        return None
    row = db.execute(
        "select g.id, g.name, g.passcode_id, g.created_at, l.access, l.game_id, "
        "(select token from links p where p.group_id = g.id and p.access = 'play' and p.game_id is null "
        " and p.revoked_at is null), l.created_at "
        "from links l join groups g on g.id = l.group_id where l.token = ? and l.revoked_at is null",
        [token]).fetchone()
    if row is None:
        return None
    group_id, name, passcode_id, created_at, access, game_id, play, made_at = row
    table = None
    if access == TABLE:
        table = table_card(db, game_id, made_at, at)
        if table is None:  # its game is no night's table any more: the card opens nothing
            return None
    return Access(Group(group_id, name, play if access == PLAY else None, passcode_id, created_at),
                  access, token, game_id, table)


def card_writes(db: sqlite_utils.Database, token: str, game_id: str, at: str | None = None) -> bool:
    """Whether table card ``token`` still lets a phone change the deals of game
    ``game_id`` at ``at`` (default now; docs/club-nights.md, "Table cards"): the card
    works (:func:`open_link`), is that game's, and its night is on for that table
    (club.table_card_open: its round open, the night not over, within 12 hours). The
    deal actions read it inside their write's transaction (actions.CardClosed), so a
    round closed at the instant of a save counts: the save comes before the close or is
    refused."""
    found = open_link(db, token, at)
    return found is not None and found.access == TABLE and found.game_id == game_id and found.can_write


def table_card(db: sqlite_utils.Database, game_id: str, seated_at: str, at: str | None = None) -> TableCard | None:
    """Where game ``game_id`` sits in its night and whether a table card made at
    ``seated_at`` (when its round was seated) lets a phone enter deals at ``at`` (default
    now; both :func:`store.now`'s ISO times): club.table_card_open, with the round closed
    or not, and the night over when its last planned round is seated and closed or every
    game of it is over (each game's summary). None: the game is no night's table."""
    row = db.execute(
        "select t.night_id, n.name, t.round, t.number, r.closed, n.rounds_planned, "
        "(select count(*) from night_tables u left join game_summaries s on s.game_id = u.game_id "
        " where u.night_id = t.night_id and u.round = t.round and coalesce(s.finished, 0) = 0) "
        "from night_tables t join nights n on n.id = t.night_id "
        "join night_rounds r on r.night_id = t.night_id and r.number = t.round where t.game_id = ?",
        [game_id]).fetchone()
    if row is None:
        return None
    night_id, name, round_, number, closed, planned, unfinished = row
    night_over = round_ >= planned and (bool(closed) or unfinished == 0)
    is_open = club.table_card_open(round_closed=bool(closed), night_over=night_over,
                                   seated_at=datetime.fromisoformat(seated_at),
                                   at=datetime.fromisoformat(at or now()))
    shut = "" if is_open else "night" if night_over else "round" if closed else "time"
    return TableCard(int(night_id), name, int(round_), int(number), is_open, shut)


def table_cards(db: sqlite_utils.Database, night_id: int) -> dict[str, str]:
    """The table cards' tokens of a night's tables: {game id: token} (night_store.seat
    makes one for each table as its round is seated; migration m016 for the tables seated
    before)."""
    return {row[0]: row[1] for row in db.execute(
        "select l.game_id, l.token from links l join night_tables t on t.game_id = l.game_id "
        "where t.night_id = ? and l.access = 'table' and l.revoked_at is null", [night_id])}


def new_play_link(db: sqlite_utils.Database, group_id: int, nonce: str | None = None,
                  replacing: str | None = None) -> str:
    """Replace the group's play link with a new one: the old stops working at once, on
    every phone that remembered it, and so does every one-time code not used yet
    (attempts.stop_codes). Returns the new token.

    ``nonce``: the "Make a new link" form's one-time token, kept with the new link, and
    ``replacing``: the link the phone sending it has (its cookie's). The same form sent
    again (a double tap, a resend when the answer was lost) makes no second link: it is
    answered with the link it made, as long as that still works, is new
    (:data:`STARTED_AGAIN`) and ``replacing`` is that link or the one it replaced; else
    FormUsedError. Without a nonce of its own, a ``replacing`` that is no longer the
    group's play link (another phone made a new one first) raises LinkReplacedError:
    nothing is made."""
    at = now()
    with writing(db):
        if nonce:
            row = db.execute("select token, replaces, created_at, revoked_at from links "
                             "where group_id = ? and nonce = ?", [group_id, nonce]).fetchone()
            if row is not None:
                token, replaced, created_at, revoked_at = row
                if revoked_at is None and _fresh(created_at, at) and replacing in (token, replaced):
                    return str(token)
                raise FormUsedError(f"the form token made a link of group {group_id} already")
        if replacing is not None:
            working = db.execute("select token from links where group_id = ? and access = 'play' "
                                 "and game_id is null and revoked_at is null", [group_id]).fetchone()
            if working is None or working[0] != replacing:
                raise LinkReplacedError(f"the play link of group {group_id} was replaced meanwhile")
        token = new_token()
        db.execute("update links set revoked_at = ? where group_id = ? and access = 'play' and revoked_at is null",
                   [at, group_id])
        attempts.stop_codes(db, group_id)  # a code made on a phone now shut out lets it in no more
        record = {"token": token, "group_id": group_id, "game_id": None, "access": PLAY,
                  "created_at": at, "revoked_at": None}
        if nonce:  # (columns since m010: a test's database migrated part-way has none)
            record.update(nonce=nonce, replaces=replacing)
        db.table("links").insert(record)
    return token


def replaced_by(db: sqlite_utils.Database, token: str, nonce: str) -> Access | None:
    """What the phone whose link ``token`` was replaced by the "Make a new link" form with
    ``nonce`` now opens: the new link, if it still works and is new (:data:`STARTED_AGAIN`);
    else None. Only that replaced link with that form's token gets it: no other dead link,
    no token of another group's form."""
    if not token or not nonce or len(token) > 64 or len(nonce) > 64:
        return None
    row = db.execute("select token, created_at from links where replaces = ? and nonce = ? "
                     "and access = 'play' and revoked_at is null", [token, nonce]).fetchone()
    if row is None or not _fresh(row[1], now()):
        return None
    return open_link(db, row[0])


def view_link(db: sqlite_utils.Database, group_id: int, game_id: str | None = None) -> str:
    """The group's read-only link (``game_id`` None) or one game's: the working one, made
    if there is none. Returns its token."""
    with writing(db):
        found = working_view_link(db, group_id, game_id)
        if found is not None:
            return found
        token = new_token()
        db.table("links").insert({"token": token, "group_id": group_id, "game_id": game_id, "access": VIEW,
                                  "created_at": now(), "revoked_at": None})
    return token


def working_view_link(db: sqlite_utils.Database, group_id: int, game_id: str | None = None) -> str | None:
    """The token of the group's (or one game's) working read-only link; None when there is
    none (none made yet, or all stopped)."""
    row = db.execute("select token from links where group_id = ? and access = 'view' and game_id is ? "
                     "and revoked_at is null", [group_id, game_id]).fetchone()
    return row[0] if row is not None else None


def stop_view_links(db: sqlite_utils.Database, group_id: int) -> int:
    """Stop every read-only link of the group (the group's and each game's); returns how
    many stopped."""
    with writing(db):
        return db.execute("update links set revoked_at = ? where group_id = ? and access = 'view' "
                          "and revoked_at is null", [now(), group_id]).rowcount


def stopped_view_link(db: sqlite_utils.Database, token: str) -> bool:
    """Whether ``token`` is a read-only link that was stopped ("Stop read-only links"),
    not a play link replaced by a newer one."""
    row = db.execute("select access, revoked_at from links where token = ?", [token]).fetchone()
    return row is not None and row[0] == VIEW and row[1] is not None


def rename(db: sqlite_utils.Database, group_id: int, name: str) -> None:
    """Give the group a new name (trimmed; the caller has checked it is not empty)."""
    with writing(db):
        db.execute("update groups set name = ? where id = ?", [" ".join(name.split()), group_id])


def passcode_rule(passcode: str) -> bool:
    """Whether a new passcode (as views' ``passcode_text`` keeps it) is long enough:
    digits only, at least :data:`PASSCODE_DIGITS` of them; otherwise at least
    ``PASSPHRASE[0]`` words and ``PASSPHRASE[1]`` characters ("clubs and spades"). Why:
    the guessing limits bound the guesses per hour (attempts.py); a million 6-digit
    passcodes take years to try at that rate, ten thousand 4-digit ones a week."""
    if passcode.isdigit():
        return len(passcode) >= PASSCODE_DIGITS
    return len(passcode.split()) >= PASSPHRASE[0] and len(passcode) >= PASSPHRASE[1]


def easy_passcode(passcode: str) -> bool:
    """Whether a new passcode of digits is one a guesser tries first: one digit repeated
    ("000000", "111111") or a run up or down ("123456", "654321", "3456789"). Why: the
    guessing bound of the README counts on a code picked at random from all of them."""
    if not passcode.isdigit() or not passcode.isascii() or len(passcode) < 2:
        return False
    steps = {(int(b) - int(a)) for a, b in pairwise(passcode)}
    return steps in ({0}, {1}, {-1})


class PasscodeChangedError(Exception):
    """The group's passcode was set, changed or turned off meanwhile (on another phone),
    so a change made on the page as it was is not made: :func:`set_passcode`."""


#: :func:`set_passcode`'s ``expected`` when the caller does not know the passcode it changes
ANY = object()


def passcode_stamp(passcode_id: str | None) -> str:
    """What a page says of the passcode it shows, to change it (:func:`set_passcode`'s
    ``expected``): "" for none, else a digest of its id (the id itself proves a phone gave
    the passcode, so it never goes into a page)."""
    return hashlib.sha256(passcode_id.encode()).hexdigest()[:16] if passcode_id else ""


def set_passcode(db: sqlite_utils.Database, group_id: int, passcode: str | None,
                 expected: str | object = ANY) -> str | None:
    """Guard the play link with ``passcode`` (None or "": no passcode; the caller has
    checked :func:`passcode_rule`). Every phone must give a new passcode once, even those
    that gave the old one, and no one-time code made before lets a phone in
    (attempts.stop_codes). Returns the passcode's new id (None without one).

    ``expected``: the passcode's :func:`passcode_stamp` as the changing phone's page had it
    ("": none was set); when the group's is another by the time of the write (two phones changing it at
    the same instant: tester 19, where both were told "set" and the one whose passcode
    was overwritten was then refused its own), nothing changes and
    :class:`PasscodeChangedError` is raised. Checked inside the write's transaction."""
    passcode_id = secrets.token_urlsafe(12) if passcode else None
    hashed = generate_password_hash(passcode) if passcode else None
    with writing(db):
        if expected is not ANY:
            row = db.execute("select passcode_id from groups where id = ?", [group_id]).fetchone()
            if row is None or passcode_stamp(row[0]) != expected:
                raise PasscodeChangedError(group_id)
        db.execute("update groups set passcode = ?, passcode_id = ?, passcode_rule = ? where id = ?",
                   [hashed, passcode_id, 1 if passcode else None, group_id])
        attempts.stop_codes(db, group_id)  # a code made on a phone now shut out lets it in no more
    return passcode_id


def passcode_before_rule(db: sqlite_utils.Database, group_id: int) -> bool:
    """Whether the group's passcode was set before :func:`passcode_rule` (migration m008):
    it keeps working, and may be shorter than the rule wants (only its hash is kept, so
    nobody can tell)."""
    row = db.execute("select passcode, passcode_rule from groups where id = ?", [group_id]).fetchone()
    return row is not None and bool(row[0]) and not row[1]


def check_passcode(db: sqlite_utils.Database, group_id: int, passcode: str) -> str | None:
    """The passcode's id (the proof a phone keeps) if ``passcode`` is the group's, else
    None (also for a group without a passcode)."""
    row = db.execute("select passcode, passcode_id from groups where id = ?", [group_id]).fetchone()
    if row is None or not row[0] or len(passcode) > PASSCODE_LENGTH[1]:
        return None
    return row[1] if check_password_hash(row[0], passcode) else None


def version(db: sqlite_utils.Database, group_id: int) -> int:
    """The group's version: the id of the latest change to any of its games (0 before
    any); the lists and player pages are kept per version."""
    row = db.execute("select version from groups where id = ?", [group_id]).fetchone()
    return row[0] if row else 0


def game_group(db: sqlite_utils.Database, game_id: str) -> int | None:
    """The group a game belongs to, or None for no such game."""
    row = db.execute("select group_id from games where id = ?", [game_id]).fetchone()
    return row[0] if row else None


@dataclass(frozen=True)
class PollAccess:
    """What a poll's quick answer (views/live.py) needs of a link, read in one indexed
    look-up: the group's ``passcode_id`` (None: none), the link's ``access`` (:data:`PLAY`
    or :data:`VIEW`) and ``game_id`` (a view link to one game; None: the whole group), and
    the ``version`` polled: the game's (store.game_version) or the group's
    (:func:`version`); for a game, its ``deals`` in play and whether it is ``finished``
    (its summary's, as store.live_state)."""

    passcode_id: str | None
    access: str
    game_id: str | None
    version: int
    deals: int = 0
    finished: bool = False


def poll_access(db: sqlite_utils.Database, token: str, game_id: str | None = None) -> PollAccess | None:
    """The link ``token``'s access and the version a poll asks for: game ``game_id``'s
    when given, else the link's group's. None when the link does not work (no such link,
    replaced) or the game is not one of the link's group's, or deleted (no summary):
    the poll is then answered the long way, by the app's access checks (access.admit)."""
    if not token or len(token) > 64:
        return None
    if game_id is None:
        row = db.execute("select g.passcode_id, l.access, l.game_id, g.version, 0, 0 from links l "
                         "join groups g on g.id = l.group_id where l.token = ? and l.revoked_at is null",
                         [token]).fetchone()
    else:
        row = db.execute(
            "select g.passcode_id, l.access, l.game_id, "
            "(select coalesce(max(c.id), 0) from changes c where c.game_id = s.game_id), s.deals, s.finished "
            "from links l join groups g on g.id = l.group_id "
            "join games x on x.id = ? and x.group_id = g.id "
            "join game_summaries s on s.game_id = x.id "
            "where l.token = ? and l.revoked_at is null", [game_id, token]).fetchone()
    return None if row is None else PollAccess(row[0], row[1], row[2], int(row[3] or 0), int(row[4]), bool(row[5]))
