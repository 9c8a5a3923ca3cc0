"""Finding hosted battles on the LAN (mDNS / DNS-SD with ``zeroconf``).

A host advertises ``_hexfront._tcp.local.`` with its port, scenario and
configuration - never its join code: the code is the invitation, read from the
host's screen, so being on the same network is not enough to take the seat.
:func:`browse` lists what answers within a bounded time.  Where multicast is
not available (some networks, containers) advertising and browsing quietly give
nothing and the player types the address instead.
"""
from __future__ import annotations

import socket
import time
from dataclasses import dataclass

__all__ = ["SERVICE", "Advert", "advertise", "browse", "Found"]

SERVICE = "_hexfront._tcp.local."


@dataclass
class Found:
    name: str
    address: str
    port: int
    scenario: str
    config: int

    @property
    def where(self) -> str:
        return f"{self.address}:{self.port}"


class Advert:
    def __init__(self, zc, info) -> None:
        self.zc, self.info = zc, info

    def close(self) -> None:
        try:
            self.zc.unregister_service(self.info)
        finally:
            self.zc.close()


def advertise(port: int, code: str, scenario: str, config: int,
              address: str | None = None, name: str | None = None) -> Advert | None:
    """Announce a hosted battle; None when mDNS is not available here."""
    try:
        from zeroconf import ServiceInfo, Zeroconf
    except ImportError:
        return None
    from .direct import lan_address
    del code                                   # never advertised (see the module doc)
    addr = address or lan_address()
    host = name or socket.gethostname().split(".")[0][:30] or "hexfront"
    info = ServiceInfo(SERVICE, f"{host} {port}.{SERVICE}",
                       addresses=[socket.inet_aton(addr)], port=port,
                       properties={"scenario": scenario, "config": str(config), "v": "1"},
                       server=f"{host}.local.")
    try:
        zc = Zeroconf()
        zc.register_service(info)
    except (OSError, RuntimeError, ValueError):
        return None
    return Advert(zc, info)


def browse(timeout: float = 1.5) -> list[Found]:
    """Battles advertised on the LAN, gathered for ``timeout`` seconds."""
    try:
        from zeroconf import ServiceBrowser, Zeroconf
    except ImportError:
        return []
    names: set[str] = set()

    class Listener:
        def add_service(self, zc, type_, name):
            names.add(name)

        def update_service(self, zc, type_, name):
            names.add(name)

        def remove_service(self, zc, type_, name):
            names.discard(name)
    try:
        zc = Zeroconf()
    except OSError:
        return []
    out: list[Found] = []
    try:
        ServiceBrowser(zc, SERVICE, Listener())
        time.sleep(max(0.1, timeout))
        for n in sorted(names):
            info = zc.get_service_info(SERVICE, n, timeout=500)
            if info is None or not info.addresses:
                continue
            props = {k.decode(): (v.decode() if v else "") for k, v in info.properties.items()}
            try:
                config = int(props.get("config", "0"))
            except ValueError:
                continue
            out.append(Found(n.replace("." + SERVICE, ""), socket.inet_ntoa(info.addresses[0]),
                             info.port, props.get("scenario", "?"), config))
    finally:
        zc.close()
    return out
