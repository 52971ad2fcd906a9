#!/usr/bin/env bash
# Inside a real user manager (run by Tests/systemd/run): todod.service keeping
# its list in PostgreSQL over TCP, as README's "Sharing a list across
# machines" says to set it up. Without systemd/todod-postgres.conf the
# sandbox (AF_UNIX only) keeps todod from the server, and todod says so at
# once, naming the drop-in, to the journal and to every client, staying up
# (never restarted) until stopped, when it exits 78; with the
# drop-in, socket activation serves from PostgreSQL, what the drop-in costs
# in exposure is bounded, a PostgreSQL restart under a running todod is
# refused (exit 69), logged, and recovered from, and a password file todod
# must ignore is a refusal told to clients (exit 78), not a wait. Prints one line per check
# and a closing "systemd: N passed, N failed".
#
# The cluster is this script's own: started here, beside the manager and
# outside todod's sandbox (this script is no unit), on 127.0.0.1 of the host's
# network (user-systemd only has a mount namespace of its own), as `postgres`
# when the manager is root's and as the manager's user otherwise. Here, not
# in Tests/systemd/run, because the restart below must be made from here, in
# the middle of the checks, and the normal user could not stop a server run
# as `postgres`. Its folder is $HOME/postgres: Tests/systemd/run removes it
# with the scratch directory and kills a server this script left running.
set -uo pipefail
stage="$1"
source "$(dirname "$0")/checks.sh"
source "$stage/Tests/postgres/cluster.sh"

unit_dir="$XDG_CONFIG_HOME/systemd/user"
config="$XDG_CONFIG_HOME/todod/todod.conf"
drop_in="$unit_dir/todod.service.d/postgres.conf"
database=shared_unit
cluster="$HOME/postgres"

cleanup() {
  systemctl --user stop todod.service todod.socket >/dev/null 2>&1
  [[ -z ${PG_PORT:-} ]] || pg_cluster_stop 2>/dev/null
  rm -rf "$cluster"
}
trap cleanup EXIT

status_text_has() { [[ "$(property todod.service StatusText)" == *"$1"* ]]; }
# exits_with CODE COMMAND...: COMMAND fails with exactly CODE (its stderr shown).
exits_with() {
  local expected="$1" code=0; shift
  "$@" >/dev/null 2>"$HOME/exits_with.err" || code=$?
  sed 's/^/       said: /' "$HOME/exits_with.err"
  is "$code" "$expected"
}
# security FILE: systemd-analyze's table for todod.service into FILE; prints
# the overall exposure, e.g. 1.5.
security() {
  systemd-analyze --user security todod.service --no-pager >"$1" 2>&1
  tail -n 1 "$1" | grep -Eo '[0-9]+\.[0-9]+' | head -n 1
}
# line_of PATTERN: the number of the journal's first line matching PATTERN.
line_of() { journal -o cat | grep -n -m1 -- "$1" | cut -d: -f1; }

# --- The server, the configuration and the password, as a user sets them up
if ! pg_cluster_start "$cluster" >"$HOME/pg_cluster.err" 2>&1; then
  sed 's/^/       /' "$HOME/pg_cluster.err"
  check "a PostgreSQL cluster starts for the test" false
  finish; exit
fi
pg_cluster_createdb "$database"
store_url="postgres://todod@127.0.0.1:$PG_PORT/$database?sslmode=disable"
mkdir -p "$(dirname "$config")"
printf 'store = %s\ninstance = unit\n' "$store_url" >"$config"
# cluster.sh wrote the password file as whoever runs this (root's for root):
# a copy of the user's own, 0600, as libpq and todod want it.
install -m 0600 "$PG_PASSFILE" "$HOME/.pgpass"
check "~/.pgpass is the user's, mode 0600" is "$(stat -c '%a %U' "$HOME/.pgpass")" "600 $(id -un)"

"$stage/scripts/install" --from "$stage/bin" >/dev/null 2>&1
check "the socket is listening" is "$(property todod.socket ActiveState)" active

# --- Without the drop-in: the sandbox keeps todod from the server
plain_exposure=$(security "$HOME/security-plain")
echo "  info exposure without the drop-in: ${plain_exposure:-unknown}"
# main_status: how todod.service's last run ended, e.g. "exit-code 78".
main_status() { echo "$(property todod.service Result) $(property todod.service ExecMainStatus)"; }
# refusing: todod is up only to tell clients why it will not start.
refusing() { [[ "$(property todod.service ActiveState)" == active ]] && status_text_has "refusing clients: todod will not start:"; }
# told_78 WORDS: todoctl ls exits 78 and its message holds WORDS.
told_78() { exits_with 78 todoctl ls && grep -qF -- "$1" "$HOME/exits_with.err"; }
check "without the drop-in the first todoctl is told at once: the sandbox forbids the network (exit 78)" \
  told_78 "todoctl: todod will not start: todod may not open a network connection to $store_url"
check "…and which drop-in to add" grep -qF "Add the drop-in todod-postgres.conf" "$HOME/exits_with.err"
check "todod stays up to say so (status: refusing clients)" refusing
refusing_pid=$(property todod.service MainPID)
for _ in $(seq 8); do todoctl ls >/dev/null 2>&1; done
check "eight more clients later the socket still listens" is "$(property todod.socket ActiveState)" active
check "…and the one todod told them all, never restarted" \
  is "$(property todod.service MainPID) $(property todod.service NRestarts)" "$refusing_pid 0"
check "the journal says the sandbox forbids the network" journal_has "may not open a network connection to $store_url"
check "…and names the drop-in to add" journal_has "Add the drop-in todod-postgres.conf"
check "it never waited for the store" quiet bash -c '! journalctl --user-unit todod.service --no-pager -o cat | grep -q "waiting for the store"'
check "nothing reached PostgreSQL" is "$(pg_cluster_psql "SELECT count(*) FROM pg_tables WHERE tablename = 'item'" "$database")" 0
systemctl --user stop todod.service 2>/dev/null  # not the warning that the socket can start it again
check "stopped, it ends with exit 78: the cause stands" is "$(main_status)" "exit-code 78"

# --- With the drop-in: socket activation against PostgreSQL
mkdir -p "$(dirname "$drop_in")"
cp "$stage/systemd/todod-postgres.conf" "$drop_in"
systemctl --user daemon-reload
systemctl --user reset-failed todod.service 2>/dev/null
check "the drop-in is loaded" grep -qx "$drop_in" < <(property todod.service DropInPaths)
check "it opens the network (PrivateNetwork=no)" is "$(property todod.service PrivateNetwork)" no
check "it allows AF_INET and AF_INET6" \
  grep -q "AF_INET .*AF_INET6\|AF_INET6 .*AF_INET " < <(property todod.service RestrictAddressFamilies)
# Root's user manager enforces IPAddressDeny=any (a normal user's cannot):
# left in place it drops todod's packets, and todod waits in vain.
check "it lifts todod.service's IPAddressDeny=any" is "$(property todod.service IPAddressDeny)" ""
echo "  info network-online.target in the user manager: $(systemctl --user show -p LoadState --value network-online.target)"
check "the service has not started yet" is "$(property todod.service ActiveState)" inactive
# Making the shared list is a step of its own: todod refuses a database without one.
check "todod init-store makes the shared list" grep -q "is ready (empty)" < <("$stage/bin/todod" init-store "$store_url" 2>&1)
check "…whose tables are there" is "$(pg_cluster_psql "SELECT count(*) FROM pg_tables WHERE tablename = 'item'" "$database")" 1
added=false
todoctl add "shared milk" >/dev/null 2>"$HOME/add.err" && added=true
check "the first todoctl add starts todod through the socket" $added
if ! $added; then  # the rest needs a todod that serves: say why, and stop here
  sed 's/^/       todoctl: /' "$HOME/add.err"
  echo "       status: $(property todod.service ActiveState): $(property todod.service StatusText)"
  journal -o cat | tail -n 5 | sed 's/^/       journal: /'
  finish; exit
fi
check "todod is active" is "$(property todod.service ActiveState)" active
status=$(todoctl status 2>&1)
check "todoctl status names the postgres store and the instance" \
  grep -q "^data: *$store_url (shared; this instance: unit)$" <<<"$status"
grep -q "^data:" <<<"$status" || sed 's/^/       /' <<<"$status"
check "the status line counts the item" eventually status_is "1 item, 0 clients, 0 subscriptions"
check "the journal has todod's serving line with the postgres store" journal_has "serving.*data=$store_url"
check "the item is in PostgreSQL" is "$(pg_cluster_psql "SELECT count(*) FROM item" "$database")" 1
check "with its title" is "$(pg_cluster_psql "SELECT item->>'title' FROM item" "$database")" "shared milk"

# --- What the drop-in costs in exposure
shared_exposure=$(security "$HOME/security-shared")
echo "  info exposure with the drop-in: ${shared_exposure:-unknown} (without: ${plain_exposure:-unknown}); it costs:"
grep -Fvx -f "$HOME/security-plain" "$HOME/security-shared" | grep '^✗' | sed -E 's/ {2,}/  /g; s/^/         /'
check "the plain unit stays at most 2.0" at_most "$plain_exposure" 2.0
# 2.3 here (systemd 252): the network (0.5), Internet sockets (0.3), no IP
# allow list (0.2), weighed. More means the drop-in opened something else.
check "with the drop-in the exposure stays at most 2.5" at_most "$shared_exposure" 2.5

# --- PostgreSQL restarts while todod runs
main_pid=$(property todod.service MainPID)
pg_cluster_stop
check "an add during the outage fails with exit 69" exits_with 69 todoctl add "lost in the outage"
check "the journal warns that the store does not answer" eventually journal_has "the store does not answer"
check "the status line says the store is unreachable" eventually status_text_has "store unreachable"
check "todoctl status says so" grep -q "unreachable: serving reads from memory" < <(todoctl status 2>&1)
check "reads are served from memory meanwhile" grep -q "shared milk" < <(todoctl ls 2>&1)
# Started again as cluster.sh starts it (its _pg_ctl: same data, port and
# user); it has no function for a start after pg_cluster_stop.
_pg_ctl start -l "$cluster/server.log" >/dev/null
check "the journal notes that the store answers again" eventually journal_has "the store answers again"
warned=$(line_of "the store does not answer") answered=$(line_of "the store answers again")
check "the warning came before the notice" test "${warned:-0}" -gt 0 -a "${answered:-0}" -gt "${warned:-0}"
check "an add after the outage works" quiet todoctl add "after the outage"
check "the status line is back to counts, not stale" eventually status_is "2 items, 0 clients, 0 subscriptions"
check "PostgreSQL has both acknowledged items, not the refused one" \
  is "$(pg_cluster_psql "SELECT string_agg(item->>'title', ', ' ORDER BY id) FROM item" "$database")" "shared milk, after the outage"
check "the same todod went through the outage (no restart)" \
  is "$(property todod.service MainPID) $(property todod.service NRestarts)" "$main_pid 0"

# --- No password to be had: the server's refusal, said at once, not waited out
# A password file others can read is ignored (as libpq ignores it).
chmod 0644 "$HOME/.pgpass"
systemctl --user restart todod.service
check "with ~/.pgpass ignored for its mode, todoctl is told the server refused todod (exit 78)" \
  told_78 "todoctl: todod will not start: the PostgreSQL server"
check "todod stays up to say so, not restarted" eval 'refusing && is "$(property todod.service NRestarts)" 0'
check "the journal says why: the server asks for a password the file does not hold" journal_has "asks for a password"
systemctl --user stop todod.service 2>/dev/null  # not the warning that the socket can start it again
check "stopped, it ends with exit 78" is "$(main_status)" "exit-code 78"
chmod 0600 "$HOME/.pgpass"
systemctl --user reset-failed todod.service 2>/dev/null

"$stage/scripts/uninstall" >/dev/null
rm -r "$unit_dir/todod.service.d"
finish
