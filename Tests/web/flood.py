"""A keyless flood of todod-web's port, as another local user would make it
(test_other_users runs it under setpriv as uid 65534).

    python3 -c "$(cat flood.py)" PORT IDLE TRICKLERS

Opens IDLE connections that never send a byte and TRICKLERS that send a
request line and then one header line a second, never finishing the head.
Prints "ready" once they are open. While flooding, every connection the
server closes is opened again at once, so the pressure stays. When a line
"stop" arrives on stdin, it stops opening new ones and waits until every one
of the first IDLE and TRICKLERS connections has been closed by the server
(or 90 s have passed), then prints one JSON line:

    {"first_wave": N, "first_wave_closed": N, "first_wave_oldest_open": S,
     "first_wave_longest_kept": S, "tricklers_closed": N,
     "trickler_lines_sent": [..], "reopened": N}

(the trickler figures are of the first wave's tricklers, opened first, and
again until todod-web has kept them).
"""
import json
import resource
import selectors
import socket
import sys
import time

port, idle_count, trickler_count = (int(arg) for arg in sys.argv[1:4])
CAP = 90.0

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
wanted = idle_count + trickler_count + 256
if hard == resource.RLIM_INFINITY or hard >= wanted:
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))

selector = selectors.DefaultSelector()
opened = {}        # socket -> (kind, opened_at, first_wave)
lines_sent = {}    # trickler socket -> header lines sent
reopened = 0
first_wave_closed = 0
tricklers_closed = []  # of the first wave: the header lines each had sent
longest_kept = 0.0     # the longest a first-wave connection stayed open


def connect(kind, first_wave):
    client = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    client.settimeout(2)
    try:
        client.connect(("127.0.0.1", port))
    except OSError:
        client.close()
        return None
    client.setblocking(False)
    opened[client] = (kind, time.monotonic(), first_wave)
    selector.register(client, selectors.EVENT_READ)
    if kind == "trickle":
        try:
            client.send(b"GET /session HTTP/1.1\r\n")
        except OSError:
            pass
        lines_sent[client] = 0
    return client


last_trickle = time.monotonic()


def trickle_if_due():
    """A header line a second to each trickler: from its first second on,
    also while the rest of the first wave is still being opened (on a slow
    machine that takes longer than the header deadline, and a trickler that
    had sent nothing by then was closed as an idle one)."""
    global last_trickle
    if time.monotonic() - last_trickle < 1.0:
        return
    last_trickle = time.monotonic()
    for client in list(lines_sent):
        try:
            client.send(b"X-Trickle: %d\r\n" % lines_sent[client])
            lines_sent[client] += 1
        except OSError:
            pass


# The tricklers first, so that they are among the connections kept, and
# only then the rest. todod-web learns who opened a connection before it
# keeps it, and the lookups need not end in the order the connections came:
# a trickler whose lookup ends after those of the idle ones finds the room
# full and is turned away at once (CI saw one closed having sent nothing, on
# a busy machine). So each trickler is opened, and opened
# again if turned away, until all have stood a second (a refusal is a close
# within milliseconds).
tricklers = []
while len(tricklers) < trickler_count:
    client = connect("trickle", True)
    if client is None:
        time.sleep(0.01)
        continue
    tricklers.append(client)
    if len(tricklers) < trickler_count:
        continue
    deadline = time.monotonic() + 1.0
    while tricklers and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.05):
            if key.fileobj not in tricklers:
                continue
            try:
                gone = not key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                gone = True
            if gone:
                closed = key.fileobj
                tricklers.remove(closed)
                opened.pop(closed)
                lines_sent.pop(closed)
                selector.unregister(closed)
                closed.close()
        trickle_if_due()
for _ in range(idle_count):
    while connect("idle", True) is None:
        time.sleep(0.01)
    trickle_if_due()
print("ready", flush=True)

stdin = sys.stdin.buffer
selector.register(stdin, selectors.EVENT_READ)
flooding = True
stopped_at = None

while True:
    now = time.monotonic()
    first_wave_open = [s for s, (_, _, first) in opened.items() if first]
    if not flooding and (not first_wave_open or now - stopped_at > CAP):
        break
    for key, _ in selector.select(timeout=0.05):
        if key.fileobj is stdin:
            line = stdin.readline()
            if not line or line.strip() == b"stop":
                flooding = False
                stopped_at = time.monotonic()
                selector.unregister(stdin)
            continue
        client = key.fileobj
        try:
            data = client.recv(65536)
        except BlockingIOError:
            continue
        except OSError:
            data = b""
        if data:
            continue  # an answer (a 400, say): the close follows
        kind, at, first = opened.pop(client)
        selector.unregister(client)
        client.close()
        if first:
            first_wave_closed += 1
            longest_kept = max(longest_kept, time.monotonic() - at)
        lines = lines_sent.pop(client, None)
        if kind == "trickle" and first:
            tricklers_closed.append(lines)
        if flooding:
            reopened += 1
            connect(kind, False)
    trickle_if_due()

now = time.monotonic()
oldest = max((now - at for s, (_, at, first) in opened.items() if first), default=0.0)
print(json.dumps({
    "first_wave": idle_count + trickler_count,
    "first_wave_closed": first_wave_closed,
    "first_wave_oldest_open": round(oldest, 1),
    "first_wave_longest_kept": round(longest_kept, 1),
    "tricklers_closed": len(tricklers_closed),
    "trickler_lines_sent": tricklers_closed,
    "reopened": reopened,
}), flush=True)
