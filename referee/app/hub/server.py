"""``gravekeeper hub``: the event's hub, an MQTT subscriber with web pages.

One MQTT client (paho, its own network thread, a persistent session so the broker queues QoS 1
messages while the hub is down) writes what the boards publish into the :class:`Store`; the
asyncio web server (Starlette on uvicorn) reads the store and pushes every change to the
dashboards over a WebSocket. The two meet only through the store and
``loop.call_soon_threadsafe``, so no structure is shared between threads without a lock.

Pages and API (docs/hub.md): ``/`` dashboard, ``/board/{id}`` one board, ``/arbiter/{token}``,
``/api/boards``, ``/api/boards/{id}/game``, ``/api/boards/{id}/game.pgn``, ``/broadcast.pgn``,
``/api/event``, ``/ws``; arbiter actions under ``/api/arbiter/{token}/...``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Any, Final

from referee.app.hub import event as ev
from referee.app.hub.connection import LinkState, paho_client, refusal
from referee.app.hub.pgn import public_pgn
from referee.app.hub.schema import (
    HubError,
    MqttUrl,
    check_board_id,
    decode,
    encode,
    field,
    split_topic,
)
from referee.app.hub.store import Store

MAX_BODY: Final = 16 * 1024
#: A board silent for this long (three of its 10 s heartbeats) is shown offline.
SILENT_AFTER: Final = 30.0
STATUSES: Final = ("online", "offline")
COMMANDS: Final = ("pause", "resume", "takeback", "adjudicate", "add_time", "confirm_board")


class Hub:
    """The MQTT side: subscribes to the event and keeps the store up to date."""

    def __init__(self, url: MqttUrl, store: Store, *,
                 client_factory: Callable[[MqttUrl, str], Any] = paho_client) -> None:
        self.url = url
        self.store = store
        self._factory = client_factory
        self._client: Any = None
        self.on_change: Callable[[dict[str, Any]], object] | None = None
        self.rejected = 0
        self.connected = threading.Event()
        #: the connection's problems; quiet until the command has seen the first attempt
        self.link = LinkState(tls=url.tls)

    def start(self) -> None:
        client = self._factory(self.url, f"gravekeeper-hub-{self.url.event}")
        client.on_connect = self._on_connect
        client.on_connect_fail = self.link.on_connect_fail
        client.on_message = self._on_message
        client.on_disconnect = self._on_disconnect
        self._client = client
        client.connect_async(self.url.host, self.url.port, 15)
        client.loop_start()

    def stop(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            client.disconnect()
            client.loop_stop()

    def command(self, board: str, message: dict[str, Any]) -> None:
        """Forward an arbiter command to ``board`` (QoS 1)."""
        if self._client is None:
            raise HubError("the hub is not connected to the broker")
        self._client.publish(self.url.topic(board, "control"), encode(message), 1, False)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            self.link.failed(refusal(reason))
            return
        client.subscribe(f"{self.url.prefix}/boards/+/+", 1)
        self.link.ok()
        self.connected.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any = None) -> None:
        self.connected.clear()
        if self._client is not None:
            self.link.on_disconnect(reason)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        where = split_topic(self.url.prefix, message.topic)
        if where is None or where[1] == "control":
            return
        board, kind = where
        try:
            self.handle(board, kind, decode(message.payload))
        except (HubError, KeyError, TypeError, ValueError):
            self.rejected += 1

    def handle(self, board: str, kind: str, message: dict[str, Any]) -> None:
        """Store one message from ``board`` and tell the pages what changed."""
        t = message.get("t") if isinstance(message.get("t"), int | float) else time.time()
        if kind == "status":
            status = field(message, "status", str)
            if status not in STATUSES:
                raise HubError(f"status {status!r}")
            self.store.board_status(board, status, t)
            self._changed(board, None)
        elif kind == "actions":
            n = field(message, "n", int)
            if n < 1:
                raise HubError("action number below 1")
            stored = self.store.action(board, field(message, "game", str), n,
                                       field(message, "text", str), t,
                                       field(message, "variant", str, optional=True))
            if stored:
                self._changed(board, t)
        elif kind == "state":
            _check_state(message)
            self.store.state(board, message)
            self._changed(board, None)
            if message.get("result", "*") != "*":
                ev.result_from_board(self.store, board, str(message["result"]))
        elif kind == "join":
            urls = message.get("urls")
            if not isinstance(urls, dict) or not all(isinstance(v, str) for v in urls.values()):
                raise HubError("join urls must be an object of strings")
            self.store.join(board, urls)

    def _changed(self, board: str, t: float | None) -> None:
        if self.on_change is not None:
            self.on_change({"type": "board", "board": summary(self.store, board),
                            "action_t": t})


def _check_state(message: dict[str, Any]) -> None:
    field(message, "game", str)
    field(message, "variant", str)
    moves = field(message, "moves", list)
    if not all(isinstance(m, str) for m in moves):
        raise HubError("moves must be strings")
    field(message, "result", str)


def _state(row: Any) -> dict[str, Any]:
    try:
        state = json.loads(row["state"]) if row is not None and row["state"] else {}
    except ValueError:
        state = {}
    return state if isinstance(state, dict) else {}


def summary(store: Store, board: str) -> dict[str, Any]:
    """One board as the dashboard shows it (public only)."""
    row = store.board(board)
    state = _state(row)
    game = row["game"] if row is not None else None
    moves = store.moves(board, game) if game else []
    status = row["status"] if row is not None else "offline"
    seen = row["seen"] if row is not None else None
    if status == "online" and (seen is None or time.time() - seen > SILENT_AFTER):
        status = "offline"   # three heartbeats missed: gone without a last will
    if status == "online":
        status = state.get("status", "playing")
    return {
        "board": board, "status": status, "game": game,
        "variant": state.get("variant"), "title": state.get("title"),
        "players": state.get("players"), "clock": state.get("clock"),
        "to_act": state.get("to_act"), "result": state.get("result", "*"),
        "last": moves[-1] if moves else None, "moves": len(moves),
        "layout": state.get("layout"), "view": state.get("view"),
        "seen": row["seen"] if row is not None else None,
        "spectator_url": state.get("spectator_url"),
    }


def public_game(store: Store, board: str) -> dict[str, Any] | None:
    """``/api/boards/{id}/game``: the shape of ``serve``'s ``/api/game``."""
    row = store.board(board)
    if row is None or not row["game"]:
        return None
    state = _state(row)
    return {**state, "board": board, "moves": store.moves(board, row["game"])}


def game_pgn(store: Store, board: str, round_no: int | None = None) -> str | None:
    game = public_game(store, board)
    if game is None:
        return None
    players = game.get("players") or {}
    headers = {"Event": store.path.stem, "Site": board,
               "White": str(players.get("white", "?")), "Black": str(players.get("black", "?")),
               "Round": str(round_no) if round_no else "?", "Board": board}
    return public_pgn(str(game.get("variant")), str(game.get("title") or game.get("variant")),
                      game["moves"], game.get("sides") or [], str(game.get("result", "*")),
                      headers)


def broadcast(store: Store) -> str:
    """All games of the current round (every board's current game before any round)."""
    rounds = store.rounds()
    if rounds:
        latest = rounds[-1]["round"]
        boards = [row["board"] for row in store.pairings(latest) if row["board"]]
    else:
        latest, boards = None, [row["board"] for row in store.boards()]
    games = [game_pgn(store, board, latest) for board in boards]
    return "\n".join(g for g in games if g)


# ---------------------------------------------------------------------- the web application


def arbiter_token(data_dir: Path) -> str:
    path = data_dir / "arbiter-token"
    if path.is_file():
        token = path.read_text(encoding="utf-8").strip()
        if token:
            return token
    token = secrets.token_urlsafe(18)
    path.write_text(token + "\n", encoding="utf-8")
    path.chmod(0o600)
    return token


def _page(name: str) -> str:
    return resources.files("referee.app.hub").joinpath("static", name).read_text("utf-8")


def build_app(hub: Hub, token: str) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    store = hub.store
    listeners: set[asyncio.Queue[dict[str, Any]]] = set()

    def fan_out(message: dict[str, Any]) -> None:
        for queue in list(listeners):
            if queue.qsize() < 1000:
                queue.put_nowait(message)

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        hub.on_change = lambda message: loop.call_soon_threadsafe(fan_out, message)
        yield
        hub.on_change = None

    def error(status: int, text: str) -> JSONResponse:
        return JSONResponse({"error": text}, status_code=status)

    def board_id(request: Request) -> str | None:
        board = request.path_params["board"]
        try:
            return check_board_id(board)
        except HubError:
            return None

    async def dashboard(request: Request) -> Response:
        return HTMLResponse(_page("dashboard.html"))

    async def board_page(request: Request) -> Response:
        return HTMLResponse(_page("board.html"))

    async def arbiter_page(request: Request) -> Response:
        if not secrets.compare_digest(request.path_params["token"], token):
            return error(403, "wrong arbiter token")
        return HTMLResponse(_page("arbiter.html"))

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        types = {"js": "text/javascript", "css": "text/css"}
        kind = name.rpartition(".")[2]
        if kind not in types or "/" in name:
            return error(404, "no such file")
        try:
            return Response(_page(name), media_type=types[kind])
        except FileNotFoundError:
            return error(404, "no such file")

    async def api_boards(request: Request) -> Response:
        return JSONResponse([summary(store, row["board"]) for row in store.boards()])

    async def api_game(request: Request) -> Response:
        board = board_id(request)
        game = public_game(store, board) if board else None
        return JSONResponse(game) if game else error(404, "no game on that board")

    async def api_game_pgn(request: Request) -> Response:
        board = board_id(request)
        text = game_pgn(store, board) if board else None
        return (PlainTextResponse(text, media_type="application/x-chess-pgn") if text
                else error(404, "no game on that board"))

    async def api_broadcast(request: Request) -> Response:
        return PlainTextResponse(broadcast(store), media_type="application/x-chess-pgn",
                                 headers={"Cache-Control": "no-cache"})

    async def api_event(request: Request) -> Response:
        return JSONResponse(event_view(store))

    async def arbiter_api(request: Request) -> Response:
        if not secrets.compare_digest(request.path_params["token"], token):
            return error(403, "wrong arbiter token")
        what = request.path_params["what"]
        if request.method == "GET":
            return arbiter_get(what)
        body = await _json_body(request)
        if isinstance(body, Response):
            return body
        try:
            return JSONResponse(arbiter_action(hub, what, body))
        except HubError as exc:
            return error(400, str(exc))

    def arbiter_get(what: str) -> Response:
        rows = {row["board"]: row for row in store.boards()}
        if what == "boards":
            return JSONResponse([{**summary(store, b), "join": _join(rows[b])} for b in rows])
        board, _, rest = what.partition("/qr/")
        url = _join(rows[board]).get(rest) if board in rows else None
        if not url:
            return error(404, "no such join code")
        return Response(_qr_svg(url), media_type="image/svg+xml")

    async def ws(socket: WebSocket) -> None:
        await socket.accept()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        listeners.add(queue)
        try:
            await socket.send_json({"type": "boards", "boards": [
                summary(store, row["board"]) for row in store.boards()]})
            while True:
                await socket.send_json(await queue.get())
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            listeners.discard(queue)

    routes = [
        Route("/", dashboard), Route("/board/{board}", board_page),
        Route("/arbiter/{token}", arbiter_page), Route("/static/{name}", static),
        Route("/api/boards", api_boards), Route("/api/boards/{board}/game", api_game),
        Route("/api/boards/{board}/game.pgn", api_game_pgn),
        Route("/broadcast.pgn", api_broadcast), Route("/api/event", api_event),
        Route("/api/arbiter/{token}/{what:path}", arbiter_api, methods=["GET", "POST"]),
        WebSocketRoute("/ws", ws),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _qr_svg(url: str) -> bytes:
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=4, border=2)
    return out.getvalue()


def _join(row: Any) -> dict[str, str]:
    try:
        urls = json.loads(row["join_urls"]) if row["join_urls"] else {}
    except ValueError:
        return {}
    return urls if isinstance(urls, dict) else {}


async def _json_body(request: Any) -> dict[str, Any] | Any:
    from starlette.responses import JSONResponse

    body = await request.body()
    if len(body) > MAX_BODY:
        return JSONResponse({"error": "request too large"}, status_code=413)
    try:
        data = json.loads(body or b"{}", parse_constant=lambda c: None)
    except (ValueError, RecursionError):
        return JSONResponse({"error": "request is not JSON"}, status_code=400)
    if not isinstance(data, dict):
        return JSONResponse({"error": "request is not a JSON object"}, status_code=400)
    return data


def event_view(store: Store) -> dict[str, Any]:
    names = {row["id"]: row["name"] for row in store.players()}
    return {
        "players": [{"id": row["id"], "name": row["name"], "rating": row["rating"]}
                    for row in store.players()],
        "rounds": [{"round": r["round"], "system": r["system"], "tables": [
            {"table": p["tableno"], "white": names.get(p["white"]),
             "black": names.get(p["black"]) if p["black"] else None, "board": p["board"],
             "result": p["result"]} for p in store.pairings(r["round"])]}
            for r in store.rounds()],
        "standings": [{"name": s.name, "points": s.points, "games": s.games}
                      for s in ev.standings(store)],
    }


def arbiter_action(hub: Hub, what: str, body: dict[str, Any]) -> dict[str, Any]:
    """One arbiter action (POST ``/api/arbiter/{token}/WHAT``); raises HubError."""
    store = hub.store
    if what == "players":
        name = field(body, "name", str).strip()
        rating = body.get("rating", 0)
        if not name or len(name) > 80:
            raise HubError("a player needs a name of 1-80 characters")
        if not isinstance(rating, int) or isinstance(rating, bool) or not 0 <= rating <= 4000:
            raise HubError("rating must be a whole number from 0 to 4000")
        if any(row["name"] == name for row in store.players()):
            raise HubError(f"{name!r} is already a player")
        return {"id": store.add_player(name, rating)}
    if what == "pair":
        boards = [row["board"] for row in store.boards()]
        return {"round": ev.pair_next_round(store, str(body.get("system", "swiss")), boards)}
    if what == "result":
        result = field(body, "result", str)
        if result not in ev.RESULTS:
            raise HubError(f"result must be one of {', '.join(ev.RESULTS)}")
        if not store.set_result(field(body, "round", int), field(body, "table", int), result):
            raise HubError("no such round and table")
        return {"ok": True}
    board, _, verb = what.partition("/")
    if verb == "command":
        check_board_id(board)
        command = field(body, "command", str)
        if command not in COMMANDS:
            raise HubError(f"command must be one of {', '.join(COMMANDS)}")
        hub.command(board, {"command": command, **{k: v for k, v in body.items()
                                                  if k in ("result", "seconds", "side")}})
        return {"sent": True}
    raise HubError(f"no arbiter action {what!r}")
