#!/usr/bin/python3
"""The CalDAV sync against Debian's vdirsyncer, in one run, on one machine.

  scripts/bench sync [--items 2000] [--rounds 3] [--soak-minutes 0]

A throwaway Radicale on 127.0.0.1 (info logging: one line a request) holds
a collection of ITEMS to-dos such as phones write (some with alarms, tags,
notes and due dates). Then, alternating, ROUNDS times each:

- vdirsyncer (`sync` of the collection into an empty local folder, after an
  untimed `discover`): the anchor;
- todod-sync (`add`, which checks the collection and makes the first sync:
  every to-do into an empty todod list, release builds).

It prints the median wall time of each and their ratio (target: todod-sync
no slower, ratio <= 1.0), and the requests each made (from Radicale's log).
Then, on the synced list, what one change costs: one edit here, one on the
server, and none, in requests, against the collection's size: O(changes),
not O(list); and OFFLINE (1,000) changes made while nothing synced, sent
by one `sync now` (each is one conditional PUT: the time is the server's).

With --soak-minutes N, todod-sync runs as the service would (the server
polled every 30 s, each edit here sent at once) for N minutes while edits
are made on both sides (one here every 0.5 s, one
on the server every second), and the service's resident memory is sampled
every 10 s: the curve is printed, and its last quarter against its first.
"""
import argparse
import http.client
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RELEASE = os.path.join(ROOT, ".build", "release")
USER, PASSWORD = "me", "bench-pass"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Radicale:
    def __init__(self, folder):
        self.folder = folder
        self.port = free_port()
        self.log = os.path.join(folder, "radicale.log")
        with open(os.path.join(folder, "users"), "w") as f:
            f.write(f"{USER}:{PASSWORD}\n")
        with open(os.path.join(folder, "config"), "w") as f:
            f.write(
                f"[server]\nhosts = 127.0.0.1:{self.port}\n[auth]\ntype = htpasswd\n"
                f"htpasswd_filename = {folder}/users\nhtpasswd_encryption = plain\ndelay = 0\n"
                f"[storage]\nfilesystem_folder = {folder}/collections\n[logging]\nlevel = info\n")
        self.process = subprocess.Popen(
            ["/usr/bin/python3", "-m", "radicale", "--config", os.path.join(folder, "config")],
            stdout=open(self.log, "w"), stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        self.path = "/me/todo/"
        self.url = f"http://127.0.0.1:{self.port}{self.path}"
        self.request("MKCALENDAR", self.path)

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port)
        import base64
        auth = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        connection.request(method, path, body=body, headers={"Authorization": "Basic " + auth, **(headers or {})})
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data

    def put(self, uid, text):
        status, _ = self.request("PUT", self.path + uid + ".ics", text.encode(), {"Content-Type": "text/calendar"})
        assert status in (201, 204), status

    def requests(self):
        """How many requests the log has seen so far."""
        with open(self.log) as f:
            return sum(1 for line in f if " request for " in line)

    def stop(self):
        self.process.terminate()
        self.process.wait()


def phone_todo(uid, index, summary=None):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:+//IDN tasks.org//android-130904//EN", "BEGIN:VTODO",
             f"UID:{uid}", "DTSTAMP:20261127T090000Z", "CREATED:20261120T090000Z", "LAST-MODIFIED:20261127T090000Z",
             f"SUMMARY:{summary or f'task {index} from the phone'}", f"PRIORITY:{[0, 1, 5, 9][index % 4]}"]
    if index % 3 == 0:
        lines.append(f"DUE;VALUE=DATE:202612{1 + index % 28:02d}")
    if index % 5 == 0:
        lines.append("CATEGORIES:errands,home")
    if index % 7 == 0:
        lines.append("DESCRIPTION:a note\\nand another line")
    lines.append(f"X-APPLE-SORT-ORDER:{index}")
    if index % 4 == 0:
        lines += ["BEGIN:VALARM", "TRIGGER;RELATED=END:PT0S", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "END:VALARM"]
    lines += ["END:VTODO", "END:VCALENDAR", ""]
    return "\r\n".join(lines)


def timed(command, **kwargs):
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"bench: {' '.join(command)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return elapsed


def vdirsyncer_round(server, scratch):
    folder = tempfile.mkdtemp(dir=scratch, prefix="vdir-")
    config = os.path.join(folder, "config")
    with open(config, "w") as f:
        f.write(
            f'[general]\nstatus_path = "{folder}/status/"\n\n[pair todo]\na = "local"\nb = "remote"\ncollections = null\n\n'
            f'[storage local]\ntype = "filesystem"\npath = "{folder}/local/"\nfileext = ".ics"\n\n'
            f'[storage remote]\ntype = "caldav"\nurl = "{server.url}"\nusername = "{USER}"\npassword = "{PASSWORD}"\n')
    os.makedirs(os.path.join(folder, "local"))
    subprocess.run(["vdirsyncer", "-c", config, "discover", "todo"], input="y\n" * 4, capture_output=True, text=True)
    before = server.requests()
    elapsed = timed(["vdirsyncer", "-c", config, "sync", "todo"])
    synced = len(os.listdir(os.path.join(folder, "local")))
    return elapsed, server.requests() - before, synced, config


class Todod:
    def __init__(self, scratch):
        self.folder = tempfile.mkdtemp(dir=scratch, prefix="todod-")
        self.socket = os.path.join(self.folder, "todod.sock")
        self.env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(self.folder, "config"),
                        XDG_STATE_HOME=os.path.join(self.folder, "state"), LIBDISPATCH_LOG="NO")
        self.env.pop("NOTIFY_SOCKET", None)
        self.process = subprocess.Popen(
            [os.path.join(RELEASE, "todod"), "--socket", self.socket, "--data-dir", os.path.join(self.folder, "data"),
             "--config", "/dev/null"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.env)
        deadline = time.time() + 30
        while not os.path.exists(self.socket) and time.time() < deadline:
            time.sleep(0.05)
        self.password_file = os.path.join(self.folder, "password")
        with open(self.password_file, "w") as f:
            f.write(PASSWORD + "\n")

    def sync(self, *arguments, timed_run=False):
        command = [os.path.join(RELEASE, "todod-sync"), *arguments, "--socket", self.socket]
        if timed_run:
            return timed(command, env=self.env)
        result = subprocess.run(command, capture_output=True, text=True, env=self.env)
        if result.returncode != 0:
            sys.exit(f"bench: todod-sync {' '.join(arguments)} failed:\n{result.stdout}\n{result.stderr}")
        return result.stdout

    def todoctl(self, *arguments):
        return subprocess.run([os.path.join(RELEASE, "todoctl"), "--socket", self.socket, *arguments],
                              capture_output=True, text=True, env=self.env).stdout

    def stop(self):
        self.process.terminate()
        self.process.wait()


def todod_round(server, scratch):
    todod = Todod(scratch)
    before = server.requests()
    elapsed = todod.sync("add", server.url, "--user", USER, "--password-file", todod.password_file, "--no-start",
                         timed_run=True)
    requests = server.requests() - before
    synced = todod.todoctl("ls", "--json").count('"title"')
    return elapsed, requests, synced, todod


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def soak(server, todod, minutes):
    service = subprocess.Popen(
        [os.path.join(RELEASE, "todod-sync"), "run", "--socket", todod.socket], env=todod.env,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    config = os.path.join(todod.env["XDG_CONFIG_HOME"], "todod", "sync.conf")
    end = time.time() + minutes * 60
    samples, next_sample, tick = [], time.time(), 0
    remote_uids = [f"soak-{i}@bench" for i in range(50)]
    while time.time() < end:
        tick += 1
        todod.todoctl("modify", str(1 + tick % 50), f"soak edit {tick}")
        if tick % 2 == 0:
            uid = remote_uids[tick % len(remote_uids)]
            server.put(uid, phone_todo(uid, tick, summary=f"soak remote {tick}").replace(
                "LAST-MODIFIED:20261127T090000Z", time.strftime("LAST-MODIFIED:%Y%m%dT%H%M%SZ", time.gmtime())))
        if time.time() >= next_sample:
            samples.append((time.time() - (end - minutes * 60), rss_kib(service.pid)))
            next_sample += 10
        time.sleep(0.5)
    service.send_signal(signal.SIGTERM)
    service.wait()
    print(f"\nsoak: {minutes} min, {tick} edits here and {tick // 2} on the server; todod-sync's resident memory:")
    for at, kib in samples:
        print(f"  {at / 60:6.1f} min  {kib / 1024:7.1f} MiB")
    quarter = max(1, len(samples) // 4)
    first = statistics.mean(k for _, k in samples[:quarter])
    last = statistics.mean(k for _, k in samples[-quarter:])
    print(f"  first quarter {first / 1024:.1f} MiB, last quarter {last / 1024:.1f} MiB: {100 * (last - first) / first:+.1f}%")


def offline(server, todod, count, scratch):
    """`count` changes made while nothing synced (a week offline), then one
    `sync now`: how long until all are on the server, and in how many requests."""
    path = os.path.join(scratch, "offline.ics")
    with open(path, "w") as f:
        f.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//bench//offline//EN\r\n")
        for index in range(count):
            f.write(f"BEGIN:VTODO\r\nUID:offline-{index}@bench\r\nDTSTAMP:20261127T090000Z\r\n"
                    f"SUMMARY:written offline {index}\r\nEND:VTODO\r\n")
        f.write("END:VCALENDAR\r\n")
    todod.todoctl("import", path)
    before = server.requests()
    elapsed = todod.sync("now", timed_run=True)
    import json
    pending = json.loads(todod.sync("status", "--json"))["pending"]
    print(f"\n{count} changes waiting (a week offline), then sync now: {elapsed:.1f} s, "
          f"{server.requests() - before} requests, then {pending} pending")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--soak-minutes", type=float, default=0)
    parser.add_argument("--offline", type=int, default=1000)
    options = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="todod-bench-sync-")
    server = Radicale(scratch)
    todods = []
    try:
        for index in range(options.items):
            uid = f"{uuid.UUID(int=random.Random(index).getrandbits(128))}"
            server.put(uid, phone_todo(uid, index))
        print(f"sync bench: {options.items} to-dos on Radicale at 127.0.0.1, {options.rounds} rounds each, alternating")
        vdir, ours = [], []
        for round_number in range(options.rounds):
            elapsed, requests, synced, _ = vdirsyncer_round(server, scratch)
            vdir.append(elapsed)
            print(f"  vdirsyncer sync           {elapsed:7.2f} s  {requests:5d} requests  {synced} files")
            elapsed, requests, synced, todod = todod_round(server, scratch)
            ours.append(elapsed)
            todods.append(todod)
            print(f"  todod-sync add (first)    {elapsed:7.2f} s  {requests:5d} requests  {synced} items")
        ratio = statistics.median(ours) / statistics.median(vdir)
        print(f"\nfull sync of {options.items}: todod-sync median {statistics.median(ours):.2f} s, "
              f"vdirsyncer median {statistics.median(vdir):.2f} s: {ratio:.2f}x (target <= 1.00: "
              f"{'met' if ratio <= 1.0 else 'MISSED'})")

        todod = todods[-1]
        print("\nwhat one change costs, in requests to the server (the collection holds "
              f"{options.items} to-dos):")
        before = server.requests()
        todod.sync("now")
        print(f"  nothing changed, sync now          {server.requests() - before:3d}")
        before = server.requests()
        todod.todoctl("modify", "1", "edited here")
        todod.sync("now")
        print(f"  one edit here, sync now            {server.requests() - before:3d}")
        uid = f"{uuid.UUID(int=random.Random(5).getrandbits(128))}"
        server.put(uid, phone_todo(uid, 5, summary="edited on the phone").replace("20261127T090000Z", "20261127T100000Z"))
        before = server.requests()
        todod.sync("now")
        print(f"  one edit on the server, sync now   {server.requests() - before:3d}")
        offline(server, todod, options.offline, scratch)
        if options.soak_minutes > 0:
            soak(server, todod, options.soak_minutes)
    finally:
        for todod in todods:
            todod.stop()
        server.stop()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
