"""Club events: many boards publish to one MQTT broker; a hub stores, shows and broadcasts.

Each board's referee (``serve``, ``run``) publishes only its public game (never a secret) to an
MQTT broker (mosquitto in a club; any clustered MQTT broker for larger events) through
:mod:`referee.app.hub.board`. ``gravekeeper hub`` (:mod:`referee.app.hub.server`) subscribes to the
event, keeps every game in its own SQLite store and serves the dashboard, the arbiter page, the
event (players, rounds, pairings, standings) and a live PGN broadcast. Topics and messages are
documented in docs/hub.md and defined once, in :mod:`referee.app.hub.schema`; both sides connect
(TLS, passwords, a failed connection named once) through :mod:`referee.app.hub.connection`.
"""
