"""Gravekeeper firmware_bridge: everything between a physical board and the referee.

Open a board by URL and read typed events::

    from firmware_bridge import open_sensor, format_event
    with open_sensor("sim://?variant=standard") as sensor:
        for ev in sensor.events(timeout=10.0):
            print(format_event(ev))

See :mod:`firmware_bridge.factory` for the URL schemes, :mod:`firmware_bridge.events` for the
events, :mod:`firmware_bridge.rig` for rig files. Importing the package does no I/O.
"""

from firmware_bridge.errors import (
    BadSensorUrl,
    BoardDisconnected,
    BoardNotFound,
    BridgeError,
    EventFormatError,
    FrameError,
    LedsNotSupported,
    RigError,
    SensorTimeout,
    UnknownScheme,
)
from firmware_bridge.events import (
    BUTTON_NAMES,
    Button,
    Die,
    Lift,
    LinkState,
    Notice,
    Occupied,
    Place,
    SensorEvent,
    Withdraw,
    format_event,
    parse_event_line,
    read_event_file,
)
from firmware_bridge.factory import SCHEMES, make_sensor, open_sensor
from firmware_bridge.recorder import EventRecorder
from firmware_bridge.rig import BUILTIN_RIGS, Rig, builtin_rig, load_rig, parse_rig
from firmware_bridge.sensor import LedFrame, LinkStatus, Sensor

__all__ = [
    "BUILTIN_RIGS", "BUTTON_NAMES", "SCHEMES",
    "BadSensorUrl", "BoardDisconnected", "BoardNotFound", "BridgeError", "Button", "Die",
    "EventFormatError", "EventRecorder", "FrameError", "LedFrame", "LedsNotSupported", "Lift",
    "LinkState", "LinkStatus", "Notice", "Occupied", "Place", "Rig", "RigError", "Sensor",
    "SensorEvent", "SensorTimeout", "UnknownScheme", "Withdraw",
    "builtin_rig", "format_event", "load_rig", "make_sensor", "open_sensor",
    "parse_event_line", "parse_rig", "read_event_file",
]
