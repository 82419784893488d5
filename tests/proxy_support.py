"""The real parts around the app for tests/test_proxy_nginx.py and tests/test_unusable_host.py:
a real ``scorekeeper serve`` subprocess, a real nginx in front of it configured with the
lines of docs/deploying.md, and a browser-like client with its own source address and cookies.

- :func:`scorekeeper_serve`: ``scorekeeper serve ARGS`` on a free port of 127.0.0.1, on
  a temporary instance folder, with the given SCOREKEEPER_* settings; stopped afterwards.
- :func:`nginx`: nginx in the foreground with a temporary prefix, listening on 127.0.0.1
  over HTTPS (a certificate from a throw-away CA made with trustme) and over plain HTTP,
  both in one ``server`` block around docs/deploying.md's ``location`` block; stopped afterwards.
- :class:`Client`: one browser: its own loopback source address (127.0.0.x, so per-client
  limits see different clients), its own cookies, any Host and extra headers.

Every wait is bounded by :data:`TIMEOUT` (a bound, not a timing assertion).
"""

from __future__ import annotations

import http.client
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from scorekeeper import groups, store
from scorekeeper.db import connect, migrate
from scorekeeper.gamefile import from_dict
from tests.conftest import game_file
from tests.race_support import Reply

TIMEOUT = 30
#: Where the reverse-proxy lines are documented (the README points there)
DEPLOYING = Path(__file__).resolve().parents[1] / "docs" / "deploying.md"
#: The public name the tests' nginx answers for (its certificate's name, the Host sent)
PUBLIC_HOST = "scores.example.org"


# --------------------------------------------------------------------------- the documented lines


def proxy_section() -> str:
    """docs/deploying.md's section "On the internet, behind a reverse proxy", as text."""
    text = DEPLOYING.read_text(encoding="utf-8")
    start = text.index("## On the internet, behind a reverse proxy")
    end = text.find("\n## ", start)
    return text[start:end if end != -1 else None]


def readme_serve_command() -> tuple[dict[str, str], list[str]]:
    """The documented ``scorekeeper serve`` line behind a proxy: (its environment settings,
    its arguments), e.g. ({"SCOREKEEPER_TRUSTED_PROXIES": "1"}, ["--host", "127.0.0.1",
    "--port", "5000"])."""
    lines = [line for block in re.findall(r"```sh\n(.*?)```", proxy_section(), re.S)
             for line in block.splitlines() if " serve " in f"{line} "]
    assert len(lines) == 1, f"docs/deploying.md's proxy section should show one serve command: {lines}"
    words = shlex.split(lines[0])
    env = dict(word.split("=", 1) for word in words if "=" in word and not word.startswith("-"))
    command = [word for word in words if word not in {f"{k}={v}" for k, v in env.items()}]
    assert command[0].endswith("scorekeeper") and command[1] == "serve", lines[0]
    return env, command[2:]


def readme_nginx_location(app_port: int) -> str:
    """docs/deploying.md's nginx ``location`` block, word for word, with the app's port in
    place of the documented 5000."""
    blocks = re.findall(r"```nginx\n(.*?)```", proxy_section(), re.S)
    assert len(blocks) == 1, "docs/deploying.md's proxy section should hold one nginx block"
    block = blocks[0]
    assert block.count("proxy_pass http://127.0.0.1:5000;") == 1, block
    return block.replace("127.0.0.1:5000", f"127.0.0.1:{app_port}")


# --------------------------------------------------------------------------- processes


def nginx_binary() -> str:
    """nginx's path; skips the test where it is missing, except in CI (CI=true), where the
    test must run (.ci/run installs Debian's nginx) and a missing nginx fails it."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None)
    if found:
        return found
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        pytest.fail("nginx is missing, and in CI the reverse-proxy tests must run: .ci/run installs it "
                    "(apt-get install nginx)")
    pytest.skip("nginx is not installed: apt-get install nginx (Debian's package) to run the "
                "reverse-proxy tests")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_listening(port: int, process: subprocess.Popen) -> bool:
    """True once something accepts on 127.0.0.1:``port``; False if ``process`` ended first."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"nothing listened on port {port} within {TIMEOUT} s")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM (waitress and nginx both stop on it), then SIGKILL if it lingers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=TIMEOUT)


@dataclass(frozen=True)
class Group:
    """The served database's group (its play link ``token``) and a game of it."""

    token: str
    game_id: str


@dataclass
class Served:
    """A running ``scorekeeper serve``: its ``port``, ``database``, the ``group`` in it
    and what it printed (``output()``)."""

    port: int
    database: Path
    log: Path
    process: subprocess.Popen = field(repr=False)
    group: Group

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def make_group(database: Path) -> Group:
    """A database with a group and a game in it, made before the server starts."""
    db = connect(str(database))
    try:
        migrate(db)
        group = groups.only_group(db)
        return Group(group.token, store.create_game(db, from_dict(game_file()), group_id=group.id))
    finally:
        db.conn.close()


def answers_the_link(client: Client, token: str) -> bool:
    """Whether the server behind ``client`` is ours: it knows the group's link (a
    random 32-character token), so no other server on the port it found listening."""
    try:
        return client.get(f"/g/{token}").status == 302
    except (OSError, http.client.HTTPException):
        return False


@contextmanager
def scorekeeper_serve(folder: Path, args: list[str], settings: Mapping[str, str]) -> Iterator[Served]:
    """``scorekeeper serve ARGS`` (its ``--port`` replaced by a free one) with
    ``settings`` as SCOREKEEPER_* environment variables and no other, on ``folder`` as
    its instance folder, whose database holds ``served.group`` (make_group); stopped
    when the block ends."""
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "scorekeeper.sqlite3"
    group = make_group(database)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.update({"SCOREKEEPER_INSTANCE_PATH": str(folder), "SCOREKEEPER_DATABASE": str(database),
                "SCOREKEEPER_SECRET_KEY": "proxy-tests-" + "k" * 32, **settings})
    script = Path(sys.executable).with_name("scorekeeper")
    command = [str(script)] if script.exists() else [sys.executable, "-c", "from scorekeeper.cli import main; main()"]
    for attempt in range(3):  # a free port may be taken before the server binds it
        port = free_port()
        argv = list(args)
        argv[argv.index("--port") + 1] = str(port)
        log = folder / f"serve-{port}.log"
        with log.open("w") as out:
            process = subprocess.Popen([*command, "serve", *argv], env=env, cwd=folder, stdout=out,
                                       stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if _wait_listening(port, process) and answers_the_link(Client(port, "127.0.0.1", f"127.0.0.1:{port}"),
                                                               group.token):
            break
        _stop(process)
        if attempt == 2:
            pytest.fail(f"scorekeeper serve did not start:\n{log.read_text()}")
    try:
        yield Served(port, database, log, process, group)
    finally:
        _stop(process)


@dataclass
class Nginx:
    """A running nginx: ``https_port`` and ``http_port`` on 127.0.0.1, and ``ca`` (the
    trustme CA its certificate comes from)."""

    https_port: int
    http_port: int
    ca: Any


@contextmanager
def nginx(folder: Path, location: str, token: str) -> Iterator[Nginx]:
    """nginx in the foreground with prefix ``folder``: one server block for PUBLIC_HOST
    with ``location`` inside, on 127.0.0.1 over HTTPS and over plain HTTP, started once
    both answer the group link ``token`` from the app behind; stopped when the block
    ends. As root, its workers run as root too (otherwise as nobody, which may not enter
    pytest's 0700 temporary folders to buffer a long page)."""
    import trustme

    binary = nginx_binary()
    folder.mkdir(parents=True, exist_ok=True)
    ca = trustme.CA()
    certificate = ca.issue_cert(PUBLIC_HOST, "127.0.0.1")
    certificate.cert_chain_pems[0].write_to_path(folder / "cert.pem")
    certificate.private_key_pem.write_to_path(folder / "key.pem")
    user = "user root;\n" if os.geteuid() == 0 else ""
    for attempt in range(3):
        https_port, http_port = free_port(), free_port()
        conf = folder / "nginx.conf"
        conf.write_text(f"""{user}worker_processes 1;
error_log {folder}/error.log warn;
events {{ worker_connections 64; }}
http {{
    access_log off;
    client_body_temp_path {folder}/client_body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    server {{
        listen 127.0.0.1:{https_port} ssl;
        listen 127.0.0.1:{http_port};
        server_name {PUBLIC_HOST};
        ssl_certificate {folder}/cert.pem;
        ssl_certificate_key {folder}/key.pem;
{location}
    }}
}}
""")
        with (folder / "nginx.out").open("w") as out:
            process = subprocess.Popen(
                [binary, "-e", f"{folder}/error.log", "-p", str(folder), "-c", str(conf),
                 "-g", f"daemon off; pid {folder}/nginx.pid;"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        if (_wait_listening(https_port, process) and _wait_listening(http_port, process)
                and answers_the_link(Client(https_port, "127.0.0.1", ca=ca), token)
                and answers_the_link(Client(http_port, "127.0.0.1"), token)):
            break
        _stop(process)
        if attempt == 2:
            pytest.fail("nginx did not start:\n" + (folder / "nginx.out").read_text()
                        + (folder / "error.log").read_text(errors="replace"))
    try:
        yield Nginx(https_port, http_port, ca)
    finally:
        _stop(process)


# --------------------------------------------------------------------------- a browser


class Client:
    """One browser at ``source`` (a loopback address, 127.0.0.x) talking to 127.0.0.1:
    ``port``, over HTTPS trusting ``ca`` (a trustme CA) or over plain HTTP (``ca=None``).
    Sends ``host`` as its Host header; keeps the cookies it is given and sends them back;
    redirects are not followed (the 302 of a save is what a test looks at)."""

    def __init__(self, port: int, source: str, host: str = PUBLIC_HOST, ca: Any = None) -> None:
        self.port, self.source, self.host = port, source, host
        self.context: ssl.SSLContext | None = None
        if ca is not None:
            self.context = ssl.create_default_context()
            ca.configure_trust(self.context)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: Mapping[str, str] | None = None, host: str | None = None) -> Reply:
        kind = http.client.HTTPSConnection if self.context else http.client.HTTPConnection
        options: dict[str, Any] = {"context": self.context} if self.context else {}
        connection = kind("127.0.0.1", self.port, timeout=TIMEOUT, source_address=(self.source, 0), **options)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", host if host is not None else self.host)
            if self.cookies:
                connection.putheader("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
            if body is not None:
                connection.putheader("Content-Type", "application/x-www-form-urlencoded")
                connection.putheader("Content-Length", str(len(body)))
            for name, value in (headers or {}).items():
                connection.putheader(name, value)
            connection.endheaders(body)
            response = connection.getresponse()
            reply = Reply(response.status, response.headers, response.read().decode("utf-8", "replace"))
        finally:
            connection.close()
        for line in reply.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(line)
            for name, morsel in jar.items():
                self.cookies[name] = morsel.coded_value
        return reply

    def get(self, path: str, **kwargs: Any) -> Reply:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, fields: Mapping[str, Any], **kwargs: Any) -> Reply:
        return self.request("POST", path, urlencode(fields, doseq=True).encode(), **kwargs)


def set_cookie(reply: Reply, name: str = "session") -> str:
    """The Set-Cookie header of cookie ``name`` in ``reply`` (fails when there is none)."""
    found = [line for line in reply.headers.get_all("Set-Cookie") or [] if line.startswith(f"{name}=")]
    assert found, f"no {name} cookie set: {reply!r} {reply.headers.get_all('Set-Cookie')}"
    return found[0]


def cookie_flags(line: str) -> set[str]:
    """The attribute names of a Set-Cookie line, lower-cased: {"secure", "httponly", …}."""
    return {part.split("=", 1)[0].strip().lower() for part in line.split(";")[1:]}
