#!/usr/bin/env bash
# Inside a real user manager (run by Tests/systemd/run), with todod installed
# by scripts/install and sandboxed as todod.service says: the status line,
# journald fields and levels, reload with a good and a bad configuration, a
# bad configuration at start, everything kept over a clean restart, restarts
# under load without a lost acknowledgement, kill -9, and the watchdog
# restarting a wedged todod. Prints one line per check and a closing
# "systemd: N passed, N failed".
set -uo pipefail
stage="$1"
source "$(dirname "$0")/checks.sh"

"$stage/scripts/install" --from "$stage/bin" >/dev/null 2>&1
unit_dir="$XDG_CONFIG_HOME/systemd/user"
config="$XDG_CONFIG_HOME/todod/todod.conf"
data="$HOME/.local/share/todod"
mkdir -p "$(dirname "$config")"

# --- Readiness and the status line
quiet todoctl add "first"
quiet todoctl add "second"
check "the status counts items, clients and subscriptions" eventually status_is "2 items, 0 clients, 0 subscriptions"
# Long enough to wait through the restarts below, however slow the machine
# (its deadline is wall-clock time, which runs on while it is paused).
todoctl watch --events --reconnect-seconds 600 >"$HOME/watch.out" 2>"$HOME/watch.err" &
watcher=$!
check "a watcher shows as a client with a subscription" eventually status_is "2 items, 1 client, 1 subscription"

# --- Journal: structured fields, levels
journal_json=$(journal -o json)
check "journal entries carry the code location" grep -q '"CODE_FILE"' <<<"$journal_json"
check "journal entries carry todod's own fields" grep -q '"TODOD_SOCKET"' <<<"$journal_json"
# Without LIBDISPATCH_LOG=NO in the unit, every start adds libdispatch's
# "Failed to set thread priority for worker thread: … errno=13".
check "no libdispatch line about thread priorities" bash -c '! grep -q "set thread priority" <<<"$0"' "$journal_json"
check "journal entries are todod's (SYSLOG_IDENTIFIER)" grep -q '"SYSLOG_IDENTIFIER":"todod"' <<<"$journal_json"

# --- Reload: good, then bad
main_pid=$(property todod.service MainPID)
printf '# test\nreminder-hours = 48\nlog-level = debug\n' >"$config"
check "systemctl reload succeeds" quiet systemctl --user reload todod.service
check "the reload was applied and logged" \
  eventually journal_has "reload: configuration applied.*reminder-hours=48.0 log-level=debug"
check "reloading kept the same process" is "$(property todod.service MainPID)" "$main_pid"
# The README's `journalctl --user-unit todod TODOD_CLIENT=7`: at debug level
# a client's coming and going carry its number.
quiet todoctl ls
client_story() {
  local client
  client=$(journal -o json | python3 -c '
import json, sys
clients = [json.loads(line).get("TODOD_CLIENT") for line in sys.stdin]
print(([c for c in clients if c] or [""])[-1])')
  [[ -n $client ]] && journalctl --user-unit todod "TODOD_CLIENT=$client" --no-pager -o cat 2>/dev/null | grep -q "client connected"
}
check "with log-level = debug, journalctl TODOD_CLIENT=N shows a client's connection (README)" eventually client_story
printf 'reminder-hours = soon\n' >"$config"
check "systemctl reload of a bad file returns" quiet systemctl --user reload todod.service
check "the bad file is reported with its line and problem" \
  eventually journal_has "reload: the configuration cannot be used.*line 1: reminder-hours must be a number of hours more than 0, not 'soon'"
check "todod keeps serving after a bad reload" quiet todoctl ls
check "todod kept running in the same process" is "$(property todod.service MainPID)" "$main_pid"
warnings=$(journal -p warning -o json)
check "journalctl -p warning shows the reload error" grep -q "cannot be used" <<<"$warnings"
check "journalctl -p warning shows nothing below warning" \
  python3 -c 'import json, sys; sys.exit(any(int(json.loads(l)["PRIORITY"]) > 4 for l in sys.stdin if l.strip()))' <<<"$warnings"

# --- A bad configuration at start: todod stays up to tell every client why
# (the socket stays, and no client starts todod in a loop), and exits 78
# (EX_CONFIG) when stopped.
quiet systemctl --user restart todod.service
check "started with a bad configuration, todod still answers the socket" is "$(property todod.service ActiveState)" active
check "its status line says why" \
  grep -qF "refusing clients: todod will not start: $config line 1: reminder-hours must be" <<<"$(property todod.service StatusText)"
check "the journal says what is wrong" eventually journal_has "todod will not start: $config line 1: reminder-hours must be"
check "the running watch is told, and waits" \
  eventually grep -qF "todoctl: todod will not start: $config line 1: reminder-hours" "$HOME/watch.err"
code=0; todoctl add "never kept" >/dev/null 2>"$HOME/add.err" || code=$?
check "todoctl add is refused with exit 78, naming the line" \
  is "$code $(grep -c "$config line 1: reminder-hours" "$HOME/add.err")" "78 1"
# The watcher is paused over the stop: its reconnection attempts would start
# todod again through the socket before the stop's outcome is read.
kill -STOP "$watcher"
printf 'reminder-hours = 48\n' >"$config"
quiet systemctl --user stop todod.service
check "stopped, it exits 78 (EX_CONFIG) and is not restarted" \
  is "$(property todod.service ExecMainStatus) $(property todod.service ActiveState) $(property todod.service NRestarts)" "78 failed 0"
systemctl --user reset-failed todod.service
check "with the file fixed todod starts" quiet systemctl --user start todod.service
kill -CONT "$watcher"
check "the watch reconnects by itself" eventually grep -q "reconnected" "$HOME/watch.err"

# --- A clean restart keeps every in-memory state
quiet todoctl filter active
quiet todoctl sort title
quiet todoctl add "undone then redone"
quiet todoctl undo
before=$(todoctl status --json)
quiet systemctl --user stop todod.service
check "a clean stop exits 0" is "$(property todod.service Result) $(property todod.service ExecMainStatus)" "success 0"
check "the write-ahead log was checkpointed into the database" \
  bash -c "[[ ! -s '$data/todos.sqlite-wal' ]]"
after=$(todoctl status --json)
check "the epoch survives (clients resume)" is "$(json_field epoch <<<"$after")" "$(json_field epoch <<<"$before")"
check "the revision survives" is "$(json_field revision <<<"$after")" "$(json_field revision <<<"$before")"
shared=$(todoctl ls --json)
check "the shared view's filter and sort survive" \
  is "$(json_field properties.filter <<<"$shared") $(json_field properties.sort <<<"$shared")" "active title"
check "the undo history survives (redo is still there)" is "$(json_field properties.redoText <<<"$shared")" "Redo add “undone then redone”"
check "the watcher resumed across the restart" eventually grep -q "reconnected" "$HOME/watch.err"

# --- Restarts under load: no acknowledged edit lost, no command refused
rm -f "$HOME/stop-load"
(
  i=0
  while [[ ! -e "$HOME/stop-load" && $i -lt 3000 ]]; do
    i=$((i + 1))
    if todoctl add "load $i" >/dev/null 2>>"$HOME/load.err"; then echo "ok $i"; else echo "failed $i"; fi
  done >"$HOME/load.log"
) &
loader=$!
eventually bash -c "[[ \$(wc -l <'$HOME/load.log') -ge 20 ]]"
for _ in 1 2 3; do
  quiet systemctl --user restart todod.service
  count=$(wc -l <"$HOME/load.log")
  eventually bash -c "[[ \$(wc -l <'$HOME/load.log') -ge $((count + 20)) ]]"
done
touch "$HOME/stop-load"
wait "$loader"
acknowledged=$(grep -c '^ok' "$HOME/load.log")
# What todoctl said for each add that failed, so a failure below can be read.
grep -q '^failed' "$HOME/load.log" && sed 's/^/       todoctl: /' "$HOME/load.err"
check "every add during the restarts was acknowledged ($acknowledged of $(wc -l <"$HOME/load.log"))" \
  is "$(grep -c '^failed' "$HOME/load.log")" 0
stored=$(todoctl ls --filter all --json | python3 -c 'import json, sys; print(sum(r["title"].startswith("load ") for r in json.load(sys.stdin)["rows"]))')
check "every acknowledged add is in the store" is "$stored" "$acknowledged"
check "none of the restarts was a crash (NRestarts 0)" is "$(property todod.service NRestarts)" 0

# The restarts above count against systemd's start limit (5 in 10 s).
systemctl --user reset-failed todod.service

# --- kill -9: systemd restarts todod and nothing acknowledged is lost
quiet todoctl add "acknowledged before the kill"
killed_pid=$(property todod.service MainPID)
systemctl --user kill --signal=SIGKILL todod.service
check "after kill -9 systemd starts todod again" \
  eventually bash -c "[[ \$(systemctl --user show -p MainPID --value todod.service) != 0 && \$(systemctl --user show -p MainPID --value todod.service) != $killed_pid ]]"
check "the edit acknowledged before the kill is there" \
  grep -q "acknowledged before the kill" < <(todoctl ls --filter all)

# --- The watchdog restarts a wedged todod
mkdir -p "$unit_dir/todod.service.d"
printf '[Service]\nExecStart=\nExecStart=%%h/.local/bin/todod --test-hooks\nWatchdogSec=2\n' \
  >"$unit_dir/todod.service.d/test-hooks.conf"
systemctl --user daemon-reload
systemctl --user reset-failed todod.service
quiet systemctl --user restart todod.service
quiet todoctl ls
wedged_pid=$(property todod.service MainPID)
restarts=$(property todod.service NRestarts)
systemctl --user kill --signal=SIGUSR2 todod.service
check "systemd restarts a wedged todod" \
  eventually bash -c "[[ \$(systemctl --user show -p NRestarts --value todod.service) -gt $restarts && \$(systemctl --user show -p ActiveState --value todod.service) == active ]]"
check "a new process serves" bash -c "[[ \$(systemctl --user show -p MainPID --value todod.service) != $wedged_pid ]]"
check "the wedged one got the watchdog's SIGABRT" grep -q "Signal 6" < <(journal -o cat)
check "it serves after the watchdog restart" quiet todoctl ls
rm -r "$unit_dir/todod.service.d"
systemctl --user daemon-reload

kill "$watcher" 2>/dev/null
echo "  info $(systemd-analyze --user security todod.service --no-pager 2>/dev/null | tail -1)"
"$stage/scripts/uninstall" >/dev/null
finish
