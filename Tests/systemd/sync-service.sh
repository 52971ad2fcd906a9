#!/usr/bin/env bash
# Inside a real user manager (run by Tests/systemd/run): todod-sync.service
# as README's "Your list on your phone" sets it up, against a real CalDAV
# server (Radicale, started here on 127.0.0.1 as this user): `todoctl sync
# add` with a password file stores the password for the user only and never
# on a command line, enables the service, which comes up Type=notify with
# its status; an edit reaches the server and a server edit reaches the list
# with cause origin "sync"; `todoctl sync status` and the journal say how
# it went; the sandbox's exposure stays at most 2.5 while todod.service
# keeps PrivateNetwork. Prints one line per check and a closing
# "systemd: N passed, N failed".
set -uo pipefail
stage="$1"
source "$(dirname "$0")/checks.sh"

server_dir="$HOME/radicale"
cleanup() {
  systemctl --user stop 'todod-sync@*.service' todod-sync.service todod.service todod.socket >/dev/null 2>&1
  [[ -z ${second_pid:-} ]] || kill "$second_pid" 2>/dev/null
  [[ -z ${radicale_pid:-} ]] || kill "$radicale_pid" 2>/dev/null
  rm -rf "$server_dir"
}
trap cleanup EXIT

port=$(free_port)
collection="http://127.0.0.1:$port/me/todo/"
phone() {  # phone SCRIPT [URL]: python3-caldav on the collection (or URL's), as a phone
  CALDAV_URL="${2:-$collection}" CALDAV_USER=me CALDAV_PASSWORD=s3cret-pass /usr/bin/python3 -c "
import caldav, os
client = caldav.DAVClient(os.environ['CALDAV_URL'], username=os.environ['CALDAV_USER'], password=os.environ['CALDAV_PASSWORD'])
calendar = caldav.Calendar(client=client, url=os.environ['CALDAV_URL'])
$1"
}

# --- A CalDAV server of the user's own
mkdir -p "$server_dir"
printf 'me:s3cret-pass\n' >"$server_dir/users"
cat >"$server_dir/config" <<CONFIG
[server]
hosts = 127.0.0.1:$port
[auth]
type = htpasswd
htpasswd_filename = $server_dir/users
htpasswd_encryption = plain
[storage]
filesystem_folder = $server_dir/collections
CONFIG
/usr/bin/python3 -m radicale --config "$server_dir/config" >"$server_dir/log" 2>&1 &
radicale_pid=$!
server_up() { curl -s -o /dev/null -u me:s3cret-pass "http://127.0.0.1:$port/"; }
check "Radicale answers on 127.0.0.1:$port" eventually server_up
check "the collection is made (MKCALENDAR)" is "$(curl -s -o /dev/null -w '%{http_code}' -u me:s3cret-pass -X MKCALENDAR "$collection")" 201

"$stage/scripts/install" --from "$stage/bin" >/dev/null 2>&1
check "todod-sync.service is installed" test -f "$XDG_CONFIG_HOME/systemd/user/todod-sync.service"
check "... and todod-sync@.service, for another todod's sync" test -f "$XDG_CONFIG_HOME/systemd/user/todod-sync@.service"
stripped() { (( $(stat -c %s "$HOME/.local/bin/$1") < $(stat -c %s "$stage/bin/$1") )); }
check "scripts/install strips what it installs (todod)" stripped todod
check "... (todod-sync)" stripped todod-sync
todoctl add "buy milk +errands due:2026-12-24" >/dev/null

# --- Set-up in one command
printf 's3cret-pass\n' >"$HOME/password"
todoctl sync add "$collection" --user me --password-file "$HOME/password" >"$HOME/add.out" 2>&1
sed 's/^/       /' "$HOME/add.out"
check "sync add says the collection takes to-dos" grep -q "takes to-dos" "$HOME/add.out"
check "sync add enabled the service" is "$(systemctl --user is-enabled todod-sync.service 2>/dev/null)" enabled
check "the service is up (Type=notify: ready)" eventually is "$(property todod-sync.service ActiveState)" active
check "the password file is the user's only (600)" is "$(stat -c '%a %U' "$XDG_CONFIG_HOME/todod/sync.password")" "600 $(id -un)"
check "sync.conf holds no password" bash -c "! grep -q s3cret-pass '$XDG_CONFIG_HOME/todod/sync.conf'"
# (The pattern comes from the file: a pattern on grep's command line would be found there.)
check "no process has the password on its command line" bash -c "! grep -qaF -f '$HOME/password' /proc/[0-9]*/cmdline"
on_server() { phone 'print([str(t.icalendar_component["summary"]) for t in calendar.todos()])' | grep -q "$1"; }
check "the first sync put the item on the server" eventually on_server "buy milk"

# --- Live both ways
todoctl add "call mum" >/dev/null
check "a local edit reaches the server (no sync now)" eventually on_server "call mum"
todoctl watch --events >"$HOME/events" 2>/dev/null &
watcher=$!
sleep 0.5
phone 'calendar.save_todo(summary="from the phone")' >/dev/null
todoctl sync now >/dev/null 2>&1
check "a phone's to-do reaches the list" eventually bash -c "todoctl ls | grep -q 'from the phone'"
check "its event says cause origin sync" eventually grep -q '"origin":"sync"' "$HOME/events"
kill "$watcher" 2>/dev/null

# --- What it says
todoctl sync status >"$HOME/status" 2>&1
sed 's/^/       /' "$HOME/status"
check "sync status says it runs and synced" bash -c "grep -q 'service: running' '$HOME/status' && grep -q 'last sync: 20' '$HOME/status'"
check "sync status --json counts 3 synced, 0 pending" is "$(todoctl sync status --json | python3 -c 'import json,sys; s=json.load(sys.stdin); print(s["synced"], s["pending"])')" "3 0"
check "the journal says what a round did" eventually unit_journal_has todod-sync.service "synced: "
check "the journal never holds the password" bash -c "! journalctl --user --no-pager -o cat | grep -q s3cret-pass"
check "StatusText says it synced" eventually bash -c "[[ \"\$(systemctl --user show -p StatusText --value todod-sync.service)\" == synced* ]]"

# --- A server that refuses: said, nothing lost
printf 'me:other\n' >"$server_dir/users"
todoctl add "added while refused" >/dev/null
todoctl sync now >/dev/null 2>&1
check "a refused password is said in sync status" eventually bash -c "todoctl sync status | grep -q 'refused the user name or password'"
todoctl sync status | sed 's/^/       /'
check "... and the edit waits (pending 1)" is "$(todoctl sync status --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pending"])')" 1
printf 'me:s3cret-pass\n' >"$server_dir/users"
todoctl sync now >/dev/null 2>&1
check "once the server takes it again, the edit goes out" eventually on_server "added while refused"

# --- A second todod, run by hand with its own socket and data directory
# (docs/sync.md): its sync has its own settings, password, state and
# service, todod-sync@INSTANCE.service, and never touches the first's.
home_collection="http://127.0.0.1:$port/me/home/"
check "a second collection is made" is "$(curl -s -o /dev/null -w '%{http_code}' -u me:s3cret-pass -X MKCALENDAR "$home_collection")" 201
second_socket="$XDG_RUNTIME_DIR/home.sock"
todod --socket "$second_socket" --data-dir "$HOME/home-list" >"$HOME/second-todod.log" 2>&1 &
second_pid=$!
check "the second todod answers" eventually quiet todoctl --socket "$second_socket" ls
todoctl --socket "$second_socket" add "home item one" >/dev/null
todoctl --socket "$second_socket" sync add "$home_collection" --user me --password-file "$HOME/password" >"$HOME/add-home.out" 2>&1
sed 's/^/       /' "$HOME/add-home.out"
instance=$(systemd-escape --path "$second_socket")
check "the second sync runs as todod-sync@$instance.service" eventually is "$(property "todod-sync@$instance.service" ActiveState)" active
check "... with settings of its own" grep -q "url = $home_collection" "$XDG_CONFIG_HOME/todod/sync/$instance/sync.conf"
check "the first's settings still name the first collection" grep -q "url = $collection" "$XDG_CONFIG_HOME/todod/sync.conf"
check "sync add printed sentences, not log lines" bash -c "! grep -q 'TodoSyncService\]' '$HOME/add-home.out'"
todoctl add "work item two" >/dev/null
todoctl --socket "$second_socket" add "home item two" >/dev/null
on_home() { phone 'print([str(t.icalendar_component["summary"]) for t in calendar.todos()])' "$home_collection" | grep -q "$1"; }
check "each list's edit reaches its own collection (work)" eventually on_server "work item two"
check "each list's edit reaches its own collection (home)" eventually on_home "home item two"
todoctl sync now >/dev/null 2>&1
todoctl --socket "$second_socket" sync now >/dev/null 2>&1
check "home item one is still on Home" on_home "home item one"
not() { ! "$@"; }
check "no work item reached Home" not on_home "work item"
check "no home item reached the first collection" not on_server "home item"
check "the first list has no home item" not bash -c "todoctl ls | grep -q 'home item'"
todoctl sync add "$home_collection" --user me --password-file "$HOME/password" >"$HOME/add-again.out" 2>&1
check "a second sync add on the first list is refused (exit 65)" is "$?" 65
check "... saying what is synced and how to switch" bash -c "grep -q 'already syncs with $collection' '$HOME/add-again.out' && grep -q -- '--replace' '$HOME/add-again.out'"
todoctl --socket "$second_socket" sync rm >/dev/null 2>&1
check "sync rm on the second stops its service only" eventually is "$(property "todod-sync@$instance.service" ActiveState)" inactive
check "... the first's still runs" is "$(property todod-sync.service ActiveState)" active
kill "$second_pid" 2>/dev/null
wait "$second_pid" 2>/dev/null
second_pid=""

# --- The template unit is the service's, but for the lines naming the instance
strip_instance() {  # the unit without its comments and the lines that differ by design
  grep -v -e '^#' -e '^Description=' -e '^Wants=' -e '^After=' -e '^ExecStart=' "$1"
}
check "todod-sync@.service's settings are todod-sync.service's" \
  diff <(strip_instance "$XDG_CONFIG_HOME/systemd/user/todod-sync.service") <(strip_instance "$XDG_CONFIG_HOME/systemd/user/todod-sync@.service")

# --- The sandbox
check_exposure todod-sync.service 2.5
check "todod.service keeps its network closed" is "$(property todod.service PrivateNetwork)" yes

# --- Removed: nothing deleted
todoctl sync rm >/dev/null 2>&1
check "sync rm stops the service" eventually is "$(property todod-sync.service ActiveState)" inactive
check "... forgets the password" test ! -e "$XDG_CONFIG_HOME/todod/sync.password"
check "... and deletes nothing in the list" is "$(todoctl ls | grep -c '\[ \]')" 5
finish
