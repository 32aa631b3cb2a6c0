"""``gravekeeper serve SENSOR_URL --variant V``: one board's referee as a web service.

Why it prints the four page lines first and exactly: scripts, the systemd journal and the
tests read them to find the pages. The player and arbiter URLs carry unguessable tokens
(160 random bits, upper-case base32 so that a QR code of the page fits the board's small
display, :mod:`referee.app.serve.joincodes`) kept in the data directory, so that a restart
(after a crash or a power cut) gives the same URLs and the phones' open pages reconnect by
themselves. HTTPS is the default because phones refuse some APIs on plain HTTP; the
self-signed certificate is made on the first run and kept in the data directory too.

The game runs on the shared live session (:func:`referee.app.runner.open_session`), so
``serve --rig FILE`` drives the rig's LEDs, display, buttons and clock exactly as ``watch
--rig`` does; without a rig, the sensor board's own LEDs when it has some, and no display.
One difference, because ``serve`` is a service started at boot: when the rig's LED chain or
display cannot be opened on this machine (not given by ``--leds`` / ``--display``), it says so
in one line on stderr and goes on with the board's own LEDs and no display, where ``watch``
stops. The game store is the referee's recorder.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import dataclasses
import json
import os
import secrets
import signal
import sys
from pathlib import Path
from typing import Any, TextIO

from firmware_bridge.errors import BridgeError
from firmware_bridge.rig import load_rig
from hardware.errors import BackendUnavailable, DeviceNotFound, HardwareError
from referee.app.errors import CommandParser, int_in
from referee.app.listen import ListenError, bind_socket, ensure_certificate, public_host
from referee.app.runner import add_live_arguments
from referee.rules.errors import RefereeError
from referee.rules.variants import make_variant

ROLES = ("white", "black", "arbiter")


class ServeError(Exception):
    """A start-up problem, reported as one line on stderr (exit status 2)."""


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``gravekeeper serve``."""
    parser = CommandParser(prog="gravekeeper serve")
    parser.add_argument("url", help="sensor URL: sim://..., serial://..., dgt://..., replay://..., "
                        "phone:// (the /camera page)")
    add_live_arguments(parser)
    parser.add_argument("--data", default="gravekeeper-data",
                        help="directory for the game store, tokens and certificate")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on")
    parser.add_argument("--port", type=int_in(0, 65_535), default=None,
                        help="port (default 8443 with HTTPS, 8080 with --http; 0 = any free)")
    parser.add_argument("--http", action="store_true", help="plain HTTP (trusted network, tests)")
    parser.add_argument("--qr", choices=("auto", "yes", "no"), default="auto",
                        help="QR codes of the player pages on stderr (auto: when a terminal)")
    return parser


def serve_main(argv: list[str]) -> int:
    """Entry point; returns the exit status (2 for bad arguments or an unusable sensor)."""
    args = build_parser().parse_args(argv)
    try:
        return _serve(args)
    except (ServeError, ListenError, RefereeError, BridgeError, HardwareError, OSError,
            ValueError) as err:
        sys.stderr.write(f"gravekeeper serve: {err}\n")
        return 2


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from hardware.clock import ChessClock, TimeControl
    from referee.app.cli import _options
    from referee.app.hub.link import status_of
    from referee.app.runner import SessionSettings, open_session
    from referee.app.serve.joincodes import JoinCodes
    from referee.app.serve.live import LiveGame, StoreRecorder
    from referee.app.serve.sockets import ServeWebSocketProtocol
    from referee.app.serve.store import GameStore
    from referee.app.serve.web import Hub, build_app

    options = _options(args.options)
    variant = make_variant(args.variant, options)  # checks variant and options first
    if args.clock:
        TimeControl.parse(args.clock)  # a bad time control is reported before anything else
    rig = load_rig(args.rig) if args.rig else None
    data = Path(args.data)
    data.mkdir(parents=True, exist_ok=True)
    tokens = load_tokens(data / "tokens.json")
    store = GameStore(data / "games.sqlite")
    stored = store.latest_open(variant.name, variant.options)
    if stored is None:
        stored = store.new_game(variant.name, variant.options, secrets.randbelow(2**31))
    clock = None
    if args.clock:
        control = TimeControl.parse(args.clock)
        if stored.clock is None:
            clock = ChessClock(control)
        else:  # resume with the times stored after the last action
            clock = ChessClock.resumed(control, *stored.clock)
    port = args.port if args.port is not None else (8080 if args.http else 8443)
    sock = bind_socket(args.host, port)
    ssl: dict[str, Any] = {}
    if not args.http:
        cert, key = ensure_certificate(data, public_host(args.host))
        ssl = {"ssl_certfile": str(cert), "ssl_keyfile": str(key)}
    urls = page_urls("http" if args.http else "https", public_host(args.host),
                     sock.getsockname()[1], tokens)
    link = _hub_link(args, urls, stored.id)
    settings = SessionSettings(
        variant=variant.name, options=variant.options, seed=stored.seed,
        settle_ms=args.settle, time_control=args.clock, hardware=True,
        leds=args.leds or (None if rig else "auto"),
        display=args.display or (None if rig else "none"), phones=True)
    game = store.replay(stored)
    camera = None  # phone:// (issue 14): the /camera page's frames are the sensor
    if args.url.startswith("phone://"):
        from referee.app.serve.camera_page import open_camera_page

        camera = open_camera_page(args.url, game, data / "tokens.json")  # (it copies the state)
    hub = Hub()

    def publish(views: dict[str, str]) -> None:
        hub.publish_threadsafe(views)
        if link is not None and live is not None:
            situation = live.situation
            link.publish(live.game, status_of(situation.status_kind, situation.paused),
                         clock=situation.clock, players=situation.players)

    live: LiveGame | None = None
    with contextlib.ExitStack() as stack:
        stack.callback(store.close)
        if link is not None:
            stack.callback(link.close)

        def clock_times() -> tuple[float, float] | None:
            return None if live is None else live.clock_times()

        recorder = StoreRecorder(store, stored.id, clock_times)
        sensor = None if camera is None else camera.sensor
        try:
            session = stack.enter_context(open_session(args.url, game, settings, rig=rig,
                                                       clock=clock, journal=recorder,
                                                       sensor=sensor))
        except (BackendUnavailable, DeviceNotFound) as err:
            if args.leds or args.display:
                raise  # asked for by name: that is an error
            # A service goes on with what it has (the pages are its main output) rather than
            # fail at every boot because the rig's LED chain or display is not there.
            sys.stderr.write(f"gravekeeper serve: {err}; going on with the sensor board's "
                             "own LEDs (if any) and no display\n")
            settings = dataclasses.replace(settings, leds="auto", display="none")
            session = stack.enter_context(open_session(args.url, game, settings, rig=rig,
                                                       clock=clock, journal=recorder,
                                                       sensor=sensor))
        output = session.output
        codes = None
        if output is not None and output.display is not None and \
                not getattr(output.display, "character", False):  # a text LCD shows no code
            codes = JoinCodes(output, urls, game)
        live = LiveGame(store, stored, session, publish, codes)
        if link is not None:
            link.start(live.hub_command)  # the hub's arbiter runs like the arbiter page
        app = build_app(live, hub, tokens)
        if camera is not None:  # phone://: the /camera page and its WebSocket
            camera.mount(app, lambda: hub.latest.get("spectator"))
        config = uvicorn.Config(app, log_level="warning", ws=ServeWebSocketProtocol,
                                lifespan="on", timeout_graceful_shutdown=2,
                                ws_max_size=65536 if camera is None else camera.ws_max_size,
                                **ssl)
        server = uvicorn.Server(config)

        # A stop request at any moment from here on ends the service cleanly (status 0):
        # before uvicorn runs it is remembered; uvicorn re-raises the signal it caught once
        # it has shut down, and this handler makes that harmless too.
        def stop_request(signum: int, frame: object) -> None:
            server.should_exit = True

        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, stop_request)
        for role, url in urls.items():
            sys.stdout.write(f"{role}: {url}\n")
        if camera is not None:  # phone://: a fifth line, after the four stable ones
            sys.stdout.write(f"camera: {camera.url(urls['spectator'])}\n")
        sys.stdout.flush()
        if args.qr == "yes" or (args.qr == "auto" and sys.stderr.isatty()):
            print_qr(urls, sys.stderr)
            if camera is not None:  # phone://: the page to open on the phone
                print_qr({"camera": camera.url(urls["spectator"])}, sys.stderr,
                         roles=("camera",))
        asyncio.run(server.serve(sockets=[sock]))
    return 0


def _hub_link(args: argparse.Namespace, urls: dict[str, str], game_id: int) -> Any:
    """The club hub link of ``--hub`` (checked before anything starts), or None."""
    if not args.hub:
        return None
    from referee.app.hub.link import HubLink

    try:
        return HubLink(args.hub, args.board, str(game_id), urls=urls, say=_say_hub)
    except RefereeError as err:
        raise ServeError(str(err)) from None


def load_tokens(path: Path) -> dict[str, str]:
    """The pages' tokens, made on first use and kept (owner-only) in ``path``."""
    if path.exists():
        try:
            tokens = json.loads(path.read_text("utf-8"))
        except ValueError:
            raise ServeError(f"{path}: not a tokens file (delete it to make new pages)") from None
        if isinstance(tokens, dict) and all(isinstance(tokens.get(r), str) for r in ROLES):
            return {r: str(tokens[r]) for r in ROLES}
        raise ServeError(f"{path}: not a tokens file (delete it to make new pages)")
    tokens = {role: new_token() for role in ROLES}
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(tokens, handle)
        handle.flush()
        os.fsync(handle.fileno())
    return tokens


def new_token() -> str:
    """160 random bits as 32 upper-case base32 characters (QR alphanumeric mode)."""
    return base64.b32encode(secrets.token_bytes(20)).decode("ascii")


def page_urls(scheme: str, host: str, port: int, tokens: dict[str, str]) -> dict[str, str]:
    """spectator, white, black, arbiter -> URL."""
    base = f"{scheme}://{_url_host(host)}:{port}"
    return {"spectator": f"{base}/", "white": f"{base}/p/{tokens['white']}",
            "black": f"{base}/p/{tokens['black']}", "arbiter": f"{base}/a/{tokens['arbiter']}"}


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def print_qr(urls: dict[str, str], out: TextIO,
             roles: tuple[str, ...] = ("white", "black")) -> None:
    """The player pages as QR codes for the terminal (scan with the phone's camera)."""
    import segno

    for role in roles:
        out.write(f"{role} page:\n")
        segno.make(urls[role], error="l").terminal(out=out, compact=True)
    out.flush()


def _say_hub(line: str) -> None:
    """A hub connection problem, once per outage, on serve's stderr."""
    sys.stderr.write(f"gravekeeper serve: {line}\n")
    sys.stderr.flush()
