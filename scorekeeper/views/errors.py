"""The app's error pages: an HTTP error (400, 403, 404, 405, 413, 429) in the page's
language, a write the disk refused (507), any other failure (500, logged)."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask, current_app, g, make_response, render_template, request
from werkzeug.exceptions import HTTPException, NotFound

from .. import access, store
from ..i18n import gettext as _
from .common import deleted_game_page, no_such_page, refused_by_disk


def init_app(app: Flask) -> None:
    """Answer every error with the app's error page (error.html)."""

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        messages = {
            400: _("That request could not be read. Nothing was changed; go back and try again."),
            404: _("There is no such game, deal or player here. It may have been deleted, or the address "
                   "was mistyped."),
            403: _("This link shows the games and changes nothing: ask someone at the table to enter it.")
            if access.current() is not None else _("Open your group's link first."),
            405: _("That page cannot be used like that."),
            413: _("That is more than this server takes in one request. Nothing was changed."),
            429: _("Too many changes in a short time from this device or its network, so nothing was "
                   "changed. Wait a minute, then go back and try again."),
        }
        message = messages.get(error.code or 500, _("Something went wrong with that request."))
        if error.code == 404 and error.description != NotFound.description:
            message = str(error.description)  # a page's own words: abort(404, description=…)
        elif error.code == 404 and request.path.startswith("/nights/"):  # /nights/-1, /nights/abc
            message = _("There is no such night here.")  # as a night that is not this group's
        elif error.code == 404 and request.url_rule is None:  # an address of no page at all
            message = no_such_page()
        response = make_response(render_template("error.html", code=error.code, message=message), error.code)
        if error.code == 429:
            response.headers["Retry-After"] = "60"
        return response

    @app.errorhandler(store.GameDeletedError)
    def game_deleted(error: store.GameDeletedError) -> Any:
        # deleted on another phone while this request was on its way (issue 18, part 1)
        return deleted_game_page(error.game)

    @app.errorhandler(store.DiskFullError)
    def disk_full(error: store.DiskFullError) -> Any:
        # The page is drawn without the database when the phone's link was not looked up
        # yet: a process opening it on a full disk cannot read it either (tester 15: the
        # top bar's look-up failed again, and the phone got a bare "Internal Server Error")
        if "access" not in g:
            g.access = None
        return render_template("error.html", code=507, message=refused_by_disk(error)), 507

    @app.errorhandler(sqlite3.DatabaseError)
    def database_error(error: sqlite3.DatabaseError) -> Any:
        # a write the disk refused outside store.writing (or a first read that had no room
        # for SQLite's -shm file), said the same way
        refused = store.disk_full_error(None, error, path=current_app.config.get("DATABASE"))
        return disk_full(refused) if refused is not None else server_error(error)

    @app.errorhandler(Exception)
    def server_error(error: Exception) -> Any:
        app.logger.exception("Unhandled error")
        message = _("Something went wrong on our side. Nothing you entered was lost from saved "
                    "deals; go back and try again.")
        return render_template("error.html", code=500, message=message), 500
