#!/usr/bin/env bash
# Inside a real user manager (run by Tests/systemd/run): install todod with
# scripts/install, start only todod.socket, let the first todoctl start the
# service, check readiness and status, stop and start again, and find every
# item still there and todod's lines in the journal; with a todod.conf todod
# cannot use, every client is told why and the socket stays up. Prints one line per check
# and a closing "systemd: N passed, N failed".
set -uo pipefail
stage="$1"
source "$(dirname "$0")/checks.sh"

"$stage/scripts/install" --from "$stage/bin" >/dev/null 2>&1
check "install put the binaries in ~/.local/bin" test -x "$HOME/.local/bin/todod" -a -x "$HOME/.local/bin/todoctl"
unit_dir="$XDG_CONFIG_HOME/systemd/user"
check "systemd-analyze --user verify accepts both units" \
  systemd-analyze --user verify "$unit_dir/todod.socket" "$unit_dir/todod.service"
check "the socket is listening" is "$(property todod.socket ActiveState)" active
check "the service has not started yet" is "$(property todod.service ActiveState)" inactive
socket_path="$XDG_RUNTIME_DIR/todod/todod.sock"
check "the socket is private (0600 in a 0700 directory)" \
  is "$(stat -c %a "$socket_path") $(stat -c %a "$(dirname "$socket_path")")" "600 700"

check "the first todoctl add starts todod through the socket" quiet todoctl add "buy milk"
check "todod is active" is "$(property todod.service ActiveState)" active
check "the status says what it serves" eventually status_is "1 item, 0 clients, 0 subscriptions"
check "a second add is served" quiet todoctl add "walk the dog"
check "the status follows changes" eventually status_is "2 items, 0 clients, 0 subscriptions"
check "done works under systemd" quiet todoctl done 1

check "systemctl stop succeeds" quiet systemctl --user stop todod.service
check "todod stopped cleanly (exit 0)" is "$(property todod.service Result) $(property todod.service ExecMainStatus)" "success 0"
check "the socket keeps listening while todod is stopped" is "$(property todod.socket ActiveState)" active

listing=$(todoctl ls)
check "a new connection starts todod again and every item is there" \
  is "$listing" $'view main · filter all · sort created\n1  [x] buy milk\n2  [ ] walk the dog\n1 item left'
check "todod is active again" is "$(property todod.service ActiveState)" active

journal=$(journal -o cat || true)
check "todod's log lines are in the journal" grep -q "serving" <<<"$journal"
check "the shutdown was logged" grep -q "stopped; everything saved" <<<"$journal"

# --- A todod.conf todod cannot use: told to every client, the socket kept
config="$XDG_CONFIG_HOME/todod/todod.conf"
mkdir -p "$(dirname "$config")"
printf 'log-level = loud\n' >"$config"
systemctl --user restart todod.service
code=0; told=$(todoctl ls 2>&1) || code=$?
check "with a bad todod.conf, todoctl says why, with exit 78" \
  is "$code ${told%%must*}" "78 todoctl: todod will not start: $config line 1: log-level "
check "…and what to do" grep -qF 'Fix it, then run `systemctl --user restart todod`' <<<"$told"
check "todod's status line says it too" \
  grep -qF "refusing clients: todod will not start: $config line 1" <<<"$(property todod.service StatusText)"
check "so does the journal" journal_has "todod will not start: $config line 1: log-level"
refusing_pid=$(property todod.service MainPID)
# The refusing todod pings the watchdog too (WatchdogSec=30), or systemd
# would kill it: a ping after the first, seen by systemd, is the event.
first_ping=$(property todod.service WatchdogTimestampMonotonic)
pinged_again() { [[ "$(property todod.service WatchdogTimestampMonotonic)" != "$first_ping" ]]; }
# What looped before: every retry, watch and status line starting todod anew.
todoctl watch >/dev/null 2>&1 &
watcher=$!
for _ in $(seq 10); do todoctl ls >/dev/null 2>&1; done
check "the refusing todod pings the watchdog" eventually pinged_again
check "a watch exits 78, told the same" eval 'wait $watcher; is $? 78'
check "eleven clients later the socket still listens" is "$(property todod.socket ActiveState)" active
check "…served by the one todod, never restarted" \
  is "$(property todod.service ActiveState) $(property todod.service MainPID) $(property todod.service NRestarts)" "active $refusing_pid 0"
rm "$config"
check "with the file fixed, systemctl reload ends the refusal" quiet systemctl --user reload todod.service
inactive_success() { [[ "$(property todod.service ActiveState) $(property todod.service Result)" == "inactive success" ]]; }
check "…cleanly (exit 0)" eventually inactive_success
check "the next todoctl starts todod with the fixed file, every item there" \
  is "$(todoctl ls 2>&1 | tail -n 1)" "1 item left"

"$stage/scripts/uninstall" >/dev/null
check "uninstall removed units and binaries" \
  test ! -e "$unit_dir/todod.service" -a ! -e "$unit_dir/todod.socket" -a ! -e "$HOME/.local/bin/todod"
check "uninstall kept the data" test -f "$HOME/.local/share/todod/todos.sqlite"
check "nothing listens after uninstall" test ! -S "$socket_path"

finish
