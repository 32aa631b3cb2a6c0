"""The vision package's exceptions: one root, :class:`VisionError`.

Each subclass also inherits the builtin it corresponds to, so callers that only know the
standard library (``except FileNotFoundError``) still catch it.
"""

from __future__ import annotations


class VisionError(Exception):
    """Root of every error raised by :mod:`vision`."""


class SourceNotFoundError(VisionError, FileNotFoundError):
    """A frame source (file, folder, camera, stream) does not exist or cannot be opened."""


class SourceReadError(VisionError, OSError):
    """A frame source was opened but a frame could not be read or decoded."""


class ImageReadError(VisionError, ValueError):
    """A file exists but is not a readable image."""


class CornersError(VisionError, ValueError):
    """Board corners are malformed (not four [x, y] points, degenerate quadrilateral...)."""


class LabelsError(VisionError, ValueError):
    """A labels CSV is missing columns or has a malformed row."""


class BoardNotFoundError(VisionError, LookupError):
    """Automatic board localisation found no board in the image."""


class UnsupportedVariantError(VisionError, ValueError):
    """The variant cannot be followed by the camera (no 8x8 board)."""
