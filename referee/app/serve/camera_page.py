"""The ``/camera`` page of ``gravekeeper serve phone://``: a phone streams its camera to the
referee.

Why a token of its own: whoever sends the frames moves the pieces of both sides as far as the
referee can tell, so the page must not be open to spectators, and neither player should need
the other's page or the arbiter's to set up the phone. ``serve`` prints a fifth line
``camera: URL`` (after the four page lines, which stay as they are); the token is kept with the
others in ``DIR/tokens.json`` (made on the first ``phone://`` run), so a phone on a tripod
reconnects by itself after a restart.

Protocol of ``/camera/ws?token=T`` (docs/api.md): the page sends a JSON ``hello`` with its
camera picture's size, then binary JPEG frames, each only after the previous one was answered
(``ack``), and JSON ``corners`` / ``find`` messages. Each frame may carry the time its camera
took it (a JPEG comment, :func:`referee.app.phone.page_time`); it is read before decoding,
with the frame's arrival, so the sensor times the frame by the camera, not by the link.
Frames are size-limited, checked and decoded off the event loop; a bad frame or message
gets ``{"type": "error"}`` and changes nothing. One camera page at a time: a new one takes
over and the old one is told so (close code 4409), so two phones never interleave their
pictures.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
import secrets
import time
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from firmware_bridge.errors import BridgeError
from referee.app.phone import (
    MAX_FRAME_BYTES,
    FrameError,
    PhoneSensor,
    decode_frame,
    open_phone,
    page_time,
)
from referee.rules.game import Game

MAX_TEXT: Final = 4096
#: uvicorn's WebSocket message limit under phone:// (65536 otherwise): above MAX_FRAME_BYTES,
#: so that an oversized frame gets an error reply; larger still, the socket is closed (1009).
WS_MAX_SIZE: Final = 2 * MAX_FRAME_BYTES
QUEUE_WAIT_S: Final = 10.0
CLOSE_TAKEN_OVER: Final = 4409
CLOSE_FORBIDDEN: Final = 4403


def camera_token(path: Path) -> str:
    """The camera page's token, kept in the tokens file ``path`` (added on first use).

    Raises:
        OSError: the file cannot be read or written. ValueError: it is not a tokens file.
    """
    tokens: dict[str, Any] = {}
    if path.exists():
        try:
            tokens = json.loads(path.read_text("utf-8"))
        except ValueError:
            raise ValueError(f"{path}: not a tokens file (delete it to make new pages)") from None
        if not isinstance(tokens, dict):
            raise ValueError(f"{path}: not a tokens file (delete it to make new pages)")
    token = tokens.get("camera")
    if isinstance(token, str) and len(token) >= 16:
        return token
    tokens["camera"] = token = secrets.token_urlsafe(24)
    new = path.with_name(path.name + ".new")
    fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(tokens, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(new, path)
    return token


def _static(name: str) -> str:
    return resources.files("referee.app.serve").joinpath("static", name).read_text("utf-8")


class CameraPage:
    """The ``/camera`` page, its script and its WebSocket over a :class:`PhoneSensor`.

    ``latest`` gives the spectator's latest snapshot (JSON text), from which each reply carries
    the public game: the number of moves, the last one, the result and the board status.
    """

    ws_max_size: Final = WS_MAX_SIZE

    def __init__(self, sensor: PhoneSensor, token: str) -> None:
        self.sensor = sensor
        self.token = token
        self.latest: Callable[[], str | None] = lambda: None
        self._active: WebSocket | None = None
        self._public: tuple[str | None, dict[str, Any]] = (None, {})

    def url(self, spectator_url: str) -> str:
        """The page's URL, next to the spectator page's."""
        return f"{spectator_url.rstrip('/')}/camera/{self.token}"

    def mount(self, app: Any, latest: Callable[[], str | None]) -> None:
        """Add the page's routes to the Starlette ``app``."""
        self.latest = latest
        app.router.routes.extend(self.routes())

    def routes(self) -> list[BaseRoute]:
        return [Route("/camera", self._no_token), Route("/camera.js", self._script),
                Route("/camera/{token}", self._page), WebSocketRoute("/camera/ws", self._socket)]

    def _allowed(self, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token).encode(), self.token.encode())

    async def _no_token(self, request: Request) -> Response:
        return PlainTextResponse("the camera page needs the camera: URL that serve printed",
                                 status_code=403)

    async def _page(self, request: Request) -> Response:
        if not self._allowed(request.path_params["token"]):
            return PlainTextResponse("unknown page", status_code=403)
        return Response(_static("camera.html"), media_type="text/html",
                        headers={"Cache-Control": "no-store"})

    async def _script(self, request: Request) -> Response:
        return Response(_static("camera.js"), media_type="text/javascript")

    # ------------------------------------------------------------------ the socket

    async def _socket(self, ws: WebSocket) -> None:
        await ws.accept()
        if not self._allowed(ws.query_params.get("token")):
            await ws.send_text(json.dumps({"type": "error", "code": 403,
                                           "error": "not the camera page's token"}))
            await ws.close(code=CLOSE_FORBIDDEN)
            return
        previous, self._active = self._active, ws
        if previous is not None:
            with contextlib.suppress(Exception):  # it may be gone already
                await previous.send_text(json.dumps({
                    "type": "error", "code": 409, "error": "another camera page took over"}))
                await previous.close(code=CLOSE_TAKEN_OVER)
        try:
            await self._serve(ws)
        finally:
            if self._active is ws:
                self._active = None
                self.sensor.page_gone()

    async def _serve(self, ws: WebSocket) -> None:
        received = 0
        while True:
            try:
                message = await ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message.get("type") == "websocket.disconnect" or self._active is not ws:
                return
            data, text = message.get("bytes"), message.get("text")
            try:
                if isinstance(data, bytes):
                    received += 1
                    reply = await self._frame(data, received)
                elif isinstance(text, str):
                    reply = self._control(text)
                else:
                    raise FrameError(400, "an empty message")
            except FrameError as err:
                reply = {"type": "error", "code": err.code, "error": err.message}
            except BridgeError as err:  # serve is stopping
                reply = {"type": "error", "code": 503, "error": str(err)}
            try:
                await ws.send_text(json.dumps(reply))
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    async def _frame(self, data: bytes, received: int) -> dict[str, Any]:
        if len(data) > MAX_FRAME_BYTES:
            raise FrameError(413, f"a frame of {len(data)} bytes (at most {MAX_FRAME_BYTES})")
        arrived = self.sensor.now()  # before decoding: the page's time is aligned to this
        taken = page_time(data)
        frame = await asyncio.to_thread(decode_frame, data)
        deadline = time.monotonic() + QUEUE_WAIT_S
        while not self.sensor.offer(frame, taken, arrived):  # the referee is behind: wait
            if time.monotonic() > deadline:
                raise FrameError(503, "the referee is busy; frame dropped")
            await asyncio.sleep(0.02)
        return self._reply("ack", n=received)

    def _control(self, text: str) -> dict[str, Any]:
        if len(text) > MAX_TEXT:
            raise FrameError(413, f"a message over {MAX_TEXT} characters")
        try:
            data = json.loads(text)
        except ValueError:
            raise FrameError(400, "not JSON") from None
        if not isinstance(data, dict):
            raise FrameError(400, "expected a JSON object")
        kind = data.get("type")
        if kind == "hello":
            width, height = data.get("width"), data.get("height")
            if not (isinstance(width, int) and isinstance(height, int)) \
                    or isinstance(width, bool) or isinstance(height, bool):
                raise FrameError(400, "hello needs the camera picture's width and height")
            self.sensor.page_connected(width, height)
            return self._reply("hello", max_frame=MAX_FRAME_BYTES)
        if kind == "corners":
            self.sensor.set_corners(data.get("corners"))
            return self._reply("corners")
        if kind == "find":
            self.sensor.find()
            return self._reply("corners")
        raise FrameError(400, "type must be hello, corners or find (frames are binary JPEG)")

    def _reply(self, kind: str, **extra: Any) -> dict[str, Any]:
        return {"type": kind, **extra, "camera": self.sensor.state().as_json(),
                "game": self._game()}

    def _game(self) -> dict[str, Any]:
        """The public game (from the spectator's snapshot: nothing a spectator cannot see)."""
        text = self.latest()
        if text is not self._public[0]:
            game: dict[str, Any] = {}
            if text is not None:
                view = json.loads(text)
                moves = view.get("moves", [])
                game = {"moves": len(moves), "last": view.get("last", ""),
                        "to_act": view.get("to_act"), "result": view.get("result"),
                        "reason": view.get("reason"), "status": view.get("status")}
            self._public = (text, game)
        return self._public[1]


def open_camera_page(url: str, game: Game, tokens_file: Path) -> CameraPage:
    """The camera page for ``phone://`` ``url``: its sensor (opened) and token.

    Raises:
        BadSensorUrl: a malformed URL (see :func:`referee.app.phone.parse_phone_url`).
        OSError / ValueError: the tokens file.
    """
    sensor = open_phone(url, game)
    try:
        return CameraPage(sensor, camera_token(tokens_file))
    except BaseException:
        sensor.close()
        raise
