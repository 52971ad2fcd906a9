"""What the browser tests of todod's web page share (Tests/web/run runs them).

A Stack is one throwaway todod and todod-web in a directory of its own,
/tmp/todod-web-test.XXXXXX (socket, data, config, logs), on a free port.
A Browser is one headless Chromium driven by chromedriver, its profile in a
directory of the same kind. Both are stopped and their directories removed
when a test ends, passed or failed; anything still alive when Python exits
is stopped by an atexit hook, by process id (never by name).

Binaries: $TODOD_BIN_DIR (Tests/web/run sets it from `swift build
--show-bin-path`), else .build/debug. The page: the one built into todod-web,
unless $TODOD_WEB_PAGE_DIR names a directory (passed as --page-dir).
$TODOD_WEB_KEEP=1 keeps the directories (logs) for a look afterwards.
"""
import atexit
import base64
import errno
import http.client
import json
import os
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.environ.get("TODOD_BIN_DIR") or os.path.join(ROOT, ".build", "debug")
PAGE_DIR = os.environ.get("TODOD_WEB_PAGE_DIR") or None
KEEP = os.environ.get("TODOD_WEB_KEEP") == "1"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# Generous: the machine may be busy building Swift while the tests run.
TIMEOUT = float(os.environ.get("TODOD_WEB_TIMEOUT", "15"))

_live_processes = {}  # pid -> (Popen, kill the whole group?)
_live_dirs = set()


def _stop(process, group=False, grace=5.0):
    """SIGTERM, then SIGKILL after `grace` seconds; by pid (or our own group)."""
    if process.poll() is None:
        try:
            if group:
                os.killpg(process.pid, signal.SIGTERM)
            else:
                process.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                if group:
                    os.killpg(process.pid, signal.SIGKILL)
                else:
                    process.kill()
            except ProcessLookupError:
                pass
            process.wait(grace)
    elif group:
        # The leader is gone; children it left in its group may not be.
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    _live_processes.pop(process.pid, None)


def _cleanup_everything():
    for process, group in list(_live_processes.values()):
        try:
            _stop(process, group, grace=2.0)
        except Exception:  # noqa: BLE001 - best effort at exit
            pass
    if not KEEP:
        for path in list(_live_dirs):
            shutil.rmtree(path, ignore_errors=True)
            _live_dirs.discard(path)


atexit.register(_cleanup_everything)


def _on_signal(number, _frame):
    _cleanup_everything()
    sys.exit(128 + number)


for _signal in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(_signal, _on_signal)


def make_dir():
    path = tempfile.mkdtemp(prefix="todod-web-test.", dir="/tmp")
    _live_dirs.add(path)
    return path


def remove_dir(path):
    if KEEP:
        sys.stderr.write(f"\n[kept {path}]\n")
        return
    shutil.rmtree(path, ignore_errors=True)
    _live_dirs.discard(path)


def spawn(args, log_path, env=None, group=False):
    log = open(log_path, "ab")
    process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env,
                               start_new_session=group)
    log.close()
    _live_processes[process.pid] = (process, group)
    return process


def free_port():
    """A port free on both 127.0.0.1 and ::1 (todod-web listens on both)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as four:
            four.bind(("127.0.0.1", 0))
            port = four.getsockname()[1]
            try:
                with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as six:
                    six.bind(("::1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no port free on both 127.0.0.1 and ::1")


def tail(path, lines=40):
    try:
        with open(path, "rb") as file:
            data = file.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return f"(no {path})"
    return "\n".join(data[-lines:])


class Stack:
    """A throwaway todod and todod-web. Nothing runs until start()."""

    def __init__(self, todod_args=()):
        self.todod_args = list(todod_args)
        self.dir = make_dir()
        self.socket = os.path.join(self.dir, "todod.sock")
        self.data = os.path.join(self.dir, "data")
        self.config = os.path.join(self.dir, "config")
        self.state_home = os.path.join(self.dir, "state")
        os.makedirs(self.config, mode=0o700)
        os.makedirs(self.state_home, mode=0o700)
        self.port = free_port()
        self.todod = None
        self.web = None
        self._url = None
        # Both XDG homes in the work directory: never the real key or settings.
        self.env = dict(os.environ, XDG_CONFIG_HOME=self.config, XDG_STATE_HOME=self.state_home)
        self.env.pop("TODOD_SOCKET", None)

    # -- lifetime ---------------------------------------------------------

    def start(self, todod=True):
        if todod:
            self.start_todod()
        self.start_web()
        return self

    def start_todod(self):
        assert self.todod is None or self.todod.poll() is not None, "todod already runs"
        self.todod = spawn([os.path.join(BIN, "todod"), "--socket", self.socket, "--data-dir", self.data] + self.todod_args,
                           os.path.join(self.dir, "todod.log"), env=self.env)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.todod.poll() is not None:
                raise RuntimeError(f"todod exited with {self.todod.returncode}:\n{tail(self.dir + '/todod.log')}")
            if os.path.exists(self.socket) and self._greets():
                return
            time.sleep(0.02)
        raise RuntimeError(f"todod did not answer on {self.socket} within {TIMEOUT} s")

    def _greets(self):
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
                client.settimeout(2)
                client.connect(self.socket)
                client.sendall(b'{"jsonrpc":"2.0","id":1,"method":"server.status"}\n')
                data = b""
                while data.count(b"\n") < 2:
                    chunk = client.recv(65536)
                    if not chunk:
                        return False
                    data += chunk
                return b"server.hello" in data
        except OSError:
            return False

    def stop_todod(self):
        """SIGTERM, and wait until it has exited (it saves everything first)."""
        if self.todod is not None:
            _stop(self.todod, grace=TIMEOUT)
            self.todod = None

    def start_web(self, extra=()):
        args = [os.path.join(BIN, "todod-web"), "--port", str(self.port), "--daemon-socket", self.socket]
        if PAGE_DIR:
            args += ["--page-dir", PAGE_DIR]
        self.web = spawn(args + list(extra), os.path.join(self.dir, "todod-web.log"), env=self.env)
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.web.poll() is not None:
                raise RuntimeError(f"todod-web exited with {self.web.returncode}:\n{tail(self.dir + '/todod-web.log')}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"todod-web did not listen on 127.0.0.1:{self.port} within {TIMEOUT} s")

    def close(self):
        for process in (self.web, self.todod):
            if process is not None:
                _stop(process)
        self.web = self.todod = None
        remove_dir(self.dir)

    def todod_log(self):
        """All todod has logged so far."""
        with open(os.path.join(self.dir, "todod.log"), encoding="utf-8", errors="replace") as log:
            return log.read()

    def logs(self):
        return (f"--- todod-web.log ---\n{tail(self.dir + '/todod-web.log')}\n"
                f"--- todod.log ---\n{tail(self.dir + '/todod.log')}")

    # -- access -----------------------------------------------------------

    def url(self):
        """What `todoctl web --print-url` prints: http://127.0.0.1:P/?token=T."""
        if self._url is None:
            result = self.todoctl("web", "--print-url", "--port", str(self.port))
            lines = [line for line in result.stdout.splitlines() if line.strip()]
            if len(lines) != 1 or not lines[0].startswith(f"http://127.0.0.1:{self.port}/?token="):
                raise AssertionError(f"todoctl web --print-url printed {result.stdout!r}")
            self._url = lines[0].strip()
        return self._url

    def token(self):
        return self.url().split("?token=", 1)[1]

    def token_file(self):
        """Where todod-web keeps its key: $XDG_STATE_HOME/todod-web/token (or config/todod/web.token)."""
        candidates = (os.path.join(self.state_home, "todod-web", "token"),
                      os.path.join(self.config, "todod", "web.token"))
        for path in candidates:
            if os.path.exists(path):
                return path
        return candidates[0]

    def base(self):
        return f"http://127.0.0.1:{self.port}/"

    # -- the list, through todoctl ---------------------------------------

    def todoctl(self, *args, check=True, timeout=None):
        result = subprocess.run([os.path.join(BIN, "todoctl"), "--socket", self.socket, *args], env=self.env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=timeout or TIMEOUT * 2)
        if check and result.returncode != 0:
            raise AssertionError(f"todoctl {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
        return result

    def call(self, method, params=None):
        args = ["call", method] + ([json.dumps(params)] if params is not None else [])
        reply = json.loads(self.todoctl(*args).stdout)
        if "error" in reply:
            raise AssertionError(f"{method} failed: {reply['error']}")
        return reply["result"]

    def add(self, text):
        """Adds with shorthand (todoctl add); returns the new item's id."""
        return self.call("todo.add", {"text": text})["item"]["id"]

    def state(self):
        """Every item, whatever the shared view's filter: a view of our own."""
        return self.call("view.get", {"own": True, "filter": "all", "flat": True})

    def items(self):
        return self.state()["rows"]

    def titles(self):
        return [row["title"] for row in self.items()]


def _fmt_headers(headers):
    return {k.lower(): v for k, v in headers}


def http_request(port, method="GET", path="/", headers=None, host=None, address="127.0.0.1"):
    """One plain request; returns (status, {lower-case name: value}, [set-cookie...], body)."""
    connection = http.client.HTTPConnection(address, port, timeout=TIMEOUT)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        raw = response.getheaders()
        cookies = [v for k, v in raw if k.lower() == "set-cookie"]
        return response.status, _fmt_headers(raw), cookies, body
    finally:
        connection.close()


# -- a minimal WebSocket client (RFC 6455), enough to misbehave on purpose ----

class WebSocketClosed(Exception):
    def __init__(self, code, reason):
        super().__init__(f"closed with {code} {reason!r}")
        self.code = code
        self.reason = reason


class RawWebSocket:
    def __init__(self, port, cookie=None, origin="default", host=None, path="/rpc", address="127.0.0.1", with_handshake=b""):
        """Opens the WebSocket; `with_handshake` is sent in the same write as the handshake."""
        self.port = port
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        self.sock = socket.socket(family, socket.SOCK_STREAM)
        self.sock.settimeout(TIMEOUT)
        self.sock.connect((address, port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        if origin == "default":
            origin = f"http://127.0.0.1:{port}"
        if origin:
            lines.append(f"Origin: {origin}")
        if cookie:
            lines.append(f"Cookie: todod-web={cookie}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + with_handshake)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            head += chunk
        head, _, self.buffer = head.partition(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        parts = status_line.split(" ")
        self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        self.headers = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.closed = None

    # frames -------------------------------------------------------------

    def send_frame(self, opcode, payload, fin=True, mask=True, rsv=0):
        self.sock.sendall(frame_bytes(opcode, payload, fin, mask, rsv))

    def send_text(self, text):
        self.send_frame(0x1, text.encode() if isinstance(text, str) else text)

    def send_huge(self, payload, opcode=0x1):
        """Sends one frame, stopping early if the server answers (it may close mid-frame)."""
        key = os.urandom(4)
        length = len(payload)
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length) + key
        return self._send_until_answered(header + _mask(payload, key))

    def send_unfinished_frame(self, length, opcode=0x1):
        """Sends a frame's header for `length` bytes and all of them but the last, as an
        attacker would to make the server hold them; stops early if the server answers."""
        return self._send_until_answered(unfinished_frame(length, opcode))

    def _send_until_answered(self, data):
        sent = 0
        self.sock.setblocking(False)
        try:
            while sent < len(data):
                readable, writable, _ = select.select([self.sock], [self.sock], [], TIMEOUT)
                if readable:
                    break  # the server said something (a close frame, we hope): stop and read it
                if not writable:
                    raise TimeoutError("the server stopped reading")
                try:
                    sent += self.sock.send(data[sent:sent + 65536])
                except BlockingIOError:
                    continue
                except OSError as error:
                    if error.errno in (errno.EPIPE, errno.ECONNRESET):
                        break
                    raise
        finally:
            self.sock.setblocking(True)
            self.sock.settimeout(TIMEOUT)
        return sent

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the connection was closed without a close frame")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def recv_frame(self):
        first, second = self._read(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read(8))[0]
        key = self._read(4) if second & 0x80 else None
        payload = self._read(length)
        if key:
            payload = _mask(payload, key)
        return bool(first & 0x80), first & 0x0F, payload

    def recv_message(self):
        """The next text or binary message; answers pings; raises WebSocketClosed on a close frame."""
        parts = []
        while True:
            fin, opcode, payload = self.recv_frame()
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.closed = (code, payload[2:].decode("utf-8", "replace"))
                raise WebSocketClosed(*self.closed)
            if opcode == 0x9:
                self.send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if fin:
                return b"".join(parts).decode("utf-8")

    def recv_json(self):
        return json.loads(self.recv_message())

    def request(self, method, params=None, ident=1):
        """Sends one request and returns its reply, skipping notifications."""
        message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send_text(json.dumps(message))
        while True:
            reply = self.recv_json()
            if reply.get("id") == ident and "method" not in reply:
                return reply

    def wait_closed(self):
        """Reads until the close frame; returns (code, reason). Raises if none comes."""
        while True:
            try:
                self.recv_message()
            except WebSocketClosed as closed:
                return closed.code, closed.reason

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def frame_bytes(opcode, payload, fin=True, mask=True, rsv=0):
    """One client frame as bytes."""
    first = (0x80 if fin else 0) | (rsv << 4) | opcode
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", first, (0x80 if mask else 0) | length)
    elif length < 65536:
        header = struct.pack("!BBH", first, (0x80 if mask else 0) | 126, length)
    else:
        header = struct.pack("!BBQ", first, (0x80 if mask else 0) | 127, length)
    if mask:
        key = os.urandom(4)
        payload = _mask(payload, key)
        header += key
    return header + payload


def unfinished_frame(length, opcode=0x1):
    """A masked frame's header for `length` bytes, and all of them but the last."""
    key = os.urandom(4)
    return struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length) + key + _mask(b"u" * (length - 1), key)


def _mask(payload, key):
    if not payload:
        return payload
    # Fast enough for a few MiB: XOR as big integers.
    repeated = (key * (len(payload) // 4 + 1))[:len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")


# -- the browser ----------------------------------------------------------

def browser_available():
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        return False
    try:
        import selenium  # noqa: F401
    except ImportError:
        return False
    return True


class Browser:
    """One headless Chromium; its profile lives in a todod-web-test directory."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.dir = make_dir()
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                         f"--user-data-dir={self.dir}/profile", "--no-first-run", "--no-default-browser-check",
                         "--disable-background-networking", "--disable-dev-shm-usage",
                         # Every window stays "visible": no timer throttling in the second tab.
                         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                         "--disable-backgrounding-occluded-windows"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # TMPDIR too: Chromium's singleton socket and scratch files go in our directory, not /tmp.
        os.makedirs(os.path.join(self.dir, "tmp"))
        self.service = Service(CHROMEDRIVER, log_path=os.path.join(self.dir, "chromedriver.log"),
                               env=dict(os.environ, TMPDIR=os.path.join(self.dir, "tmp")),
                               popen_kw={"start_new_session": True})
        self.driver = webdriver.Chrome(service=self.service, options=options)
        process = self.service.process
        _live_processes[process.pid] = (process, True)
        # Every page this tab opens records what it sends on its WebSockets (window.__todod_sent).
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": SEND_SPY_JS})
        self.driver.set_page_load_timeout(TIMEOUT * 2)
        self.driver.set_script_timeout(TIMEOUT * 2)

    def console(self):
        try:
            return "\n".join(f"{entry['level']}: {entry['message']}" for entry in self.driver.get_log("browser"))
        except Exception as error:  # noqa: BLE001
            return f"(no console log: {error})"

    def reset(self):
        """Back to one window on about:blank, between tests."""
        driver = self.driver
        handles = driver.window_handles
        for handle in handles[1:]:
            driver.switch_to.window(handle)
            driver.close()
        driver.switch_to.window(handles[0])
        driver.get("about:blank")

    def close(self):
        process = self.service.process
        try:
            self.driver.quit()
        except Exception:  # noqa: BLE001
            pass
        if process is not None:
            _stop(process, group=True, grace=5)
        remove_dir(self.dir)


# Installed before the page's own scripts: what the page sends to todod, message by message.
SEND_SPY_JS = r"""
(() => {
  const sent = [];
  Object.defineProperty(window, '__todod_sent', {value: sent});
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (sent.length < 10000) sent.push(typeof data === 'string' ? data : '(binary)');
    return send.apply(this, arguments);
  };
})();
"""

# JavaScript run in the page: the list as the person sees it, in one go.
ROWS_JS = r"""
const shown = el => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
const text = el => el ? el.textContent.replace(/\s+/g, ' ').trim() : null;
return Array.from(document.querySelectorAll('.todo-list li')).map(li => {
  const label = li.querySelector('label');
  let title = null;
  if (label) {
    const copy = label.cloneNode(true);
    copy.querySelectorAll('.due, .fields').forEach(e => e.remove());
    title = text(copy);
  }
  const toggle = li.querySelector('.toggle');
  return {
    id: li.getAttribute('data-id'),
    title: title,
    completed: li.classList.contains('completed'),
    editing: li.classList.contains('editing'),
    overdue: li.classList.contains('overdue'),
    checked: toggle ? toggle.checked : null,
    visible: shown(li),
    due: text(li.querySelector('span.due')),
    fields: text(li.querySelector('span.fields')),
  };
});
"""

SHOWN_JS = r"""
const el = typeof arguments[0] === 'string' ? document.querySelector(arguments[0]) : arguments[0];
return !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  && getComputedStyle(el).display !== 'none';
"""


class WebTestCase(unittest.TestCase):
    """A Stack per test; with `browser = True`, one Browser per class."""

    browser = False
    start_todod = True
    open_page = True
    sync_page = True   # make sure the page follows the list before the test starts
    todod_args = ()    # more options for the test's todod (smaller limits, say)

    @classmethod
    def setUpClass(cls):
        cls.chrome = Browser() if cls.browser else None

    @classmethod
    def tearDownClass(cls):
        if cls.chrome is not None:
            cls.chrome.close()
            cls.chrome = None

    def setUp(self):
        self.stack = Stack(self.todod_args)
        self.addCleanup(self._finish)
        self.stack.start(todod=self.start_todod)
        if self.chrome is not None:
            self.driver = self.chrome.driver
            if self.open_page:
                self.open()
                if self.sync_page and self.start_todod:
                    self.sync()

    def _finish(self):
        outcome = getattr(self, "_outcome", None)
        failed = outcome is not None and not getattr(outcome, "success", True)
        if failed:
            sys.stderr.write(f"\n===== {self.id()} failed; what the programs said:\n{self.stack.logs()}\n")
            if self.chrome is not None:
                sys.stderr.write(f"--- browser console ---\n{self.chrome.console()}\n")
        if self.chrome is not None:
            try:
                self.chrome.reset()
            except Exception as error:  # noqa: BLE001
                sys.stderr.write(f"(could not reset the browser: {error})\n")
        self.stack.close()

    # -- page helpers ------------------------------------------------------

    def open(self, url=None):
        """Opens the page as `todoctl web` would: through the token URL."""
        self.driver.get(url or self.stack.url())
        self.wait_until(lambda: self.driver.execute_script("return document.readyState"), lambda s: s == "complete",
                        "the page to load")
        # .new-todo is in the page's markup: no need to wait for scripts to make it.
        if not self.driver.execute_script("return !!document.querySelector('.new-todo')"):
            self.fail(f"the page served has no .new-todo (is it the page? TODOD_WEB_PAGE_DIR={PAGE_DIR}): "
                      f"{self.driver.execute_script('return document.documentElement.outerHTML')[:300]!r}")

    def sync(self):
        """Waits until the page shows what todod has: an item added and removed with todoctl."""
        ident = self.stack.add("page-sync-probe")
        self.wait_until(lambda: [r["title"] for r in self.rows()], lambda t: "page-sync-probe" in t,
                        "the page to show an item added with todoctl (is it connected?)")
        self.stack.todoctl("rm", str(ident), "--yes")
        self.wait_until(lambda: [r["title"] for r in self.rows()], lambda t: "page-sync-probe" not in t,
                        "the page to drop an item removed with todoctl")

    def rows(self):
        return self.driver.execute_script(ROWS_JS)

    def sent(self):
        """The requests this page has sent on its WebSockets, parsed (what is not JSON as a string)."""
        messages = []
        for text in self.driver.execute_script("return window.__todod_sent || null") or []:
            try:
                messages.append(json.loads(text))
            except ValueError:
                messages.append(text)
        return messages

    def visible_titles(self):
        return [row["title"] for row in self.rows() if row["visible"]]

    def shown(self, selector_or_element):
        return self.driver.execute_script(SHOWN_JS, selector_or_element)

    def q(self, selector):
        from selenium.webdriver.common.by import By
        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def qs(self, selector):
        from selenium.webdriver.common.by import By
        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def li(self, index):
        """The index-th row (of all rows, shown or not)."""
        items = self.qs(".todo-list li")
        self.assertGreater(len(items), index, f"there is no row {index}: {self.rows()}")
        return items[index]

    def visible_li(self, index):
        items = [li for li in self.qs(".todo-list li") if self.shown(li)]
        self.assertGreater(len(items), index, f"there is no visible row {index}: {self.rows()}")
        return items[index]

    def add_via_page(self, text, expect=None):
        """Types into .new-todo and presses Enter; waits for the row `expect` (default: text trimmed)."""
        from selenium.webdriver.common.keys import Keys
        before = len(self.rows())
        field = self.q(".new-todo")
        field.send_keys(text + Keys.ENTER)
        expect = text.strip() if expect is None else expect
        self.wait_until(lambda: [r["title"] for r in self.rows()],
                        lambda titles: len(titles) == before + 1 and expect in titles,
                        f"the page to show the new item {expect!r}")

    def wait_until(self, getter, predicate=None, what="a condition", timeout=None):
        """Polls getter until predicate(value) (or the value itself) is true; fails naming the last value."""
        from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException,
                                                JavascriptException)
        if isinstance(predicate, str):   # wait_until(getter, "what")
            predicate, what = None, predicate
        predicate = predicate or bool
        deadline = time.monotonic() + (timeout or TIMEOUT)
        last = None
        while True:
            try:
                last = getter()
                if predicate(last):
                    return last
            except (NoSuchElementException, StaleElementReferenceException, JavascriptException) as error:
                last = f"{type(error).__name__}: {getattr(error, 'msg', error)}"
            if time.monotonic() > deadline:
                self.fail(f"timed out after {timeout or TIMEOUT:.0f} s waiting for {what}; last seen: {last!r}")
            time.sleep(0.05)

    def wait_rows(self, expected, what=None, visible_only=True):
        """Waits until the shown rows are exactly `expected`: [(title, completed), ...]."""
        def current():
            return [(r["title"], r["completed"]) for r in self.rows() if r["visible"] or not visible_only]
        return self.wait_until(current, lambda rows: rows == expected, what or f"the rows {expected}")

    def wait_daemon(self, getter, predicate, what):
        """Like wait_until, for what todod says (todoctl), not the page."""
        return self.wait_until(getter, predicate, what)
