"""The two sides as the hardware numbers them: the clock's halves and the display's players.

Hardware knows no chess rules, only that a game has a white and a black side (and Afterlife's
gray pieces, which a screen may name). The numbers are the ones the referee uses for colours, so a
referee colour can be handed to the clock or a screen as it is; ``tests/test_architecture.py``
checks that the two agree.
"""

from __future__ import annotations

from typing import Final

WHITE: Final = 1
BLACK: Final = 2
GRAY: Final = 3
