"""Reading the JSON the referee is given (scenarios, records, journals, --options), strictly.

Why: ``json.loads`` accepts ``NaN`` and ``Infinity`` (not JSON), raises ``RecursionError`` on
deeply nested arrays and ``ValueError`` on integers of thousands of digits, and ``read_text``
raises ``UnicodeDecodeError`` or reads ``/dev/zero`` for ever. Each of these reached the user as
a traceback or a hang. Here they all become the caller's own error class, with one sentence
naming the problem, and files are read only up to a size no honest file reaches.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.rules.errors import RefereeError

#: No scenario, record or journal comes near this; larger "files" (``/dev/zero``) are refused.
MAX_FILE_BYTES = 64 * 1024 * 1024


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def loads(text: str, error: type[RefereeError]) -> Any:
    """The JSON value of ``text``; anything that is not plain JSON raises ``error``."""
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise error(f"not JSON: {err.msg} (line {err.lineno}, column {err.colno})") from None
    except RecursionError:
        raise error("not JSON we accept: nested too deeply") from None
    except ValueError as err:  # NaN/Infinity, integers too long to convert
        raise error(f"not JSON we accept: {str(err).partition(';')[0]}") from None


def read_text(path: str | Path, error: type[RefereeError]) -> str:
    """The UTF-8 text of the file at ``path`` (raises ``error`` naming the file)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise error(f"{path}: cannot read: {err.strerror or err}") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{path}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, not one of ours")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise error(f"{path}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset "
                    f"{err.start})") from None

