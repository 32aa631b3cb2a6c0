"""``gravekeeper serve``: the referee service for one board (web pages, API, game store).

Layers: :mod:`.store` (SQLite), :mod:`.views` (per-audience data from the rules' audience
machinery), :mod:`.live` (the thread owning the live :class:`~referee.live.session.Referee`),
:mod:`.web` (Starlette routes and WebSockets) and :mod:`.main` (the command line). The pages are
static files in ``static/``: no build step, no CDN.
"""
