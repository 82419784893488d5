"""Behind a reverse proxy the passcode limits count each real client (issue 16, parts 1
and 3): a real nginx configured with docs/deploying.md's lines in front of a real ``scorekeeper
serve`` (tests/proxy_support.py). A guesser who clears its cookies for every guess is
bounded by its own address, not by nginx's, so the next player is not held up; a forged
X-Forwarded-For buys it nothing. Skipped only where nginx is missing outside CI.
"""

from __future__ import annotations

import pytest

from scorekeeper import groups
from scorekeeper.db import connect
from tests.proxy_support import (
    Client,
    nginx,
    nginx_binary,
    readme_nginx_location,
    readme_serve_command,
    scorekeeper_serve,
)
from tests.race_support import form_fields

PASSCODE = "clubs and spades"
#: Per hour, so that a slow machine cannot see a window end between the guesses
PER_ADDRESS = "3 per hour"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    nginx_binary()  # skip (or, in CI, fail) before starting anything
    folder = tmp_path_factory.mktemp("passcode-proxy")
    env, args = readme_serve_command()
    with scorekeeper_serve(folder / "instance", args, {**env, "SCOREKEEPER_PASSCODE_LIMIT_CLIENT": PER_ADDRESS}) as served:
        db = connect(str(served.database))
        try:
            groups.set_passcode(db, groups.only_group(db).id, PASSCODE)
        finally:
            db.conn.close()
        with nginx(folder / "nginx", readme_nginx_location(served.port), served.group.token) as proxy:
            yield served, proxy


def give(site, source: str, passcode: str, headers: dict[str, str] | None = None) -> int:
    """A fresh browser (no cookies) at ``source`` opens the link through nginx and gives
    ``passcode``; returns the answer's status."""
    served, proxy = site
    client = Client(proxy.https_port, source, ca=proxy.ca)
    assert client.get(f"/g/{served.group.token}", headers=headers).status == 302
    page = client.get("/passcode", headers=headers)
    assert page.status == 200, page
    return client.post("/passcode", {**form_fields(page.body), "passcode": passcode}, headers=headers).status


def test_behind_nginx_a_guesser_clearing_cookies_is_bounded_by_its_own_address(site):
    assert [give(site, "127.0.0.2", f"guess {n}") for n in range(4)] == [400, 400, 400, 429]
    # claiming another address through the proxy does not give it new tries
    assert give(site, "127.0.0.2", "guess 5", headers={"X-Forwarded-For": "10.1.2.3"}) == 429
    # the next player, elsewhere, comes in: the proxy's own address was not what was counted
    assert give(site, "127.0.0.3", PASSCODE) == 302
