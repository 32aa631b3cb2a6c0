"""serve's WebSocket protocol stops cleanly with a connection half closed (the race that made
``serve`` end with a traceback when stopped just as a camera page was taken over)."""

from __future__ import annotations

from typing import Any

import pytest
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Close, CloseCode, Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol

from referee.app.serve.sockets import ServeWebSocketProtocol


class Transport:
    def __init__(self) -> None:
        self.closed = False
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        self.closed = True


def half_closed(cls: type[WebSocketsSansIOProtocol]) -> Any:
    """A protocol whose peer's close frame arrived and whose own close is not sent yet."""
    proto: Any = object.__new__(cls)
    proto.handshake_complete, proto.close_sent = True, False
    proto.ping_timer = proto.pong_timer = proto.pending_ping_payload = None
    proto.transport = Transport()
    conn = ServerProtocol()
    conn.state = State.OPEN
    conn.receive_data(Frame(Opcode.CLOSE, Close(CloseCode.NORMAL_CLOSURE, "").serialize())
                      .serialize(mask=True))
    conn.state = State.CLOSING  # (the close reply not yet sent)
    proto.conn = conn
    return proto


def test_uvicorns_protocol_raises_on_a_connection_closing() -> None:
    proto = half_closed(WebSocketsSansIOProtocol)
    proto.queue = _Queue()
    with pytest.raises(InvalidState):
        proto.shutdown()


def test_serves_protocol_closes_it_quietly() -> None:
    proto = half_closed(ServeWebSocketProtocol)
    proto.shutdown()
    assert proto.transport.closed


class _Queue:
    def put_nowait(self, item: object) -> None: ...
