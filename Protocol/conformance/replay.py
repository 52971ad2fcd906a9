#!/usr/bin/python3
"""Replays the protocol transcripts against a real todod and validates every
line it sends against the JSON Schemas.

    Protocol/conformance/replay.py --todod PATH [--record] [--store-command CMD] [TRANSCRIPT ...]

With --store-command, each transcript runs against a todod whose list is
in a shared store: CMD (a shell command, run once per transcript) prints
the store URL to use, e.g. a new PostgreSQL database's. A shared list's
causes name the instance (`cause.instance`); the transcripts are written
for one instance, so that key is checked against the schema and then left
out of the comparison.

A transcript is a text file of client and server lines:

    # comment                      ignored
    ! args --line-timeout 1        options for todod (first line only)
    → {...}                        connection 1 sends this line
    @2 → {...}                     connection 2 sends it (connections open on first use)
    →| {"jsonrpc"                  sent without the closing newline
    →hex ff fe 0a                  raw bytes
    →long N                        a line of N bytes of "x"
    ← {...}                        the next line connection 1 receives must match
    ! closed                       connection 1 must be closed by todod now
    ! stop / ! kill / ! start      SIGTERM or SIGKILL todod; start it again on the same data
    ! quiet                        nothing more may arrive on any open connection
    ! embedded-only                the rest holds for todod's own SQLite list only
                                   (skipped with --store-command)

Expected lines are JSON compared by value (key order does not matter).
"$ANY" matches any value; "$NAME" (capitals) binds the first value it meets
and must match it afterwards, and is substituted in client lines. Every
line from todod is validated against #/$defs/ServerMessage, and a reply
against #/$defs/response.METHOD for the method of its request.

With --record, each client line's server lines are written into the
transcript instead of checked (for writing a new transcript; review it!).
"""

import argparse
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_PATH = os.path.join(HERE, "..", "schema", "todod.schema.json")
READ_TIMEOUT = 15.0


class Failure(Exception):
    pass


class Daemon:
    def __init__(self, todod, args):
        self.todod = todod
        self.args = args
        self.dir = tempfile.mkdtemp(prefix="todod-conformance-")
        self.socket = os.path.join(self.dir, "todod.sock")
        self.process = None

    def start(self):
        command = [self.todod, "--socket", self.socket, "--data-dir", os.path.join(self.dir, "data"),
                   "--config", "/dev/null", "--log-level", "warning"] + self.args
        if getattr(self, "log", None):
            self.log.close()
        self.log = open(os.path.join(self.dir, "todod.log"), "ab")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=self.log, env=dict(os.environ, TZ="UTC"))
        # Wait for the socket file, not for a connection: a probe would be a
        # connection of its own, and the transcripts count connections. (todod
        # does not number one that closes at once, but a loaded machine can
        # make "at once" late.) The first connection retries until todod listens.
        deadline = time.time() + 30
        while time.time() < deadline:
            if os.path.exists(self.socket):
                return
            if self.process.poll() is not None:
                raise Failure("todod exited at start: " + self.log_text())
            time.sleep(0.02)
        raise Failure("todod did not create its socket")

    def stop(self, sig):
        self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failure("todod did not stop within 30 s")
        if sig == signal.SIGTERM and code != 0:
            raise Failure(f"todod exited with {code} on SIGTERM: " + self.log_text())

    def remove(self):
        """Stops todod if it still runs and removes its folder, passed or
        failed: a failure's message already holds the log, and folders left
        behind would fill the temporary directory over many runs."""
        try:
            if self.process and self.process.poll() is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    self.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        finally:
            if getattr(self, "log", None):
                self.log.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    def log_text(self):
        with open(os.path.join(self.dir, "todod.log"), "rb") as log:
            return log.read().decode(errors="replace")[-2000:]


class Connection:
    def __init__(self, path, daemon=None):
        deadline = time.time() + 30
        while True:
            self.socket = socket.socket(socket.AF_UNIX)
            try:
                self.socket.connect(path)
                break
            except (ConnectionRefusedError, FileNotFoundError):
                # Bound but not yet listening, or replaced by a restart.
                self.socket.close()
                if daemon is not None and daemon.process.poll() is not None:
                    raise Failure("todod exited at start: " + daemon.log_text())
                if time.time() > deadline:
                    raise
                time.sleep(0.02)
        self.buffer = b""
        self.closed = False
        self.methods = {}  # request id (as JSON) -> method

    def send(self, data):
        try:
            self.socket.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # todod closed mid-line (e.g. over the limit); its last line says why

    def read_line(self, timeout=READ_TIMEOUT):
        deadline = time.time() + timeout
        while b"\n" not in self.buffer:
            remaining = deadline - time.time()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self.socket], [], [], remaining)
            if not ready:
                return None
            try:
                chunk = self.socket.recv(65536)
            except ConnectionResetError:
                # todod closed with our input still unread (a line over the
                # limit): the kernel resets instead of ending cleanly. Closed all the same.
                chunk = b""
            if not chunk:
                self.closed = True
                return None if not self.buffer else self._take_rest()
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line

    def _take_rest(self):
        rest, self.buffer = self.buffer, b""
        return rest


def matches(expected, actual, bindings, path="$"):
    if isinstance(expected, str) and re.fullmatch(r"\$[A-Z_]+", expected):
        if expected == "$ANY":
            return
        if expected in bindings:
            if bindings[expected] != actual:
                raise Failure(f"{path}: expected {expected} = {json.dumps(bindings[expected])}, got {json.dumps(actual)}")
        else:
            bindings[expected] = actual
        return
    if isinstance(expected, dict):
        if not isinstance(actual, dict) or set(expected) != set(actual):
            raise Failure(f"{path}: expected keys {sorted(expected)}, got {json.dumps(actual)[:300]}")
        for key in expected:
            matches(expected[key], actual[key], bindings, f"{path}.{key}")
        return
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(expected) != len(actual):
            raise Failure(f"{path}: expected {len(expected)} elements, got {json.dumps(actual)[:300]}")
        for index, (e, a) in enumerate(zip(expected, actual)):
            matches(e, a, bindings, f"{path}[{index}]")
        return
    if expected != actual or type(expected) is not type(actual):
        raise Failure(f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)}")


def substitute(value, bindings):
    if isinstance(value, str) and value in bindings:
        return bindings[value]
    if isinstance(value, dict):
        return {k: substitute(v, bindings) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, bindings) for v in value]
    return value


class Validator:
    def __init__(self):
        with open(SCHEMA_PATH) as f:
            self.schema = json.load(f)
        cls = jsonschema.validators.validator_for(self.schema)
        cls.check_schema(self.schema)
        self.cls = cls
        self.count = 0

    def validate(self, message, definition):
        validator = self.cls({"$ref": f"#/$defs/{definition}", "$defs": self.schema["$defs"]})
        errors = sorted(validator.iter_errors(message), key=lambda e: e.path)
        if errors:
            raise Failure(f"does not match {definition}: {errors[0].message[:300]} at {list(errors[0].path)}")
        self.count += 1


LINE = re.compile(r"^(?:@(\d+)\s*)?(→hex|→long|→\|?|←)\s?(.*)$")


def shared_store(command):
    """The `--store` arguments for one transcript, from --store-command."""
    if not command:
        return []
    made = subprocess.run(command, shell=True, capture_output=True, text=True)
    if made.returncode != 0:
        raise Failure(f"--store-command failed ({made.returncode}): {made.stderr.strip()[-500:]}")
    url = made.stdout.strip()
    return ["--store", url, "--instance", "conformance", "--init-store"]


def without_instances(message):
    """A message with `instance` taken out of every cause in it."""
    if isinstance(message, list):
        return [without_instances(m) for m in message]
    if isinstance(message, dict):
        return {k: (({kk: vv for kk, vv in v.items() if kk != "instance"} if isinstance(v, dict) else v)
                    if k == "cause" else without_instances(v)) for k, v in message.items()}
    return message


def run_transcript(path, todod, validator, record, store_command=None):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if path.endswith(".md"):
        # The example in PROTOCOL.md: the fenced block after "## Example".
        text = "\n".join(lines).split("## Example", 1)[1]
        lines = text.split("```", 2)[1].splitlines()[1:]
    args = []
    if lines and lines[0].startswith("! args "):
        args = lines[0][len("! args "):].split()
    daemon = Daemon(todod, args + shared_store(store_command))
    connections = {}
    bindings = {}
    output = []
    checked = 0

    def connection(number):
        if number not in connections or connections[number].closed:
            connections[number] = Connection(daemon.socket, daemon)
        return connections[number]

    def receive(number, expected_text, where):
        nonlocal checked
        conn = connections.get(number)
        if conn is None:
            raise Failure(f"{where}: connection {number} is not open")
        line = conn.read_line()
        if line is None:
            raise Failure(f"{where}: expected a line on connection {number}, got " + ("end of stream" if conn.closed else "nothing"))
        try:
            message = json.loads(line.decode("utf-8"))
        except ValueError:
            raise Failure(f"{where}: todod sent a line that is not JSON: {line[:200]!r}")
        validator.validate(message, "ServerMessage")
        # A batch's replies are checked one by one like any reply.
        for reply in message if isinstance(message, list) else [message]:
            if "result" in reply:
                method = conn.methods.get(json.dumps(reply["id"]))
                if method:
                    validator.validate(reply, f"response.{method}")
        if expected_text is not None:
            matches(json.loads(expected_text), without_instances(message) if store_command else message, bindings)
            checked += 1
        return line.decode("utf-8")

    def drain_all(where):
        """In record mode: the lines that arrive soon after a client line."""
        for number, conn in sorted(connections.items()):
            while not conn.closed:
                line = conn.read_line(timeout=0.4)
                if line is None:
                    break
                message = json.loads(line.decode("utf-8"))
                validator.validate(message, "ServerMessage")
                prefix = "" if number == 1 else f"@{number} "
                output.append(prefix + "← " + placeholder(line.decode("utf-8"), bindings))

    try:
        daemon.start()
        for index, text in enumerate(lines):
            where = f"{os.path.basename(path)}:{index + 1}"
            if record and LINE.match(text) and LINE.match(text).group(2) == "←":
                continue
            output.append(text)
            if not text.strip() or text.startswith("#") or text.startswith("! args"):
                continue
            if text.startswith("!"):
                command = text[1:].split()
                if command[0] == "closed":
                    number = int(command[1]) if len(command) > 1 else 1
                    conn = connections[number]
                    if record:
                        output.pop()
                        while (line := conn.read_line(timeout=READ_TIMEOUT)) is not None:
                            prefix = "" if number == 1 else f"@{number} "
                            output.append(prefix + "← " + placeholder(line.decode("utf-8"), bindings))
                        output.append(text)
                    if conn.read_line(timeout=READ_TIMEOUT) is not None or not conn.closed:
                        raise Failure(f"{where}: connection {number} is still open")
                elif command[0] in ("stop", "kill"):
                    daemon.stop(signal.SIGTERM if command[0] == "stop" else signal.SIGKILL)
                    if record:
                        drain_all(where)
                elif command[0] == "start":
                    for conn in connections.values():
                        conn.closed = True
                    daemon.start()
                elif command[0] == "embedded-only":
                    # What follows holds for a list of one instance only (a
                    # crash there loses the epoch); a shared list keeps its history.
                    if store_command:
                        break
                elif command[0] == "quiet":
                    for number, conn in connections.items():
                        if not conn.closed:
                            extra = conn.read_line(timeout=0.3)
                            if extra is not None:
                                raise Failure(f"{where}: unexpected line on connection {number}: {extra[:300]!r}")
                else:
                    raise Failure(f"{where}: unknown directive {text}")
                continue
            match = LINE.match(text)
            if not match:
                raise Failure(f"{where}: cannot read this line")
            number = int(match.group(1) or 1)
            arrow, body = match.group(2), match.group(3)
            if arrow == "←":
                receive(number, body, where)
                continue
            fresh = number not in connections or connections[number].closed
            conn = connection(number)
            if arrow == "→hex":
                data = bytes.fromhex(body)
            elif arrow == "→long":
                data = b"x" * int(body) + b"\n"
            else:
                try:
                    written = json.loads(body)
                    request = substitute(written, bindings)
                    for member in request if isinstance(request, list) else [request]:
                        if isinstance(member, dict) and "id" in member and isinstance(member.get("method"), str):
                            conn.methods[json.dumps(member["id"])] = member["method"]
                    # Sent as written unless a $NAME was filled in: Python would
                    # turn 1e999 into Infinity and 1e3 into 1000.0.
                    if request != written:
                        body = json.dumps(request, ensure_ascii=False, separators=(",", ":"))
                except ValueError:
                    pass  # deliberately not JSON
                data = body.encode("utf-8") + (b"" if arrow == "→|" else b"\n")
            if record and fresh:
                drain_all(where)  # the greeting
                output.insert(len(output) - 1, output.pop())  # keep the client line after its greeting
            conn.send(data)
            if record:
                drain_all(where)
        for number, conn in connections.items():
            if not conn.closed and not record:
                extra = conn.read_line(timeout=0.3)
                if extra is not None:
                    raise Failure(f"end: unexpected line on connection {number}: {extra[:300]!r}")
    finally:
        daemon.remove()
    if record:
        recorded = "\n".join(output) + "\n"
        if path.endswith(".md"):
            # Only the example's fenced block is a transcript: put the new
            # lines back into it and keep the rest of the document.
            with open(path, encoding="utf-8") as f:
                head, example = f.read().split("## Example", 1)
            before, block, after = example.split("```", 2)
            info = block.split("\n", 1)[0]
            recorded = head + "## Example" + before + "```" + info + "\n" + recorded + "```" + after
        with open(path, "w", encoding="utf-8") as f:
            f.write(recorded)
    return checked


def placeholder(line, bindings):
    """Record mode: values that differ between runs become placeholders; each
    new epoch gets the next name ($EPOCH, $EPOCH_B, ...)."""
    message = json.loads(line)

    def epoch_name(value):
        for name, bound in bindings.items():
            if name.startswith("$EPOCH") and bound == value:
                return name
        count = sum(1 for name in bindings if name.startswith("$EPOCH"))
        name = "$EPOCH" if count == 0 else "$EPOCH_" + chr(ord("A") + count)
        bindings[name] = value
        return name

    def walk(value, key=None):
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v) for v in value]
        if key == "epoch":
            return epoch_name(value)
        if key in ("uptimeSeconds", "dataFile", "server") and not isinstance(value, dict):
            return "$ANY"
        # A row's instants (ISO 8601) are the clock's, different in every run.
        if key in ("created", "modified", "completed", "added", "at") and isinstance(value, str):
            return "$ANY"
        return value

    message = walk(message)
    if isinstance(message, dict) and isinstance(message.get("result"), dict) and "$defs" in message["result"]:
        message["result"] = "$ANY"
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--todod", required=True)
    parser.add_argument("--record", action="store_true")
    parser.add_argument("--store-command", help="prints a store URL for each transcript (a shared store)")
    parser.add_argument("transcripts", nargs="*")
    options = parser.parse_args()
    paths = options.transcripts or sorted(
        os.path.join(HERE, "..", "transcripts", name)
        for name in os.listdir(os.path.join(HERE, "..", "transcripts")) if name.endswith(".txt"))
    paths.append(os.path.join(HERE, "..", "PROTOCOL.md"))
    validator = Validator()
    failed = 0
    total = 0
    for path in paths:
        try:
            checked = run_transcript(path, options.todod, validator, options.record, options.store_command)
            total += checked
            print(f"ok    {os.path.basename(path)}: {checked} expected lines matched")
        except Failure as failure:
            failed += 1
            print(f"FAIL  {os.path.basename(path)}: {failure}")
    print(f"conformance: {len(paths) - failed} of {len(paths)} transcripts passed, "
          f"{total} lines matched, {validator.count} server lines valid against the schemas")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
