#!/usr/bin/env python3
"""The list checks of Tests/shared/run, which writes the files they read.

  lists.py converged WORK INSTANCE...   the lists and statuses the run fetched last
                                        (WORK/list-X.json, WORK/status-X.json) agree and
                                        hold every acknowledged edit of the client loops
                                        (WORK/X.ops); prints what is wrong, one per line
  lists.py watcher WORK NAME LIST       the events WORK/watch-NAME.jsonl have no silent
                                        gap, and applied in order give LIST's rows
  lists.py tally WORK SCENARIO LOOP...  one line: what each loop's commands got in SCENARIO

A line of X.ops is one command of loop X:
  SCENARIO START END VERB TITLE ID CLASS
with START and END in seconds, VERB add or done, ID the item's id (- if unknown) and
CLASS one of ack (exit 0), refused (exit 69, store.unavailable), down (exit 69, the
loop's own instance was killed on purpose) or unexpected (anything else).
"""
import json
import os
import sys
from collections import Counter


def rows(path):
    with open(path) as file:
        state = json.load(file)
    return [(row["id"], row["title"], bool(row["done"])) for row in state["rows"]]


def operations(work):
    """Every command of every loop, in the order each loop ran them."""
    found = []
    for name in sorted(os.listdir(work)):
        if not name.endswith(".ops"):
            continue
        with open(os.path.join(work, name)) as file:
            for line in file:
                parts = line.split()
                if len(parts) != 7:
                    continue  # the last line of a loop killed while writing it
                scenario, start, end, verb, title, ident, kind = parts
                found.append(
                    dict(scenario=scenario, start=float(start), end=float(end), verb=verb, title=title, id=ident, kind=kind,
                         loop=name[:-4]))
    return found


def converged(work, instances):
    problems = []
    listed = {}
    for name in instances:
        try:
            listed[name] = rows(os.path.join(work, f"list-{name}.json"))
        except (OSError, ValueError, KeyError) as error:
            problems.append(f"{name}: no list ({error})")
    statuses = {}
    for name in instances:
        try:
            with open(os.path.join(work, f"status-{name}.json")) as file:
                statuses[name] = json.load(file)
        except (OSError, ValueError) as error:
            problems.append(f"{name}: no status ({error})")
    if problems:
        return problems, ""

    first = instances[0]
    for name in instances[1:]:
        if listed[name] != listed[first]:
            ours, theirs = set(listed[first]), set(listed[name])
            problems.append(
                f"{name}'s list differs from {first}'s: {len(listed[name])} rows against {len(listed[first])}; "
                f"only on {first}: {sorted(ours - theirs)[:3]}, only on {name}: {sorted(theirs - ours)[:3]}")
    revisions = {name: status.get("revision") for name, status in statuses.items()}
    if len(set(revisions.values())) != 1:
        problems.append(f"revisions differ: {revisions}")
    stale = [name for name, status in statuses.items() if status.get("stale") is not False]
    if stale:
        problems.append(f"server.status says stale on {', '.join(stale)}")

    ops = operations(work)
    sent = {op["title"] for op in ops if op["verb"] == "add"}
    added = {op["title"]: op["id"] for op in ops if op["verb"] == "add" and op["kind"] == "ack"}
    done = {op["title"] for op in ops if op["verb"] == "done" and op["kind"] == "ack"}
    for name in instances:
        by_title = {}
        for row in listed[name]:
            by_title.setdefault(row[1], []).append(row)
        twice = sorted(title for title, found in by_title.items() if len(found) > 1)
        if twice:
            problems.append(f"{name}: {len(twice)} titles appear more than once, e.g. {[by_title[t] for t in twice[:3]]}")
        unknown = sorted(set(by_title) - sent)
        if unknown:
            problems.append(f"{name}: {len(unknown)} titles no loop sent, e.g. {unknown[:5]}")
        missing = sorted(title for title in added if title not in by_title)
        if missing:
            problems.append(f"{name}: {len(missing)} acknowledged adds are missing, e.g. {missing[:5]}")
        moved = sorted(
            (title, ident, by_title[title][0][0]) for title, ident in added.items()
            if title in by_title and str(by_title[title][0][0]) != ident)
        if moved:
            problems.append(f"{name}: {len(moved)} items have another id than their add reported (title, reported, listed): {moved[:3]}")
        undone = sorted(title for title in done if title in by_title and not by_title[title][0][2])
        if undone:
            problems.append(f"{name}: {len(undone)} acknowledged done marks are missing, e.g. {undone[:5]}")
    present = {row[1] for row in listed[first]}
    refused_present = len([t for t in sent - set(added) if t in present])
    summary = (f"{len(listed[first])} rows, revision {revisions[first]}, {len(added)} acknowledged adds, "
               f"{len(done)} acknowledged done marks, {refused_present} unacknowledged adds stored all the same")
    return problems, summary


def watcher(work, name, final):
    problems = []
    expected = rows(final)
    state = None
    previous = None
    events = resets = 0
    with open(os.path.join(work, f"watch-{name}.jsonl")) as file:
        for number, line in enumerate(file, 1):
            try:
                message = json.loads(line)
            except ValueError:
                problems.append(f"line {number} is not JSON: {line[:80]!r}")
                continue
            if message.get("method") != "view.changed":
                continue
            body = message["params"]
            events += 1
            revision = body["revision"]
            if body.get("reset"):
                resets += 1
            elif previous is None:
                problems.append(f"line {number}: the first event (revision {revision}) is not a reset")
            elif revision != previous + 1:
                problems.append(f"line {number}: revision {previous} is followed by {revision} without reset: true")
            previous = revision
            for edit in body.get("rows", []):
                op = edit["op"]
                if op == "reset":
                    state = list(edit.get("rows") or [])
                elif state is None:
                    problems.append(f"line {number}: a row edit before any state")
                    state = []
                elif op == "insert":
                    state.insert(edit["index"], edit["row"])
                elif op == "remove":
                    del state[edit["index"]]
                elif op == "update":
                    state[edit["index"]] = edit["row"]
                elif op == "move":
                    del state[edit["from"]]
                    state.insert(edit["index"], edit["row"])
    seen = [(row["id"], row["title"], bool(row["done"])) for row in state or []]
    if seen != expected:
        only_seen, only_listed = set(seen) - set(expected), set(expected) - set(seen)
        problems.append(
            f"the events applied in order give {len(seen)} rows, the list has {len(expected)}: "
            f"only in the events {sorted(only_seen)[:3]}, only in the list {sorted(only_listed)[:3]}")
    return problems, f"{events} events, {resets} with reset: true, last revision {previous}"


def tally(work, scenario, loops):
    ops = [op for op in operations(work) if op["scenario"] == scenario]
    parts = []
    for loop in loops:
        kinds = Counter(op["kind"] for op in ops if op["loop"] == loop)
        slowest = max((op["end"] - op["start"] for op in ops if op["loop"] == loop and op["kind"] == "refused"), default=0)
        text = f"{loop.upper()}: {kinds['ack']} acknowledged, {kinds['refused']} refused (69)"
        if slowest:
            text += f" (slowest {slowest:.1f} s)"
        if kinds["down"]:
            text += f", {kinds['down']} while down"
        if kinds["unexpected"]:
            text += f", {kinds['unexpected']} UNEXPECTED"
        parts.append(text)
    return "; ".join(parts)


def main():
    command, work, *rest = sys.argv[1:]
    if command == "tally":
        print(tally(work, rest[0], rest[1:]))
        return 0
    if command == "converged":
        problems, summary = converged(work, rest)
    else:
        problems, summary = watcher(work, rest[0], rest[1])
    for problem in problems:
        print(problem)
    if not problems:
        print(summary)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
