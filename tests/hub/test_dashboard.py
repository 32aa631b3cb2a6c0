"""The hub's dashboard, board page and arbiter page in real headless Chromium (Debian's, driven
by Playwright): boards appear live, a click opens the board, the arbiter sees join codes that
no public page ever receives. The pictures in docs/hub/ are taken again with
GRAVEKEEPER_SCREENSHOTS=1 (as serve's)."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.hub.mqtt import Broker, HubProcess, RandomBoard, wait_for
from tests.serve.harness import CHROMIUM, chromium

DOCS = Path(__file__).resolve().parents[2] / "docs" / "hub"
SHOTS = os.environ.get("GRAVEKEEPER_SCREENSHOTS") == "1"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian chromium missing")


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


# Holds the answer of the next `window.holdEventReads` reads of /api/event for a second and a
# half after the hub gave it, so that an older refresh ends after a newer one.
HOLD_ONE_EVENT_READ = """
window.holdEventReads = 0;
const fetchNow = window.fetch.bind(window);
window.fetch = async (...args) => {
  const response = await fetchNow(...args);
  if (String(args[0]) === "/api/event" && window.holdEventReads > 0) {
    window.holdEventReads -= 1;
    window.eventReadHeld = "holding";
    await new Promise(done => setTimeout(done, 1500));
    window.eventReadHeld = "released";
  }
  return response;
};
"""


def test_dashboard_board_and_arbiter_pages(tmp_path: Path, browser: Any) -> None:
    broker = Broker(tmp_path)
    broker.start()
    hub = HubProcess(broker.url, tmp_path / "hub")
    hub.start()
    boards = [RandomBoard("table1", "standard", broker.url, 11),
              RandomBoard("table2", "deadmans", broker.url, 12)]
    try:
        for b in boards:
            b.start()
        boards[0].publisher.publish_join({"white": "https://10.9.9.9/w/SECRET-TOKEN-W",
                                          "black": "https://10.9.9.9/b/SECRET-TOKEN-B"})
        received: list[str] = []
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.append(
            f if isinstance(f, str) else repr(f))))
        page.on("response", lambda r: received.append(r.text()) if r.ok else None)
        page.goto(hub.base + "/")
        page.wait_for_selector("#board-table1")
        page.wait_for_selector("#board-table2")
        for _ in range(12):
            for b in boards:
                b.step()
            time.sleep(0.05)
        want = str(len(boards[1].game.played))
        page.wait_for_function(
            f"document.querySelector('#board-table2').dataset.moves === '{want}'", timeout=10000)
        last = page.locator("#board-table2 .last").get_attribute("data-last")
        assert last == boards[1].public_moves()[-1]
        assert page.locator("#board-table1 text.piece").count() > 20
        if SHOTS:
            page.screenshot(path=str(DOCS / "dashboard-desktop.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        if SHOTS:
            page.screenshot(path=str(DOCS / "dashboard-phone.png"))

        page.set_viewport_size({"width": 1280, "height": 800})
        page.click("#board-table2")
        page.wait_for_url("**/board/table2")
        page.wait_for_function("document.getElementById('moves').textContent.length > 0")
        text = page.inner_text("#moves")
        assert boards[1].public_moves()[0] in text
        if SHOTS:
            page.screenshot(path=str(DOCS / "board.png"))
        assert not [r for r in received if "SECRET-TOKEN" in r]   # join codes stay private

        arbiter = browser.new_page(viewport={"width": 1280, "height": 800})
        arbiter.add_init_script(HOLD_ONE_EVENT_READ)
        arbiter.goto(hub.arbiter)
        arbiter.wait_for_selector("tr[data-board=table1] img")
        arbiter.fill("#add input[name=name]", "Ann")
        arbiter.click("#add button")
        arbiter.fill("#add input[name=name]", "Bob")
        arbiter.click("#add button")
        wait_for(lambda: len(json.loads(hub.get("/api/event"))["players"]) == 2, 10, "players")
        # A refresh that read the event before the pairing ends after the pairing's own
        # refresh (as under load): the page must still end showing the round.
        arbiter.evaluate("window.holdEventReads = 1")
        arbiter.fill("#add input[name=name]", "Cy")
        arbiter.click("#add button")
        arbiter.wait_for_function("window.eventReadHeld === 'holding'")
        arbiter.select_option("#pair select", "roundrobin")
        arbiter.click("#pair button")
        arbiter.wait_for_function("window.eventReadHeld === 'released'")
        arbiter.wait_for_selector("#rounds select[data-table='1']", timeout=5000)
        arbiter.wait_for_load_state("networkidle")
        if SHOTS:
            arbiter.screenshot(path=str(DOCS / "arbiter.png"))
        forbidden = browser.new_page()
        response = forbidden.goto(hub.base + "/arbiter/not-the-token")
        assert response is not None and response.status == 403
    finally:
        for b in boards:
            b.publisher.stop()
        hub.stop()
        broker.stop()
