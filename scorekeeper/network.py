"""Which address the other phones at the table open: for the score sheet's "Join from
another phone" QR code and for what ``scorekeeper serve`` prints. No Flask here.

Two sources of an address:

- the one a request came in on (``http://192.168.1.20:5000/``): whoever reached the server
  that way can be followed by the phone beside them;
- ``PUBLIC_URL``, set by ``scorekeeper serve`` from the address it listens on (for 0.0.0.0,
  the machine's Wi-Fi address found with ifaddr). It matters only when the page was opened
  on the serving computer itself (``http://127.0.0.1:5000/``), an address no phone can use.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

# How `scorekeeper serve --host` says "every network interface"
ALL_INTERFACES = ("0.0.0.0", "::", "")

# The private ranges a home or pub router hands out, most likely first (RFC 1918)
PRIVATE_RANGES = tuple(ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"))

# Adapters that only reach containers and virtual machines on this computer, never a phone:
# Docker, Podman, libvirt, LXC/LXD, Kubernetes, VirtualBox and VMware host-only networks
# (names on Linux and macOS; Windows calls Hyper-V's switches "vEthernet (…)")
VIRTUAL_ADAPTERS = ("docker", "br-", "veth", "virbr", "lxcbr", "lxdbr", "cni", "flannel",
                    "podman", "vboxnet", "vmnet", "vethernet")


def host_name(host: str) -> str:
    """The name or address of a ``Host`` header without its port: "127.0.0.1:5000" →
    "127.0.0.1", "[::1]:5000" → "::1", "Localhost" → "localhost"."""
    try:
        return (urlsplit(f"//{host}").hostname or "").rstrip(".")
    except ValueError:  # a Host header no URL can hold, e.g. "[::1"
        return ""


#: A Host header's parts: a name or a bracketed IPv6 address, then a port of digits if any
_HOST_AND_PORT = re.compile(r"(?P<name>\[[^\]]*\]|[^:\[\]]*)(?::(?P<port>[0-9]*))?")
#: Never in a name or address a link can hold: a list ("a, b"), a space, a path, a user
_NOT_IN_A_HOST = frozenset(",;@/\\?#%\"'<> \t\r\n")


@lru_cache(maxsize=64)
def phone_address(text: str) -> bool:
    """Whether ``text`` is an address phones can open, which links are written after:
    http(s)://HOST[:PORT][/PATH] (:func:`usable_host`), no query, fragment or space."""
    try:
        parts = urlsplit(text)
        return (parts.scheme in ("http", "https") and usable_host(parts.netloc)
                and not parts.query and not parts.fragment and not any(c.isspace() for c in text))
    except ValueError:  # e.g. "http://[::1"
        return False


def usable_host(host: str) -> bool:
    """Whether a ``Host`` header ("scores.example.org:443", "[::1]:5000") can be written
    into a link and read back: ASCII (a browser sends "bücher.example" as
    "xn--bcher-kva.example"), one name or address, no list, space or path in it; a port,
    when given, of digits 1–65535; the name encodes to IDNA and decodes from it, so every
    label is 1–63 characters and every ``xn--`` label is valid punycode. Werkzeug fails on
    some others as the URL map is bound (BadHost) or ``request.host_url`` is worked out
    (UnicodeError), and writes the rest into broken links ("http:/g/…" for an empty Host,
    "127.0.0.1:-1"): the app answers such a request 400 (scorekeeper.create_app). A Host
    header present but empty is unusable; a request with none at all (HTTP/1.0) never
    comes here: the server's own name stands in (the caller tells them apart).
    Kept for the last 64 hosts: a server sees a few, each on every request."""
    parts = _HOST_AND_PORT.fullmatch(host) if host.isascii() else None  # IDNA is ASCII on the wire
    if parts is None or not parts["name"] or _NOT_IN_A_HOST.intersection(host):
        return False
    port = parts["port"]
    if port is not None and not (0 < len(port) <= 5 and 1 <= int(port) <= 65535):
        return False
    name = parts["name"]
    if name.startswith("["):
        try:
            return ipaddress.ip_address(name[1:-1]).version == 6
        except ValueError:
            return False
    try:
        name.encode("idna").decode("idna")
    except UnicodeError:
        return False
    return True


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a bare address or name, or a Host header with its port) names
    this computer only: localhost, 127.0.0.0/8 or ::1 — an address no other phone opens."""
    for name in (host.strip("[]"), host_name(host)):
        if name == "localhost" or name.endswith(".localhost"):
            return True
        try:
            if ipaddress.ip_address(name).is_loopback:
                return True
        except ValueError:
            pass
    return False


def server_url(host: str, port: int) -> str:
    """``http://HOST:PORT`` for a listening address; an IPv6 address goes in brackets
    (``http://[fd00::5]:5000``). No trailing slash."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


def game_address(path: str, host_url: str, public_url: str | None) -> str:
    """The address another phone opens for the page at ``path`` ("/games/Xy3…").

    host_url: what the request came in on, scheme and host ("http://192.168.1.20:5000/");
    public_url: ``PUBLIC_URL`` from the app's config, or None. PUBLIC_URL is used only when
    the request came in on a loopback host (the page was opened on the serving computer);
    otherwise the request's own address is the one the other phones can reach too.
    """
    base = host_url
    if public_url and is_loopback(urlsplit(host_url).netloc):
        base = public_url
    return base.rstrip("/") + "/" + path.lstrip("/")


def _is_virtual(adapter: Any) -> bool:
    names = (str(adapter.name).casefold(), str(adapter.nice_name).casefold())
    return any(name.startswith(VIRTUAL_ADAPTERS) for name in names)


def _rank(address: ipaddress.IPv4Address) -> int:
    """0 for 192.168/16, 1 for 10/8, 2 for 172.16/12, 3 for any other (say a VPN's 100.64/10
    or a public address): the order in which a phone on the Wi-Fi is likely to reach it."""
    for rank, network in enumerate(PRIVATE_RANGES):
        if address in network:
            return rank
    return len(PRIVATE_RANGES)


def lan_addresses(adapters: Iterable[Any]) -> list[str]:
    """This computer's IPv4 addresses that a phone on the same network could open, most
    likely first: private ranges (192.168, 10, 172.16–31) before others, otherwise in the
    adapters' order; no duplicates.

    adapters: ifaddr.Adapter-like objects (``name``, ``nice_name``, ``ips`` of objects with
    ``ip``: a str for IPv4, a tuple for IPv6). Left out: IPv6, loopback (127/8), link-local
    (169.254/16, a network without a DHCP server), unspecified and multicast addresses, and
    adapters of containers and virtual machines (VIRTUAL_ADAPTERS).
    """
    found: list[ipaddress.IPv4Address] = []
    for adapter in adapters:
        if _is_virtual(adapter):
            continue
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6: (address, flowinfo, scope_id)
                continue
            try:
                address = ipaddress.IPv4Address(ip.ip)
            except ValueError:
                continue
            if (address.is_loopback or address.is_link_local or address.is_unspecified
                    or address.is_multicast or address in found):
                continue
            found.append(address)
    return [str(a) for a in sorted(found, key=_rank)]  # sorted() is stable: adapters' order within a rank


def machine_addresses() -> list[str]:
    """lan_addresses() of this computer's network adapters, as ifaddr lists them."""
    import ifaddr

    return lan_addresses(ifaddr.get_adapters())


def phone_urls(host: str, port: int) -> list[str]:
    """The addresses phones open for a server listening on ``host``:``port``, most likely
    first ("http://192.168.1.20:5000", no trailing slash); [] when no phone can reach it.

    host: as given to ``scorekeeper serve --host``. Every interface (ALL_INTERFACES): one
    address for each of machine_addresses(); a loopback host: none; any other host (an
    address or a name): that one.
    """
    if host in ALL_INTERFACES:
        return [server_url(address, port) for address in machine_addresses()]
    if is_loopback(host):
        return []
    return [server_url(host, port)]
