"""``gravekeeper hub --mqtt mqtt://HOST:PORT[/EVENT] [--data DIR] [--host H] [--port N] [--http]``.

Prints ``dashboard: URL`` and ``arbiter: URL``, then serves until stopped (SIGINT/SIGTERM).
A broker that refuses the URL's user name or password, or whose TLS certificate the CA does
not vouch for, ends it at start with one line and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Final

from referee.app.hub.schema import HubError, MqttUrl, parse_mqtt_url
from referee.app.hub.server import Hub, arbiter_token, build_app
from referee.app.hub.store import Store
from referee.app.listen import ListenError, bind_socket, ensure_certificate, public_host

#: How long the hub waits for the broker's first answer before serving anyway (seconds): a
#: refused password or an untrusted certificate comes back at once and ends the hub (exit 2); a
#: broker that is merely away is retried while the hub serves what it has.
FIRST_ANSWER: Final = 10.0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gravekeeper hub",
                                description="the event's hub: dashboard, arbiter, PGN broadcast")
    p.add_argument("--mqtt", required=True, help="mqtt://HOST:PORT[/EVENT] (mqtts:// for TLS)")
    p.add_argument("--data", default="gravekeeper-hub", help="folder for the store (made if new)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on")
    p.add_argument("--port", type=int, default=8443, help="port to listen on (0: any free one)")
    p.add_argument("--http", action="store_true", help="plain HTTP (trusted network, tests)")
    return p


def hub_main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        url = parse_mqtt_url(args.mqtt)
        if not 0 <= args.port <= 65535:
            raise HubError(f"--port {args.port} is not a port number (0-65535)")
        data = Path(args.data)
        data.mkdir(parents=True, exist_ok=True)
        store = Store(data / "hub.sqlite3")
        store.boards()  # opens (and if new, makes) the store now: a bad folder fails here
        token = arbiter_token(data)
    except (HubError, OSError) as exc:
        print(f"gravekeeper hub: {exc}", file=sys.stderr)
        return 2
    return _serve(args, url, store, token, data)


def _serve(args: argparse.Namespace, url: MqttUrl, store: Store, token: str, data: Path) -> int:
    import uvicorn

    hub = Hub(url, store)
    app = build_app(hub, token)
    host = public_host(args.host)
    cert = key = None
    try:
        sock = bind_socket(args.host, args.port)
        if not args.http:
            cert, key = ensure_certificate(data, host)
    except (ListenError, OSError) as exc:
        print(f"gravekeeper hub: {exc}", file=sys.stderr)
        return 2
    base = f"{'http' if args.http else 'https'}://{host}:{sock.getsockname()[1]}"
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on",
                            ssl_certfile=cert, ssl_keyfile=key)
    server = uvicorn.Server(config)
    hub.start()
    problem = hub.link.first_outcome(FIRST_ANSWER)
    if problem is not None and problem.fatal:   # a setting: retrying cannot help
        hub.stop()
        sock.close()
        print(f"gravekeeper hub: {url.safe()}: {problem.text}", file=sys.stderr)
        return 2
    hub.link.speak(lambda text: print(
        f"gravekeeper hub: {url.safe()}: {text}; the hub serves what it has and keeps retrying",
        file=sys.stderr, flush=True))
    print(f"dashboard: {base}/", flush=True)
    print(f"arbiter: {base}/arbiter/{token}", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        hub.stop()
    return 0
