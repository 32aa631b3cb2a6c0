"""The application layer: the commands and the mapping from game updates to LEDs and screens.

The only layer that imports ``hardware`` and ``vision``.
"""
