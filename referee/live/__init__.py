"""The live referee: the one session that owns a game on a real board.

A recogniser of moves (sensor inference today, the camera tomorrow) feeds it; it applies actions
through the rules, journals them, and publishes immutable updates to any number of subscribers.
It may import the rules and the sensor events of ``firmware_bridge``, never ``hardware`` or
``vision``.
"""
