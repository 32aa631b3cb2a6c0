"""Per-audience views of the live game, as JSON-ready data.

Why here and not in the pages: a secret must never leave the process for someone who may not
see it, so every view is built from the rules layer's own audience machinery:
:meth:`Variant.view` for the position (it knows what each viewer may know),
:meth:`Variant.public_action_text` for other players' actions, and
:func:`referee.rules.events.visible_to` for events. Nothing is scrubbed from strings after the
fact. The arbiter sees what spectators see plus the referee's notes: an arbiter's screen may
be in view of the players, so it holds no secret either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from referee.rules import actions as A
from referee.rules.actions import Action
from referee.rules.events import visible_to
from referee.rules.game import ADJUDICATE, Game
from referee.rules.geometry import Layout
from referee.rules.pieces import BLACK, COLOUR_NAMES, WHITE

SPECTATOR: Final = "spectator"
ARBITER: Final = "arbiter"
AUDIENCES: Final = (SPECTATOR, "white", "black", ARBITER)
#: The colour each audience sees the game as (None: public only).
VIEWER: Final[dict[str, int | None]] = {SPECTATOR: None, "white": WHITE, "black": BLACK,
                                        ARBITER: None}
#: Update kinds whose text is about the physical board or a public prompt: shown to everyone.
PUBLIC_STATUS: Final = ("problem", "correction", "good", "prompt", "link", "ended", "action")


@dataclass
class Situation:
    """What the live game knows beyond the rules' state (owned by the game thread)."""

    status_kind: str = ""
    status_text: str = ""
    notes: list[str] = field(default_factory=list)
    promotion: tuple[str, ...] = ()
    draw_offer: str | None = None
    paused: bool = False
    clock: dict[str, Any] | None = None
    game_id: int = 0
    players: dict[str, str] = field(default_factory=dict)  # colour -> name
    link: str = ""
    at: float = 0.0  # wall-clock time of the snapshot (latency measurements)


def layout_data(layout: Layout) -> list[dict[str, Any]]:
    """The regions of a layout with every cell's name and coordinates, for drawing."""
    return [{"name": r.name, "implicit": r.implicit,
             "cells": [[c.text, c.plane, c.x, c.y] for c in r.cells]} for r in layout.regions]


def action_text_for(game: Game, action: Action, actor: int, viewer: int | None) -> str:
    """An action as ``viewer`` may read it: in full for its own actor, else its public form."""
    if viewer is not None and viewer == actor:
        return game.variant.format_action(action)
    return game.variant.public_action_text(action)


def choices_for(game: Game, colour: int) -> list[str]:
    """The off-board choices the rules give ``colour`` now (empty when it is not theirs).

    Moves are made on the board; everything else the variant offers (burials, assignments,
    Hell homes, ghost spawns, drops, promotions, ending a horde turn, passing, a roll) is a
    choice the player's page can make. Die faces collapse into one virtual roll.
    """
    state = game.state
    if state.to_act != colour or game.outcome.result != "*":
        return []
    bare_kinds = {k.name for k in game.variant.action_kinds if k.bare}
    texts: list[str] = []
    bare: list[str] = []
    for action in game.legal():
        if action.kind == A.MOVE:
            continue
        if action.kind in bare_kinds:  # die faces: one virtual roll, the referee rolls
            if action.kind not in bare:
                bare.append(action.kind)
            continue
        texts.append(game.variant.format_action(action))
    return [kind for kind in bare if game.variant.is_legal(state, A.simple(kind))] + texts


def build_view(game: Game, audience: str, situation: Situation, seq: int) -> dict[str, Any]:
    """The whole picture for one audience (a full snapshot: pages just redraw)."""
    viewer = VIEWER[audience]
    variant = game.variant
    state = game.state
    moves = []
    for played in game.played:
        if played.action.kind == ADJUDICATE:
            continue
        moves.append({"ply": played.ply, "actor": COLOUR_NAMES.get(played.actor, ""),
                      "text": action_text_for(game, played.action, played.actor, viewer)})
    last = game.played[-1] if game.played else None
    events = [e.text for e in last.events if visible_to(e, viewer) and e.text] if last else []
    outcome = game.outcome
    out: dict[str, Any] = {
        "type": "state", "seq": seq, "audience": audience,
        "variant": variant.name, "title": variant.title,
        "to_act": COLOUR_NAMES[state.to_act], "result": outcome.result,
        "reason": outcome.reason,
        "moves": moves, "last": moves[-1]["text"] if moves else "", "events": events,
        "view": variant.view(state, viewer),
        "status": {"kind": situation.status_kind, "text": situation.status_text},
        "clock": situation.clock, "paused": situation.paused,
        "draw_offer": situation.draw_offer, "link": situation.link, "at": situation.at,
        "players": {"white": situation.players.get("white", "White"),
                    "black": situation.players.get("black", "Black")},
    }
    if viewer is not None:
        out["choices"] = choices_for(game, viewer)
        live = outcome.result == "*"
        out["promotion"] = list(situation.promotion) if state.to_act == viewer else []
        out["can_resign"] = live
        out["can_offer_draw"] = live and situation.draw_offer != COLOUR_NAMES[viewer]
    if audience == ARBITER:
        out["notes"] = situation.notes[-20:]
        out["game_id"] = situation.game_id
        out["can_take_back"] = bool(game.played)
    return out
