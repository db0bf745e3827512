"""The address phones should use to reach the table: what a QR code encodes."""

from __future__ import annotations

import socket

from fastapi import Request

LOCAL_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None offline."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return s.getsockname()[0]
        except OSError:
            return None


def table_url(request: Request, port: int) -> str:
    """The base URL for phones: the Host the table's browser used, unless that is the loopback
    (a phone cannot reach the Pi's localhost), then the LAN address."""
    host = request.url.hostname or "localhost"
    actual_port = request.url.port or port
    if host in LOCAL_NAMES:
        host = lan_address() or host
    return f"{request.url.scheme}://{host}:{actual_port}"
