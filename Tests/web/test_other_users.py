"""Another local user, with no key, against todod-web: a flood of idle and
trickling connections from uid 65534 (under setpriv, so as root only) while
the owner's page loads in Chromium and stays live; and, as any user, what a
keyless or half-finished connection may cost."""
import json
import os
import subprocess
import sys
import time
import unittest

from webharness import TIMEOUT, RawWebSocket, WebSocketClosed, WebTestCase, http_request, unfinished_frame

HERE = os.path.dirname(os.path.abspath(__file__))
NOBODY = "65534"


def as_another_user(*args):
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *args]


@unittest.skipUnless(os.geteuid() == 0, "needs root to run the flood as another uid (CI runs as root)")
class FloodFromAnotherUser(WebTestCase):
    browser = True
    open_page = False

    def start_flood(self, idle=1000, tricklers=3):
        with open(os.path.join(HERE, "flood.py")) as file:
            source = file.read()
        flood = subprocess.Popen(
            as_another_user(sys.executable, "-c", source, str(self.stack.port), str(idle), str(tricklers)),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(lambda: flood.poll() is None and flood.kill())
        ready = flood.stdout.readline().strip()
        self.assertEqual(ready, b"ready", f"the flood started: {ready!r} {flood.stderr.read()[-500:] if not ready else ''}")
        return flood

    def stop_flood(self, flood):
        flood.stdin.write(b"stop\n")
        flood.stdin.flush()
        report, errors = flood.communicate(timeout=120)
        self.assertEqual(flood.returncode, 0, errors.decode(errors="replace")[-1000:])
        return json.loads(report.decode().strip().splitlines()[-1])

    def test_the_owners_page_loads_and_stays_live_under_a_keyless_flood(self):
        flood = self.start_flood()
        # The owner signs in and works, while every connection the flood
        # loses is opened again at once.
        status = http_request(self.stack.port, "GET", "/session", headers={"Cookie": f"todod-web={self.stack.token()}"})[0]
        self.assertEqual(status, 204, "the owner's /session is answered during the flood")
        self.open()
        self.sync()
        self.stack.add("added while flooded")
        self.wait_rows([("added while flooded", False)], "the page shows an item todoctl added during the flood")
        self.add_via_page("typed while flooded")
        self.wait_daemon(self.stack.titles, lambda titles: "typed while flooded" in titles,
                         "todod has the item typed into the page during the flood")
        report = self.stop_flood(flood)
        sys.stderr.write(f"\n  flood: {report}\n")
        # Every connection of the first wave was closed by todod-web: those it
        # turned away at once, and those it kept, at their header deadline.
        self.assertEqual(report["first_wave_closed"], report["first_wave"],
                         f"connections that never finish a head are closed: {report}")
        self.assertEqual(report["tricklers_closed"], 3, f"a head trickled a line a second is closed: {report}")
        self.assertTrue(all(0 < lines < 30 for lines in report["trickler_lines_sent"]),
                        f"…after it was kept for a while, and long before 30 lines: {report}")
        self.assertLess(report["first_wave_longest_kept"], 30, f"no connection is kept without a head: {report}")
        self.assertGreater(report["reopened"], 0, f"the flood kept its pressure: {report}")
        with open(os.path.join(self.stack.dir, "todod-web.log"), encoding="utf-8", errors="replace") as log:
            text = log.read()
        self.assertIn("another user's connections are turned away", text)
        self.assertLessEqual(text.count("turned away"), 10, "the journal hears of a flood, not of every connection")


class KeylessCosts(WebTestCase):
    """What a connection without the key, or one that never finishes a head,
    may cost: as the owner's own uid, so it runs anywhere."""

    def rss_kib(self):
        with open(f"/proc/{self.stack.web.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        self.fail("no VmRSS")

    def test_an_idle_connection_is_closed_at_its_header_deadline(self):
        import socket
        silent = socket.create_connection(("127.0.0.1", self.stack.port), timeout=30)
        self.addCleanup(silent.close)
        trickling = socket.create_connection(("127.0.0.1", self.stack.port), timeout=30)
        self.addCleanup(trickling.close)
        trickling.sendall(b"GET /session HTTP/1.1\r\n")
        for line in range(30):
            try:
                trickling.sendall(b"X-Line: %d\r\n" % line)
            except OSError:
                break
            trickling.settimeout(1)
            try:
                if trickling.recv(1024) == b"":
                    break
            except TimeoutError:
                continue
            except OSError:
                break
        else:
            self.fail("a head trickled one line a second for 30 s was never closed")
        silent.settimeout(30)
        self.assertEqual(silent.recv(1024), b"", "a connection that never sends a byte is closed")

    def test_a_refusal_ends_its_connection(self):
        import socket
        client = socket.create_connection(("127.0.0.1", self.stack.port), timeout=TIMEOUT)
        self.addCleanup(client.close)
        client.sendall(f"GET /session HTTP/1.1\r\nHost: 127.0.0.1:{self.stack.port}\r\n\r\n".encode())
        received = b""
        while True:
            chunk = client.recv(65536)
            if not chunk:
                break
            received += chunk
        self.assertTrue(received.startswith(b"HTTP/1.1 401"), received[:100])
        self.assertIn(b"connection: close", received.lower(), "the refusal says it closes")

    def test_keyless_websockets_holding_unfinished_frames_cost_nothing(self):
        before = self.rss_kib()
        refused = []
        frame = unfinished_frame(1 << 20)
        for _ in range(100):
            ws = RawWebSocket(self.stack.port, cookie=None)
            refused.append(ws)
            self.addCleanup(ws.close)
            self.assertEqual(ws.status, 101)
            self.assertEqual(ws.wait_closed(), (4401, "this page needs its key: open it with todoctl web"))
            # Then 1 MiB of a frame, never finished, as if waiting for the close's answer.
            try:
                ws.sock.sendall(frame)
            except OSError:
                pass  # closed already, as it should be
        grown = (self.rss_kib() - before) / 1024
        self.assertLess(grown, 20, f"100 keyless handshakes, each with 1 MiB of a frame, grew todod-web by {grown:.0f} MiB")
        for ws in refused:
            ws.sock.settimeout(TIMEOUT)
            try:
                rest = ws.sock.recv(1)
            except ConnectionResetError:
                rest = b""
            self.assertEqual(rest, b"", "a refused WebSocket is closed without waiting for an answer")

    def test_tabs_holding_unfinished_messages_share_one_budget(self):
        token = self.stack.token()
        bystander = RawWebSocket(self.stack.port, cookie=token)
        self.addCleanup(bystander.close)
        self.assertEqual(bystander.recv_json().get("method"), "server.hello")
        before = self.rss_kib()
        tabs, codes = [], []
        for _ in range(40):
            ws = RawWebSocket(self.stack.port, cookie=token)
            tabs.append(ws)
            self.addCleanup(ws.close)
            self.assertEqual(ws.recv_json().get("method"), "server.hello")
            try:
                ws.send_unfinished_frame(1 << 20)
            except OSError:
                pass
        for ws in tabs:
            ws.sock.settimeout(2)
            try:
                ws.recv_message()
                codes.append("message")
            except WebSocketClosed as closed:
                codes.append(closed.code)
            except TimeoutError:
                codes.append("held")
        self.assertTrue(set(codes) <= {"held", 1013}, f"each tab is held or closed with 1013: {codes}")
        self.assertLessEqual(codes.count("held"), 4, f"at most four unfinished 1 MiB messages are held: {codes}")
        self.assertGreaterEqual(codes.count(1013), 36, codes)
        grown = (self.rss_kib() - before) / 1024
        self.assertLess(grown, 30, f"40 tabs each holding an unfinished 1 MiB message grew todod-web by {grown:.0f} MiB")
        # The others go on; and once the held ones are gone, a big message goes through again.
        reply = bystander.request("view.get", {"own": True, "filter": "all"}, ident=5)
        self.assertIn("result", reply)
        for ws in tabs:
            ws.close()
        deadline = time.monotonic() + TIMEOUT
        while True:
            ws = RawWebSocket(self.stack.port, cookie=token)
            self.addCleanup(ws.close)
            self.assertEqual(ws.recv_json().get("method"), "server.hello")
            ws.send_text(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "todo.add",
                                     "params": {"title": "x" * ((1 << 20) - 200)}}))
            try:
                self.assertEqual(ws.recv_json().get("id"), 1, "a message just under 1 MiB is relayed again")
                break
            except WebSocketClosed as closed:
                if closed.code != 1013 or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)


if __name__ == "__main__":
    unittest.main()
