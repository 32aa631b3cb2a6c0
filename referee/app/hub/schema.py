"""The hub's MQTT URL, topic layout and message schema (version 1), in one place.

Why MQTT: a club's boards come and go over Wi-Fi; the broker keeps each board's retained
"current state" and "status" (with a last will for a board that vanishes) and queues QoS 1
messages for a hub that restarts, so neither side needs a home-made protocol. A larger event
moves to any clustered MQTT broker by changing the URL.

Topics (``P`` = ``gravekeeper/v1/EVENT``; EVENT from the URL path, ``club`` by default):

- ``P/boards/BOARD/status``  retained: ``online`` / ``offline`` (the board's last will);
- ``P/boards/BOARD/state``   retained: the board's whole public game (moves included), so a hub
  that missed action messages can always rebuild the game from it;
- ``P/boards/BOARD/actions`` QoS 1: one message per public action, numbered ``n`` = 1, 2, ...
  within ``game``; the hub de-duplicates by (board, game, n);
- ``P/boards/BOARD/join``    retained: the board's player-page URLs, for the arbiter only (the
  hub never shows them on a public page);
- ``P/boards/BOARD/control`` QoS 1, hub -> board: an arbiter command.

Every message is a JSON object with ``"v": 1``; :func:`decode` refuses anything else in one line.
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
import ssl
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl, unquote, urlsplit

from firmware_bridge.urls import shown

VERSION: Final = 1
ROOT: Final = "gravekeeper/v1"
MAX_MESSAGE: Final = 256 * 1024
KINDS: Final = ("status", "state", "actions", "join", "control")
_NAME: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class HubError(Exception):
    """A hub URL, topic or message that cannot be used; the text says why in one line."""


@dataclass(frozen=True)
class MqttUrl:
    """``mqtt://[USER[:PASSWORD]@]HOST[:PORT][/EVENT]`` (``mqtts://`` for TLS, port 8883;
    ``mqtts://...?ca=PATH`` checks the broker's certificate against that CA certificate instead
    of the system's)."""

    host: str
    port: int
    event: str
    tls: bool = False
    username: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)  # never in a log
    ca: str | None = None

    @property
    def prefix(self) -> str:
        """The topic prefix of this event: ``gravekeeper/v1/EVENT``."""
        return f"{ROOT}/{self.event}"

    def topic(self, board: str, kind: str) -> str:
        """The topic of one board's ``kind`` (see the module docstring)."""
        return f"{self.prefix}/boards/{board}/{kind}"

    def safe(self) -> str:
        """The URL without its password, for messages and logs."""
        user = f"{self.username}@" if self.username else ""
        scheme = "mqtts" if self.tls else "mqtt"
        return f"{scheme}://{user}{self.host}:{self.port}/{self.event}"


def _hidden(url: str) -> str:
    """``url`` as an error may show it: any password replaced by ``***``."""
    return repr(shown(url))


def parse_mqtt_url(url: str) -> MqttUrl:
    """Parse a hub URL; raises HubError naming what is wrong (never showing a password)."""
    shown = _hidden(url)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise HubError(f"{shown}: not a hub URL ({str(exc).split(':')[0]})") from None
    if parts.scheme not in ("mqtt", "mqtts"):
        raise HubError(f"{shown}: a hub URL starts with mqtt:// or mqtts://")
    if not parts.hostname:
        raise HubError(f"{shown}: no broker host (e.g. mqtt://127.0.0.1:1883/club)")
    if parts.fragment:
        raise HubError(f"{shown}: a hub URL takes no #fragment")
    tls = parts.scheme == "mqtts"
    ca = _ca(shown, parts.query, tls)
    event = parts.path.strip("/") or "club"
    if not _NAME.match(event):
        raise HubError(f"{shown}: event name {event!r} must be 1-64 letters, digits, - or _")
    return MqttUrl(parts.hostname, port if port is not None else (8883 if tls else 1883), event,
                   tls, unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, ca)


def _ca(shown: str, query: str, tls: bool) -> str | None:
    """The CA certificate file of ``?ca=PATH`` (checked now, so a typo fails at start)."""
    if not query:
        return None
    pairs = parse_qsl(query, keep_blank_values=True)
    if [name for name, _ in pairs] != ["ca"]:
        raise HubError(f"{shown}: the only query a hub URL takes is ?ca=PATH (mqtts:// only)")
    if not tls:
        raise HubError(f"{shown}: ?ca=PATH needs TLS: use mqtts://")
    path = pairs[0][1]
    try:
        ssl.create_default_context(cafile=path)
    except (OSError, ssl.SSLError) as exc:
        why = ("not a PEM certificate" if isinstance(exc, ssl.SSLError)
               else exc.strerror or str(exc))
        raise HubError(f"{shown}: CA certificate {path!r}: {why}") from None
    return path


def check_board_id(board: str) -> str:
    """A board id usable in a topic and a URL path; raises HubError otherwise."""
    if not _NAME.match(board):
        raise HubError(f"board id {board!r} must be 1-64 letters, digits, - or _")
    return board


def split_topic(prefix: str, topic: str) -> tuple[str, str] | None:
    """``(board, kind)`` of a topic under ``prefix``, or None for anything else."""
    head = f"{prefix}/boards/"
    if not topic.startswith(head):
        return None
    board, _, kind = topic[len(head):].partition("/")
    if kind not in KINDS or not _NAME.match(board):
        return None
    return board, kind


def encode(message: dict[str, Any]) -> bytes:
    """A message as JSON bytes with the schema version added."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"),
                      allow_nan=False).encode()


def _no_constants(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def decode(payload: bytes) -> dict[str, Any]:
    """A received message; raises HubError for anything that is not a version-1 JSON object."""
    if len(payload) > MAX_MESSAGE:
        raise HubError(f"message of {len(payload)} bytes is over the {MAX_MESSAGE} limit")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constants)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise HubError(f"message is not JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise HubError("message is not a JSON object")
    if data.get("v") != VERSION:
        raise HubError(f"message schema version {data.get('v')!r} is not {VERSION}")
    return data


def field(message: dict[str, Any], name: str, kind: type, *, optional: bool = False) -> Any:
    """``message[name]`` checked to be of ``kind`` (bool is never an int here)."""
    value = message.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise HubError(f"message field {name!r} must be {kind.__name__}, not {value!r}"[:120])
    if isinstance(value, float) and not math.isfinite(value):
        raise HubError(f"message field {name!r} is not finite")
    return value
