"""The client's address, for rate limits and audit entries.

Behind reverse proxies every request arrives from the proxy; each proxy appends the address it saw to
X-Forwarded-For. That header is the client's own text unless it came through the configured number of trusted proxies
(`TRUSTED_PROXY_HOPS`), so with N hops the client is the N-th entry from the right, and with none the header is
ignored. The same rule as Reflex's `trusted_proxy_hops` (rxconfig passes the setting on), so the API and the websocket
key limits on the same address.
"""

from __future__ import annotations

import ipaddress


def client_address(peer: str | None, forwarded_for: str | None, hops: int) -> str | None:
    """The client's address from the connection's `peer` and the X-Forwarded-For header, given trusted `hops`."""
    if hops <= 0:
        return peer
    chain = [part.strip() for part in (forwarded_for or "").split(",") if part.strip()]
    return chain[-hops] if len(chain) >= hops else peer


def network(ip: str | None) -> str | None:
    """The unit an address is counted in: an IPv4 address itself, an IPv6 address by its /64 (one subscriber gets a
    whole /64 and can use any address in it, so counting single IPv6 addresses would count nothing)."""
    if not ip:
        return None
    try:
        address = ipaddress.ip_address(ip.strip())
    except ValueError:
        return ip  # not an address (a test client's name): counted as it is
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d is an IPv4 client
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
