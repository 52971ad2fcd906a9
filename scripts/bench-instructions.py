#!/usr/bin/python3
"""Instructions todod executes per durable `todo.add`, counted by callgrind.

`scripts/bench instructions` builds todod (release, static stdlib), copies it
and runs this script on the copy; run it by hand as

    /usr/bin/python3 scripts/bench-instructions.py --todod PATH [--profile 30]

Wall time on a shared machine varies from run to run; the number of
instructions todod executes for the same requests barely does, so a change
that saves 10 % shows as 10 % here even when the timings cannot tell it.

It starts todod under `valgrind --tool=callgrind` with a fresh data
directory (and `--config /dev/null`, as the other benchmarks do), waits for
its socket and greeting, and measures two loads in two runs of todod:

- one client sending `todo.add` one at a time, each awaited: the marginal
  cost, counted over adds N+1 to 2N (by default 1,001 to 2,000), so that
  start-up, the first connection and the first commits stay out;
- `--clients` clients (50) each sending its share of `--total` adds
  (2,000) one at a time, all at once: every instruction from the first
  connection to the last reply, divided by the adds.

With `--parts one,fanout` it also counts one event fanned out:
`--subscribers` connections (100) subscribed to the shared view `main`,
adds sent one at a time, each only once every subscriber has read the last
event (a lagging subscriber's events are coalesced: less work), over
`--fanout-adds` adds (200); it prints the cost per subscriber and event
over the marginal add.

How the phases are told apart (`--method`):

- `dump` (the default): `callgrind_control --dump` between the phases, which
  writes what was counted so far and starts again from zero, so one run
  gives every phase and start and stop stay out by construction;
- `runs`: separate runs of todod with 0, N and 2N adds (one client) and with
  `--total` adds (the clients); one client's marginal cost is the difference
  of the N and 2N runs over N, the clients' is their run less the run with
  no adds, over `--total`. Slower, but needs no vgdb.

Besides the instructions it reports the write-ahead log's pages per add, as
todod's bytes written (`wchar` in /proc/PID/io) less the bytes the clients
received, over a log frame (page size + 24). (An estimate: it counts every
byte todod writes anywhere but its socket.)

With `--profile N` it prints where the one-client adds' instructions go:
the N functions with the most inclusive cost, and the self cost by module
(todod's own modules, GRDB, NIO, the Swift runtime, SQLite, libc). That
needs symbols: give it a todod whose debug sections are stripped but whose
symbol table is kept (`strip --strip-debug`; valgrind 3.19 cannot read the
DWARF 5 Swift writes, and a fully stripped binary has no names left).
Swift names are demangled with `swift demangle` when it is on the PATH.
"""

import argparse
import collections
import glob
import json
import os
import re
import selectors
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

START_TIMEOUT = 600  # seconds: todod under callgrind starts slowly
STOP_TIMEOUT = 600


def fail(message):
    print(f"bench-instructions: {message}", file=sys.stderr)
    sys.exit(1)


class Todod:
    """One todod under callgrind, in a directory of its own."""

    def __init__(self, executable, name, keep_dir=None, valgrind_args=()):
        self.dir = tempfile.mkdtemp(prefix=f"todod-instructions-{name}.")
        self.name = name
        self.keep_dir = keep_dir
        self.socket_path = os.path.join(self.dir, "todod.sock")
        self.data = os.path.join(self.dir, "data")
        self.out = os.path.join(self.dir, "callgrind.out")
        self.log_path = os.path.join(self.dir, "todod.log")
        env = dict(os.environ)
        for key in ("NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "TODOD_SOCKET", "WATCHDOG_USEC"):
            env.pop(key, None)
        for key, sub in (("XDG_RUNTIME_DIR", "run"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                         ("XDG_DATA_HOME", "share")):
            path = os.path.join(self.dir, sub)
            os.makedirs(path, mode=0o700)
            env[key] = path
        args = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}", "--vgdb=yes",
                *valgrind_args,
                executable, "--socket", self.socket_path, "--data-dir", self.data, "--config", "/dev/null",
                "--log-level", "warning"]
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                                        env=env, start_new_session=True)
        self.dumps = 0
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                fail(f"todod exited with {self.process.returncode} during start-up:\n{self.tail()}")
            if os.path.exists(self.socket_path):
                try:
                    probe = Client(self.socket_path, timeout=60)
                    probe.close()
                    break
                except OSError:
                    pass
            if time.monotonic() > deadline:
                self.kill()
                fail(f"todod did not greet on {self.socket_path} within {START_TIMEOUT} s:\n{self.tail()}")
            time.sleep(0.2)

    @property
    def pid(self):
        return self.process.pid

    def tail(self, lines=30):
        try:
            with open(self.log_path, "rb") as file:
                return "\n".join(file.read().decode("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return ""

    def written_bytes(self):
        """wchar: bytes todod passed to write(2) and its kin, files and sockets alike."""
        with open(f"/proc/{self.pid}/io") as file:
            for line in file:
                key, _, value = line.partition(":")
                if key == "wchar":
                    return int(value)
        return 0

    def dump(self, label):
        """Writes what callgrind counted since the last dump and starts again from zero."""
        result = subprocess.run(["callgrind_control", f"--dump={label}", str(self.pid)], capture_output=True,
                                text=True, timeout=STOP_TIMEOUT)
        self.dumps += 1
        path = f"{self.out}.{self.dumps}"
        deadline = time.monotonic() + 60
        while not os.path.exists(path):
            if time.monotonic() > deadline:
                fail(f"callgrind_control --dump wrote no {path}:\n{result.stdout}{result.stderr}")
            time.sleep(0.1)
        return path

    def stop(self):
        """SIGTERM, as systemd stops it; returns the final dump's path."""
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            fail(f"todod did not stop within {STOP_TIMEOUT} s of SIGTERM")
        self.log.close()
        if self.process.returncode != 0:
            fail(f"todod exited with {self.process.returncode}:\n{self.tail()}")
        return self.out

    def page_size(self):
        try:
            connection = sqlite3.connect(f"file:{os.path.join(self.data, 'todos.sqlite')}?mode=ro", uri=True)
            size = connection.execute("PRAGMA page_size").fetchone()[0]
            connection.close()
            return size
        except sqlite3.Error:
            return 4096

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def clean_up(self):
        self.kill()
        if self.keep_dir:
            os.makedirs(self.keep_dir, exist_ok=True)
            for path in glob.glob(self.out + "*"):
                shutil.copy(path, os.path.join(self.keep_dir, f"{self.name}.{os.path.basename(path)}"))
        shutil.rmtree(self.dir, ignore_errors=True)


class Client:
    """One connection: greeting read, then requests one at a time."""

    def __init__(self, path, timeout=600):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.buffer = b""
        self.received = 0
        greeting = self.read_line()
        if b'"server.hello"' not in greeting:
            raise OSError(f"no greeting: {greeting[:200]!r}")

    def read_line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise OSError("todod closed the connection")
            self.received += len(chunk)
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def lines_ready(self, who):
        """The whole lines a non-blocking read the selector said was ready
        brings (none if it brings only part of one)."""
        try:
            chunk = self.sock.recv(65536)
        except BlockingIOError:
            return []
        if not chunk:
            fail(f"todod closed {who}'s connection")
        self.received += len(chunk)
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return lines

    def close(self):
        self.sock.close()


def add_line(request_id, title):
    return (json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "todo.add", "params": {"title": title}},
                       separators=(",", ":")) + "\n").encode()


def expect_result(line, request_id):
    reply = json.loads(line)
    if reply.get("id") != request_id or "result" not in reply:
        fail(f"todo.add {request_id} was refused: {line[:300]!r}")


def one_at_a_time(client, first, count):
    for request_id in range(first, first + count):
        client.sock.sendall(add_line(request_id, f"item {request_id}"))
        expect_result(client.read_line(), request_id)


def concurrently(path, clients, total):
    """`clients` connections, each sending its share one at a time, all at once.
    Returns the bytes they received (greetings included)."""
    connections = [Client(path) for _ in range(clients)]
    selector = selectors.DefaultSelector()
    left = {}
    for number, connection in enumerate(connections):
        share = total // clients + (1 if number < total % clients else 0)
        left[connection] = share
        connection.sock.setblocking(False)
        selector.register(connection.sock, selectors.EVENT_READ, connection)
    next_id = {connection: number * 1_000_000 for number, connection in enumerate(connections)}

    def send(connection):
        connection.sock.setblocking(True)
        connection.sock.sendall(add_line(next_id[connection], f"client item {next_id[connection]}"))
        connection.sock.setblocking(False)

    waiting = 0
    for connection in connections:
        if left[connection] > 0:
            send(connection)
            waiting += 1
    deadline = time.monotonic() + STOP_TIMEOUT * 4
    while waiting:
        if time.monotonic() > deadline:
            fail("the clients' adds were not all answered")
        for key, _ in selector.select(timeout=10):
            connection = key.data
            for line in connection.lines_ready("a client"):
                expect_result(line, next_id[connection])
                next_id[connection] += 1
                left[connection] -= 1
                waiting -= 1
                if left[connection] > 0:
                    send(connection)
                    waiting += 1
    received = sum(connection.received for connection in connections)
    for connection in connections:
        connection.close()
    return received


def subscribed(path, count, events_before):
    """`count` connections each subscribed to the shared view `main`, their
    replies (the whole state) read. Returns them, non-blocking."""
    subscribers = []
    for number in range(count):
        subscriber = Client(path)
        subscriber.sock.sendall((json.dumps({"jsonrpc": "2.0", "id": number, "method": "view.subscribe",
                                             "params": {"view": "main"}}, separators=(",", ":")) + "\n").encode())
        while True:
            line = subscriber.read_line()
            if b'"id":' in line and b'"result"' in line:
                break
        subscriber.sock.setblocking(False)
        # Counted as the adds are numbered: the event of add N is the Nth.
        subscriber.events = events_before
        subscribers.append(subscriber)
    return subscribers


def fan_out(client, subscribers, first, count):
    """Adds one at a time; after each, every subscriber has read its event,
    so none lags (a lagging subscriber's events are coalesced: less work)."""
    selector = selectors.DefaultSelector()
    for subscriber in subscribers:
        selector.register(subscriber.sock, selectors.EVENT_READ, subscriber)
    for request_id in range(first, first + count):
        client.sock.sendall(add_line(request_id, f"item {request_id}"))
        expect_result(client.read_line(), request_id)
        waiting = {subscriber for subscriber in subscribers if subscriber.events < request_id}
        deadline = time.monotonic() + STOP_TIMEOUT
        while waiting:
            if time.monotonic() > deadline:
                fail("the subscribers' events did not all come")
            for key, _ in selector.select(timeout=10):
                subscriber = key.data
                for line in subscriber.lines_ready("a subscriber"):
                    if b'"view.changed"' in line:
                        subscriber.events += 1
                        if subscriber.events == request_id:
                            waiting.discard(subscriber)
    selector.close()


def instructions(path):
    """The Ir total of one callgrind output file."""
    with open(path) as file:
        for line in file:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    fail(f"no totals in {path}")


def wal_pages(written, received, page_size, adds):
    return (written - received) / (page_size + 24) / adds


def measure_dump(args):
    """Both loads with dumps between the phases: two runs of todod."""
    figures = {}
    profile_file = None
    runs = []
    try:
        if "one" in args.parts:
            todod = Todod(args.todod, "one", args.keep, args.valgrind_arg)
            runs.append(todod)
            client = Client(todod.socket_path)
            todod.dump("start")
            one_at_a_time(client, 1, args.adds)
            todod.dump("first")
            written, received = todod.written_bytes(), client.received
            one_at_a_time(client, args.adds + 1, args.adds)
            written, received = todod.written_bytes() - written, client.received - received
            second = todod.dump("second")
            client.close()
            todod.stop()
            figures["one"] = instructions(second) / args.adds
            figures["one wal"] = wal_pages(written, received, todod.page_size(), args.adds)
            first = f"{todod.out}.2"
            figures["one first"] = instructions(first) / args.adds
            figures["start"] = instructions(f"{todod.out}.1")
            figures["stop"] = instructions(todod.out)
            if args.profile:
                profile_file = os.path.join(tempfile.gettempdir(), f"callgrind.one-second.{os.getpid()}")
                shutil.copy(second, profile_file)
        if "clients" in args.parts:
            todod = Todod(args.todod, "clients", args.keep, args.valgrind_arg)
            runs.append(todod)
            todod.dump("start")
            written = todod.written_bytes()
            received = concurrently(todod.socket_path, args.clients, args.total)
            written = todod.written_bytes() - written
            phase = todod.dump("clients")
            todod.stop()
            figures["clients"] = instructions(phase) / args.total
            figures["clients wal"] = wal_pages(written, received, todod.page_size(), args.total)
        if "fanout" in args.parts:
            todod = Todod(args.todod, "fanout", args.keep, args.valgrind_arg)
            runs.append(todod)
            client = Client(todod.socket_path)
            one_at_a_time(client, 1, args.adds)
            subscribers = subscribed(todod.socket_path, args.subscribers, events_before=args.adds)
            fan_out(client, subscribers, args.adds + 1, args.fanout_adds)
            todod.dump("subscribed")
            fan_out(client, subscribers, args.adds + args.fanout_adds + 1, args.fanout_adds)
            phase = todod.dump("fanout")
            for subscriber in subscribers:
                subscriber.close()
            client.close()
            todod.stop()
            figures["fanout"] = instructions(phase) / args.fanout_adds
            if args.profile and profile_file is None:
                profile_file = os.path.join(tempfile.gettempdir(), f"callgrind.fanout.{os.getpid()}")
                shutil.copy(phase, profile_file)
    finally:
        for todod in runs:
            todod.clean_up()
    return figures, profile_file


def measure_runs(args):
    """Both loads as separate runs: totals from start to stop, differences over adds."""
    totals = {}
    profile_file = None

    def run(name, load):
        todod = Todod(args.todod, name, args.keep, args.valgrind_arg)
        try:
            extra = load(todod)
            totals[name] = instructions(todod.stop())
            if extra:
                written, received = extra
                totals[name + " wal"] = (written, received, todod.page_size())
            return todod
        finally:
            todod.clean_up()

    def one(count):
        def load(todod):
            client = Client(todod.socket_path)
            written = todod.written_bytes()
            one_at_a_time(client, 1, count)
            result = (todod.written_bytes() - written, client.received)
            client.close()
            return result
        return load

    run("none", one(0))
    figures = {"start": None, "stop": None}
    if "one" in args.parts:
        run("n", one(args.adds))
        run("2n", one(2 * args.adds))
        figures["one"] = (totals["2n"] - totals["n"]) / args.adds
        figures["one first"] = (totals["n"] - totals["none"]) / args.adds
        (w1, r1, _), (w2, r2, page) = totals["n wal"], totals["2n wal"]
        figures["one wal"] = wal_pages(w2 - w1, r2 - r1, page, args.adds)
    if "clients" in args.parts:
        def load(todod):
            written = todod.written_bytes()
            received = concurrently(todod.socket_path, args.clients, args.total)
            return (todod.written_bytes() - written, received)
        run("clients", load)
        figures["clients"] = (totals["clients"] - totals["none"]) / args.total
        written, received, page = totals["clients wal"]
        figures["clients wal"] = wal_pages(written, received, page, args.total)
    figures["start+stop"] = totals["none"]
    if args.profile:
        fail("--profile needs --method dump")
    return figures, profile_file


# Swift module names as the demangler prints them, and the part of the path each is.
PARTS = [
    ("TodoProtocol", "protocol (parse, encode)"),
    ("CanonicalJSON", "encoding (CanonicalJSON)"),
    ("TodoDaemon", "daemon (dispatch, owner, outbox)"),
    ("TodoViewModels", "view models"),
    ("TodoModel", "model"),
    ("TodoStorage", "storage (TodoStorage)"),
    ("GRDB", "storage (GRDB)"),
    ("NIO", "NIO (event loops, channels)"),
    ("Logging", "logging"),
    ("FoundationEssentials", "Foundation"),
    ("Foundation", "Foundation"),
    ("_FoundationCollections", "Foundation"),
]


def demangler():
    swift = shutil.which("swift")
    if not swift:
        return None
    try:
        subprocess.run([swift, "demangle", "--help"], capture_output=True, timeout=60, check=True)
    except (subprocess.SubprocessError, OSError):
        return None
    return [swift, "demangle", "--simplified"]


def demangle(names, command, simplified=True):
    if not command or not names:
        return {name: name for name in names}
    command = command if simplified else [part for part in command if part != "--simplified"]
    result = subprocess.run(command, input="\n".join(names) + "\n", capture_output=True, text=True, timeout=600)
    lines = result.stdout.split("\n")
    if result.returncode != 0 or len(lines) < len(names):
        return {name: name for name in names}
    return dict(zip(names, lines))


def self_costs(path):
    """Each function's own cost (what callgrind_annotate 3.19 does not print
    for a dump's file): the cost lines of a function that follow no `calls=`
    line. Returns {(object, symbol): instructions}."""
    names = {"ob": {}, "fn": {}}
    costs = collections.Counter()
    obj = symbol = ""
    skip_next = False

    def name(kind, value):
        match = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not match:
            return value
        if match.group(2) is not None:
            names[kind][match.group(1)] = match.group(2)
            return match.group(2)
        return names[kind].get(match.group(1), value)

    with open(path) as file:
        for line in file:
            line = line.rstrip("\n")
            if not line:
                continue
            if line[0].isdigit() or line[0] in "+-*":
                if skip_next:
                    skip_next = False
                    continue
                parts = line.split()
                if len(parts) >= 2:
                    costs[(obj, symbol)] += int(parts[1])
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                obj = name("ob", value)
            elif key == "fn":
                symbol = name("fn", value)
            elif key == "cob":
                name("ob", value)
            elif key == "cfn":
                name("fn", value)
            elif key == "calls":
                skip_next = True
    return costs


def module_of(name, symbol, obj):
    """Which part of the path a function is, from its demangled name and its object file."""
    base = os.path.basename(obj or "")
    if "libsqlite3" in base:
        return "storage (SQLite, C)"
    if base.startswith("libc.") or base.startswith("libc-") or base.startswith("libm"):
        return "libc"
    if base.startswith("ld-linux"):
        return "dynamic linker"
    if base.startswith("vgpreload") or "valgrind" in base:
        return "valgrind preload (malloc)"
    if not symbol.startswith("$s") and not symbol.startswith("_$s"):
        if symbol.startswith(("swift_", "_swift", "_ZN5swift", "_ZNK5swift", "_ZL")) or "swift::" in name:
            return "Swift runtime (retain, release, allocation, casts)"
        if symbol.startswith("sqlite3") or symbol.startswith("_grdb"):
            return "storage (SQLite, C)"
        return f"other C ({base or '?'})"
    for prefix, part in PARTS:
        if re.search(r"(^|[^A-Za-z_])" + prefix + r"[A-Za-z]*\.", name):
            return part
    if re.search(r"(^|[^A-Za-z_])Swift\.", name) or "protocol witness" in name or "generic specialization" in name:
        return "Swift standard library"
    return "other Swift"


def profile(path, top):
    """The top functions by inclusive cost, and self cost by part of the path."""
    inclusive = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", path],
                               capture_output=True, text=True, check=True).stdout
    entry = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*?):(.*?)\s*(?:\[(.*)\])?\s*$")
    inc = []
    started = False
    for line in inclusive.splitlines():
        if "file:function" in line:
            started = True
        elif started and (match := entry.match(line)):
            inc.append((int(match.group(1).replace(",", "")), match.group(3), match.group(4)))
    total = instructions(path)
    exc = self_costs(path)
    command = demangler()
    symbols = sorted({symbol for _, symbol, _ in inc[:top]} | {symbol for (_, symbol) in exc})
    short = demangle(symbols, command)
    full = demangle(symbols, command, simplified=False)
    print(f"\nWhere the instructions of one client's adds go ({total:,} in all, the second phase)")
    print(f"\nTop {top} functions, inclusive (each with everything it calls; threads' entry points first):\n")
    for cost, symbol, obj in inc[:top]:
        name = short.get(symbol, symbol)
        if len(name) > 140:
            name = name[:137] + "..."
        print(f"{100 * cost / total:6.1f}%  {cost:>14,}  {name}  [{os.path.basename(obj or '?')}]")
    parts = collections.Counter()
    functions = collections.Counter()
    for (obj, symbol), cost in exc.items():
        parts[module_of(full.get(symbol, symbol), symbol, obj)] += cost
        functions[(short.get(symbol, symbol), os.path.basename(obj))] += cost
    print("\nSelf cost by part of the path (instructions in each part's own code):\n")
    for part, cost in parts.most_common():
        print(f"{100 * cost / total:6.1f}%  {cost:>14,}  {part}")
    print(f"\nTop {top} functions by self cost:\n")
    for (name, obj), cost in functions.most_common(top):
        if len(name) > 140:
            name = name[:137] + "..."
        print(f"{100 * cost / total:6.1f}%  {cost:>14,}  {name}  [{obj}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--todod", required=True, help="the todod executable to run under callgrind")
    parser.add_argument("--adds", type=int, default=1000,
                        help="one client's marginal cost is counted over adds N+1 to 2N (default 1000)")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--total", type=int, default=2000, help="adds the concurrent clients send in all (default 2000)")
    parser.add_argument("--method", choices=("dump", "runs"), default="dump",
                        help="dump: callgrind_control --dump between phases (default); runs: separate runs of todod")
    parser.add_argument("--parts", default="one,clients",
                        help="one, clients, fanout, comma-separated (default one,clients)")
    parser.add_argument("--subscribers", type=int, default=100,
                        help="fanout: connections subscribed to the shared view main (default 100)")
    parser.add_argument("--fanout-adds", type=int, default=200,
                        help="fanout: adds measured, each read by every subscriber (default 200)")
    parser.add_argument("--profile", type=int, metavar="N", default=0,
                        help="also print the top N functions of one client's adds (needs symbols)")
    parser.add_argument("--keep", metavar="DIR", help="copy callgrind's output files to DIR")
    parser.add_argument("--valgrind-arg", action="append", default=[], metavar="ARG",
                        help="an extra valgrind argument (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args()
    args.parts = set(args.parts.split(","))
    args.todod = os.path.abspath(args.todod)
    if not os.access(args.todod, os.X_OK):
        fail(f"no executable todod at {args.todod}")
    for tool in ("valgrind", "callgrind_control", "callgrind_annotate"):
        if not shutil.which(tool):
            fail(f"{tool} is not on the PATH (Debian: apt-get install valgrind)")
    if "fanout" in args.parts and args.method != "dump":
        fail("--parts fanout is measured with --method dump only")
    begun = time.monotonic()
    figures, profile_file = (measure_dump if args.method == "dump" else measure_runs)(args)
    print(f"\ntodod: {args.todod}")
    print(f"method: {args.method}; {time.monotonic() - begun:.0f} s under callgrind\n")
    print("| load | instructions per add | WAL pages per add (est.) |")
    print("|---|---:|---:|")
    if "one" in figures:
        print(f"| 1 client, one at a time, marginal (adds {args.adds + 1:,}–{2 * args.adds:,}) "
              f"| {figures['one']:,.0f} | {figures['one wal']:.2f} |")
        print(f"| 1 client, adds 1–{args.adds:,} (with the connection and the first commits) "
              f"| {figures['one first']:,.0f} | — |")
    if "clients" in figures:
        print(f"| {args.clients} clients at once, {args.total:,} adds (connections included) "
              f"| {figures['clients']:,.0f} | {figures['clients wal']:.2f} |")
    if "fanout" in figures:
        print(f"| 1 client, one at a time, each add's event read by {args.subscribers} subscribers "
              f"({args.fanout_adds} adds) | {figures['fanout']:,.0f} | — |")
        if "one" in figures:
            print(f"\nper subscriber and event, over the marginal add: "
                  f"{(figures['fanout'] - figures['one']) / args.subscribers:,.0f}")
    if figures.get("start") is not None:
        print(f"\nstart to first greeting: {figures['start']:,}; stop: {figures['stop']:,}")
    if figures.get("start+stop") is not None:
        print(f"\nstart and stop with no adds: {figures['start+stop']:,}")
    if args.json:
        print(json.dumps(figures))
    if profile_file:
        try:
            profile(profile_file, args.profile)
        finally:
            if not args.keep:
                os.unlink(profile_file)
            else:
                shutil.move(profile_file, os.path.join(args.keep, os.path.basename(profile_file).split(".")[1] + ".callgrind"))


if __name__ == "__main__":
    main()
