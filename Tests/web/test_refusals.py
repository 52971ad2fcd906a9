"""What todod-web refuses, and that it keeps serving others meanwhile (no browser:
http.client and a raw WebSocket client that misbehaves on purpose)."""
import json
import os
import socket
import time
import unittest

from webharness import TIMEOUT, RawWebSocket, WebSocketClosed, WebTestCase, frame_bytes, http_request

MIB = 1024 * 1024


class Refusals(WebTestCase):
    def setUp(self):
        super().setUp()
        self.port = self.stack.port
        self.token = self.stack.token()

    def get(self, path="/", cookie=None, host=None, headers=None, address="127.0.0.1"):
        headers = dict(headers or {})
        if cookie:
            headers["Cookie"] = f"todod-web={cookie}"
        return http_request(self.port, "GET", path, headers=headers, host=host, address=address)

    def assert_csp(self, headers, what):
        self.assertIn("content-security-policy", headers, f"a Content-Security-Policy header on {what}")

    def websocket(self, **kwargs):
        ws = RawWebSocket(self.port, **kwargs)
        self.addCleanup(ws.close)
        return ws

    def open_rpc(self):
        """A WebSocket as the page opens it; checks the greeting comes through."""
        ws = self.websocket(cookie=self.token)
        self.assertEqual(ws.status, 101, f"the upgrade is accepted: {ws.status} {ws.headers}")
        hello = ws.recv_json()
        self.assertEqual(hello.get("method"), "server.hello", f"todod's greeting first: {hello}")
        return ws

    def assert_serves(self, ws, ident=7):
        reply = ws.request("view.get", {"own": True, "filter": "all"}, ident=ident)
        self.assertIn("result", reply, f"a reply with a result: {reply}")
        return reply

    # -- the key -------------------------------------------------------------

    def test_print_url_matches_token_file(self):
        with open(self.stack.token_file()) as file:
            self.assertEqual(file.read().strip(), self.token)
        self.assertEqual(self.stack.url(), f"http://127.0.0.1:{self.port}/?token={self.token}")
        self.assertGreaterEqual(len(self.token), 20, "a token long enough not to be guessed")

    def test_no_token_is_401(self):
        for path in ("/", "/app.js", "/style.css", "/session", "/rpc", "/nothing-here"):
            status, headers, cookies, _ = self.get(path)
            self.assertEqual(status, 401, f"GET {path} without a token")
            self.assertFalse(cookies, f"no cookie handed out for GET {path}")
            self.assert_csp(headers, f"a 401 for {path}")

    def test_wrong_token_is_401(self):
        wrong = ("x" * len(self.token), self.token[:-1], self.token + "x", "")
        for token in wrong:
            status, _, cookies, _ = self.get(f"/?token={token}")
            self.assertEqual(status, 401, f"GET /?token={token!r}")
            self.assertFalse(cookies)
        status, _, _, _ = self.get("/", cookie="x" * len(self.token))
        self.assertEqual(status, 401, "a wrong cookie")

    def test_valid_token_sets_cookie_and_redirects(self):
        status, headers, cookies, _ = self.get(f"/?token={self.token}")
        self.assertEqual(status, 303)
        location = headers.get("location", "")
        self.assertIn(location, ("/", f"http://127.0.0.1:{self.port}/"), "redirected to the page")
        self.assertNotIn(self.token, location, "the Location does not carry the token")
        self.assertNotIn("token", location)
        self.assertEqual(len(cookies), 1, f"one cookie: {cookies}")
        parts = [p.strip() for p in cookies[0].split(";")]
        self.assertEqual(parts[0], f"todod-web={self.token}")
        flags = {p.split("=", 1)[0].lower(): (p.split("=", 1)[1] if "=" in p else True) for p in parts[1:]}
        self.assertIs(flags.get("httponly"), True, f"HttpOnly: {cookies[0]}")
        self.assertEqual(str(flags.get("samesite", "")).lower(), "strict", f"SameSite=Strict: {cookies[0]}")
        self.assertEqual(flags.get("path"), "/", f"Path=/: {cookies[0]}")
        self.assert_csp(headers, "the 303")
        # The cookie alone now opens the page.
        status, headers, _, body = self.get("/", cookie=self.token)
        self.assertEqual(status, 200)
        self.assertIn(b"new-todo", body)

    def test_signing_in_never_redirects_to_another_host(self):
        for path in ("//evil.example/x", "///evil.example/x", "/\\evil.example/x", "/%2F/evil.example"):
            status, headers, cookies, _ = self.get(f"{path}?token={self.token}")
            self.assertEqual(status, 303, path)
            location = headers.get("location", "")
            self.assertTrue(location.startswith("/") and not location.startswith(("//", "/\\")),
                            f"{path} redirects to {location!r}, which a browser reads as another host")
        status, headers, _, _ = self.get(f"//evil.example/x?view=work&token={self.token}")
        self.assertEqual(headers.get("location"), "/?view=work")

    def test_session(self):
        status, headers, _, body = self.get("/session", cookie=self.token)
        self.assertEqual(status, 204)
        self.assertEqual(body, b"")
        self.assert_csp(headers, "/session")
        status, _, _, _ = self.get("/session")
        self.assertEqual(status, 401)
        status, _, _, _ = self.get("/session", cookie="nope")
        self.assertEqual(status, 401)

    # -- DNS rebinding and other sites ------------------------------------------

    def test_foreign_host_is_refused(self):
        for host in (f"evil.example:{self.port}", "evil.example", f"127.0.0.1.evil.example:{self.port}",
                     f"127.0.0.1:{self.port + 1}", "127.0.0.1", f"localhost.:{self.port}"):
            status, headers, cookies, _ = self.get(f"/?token={self.token}", host=host)
            self.assertEqual(status, 403, f"Host: {host} with the token")
            self.assertFalse(cookies, f"no cookie for Host: {host}")
            status, _, _, _ = self.get("/", cookie=self.token, host=host)
            self.assertEqual(status, 403, f"Host: {host} with the cookie")
        for host in (f"127.0.0.1:{self.port}", f"localhost:{self.port}", f"[::1]:{self.port}"):
            status, _, _, _ = self.get("/session", cookie=self.token, host=host)
            self.assertEqual(status, 204, f"Host: {host} is served")

    def test_serves_ipv6_loopback(self):
        status, _, _, _ = self.get("/session", cookie=self.token, host=f"[::1]:{self.port}", address="::1")
        self.assertEqual(status, 204)
        ws = self.websocket(cookie=self.token, address="::1", host=f"[::1]:{self.port}",
                            origin=f"http://[::1]:{self.port}")
        self.assertEqual(ws.status, 101)

    def assert_upgrade_refused(self, ws, status, what):
        """Refused: HTTP `status` to the handshake, or (todod-web's choice, which a page's script
        can read) the upgrade and then at once close code 4000 + `status`, before anything else.
        Either way nothing may reach todod: a request sent on it must not be carried out."""
        if ws.status == 101:
            marker = f"smuggled past the gate {os.urandom(4).hex()}"
            try:
                ws.send_text(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "todo.add",
                                         "params": {"title": marker}}))
            except OSError:
                pass
            code, reason = self.closing(ws, what, strict=True)
            self.assertEqual(code, 4000 + status,
                             f"{what}: upgraded, so it must be closed at once with {4000 + status} "
                             f"(or refused with HTTP {status}); got close {code} {reason!r}")
            self.assertNotIn(marker, self.stack.titles(), f"{what}: a request reached todod")
            return
        self.assertEqual(ws.status, status, f"{what}: {ws.status} {ws.headers}")
        self.assertIn("content-security-policy", ws.headers, f"{what}: the refusal has a CSP header too")

    def test_foreign_origin_upgrade_is_refused(self):
        for origin in ("http://evil.example", f"http://evil.example:{self.port}", "null",
                       f"http://127.0.0.1:{self.port + 1}", "http://evil.example:80"):
            ws = self.websocket(cookie=self.token, origin=origin)
            self.assert_upgrade_refused(ws, 403, f"upgrade with Origin: {origin}")

    def test_foreign_host_upgrade_is_refused(self):
        ws = self.websocket(cookie=self.token, host=f"evil.example:{self.port}", origin=f"http://evil.example:{self.port}")
        self.assert_upgrade_refused(ws, 403, "upgrade with a foreign Host (and its own Origin)")

    def test_upgrade_without_key_is_refused(self):
        self.assert_upgrade_refused(self.websocket(cookie=None), 401, "upgrade without the cookie")
        self.assert_upgrade_refused(self.websocket(cookie="0" * 64), 401, "upgrade with a wrong cookie")

    def test_own_origin_upgrade_is_accepted(self):
        for origin in (f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}"):
            ws = self.websocket(cookie=self.token, origin=origin, host=origin.split("//")[1])
            self.assertEqual(ws.status, 101, f"upgrade with Origin: {origin}")
            self.assertEqual(ws.recv_json().get("method"), "server.hello")

    def test_connections_closed_unused_log_no_error(self):
        # Browsers open connections ahead of need and close them unused, on
        # every page load: nothing went wrong, and the journal is not for noise.
        for _ in range(3):
            unused = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
            unused.close()
        status = self.get(cookie=self.token)[0]
        self.assertEqual(status, 200)
        # Stopped (SIGTERM): it finishes every connection's handling first.
        web, self.stack.web = self.stack.web, None
        web.terminate()
        web.wait(timeout=TIMEOUT)
        with open(os.path.join(self.stack.dir, "todod-web.log"), encoding="utf-8", errors="replace") as log:
            text = log.read()
        self.assertNotIn("Error handling upgrade result", text)

    def test_csp_has_no_external_sources(self):
        status, headers, _, body = self.get("/", cookie=self.token)
        self.assertEqual(status, 200)
        policy = headers.get("content-security-policy")
        self.assertTrue(policy, "the page has a Content-Security-Policy")
        directives = {}
        for directive in policy.split(";"):
            words = directive.split()
            if words:
                directives[words[0].lower()] = words[1:]
        self.assertIn("default-src", directives, policy)
        local = (f"127.0.0.1:{self.port}", f"localhost:{self.port}", f"[::1]:{self.port}")
        for name, sources in directives.items():
            for source in sources:
                lowered = source.lower()
                if lowered.startswith("'") or lowered in ("data:", "blob:"):
                    continue
                self.assertFalse(lowered in ("*", "http:", "https:", "ws:", "wss:") or "*" in lowered,
                                 f"{name} allows anything: {source!r} in {policy!r}")
                self.assertTrue(any(host in lowered for host in local),
                                f"{name} names a source other than this server: {source!r} in {policy!r}")
        for name in ("script-src", "default-src"):
            if name in directives:
                self.assertNotIn("'unsafe-eval'", directives[name], policy)
        # The page loads nothing from elsewhere.
        text = body.decode("utf-8", "replace")
        for needle in ("http://", "https://", "//cdn", "src=\"//", "href=\"//"):
            self.assertNotIn(needle, text.replace("http://www.w3.org", ""), f"the page refers to {needle}")
        for path in ("/app.js", "/style.css"):
            status, headers, _, _ = self.get(path, cookie=self.token)
            self.assertEqual(status, 200, path)
            self.assert_csp(headers, path)

    # -- the relay ----------------------------------------------------------

    def test_relays_lines_both_ways(self):
        ws = self.open_rpc()
        reply = ws.request("todo.add", {"title": "from a raw socket"}, ident="a")
        self.assertEqual(reply["result"]["item"]["title"], "from a raw socket")
        self.assertEqual(self.stack.titles(), ["from a raw socket"])
        other = self.open_rpc()
        other.request("view.subscribe", {"own": True}, ident=1)
        self.stack.add("from todoctl")
        event = other.recv_json()
        while event.get("method") != "view.changed":
            event = other.recv_json()
        self.assertEqual(event["params"]["rows"][0]["row"]["title"], "from todoctl")

    def test_message_over_1_mib_closes_1009_others_keep_working(self):
        bystander = self.open_rpc()
        ws = self.open_rpc()
        # Just under the limit goes through (todod refuses the long title, which is fine).
        near = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "todo.add",
                           "params": {"title": "x" * (MIB - 200)}})
        ws.send_text(near)
        reply = ws.recv_json()
        self.assertEqual(reply.get("id"), 1, f"a message just under 1 MiB is relayed: {str(reply)[:200]}")
        # Over it: one frame, as a browser sends it.
        huge = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "todo.add",
                           "params": {"title": "x" * (MIB + 1024)}}).encode()
        ws.send_huge(huge)
        code, reason = ws.wait_closed()
        self.assertEqual(code, 1009, f"closed with 1009 (message too big), got {code} {reason!r}")
        self.assert_serves(bystander)
        self.assert_serves(self.open_rpc(), ident=8)
        self.assertEqual(self.stack.titles(), [], "nothing of the huge message reached the list")

    def test_fragmented_message_over_1_mib_closes_1009(self):
        ws = self.open_rpc()
        huge = b'{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"' + b"y" * (MIB + 1024) + b'"}}'
        chunk = 64 * 1024
        try:
            for offset in range(0, len(huge), chunk):
                opcode = 0x1 if offset == 0 else 0x0
                ws.send_frame(opcode, huge[offset:offset + chunk], fin=offset + chunk >= len(huge))
        except (BrokenPipeError, ConnectionResetError):
            pass
        code, reason = ws.wait_closed()
        self.assertEqual(code, 1009, f"fragments adding up to over 1 MiB close with 1009, got {code} {reason!r}")
        self.assert_serves(self.open_rpc())

    def closing(self, ws, what, timeout=5, strict=False):
        """(code, reason) of the close frame that ends `ws`; fails naming what came instead
        (strict: fails on any message before the close)."""
        ws.sock.settimeout(timeout)
        received = []
        try:
            while True:
                received.append(ws.recv_message()[:80])
                if strict:
                    self.fail(f"{what}: a message came through before the close: {received}")
        except WebSocketClosed as closed:
            return closed.code, closed.reason
        except (ConnectionError, OSError) as error:
            self.fail(f"{what}: no close frame ({type(error).__name__}: {error}); "
                      f"messages received meanwhile: {received}")

    def assert_protocol_error(self, ws, what):
        code, reason = self.closing(ws, what)
        self.assertEqual(code, 1002, f"{what}: closed with 1002 (protocol error), got {code} {reason!r}")

    def test_unmasked_frame_is_protocol_error(self):
        bystander = self.open_rpc()
        ws = self.open_rpc()
        ws.send_frame(0x1, b'{"jsonrpc":"2.0","id":1,"method":"view.get"}', mask=False)
        self.assert_protocol_error(ws, "an unmasked client frame")
        self.assert_serves(bystander)
        self.assert_serves(self.open_rpc(), ident=9)

    def test_frames_sent_with_the_handshake_are_read_as_frames(self):
        view_get = b'{"jsonrpc":"2.0","id":3,"method":"view.get","params":{"own":true}}'
        # Unmasked, in the handshake's own write: refused like any other.
        bystander = self.open_rpc()
        ws = self.websocket(cookie=self.token, with_handshake=frame_bytes(0x1, view_get, mask=False))
        self.assertEqual(ws.status, 101)
        code, reason = self.closing(ws, "an unmasked frame sent with the handshake")
        self.assertEqual(code, 1002, f"closed with 1002, got {code} {reason!r}")
        self.assert_serves(bystander)
        # Masked, in the same write, whole or in part: read from its first byte.
        ws = self.websocket(cookie=self.token, with_handshake=frame_bytes(0x1, view_get))
        self.assertEqual(ws.status, 101)
        self.assertEqual(ws.recv_json().get("method"), "server.hello")
        self.assertIn("result", ws.recv_json(), "a request sent with the handshake is answered")
        whole = frame_bytes(0x1, view_get)
        ws = self.websocket(cookie=self.token, with_handshake=whole[:5])
        ws.sock.sendall(whole[5:])
        self.assertEqual(ws.recv_json().get("method"), "server.hello")
        self.assertIn("result", ws.recv_json(), "a frame begun in the handshake's write is answered")

    def test_bad_opcode_is_protocol_error(self):
        bystander = self.open_rpc()
        ws = self.open_rpc()
        ws.send_frame(0x3, b"reserved opcode")
        self.assert_protocol_error(ws, "a frame with the reserved opcode 3")
        self.assert_serves(bystander)

    def test_reserved_bits_are_protocol_error(self):
        ws = self.open_rpc()
        ws.send_frame(0x1, b"{}", rsv=0b100)
        self.assert_protocol_error(ws, "a frame with RSV1 set (no extension agreed)")
        self.assert_serves(self.open_rpc())

    def test_invalid_utf8_text_is_closed(self):
        ws = self.open_rpc()
        ws.send_frame(0x1, b'{"jsonrpc":"2.0","id":1,"method":"\xff"}')
        code, reason = self.closing(ws, "invalid UTF-8")
        self.assertIn(code, (1002, 1007), f"invalid UTF-8 in a text message: closed with 1007, got {code}")
        self.assert_serves(self.open_rpc())

    def test_binary_message_is_refused(self):
        ws = self.open_rpc()
        ws.send_frame(0x2, b'{"jsonrpc":"2.0","id":1,"method":"view.get"}')
        code, reason = self.closing(ws, "a binary message")
        self.assertIn(code, (1003, 1002, 1008), f"a binary message closes the connection: got {code} {reason!r}")

    def test_newline_in_message_cannot_smuggle_a_second_request(self):
        ws = self.open_rpc()
        two = ('{"jsonrpc":"2.0","id":1,"method":"view.get","params":{"own":true}}\n'
               '{"jsonrpc":"2.0","id":2,"method":"todo.add","params":{"title":"smuggled"}}')
        ws.send_text(two)
        # Whatever todod-web does with it (refuse, close), the second line must not become a request.
        try:
            ws.sock.settimeout(3)
            for _ in range(5):
                ws.recv_json()
        except (WebSocketClosed, socket.timeout, ConnectionError, OSError, ValueError):
            pass
        self.assertNotIn("smuggled", self.stack.titles(), "a message is one line: no second request inside it")

    def test_hundred_connections_at_once(self):
        idle = []
        for _ in range(100):
            client = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
            idle.append(client)
        self.addCleanup(lambda: [c.close() for c in idle])
        started = time.monotonic()
        status, _, _, _ = self.get("/session", cookie=self.token)
        self.assertEqual(status, 204, "served while 100 idle connections are open")
        self.assert_serves(self.open_rpc())
        self.assertLess(time.monotonic() - started, TIMEOUT)

    def test_hundred_websockets_at_once(self):
        sockets, codes, statuses = [], [], []
        for _ in range(100):
            ws = RawWebSocket(self.port, cookie=self.token)
            sockets.append(ws)
            statuses.append(ws.status)
        self.addCleanup(lambda: [ws.close() for ws in sockets])
        for ws in sockets:
            if ws.status != 101:
                continue
            try:
                ws.sock.settimeout(TIMEOUT)
                message = ws.recv_json()
                codes.append("hello" if message.get("method") == "server.hello" else message.get("method"))
            except WebSocketClosed as closed:
                codes.append(closed.code)
        self.assertTrue(all(s in (101, 429, 503) for s in statuses), f"upgrade statuses: {set(statuses)}")
        self.assertTrue(all(c in ("hello", 1013) for c in codes), f"each tab greeted or closed with 1013: {codes}")
        self.assertIn("hello", codes, "some of them are served")
        # Others are still served while they are open ...
        status, _, _, _ = self.get("/session", cookie=self.token)
        self.assertEqual(status, 204)
        # ... and once they are gone, a new tab is.
        for ws in sockets:
            ws.close()
        deadline = time.monotonic() + TIMEOUT
        while True:
            ws = RawWebSocket(self.port, cookie=self.token)
            self.addCleanup(ws.close)
            try:
                self.assertEqual(ws.status, 101)
                self.assertEqual(ws.recv_json().get("method"), "server.hello")
                break
            except WebSocketClosed as closed:
                if closed.code != 1013 or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        self.assert_serves(ws)

    # -- todod going away ----------------------------------------------------------

    def test_todod_stops_closes_1012(self):
        ws = self.open_rpc()
        self.stack.stop_todod()
        try:
            while True:
                message = ws.recv_json()   # server.shutdown may come through first
                self.assertIn(message.get("method"), ("server.shutdown", "view.changed"), message)
        except WebSocketClosed as closed:
            self.assertEqual(closed.code, 1012, f"todod closed the connection: 1012, got {closed.code}")

    def test_todod_not_running_closes_4001(self):
        self.stack.stop_todod()
        ws = self.websocket(cookie=self.token)
        self.assertEqual(ws.status, 101, "the upgrade is accepted, then closed with the reason")
        code, reason = ws.wait_closed()
        self.assertEqual((code, reason), (4001, "todod is not running"))
        # The page itself is still served, to say so.
        status, _, _, body = self.get("/", cookie=self.token)
        self.assertEqual(status, 200)


class StartsWithoutTodod(WebTestCase):
    start_todod = False

    def test_todod_web_starts_and_serves_without_todod(self):
        token_path = self.stack.token_file()
        deadline = time.monotonic() + TIMEOUT
        while not os.path.exists(token_path) and time.monotonic() < deadline:
            time.sleep(0.05)
        with open(token_path) as file:
            token = file.read().strip()
        mode = os.stat(token_path).st_mode & 0o777
        self.assertEqual(mode & 0o077, 0, f"web.token is private to its user: {oct(mode)}")
        status, _, _, _ = http_request(self.stack.port, "GET", "/session",
                                       headers={"Cookie": f"todod-web={token}"})
        self.assertEqual(status, 204)
        ws = RawWebSocket(self.stack.port, cookie=token)
        self.addCleanup(ws.close)
        self.assertEqual(ws.wait_closed(), (4001, "todod is not running"))


if __name__ == "__main__":
    unittest.main()
