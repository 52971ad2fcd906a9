"""The page follows todod as it changes: other clients, other tabs, restarts, outages."""
import json
import socket
import unittest

from selenium.webdriver.common.keys import Keys

from webharness import TIMEOUT, RawWebSocket, WebSocketClosed, WebTestCase

RECONNECTING = "Reconnecting"
NOT_RUNNING = "todod is not running"


def away(state):
    """The notice says todod is away: "Reconnecting…" or "todod is not running" (with more words, maybe)."""
    return bool(state) and (RECONNECTING.lower() in state.lower() or NOT_RUNNING in state)

STATE_JS = r"""
const el = document.querySelector('.connection-state');
if (!el) return null;
// Shown to the eye: laid out, not hidden, and bigger than the 1px box of a screen-reader-only text.
const box = el.getBoundingClientRect();
const shown = el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  && box.width > 2 && box.height > 2;
return shown ? el.textContent.replace(/\s+/g, ' ').trim() : '';
"""


class Live(WebTestCase):
    browser = True

    def connection_state(self):
        """The text .connection-state shows ('' when hidden, or only there for screen readers)."""
        return self.driver.execute_script(STATE_JS)

    def test_todoctl_edit_shows_without_reload(self):
        self.add_via_page("buy milk")
        self.driver.execute_script("window.__todod_no_reload = true")
        ident = self.stack.items()[0]["id"]
        self.stack.todoctl("edit", str(ident), "buy oat milk")
        self.wait_rows([("buy oat milk", False)], "todoctl's rename on the page")
        self.stack.todoctl("done", str(ident))
        self.wait_rows([("buy oat milk", True)], "todoctl's done on the page")
        self.stack.add("call mum")
        self.wait_rows([("buy oat milk", True), ("call mum", False)], "todoctl's add on the page")
        self.stack.todoctl("rm", str(ident), "--yes")
        self.wait_rows([("call mum", False)], "todoctl's rm on the page")
        self.assertTrue(self.driver.execute_script("return window.__todod_no_reload === true"),
                        "the page was not reloaded")

    def test_two_tabs_stay_in_step(self):
        first = self.driver.current_window_handle
        self.driver.switch_to.new_window("window")
        second = self.driver.current_window_handle
        self.driver.get(self.stack.base())   # the cookie from the first tab lets it in
        self.wait_until(lambda: self.driver.execute_script("return !!document.querySelector('.new-todo')"),
                        what="the second tab to load")
        self.add_via_page("from tab two")
        self.driver.switch_to.window(first)
        self.wait_rows([("from tab two", False)], "tab one to show tab two's item")
        self.add_via_page("from tab one")
        self.li(0).find_element("css selector", ".toggle").click()
        self.wait_rows([("from tab two", True), ("from tab one", False)])
        self.driver.switch_to.window(second)
        self.wait_rows([("from tab two", True), ("from tab one", False)], "tab two to follow tab one")
        self.q(".clear-completed").click()
        self.wait_rows([("from tab one", False)])
        self.driver.switch_to.window(first)
        self.wait_rows([("from tab one", False)], "tab one to follow tab two's clear")

    def record_states(self):
        """From now on, every text .connection-state shows is kept in window.__states."""
        self.driver.execute_script(r"""
            window.__states = [];
            const el = document.querySelector('.connection-state');
            const note = () => window.__states.push(el.textContent.replace(/\s+/g, ' ').trim());
            new MutationObserver(note).observe(el, {childList: true, characterData: true, subtree: true,
                                                    attributes: true});
        """)

    def test_todod_restart(self):
        self.add_via_page("survives a restart")
        self.record_states()
        self.stack.stop_todod()
        self.wait_until(self.connection_state, away,
                               "the page to say it lost todod (Reconnecting… or todod is not running)")
        # Typed while todod is away: must be kept.
        field = self.q(".new-todo")
        field.send_keys("typed during the outage")
        self.assertEqual(self.q(".new-todo").get_attribute("value"), "typed during the outage")
        self.assertTrue(away(self.connection_state()), f"still saying todod is away: {self.connection_state()!r}")
        self.stack.start_todod()
        self.wait_until(self.connection_state, lambda s: s == "", "the connection notice to go once todod is back")
        self.wait_rows([("survives a restart", False)], "the list again after the restart")
        self.assertEqual(self.q(".new-todo").get_attribute("value"), "typed during the outage",
                         "what was typed during the outage is still there")
        self.q(".new-todo").send_keys(Keys.ENTER)
        self.wait_rows([("survives a restart", False), ("typed during the outage", False)],
                       "the text typed during the outage, added afterwards")
        self.assertEqual(self.stack.titles(), ["survives a restart", "typed during the outage"])
        states = self.driver.execute_script("return window.__states")
        self.assertTrue(any(RECONNECTING.lower() in state.lower() for state in states),
                        f"the page said it was reconnecting; it said: {states}")


class Neighbours(WebTestCase):
    """Another client misbehaving on todod-web does not stop the page in the browser."""
    browser = True

    def raw(self):
        ws = RawWebSocket(self.stack.port, cookie=self.stack.token())
        self.addCleanup(ws.close)
        self.assertEqual(ws.status, 101)
        self.assertEqual(ws.recv_json().get("method"), "server.hello")
        return ws

    def test_oversized_message_in_another_tab(self):
        ws = self.raw()
        ws.send_huge(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "todo.add",
                                 "params": {"title": "z" * (1024 * 1024 + 10)}}).encode())
        self.assertEqual(ws.wait_closed()[0], 1009)
        self.add_via_page("still working")
        self.wait_rows([("still working", False)])
        self.assertFalse(away(self.connection_state()), "the page stayed connected")

    def test_malformed_frame_in_another_tab(self):
        ws = self.raw()
        ws.send_frame(0x3, b"bad opcode")
        try:
            ws.wait_closed()
        except (ConnectionError, OSError):
            pass
        self.add_via_page("still working")
        self.wait_rows([("still working", False)])

    def test_hundred_connections_elsewhere(self):
        clients = [socket.create_connection(("127.0.0.1", self.stack.port), timeout=TIMEOUT) for _ in range(100)]
        self.addCleanup(lambda: [c.close() for c in clients])
        self.add_via_page("served alongside 100 idle connections")
        self.wait_rows([("served alongside 100 idle connections", False)])
        self.stack.add("and pushed to it")
        self.wait_rows([("served alongside 100 idle connections", False), ("and pushed to it", False)])

    def connection_state(self):
        return self.driver.execute_script(STATE_JS)


SHOWS_JS = "return [...document.querySelectorAll('.todo-list li label')].some(l => l.textContent === arguments[0]);"


class TabThatStopsReading(WebTestCase):
    """A tab that stops reading meets todod's own slow-client rules through the relay
    (todod-web stops reading from todod for it), and the page in the browser goes on.
    Small outbox limits, so that a few megabytes of events are enough."""
    browser = True
    todod_args = ("--outbox-soft-limit", "65536", "--outbox-hard-limit", "262144")

    def test_is_lagged_then_said_goodbye_while_the_page_goes_on(self):
        ws = RawWebSocket(self.stack.port, cookie=self.stack.token())
        self.addCleanup(ws.close)
        self.assertEqual(ws.recv_json().get("method"), "server.hello")
        self.assertIn("result", ws.request("view.subscribe", {}))
        # From here on the tab reads nothing. Each transaction touches more than
        # 64 items, so every subscriber gets the whole list again (a reset edit),
        # until the sockets on the way are full and todod says goodbye to the
        # tab's connection (its journal says so). The tab reads as soon as that
        # is seen: a goodbye unread for todod's stall timeout (30 s) is dropped
        # with the connection, and todod-web then closes the WebSocket, whose
        # close frame waits behind megabytes the tab has not read. Editing on for
        # a fixed count after the goodbye, as this test did, failed on a machine
        # slow enough to take 30 s over it.
        for batch in range(60):
            commands = [{"method": "todo.add", "params": {"title": f"{batch}-{index} " + "x" * 300}}
                        for index in range(100)]
            self.stack.call("transaction", {"commands": commands})
            mine = f"page edit {batch}"
            self.q(".new-todo").send_keys(mine + Keys.ENTER)
            self.wait_until(lambda: self.driver.execute_script(SHOWS_JS, mine),
                            what=f"the page to show its own edit {mine!r} while the other tab reads nothing")
            if "disconnecting a slow client" in self.stack.todod_log():
                break
        else:
            self.fail(f"todod never said goodbye to the tab that reads nothing:\n{self.stack.logs()}")
        # Now it reads: what todod said to it arrives, in order, then the close.
        notices = []
        while True:
            try:
                message = ws.recv_json()
            except WebSocketClosed as closed:
                code = closed.code
                break
            if message.get("method") in ("connection.lagging", "connection.goodbye"):
                notices.append(message["method"])
        self.assertIn("connection.goodbye", notices, f"todod's notices to the slow tab: {notices}")
        self.assertEqual(code, 1012, "closed as todod closed its connection")
        self.assertFalse(away(self.driver.execute_script(STATE_JS)), "the page stayed connected")


class DownAtLoad(WebTestCase):
    browser = True
    open_page = False

    def test_says_todod_is_not_running(self):
        url = self.stack.url()
        self.stack.stop_todod()
        self.driver.get(url)
        self.wait_until(lambda: self.driver.execute_script(STATE_JS), lambda s: NOT_RUNNING in (s or ""),
                        '.connection-state to say "todod is not running"')
        # Not a blank page: the heading and the entry field are there.
        self.assertTrue(self.shown(".new-todo"), ".new-todo shown while todod is down")
        body = self.driver.execute_script("return document.body.innerText")
        self.assertIn(NOT_RUNNING, body)
        # And once todod starts, the page gets going by itself.
        self.stack.start_todod()
        self.stack.add("todod is back")
        self.wait_rows([("todod is back", False)], "the list once todod runs")
        self.wait_until(lambda: self.driver.execute_script(STATE_JS), lambda s: s == "",
                        "the notice gone once todod runs")


if __name__ == "__main__":
    unittest.main()
