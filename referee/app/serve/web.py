"""The HTTP and WebSocket side of ``gravekeeper serve`` (Starlette on uvicorn).

Why full snapshots over the WebSocket: every message is the whole picture for its audience, so
a page that reconnects (after a network drop or a restart of ``serve``) is right with its first
message, and a slow page may skip messages without ever getting out of step. Each connection
has a short queue; when a page cannot keep up, older snapshots are dropped, never newer ones.

Roles come from the token in the URL only. Requests are size-limited and parsed defensively:
a malformed or oversized request or WebSocket message gets an error reply and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from referee.app.serve.live import CommandError, LiveGame
from referee.app.serve.views import SPECTATOR, layout_data

MAX_MESSAGE: Final = 4096
QUEUE_DEPTH: Final = 4
STATIC: Final = {"app.js": "text/javascript", "style.css": "text/css"}
PAGES: Final = {"spectator": "/", "white": "/p/", "black": "/p/", "arbiter": "/a/"}


@dataclass(eq=False)
class Client:
    """One connected page: its audience and its outgoing queue."""

    audience: str
    queue: asyncio.Queue[str]


class Hub:
    """Connected pages, fed from the live game's thread through the event loop."""

    def __init__(self) -> None:
        self.clients: set[Client] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        self.latest: dict[str, str] = {}
        self.ready: asyncio.Event | None = None  # set with the first snapshot (made in the loop)

    def publish_threadsafe(self, views: dict[str, str]) -> None:
        """Called on the game thread after every change."""
        self.latest = views
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._publish, views)

    def _publish(self, views: dict[str, str]) -> None:
        if self.ready is not None:
            self.ready.set()
        for client in self.clients:
            message = views[client.audience]
            if client.queue.full():
                client.queue.get_nowait()  # a slow page skips an old snapshot
            client.queue.put_nowait(message)


def _static(name: str) -> str:
    return resources.files("referee.app.serve").joinpath("static", name).read_text("utf-8")


def build_app(live: LiveGame, hub: Hub, tokens: dict[str, str]) -> Starlette:
    """The web application over ``live`` (``tokens``: role -> token)."""
    roles = {token: role for role, token in tokens.items()}
    page = _static("index.html")

    def role_of(token: str | None) -> str | None:
        if not token:
            return SPECTATOR
        found = None
        for known, role in roles.items():  # constant time per token: no timing hints
            if hmac.compare_digest(known.encode(), token.encode()):
                found = role
        return found

    async def index(request: Request) -> Response:
        return Response(page, media_type="text/html", headers={"Cache-Control": "no-store"})

    async def token_page(request: Request) -> Response:
        role = role_of(request.path_params["token"])
        if role is None or role == SPECTATOR:
            return PlainTextResponse("unknown page", status_code=403)
        wanted = "arbiter" if request.url.path.startswith("/a/") else "player"
        if (role == "arbiter") != (wanted == "arbiter"):
            return PlainTextResponse("unknown page", status_code=403)
        return Response(page, media_type="text/html", headers={"Cache-Control": "no-store"})

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return PlainTextResponse("not found", status_code=404)
        return Response(_static(name), media_type=STATIC[name])

    async def api_game(request: Request) -> Response:
        if hub.ready is not None and not hub.ready.is_set():
            with contextlib.suppress(TimeoutError):  # the game is being loaded
                await asyncio.wait_for(hub.ready.wait(), 10.0)
        text = hub.latest.get(SPECTATOR)
        if text is None:
            return JSONResponse({"error": "starting"}, status_code=503)
        return JSONResponse(api_game_view(json.loads(text)))

    async def api_pgn(request: Request) -> Response:
        reply, code = await _command(live, "reader", {"op": "pgn"})
        if code != 200:
            return JSONResponse(reply, status_code=code)
        return PlainTextResponse(str(reply["pgn"]), media_type="application/x-chess-pgn",
                                 headers={"Content-Disposition":
                                          'attachment; filename="game.pgn"'})

    async def api_command(request: Request) -> Response:
        body = await _limited_body(request)
        if body is None:
            return JSONResponse({"error": "request too large"}, status_code=413)
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return JSONResponse({"error": "not JSON"}, status_code=400)
        if not isinstance(data, dict):
            return JSONResponse({"error": "expected a JSON object"}, status_code=400)
        token = data.get("token")
        role = role_of(token) if isinstance(token, str) and token else None
        if role is None or role == SPECTATOR:
            return JSONResponse({"error": "a valid player or arbiter token is needed"},
                                status_code=403)
        reply, code = await _command(live, role, data)
        return JSONResponse(reply, status_code=code)

    async def websocket(ws: WebSocket) -> None:
        role = role_of(ws.query_params.get("token"))
        await ws.accept()
        if role is None:
            await ws.send_text(json.dumps({"type": "error", "code": 403,
                                           "error": "unknown token"}))
            await ws.close(code=4403)
            return
        audience = role if role in ("white", "black", "arbiter") else SPECTATOR
        client = Client(audience, asyncio.Queue(QUEUE_DEPTH))
        hello = {"type": "hello", "role": audience, "variant": live.game.variant.name,
                 "title": live.game.variant.title, "layout": layout_data(live.game.variant.layout)}
        await ws.send_text(json.dumps(hello))
        hub.clients.add(client)
        if audience in hub.latest:
            client.queue.put_nowait(hub.latest[audience])
        sender = asyncio.create_task(_send(ws, client))
        try:
            await _receive(ws, live, audience)
        finally:
            hub.clients.discard(client)
            sender.cancel()

    routes = [
        Route("/", index), Route("/p/{token}", token_page), Route("/a/{token}", token_page),
        Route("/P/{token}", token_page),  # the upper-case form of the display's QR codes
        Route("/static/{name}", static), Route("/api/game", api_game),
        Route("/api/game.pgn", api_pgn), Route("/api/command", api_command, methods=["POST"]),
        WebSocketRoute("/ws", websocket),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        hub.ready = asyncio.Event()
        live.start()
        try:
            yield
        finally:
            live.stop()

    return Starlette(routes=routes, lifespan=lifespan)


async def _limited_body(request: Request) -> bytes | None:
    """The request body, or None as soon as it is larger than MAX_MESSAGE (never read whole)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_MESSAGE:
        return None
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE:
            return None
    return body


async def _send(ws: WebSocket, client: Client) -> None:
    try:
        while True:
            await ws.send_text(await client.queue.get())
    except (WebSocketDisconnect, RuntimeError, OSError):
        return


async def _receive(ws: WebSocket, live: LiveGame, audience: str) -> None:
    while True:
        try:
            message = await ws.receive()
        except (WebSocketDisconnect, RuntimeError):
            return
        if message.get("type") == "websocket.disconnect":
            return
        text = message.get("text")
        if not isinstance(text, str):  # a binary frame: not part of the protocol
            reply: dict[str, Any] = {"ok": False, "error": "expected a JSON text message"}
            code = 400
        else:
            reply, code = await _parse_and_run(live, audience, text)
        try:
            await ws.send_text(json.dumps({"type": "reply", **reply, "code": code}))
        except (WebSocketDisconnect, RuntimeError, OSError):
            return


async def _parse_and_run(live: LiveGame, audience: str, text: str) -> tuple[dict[str, Any], int]:
    if len(text) > MAX_MESSAGE:
        return {"ok": False, "error": "message too large"}, 413
    try:
        data = json.loads(text)
    except ValueError:
        return {"ok": False, "error": "not JSON"}, 400
    if not isinstance(data, dict):
        return {"ok": False, "error": "expected a JSON object"}, 400
    if audience == SPECTATOR:
        return {"ok": False, "error": "spectators cannot act", "id": data.get("id")}, 403
    reply, code = await _command(live, audience, data)
    reply["id"] = data.get("id") if isinstance(data.get("id"), int | str) else None
    return reply, code


async def _command(live: LiveGame, role: str, data: dict[str, Any]) -> tuple[dict[str, Any], int]:
    wanted = data.get("as")
    if wanted is not None and wanted != role:
        return {"ok": False, "error": f"this token acts for {role} only"}, 403
    future = live.submit(role, data)
    try:
        result: dict[str, Any] = await asyncio.wait_for(asyncio.wrap_future(future), 5.0)
    except CommandError as err:
        return {"ok": False, "error": err.message}, err.code
    except TimeoutError:
        return {"ok": False, "error": "the referee is busy; try again"}, 503
    return {"ok": True, **result}, 200


Handler = Callable[[Request], Awaitable[Response]]


def api_game_view(snapshot: dict[str, Any]) -> dict[str, Any]:
    """``/api/game``: the spectator's snapshot with ``moves`` as plain public action texts
    (the pages' ``{ply, actor, text}`` entries stay in ``plies``; ``sides`` says who acted)."""
    plies = snapshot.get("moves", [])
    return {**snapshot, "moves": [m["text"] for m in plies],
            "sides": [m["actor"] for m in plies], "plies": plies}
