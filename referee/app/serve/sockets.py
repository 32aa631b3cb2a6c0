"""uvicorn's sans-I/O WebSocket protocol with one shutdown race closed.

Why: stopping ``serve`` while a WebSocket was half closed (the peer's close frame had arrived,
ours was not sent yet: a camera page just taken over, a phone leaving as the Pi shuts down)
made uvicorn 0.54's ``shutdown`` call ``send_close`` on a connection in the CLOSING state;
websockets raises ``InvalidState`` there, so the service ended with a traceback and status 1
instead of a clean stop. A connection that is already closing needs no close frame from the
server: its transport is closed, as for one whose close was sent.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State


class ServeWebSocketProtocol(WebSocketsSansIOProtocol):
    """:class:`WebSocketsSansIOProtocol` whose shutdown accepts a connection already closing."""

    def shutdown(self) -> None:
        if self.handshake_complete and not self.close_sent and self.conn.state is not State.OPEN:
            self.stop_keepalive()
            self.transport.close()
            return
        super().shutdown()
