#!/usr/bin/env bash
# Inside a real user manager (run by Tests/systemd/run): todod-web as
# README's "In a browser" sets it up. todod-web.socket listens on loopback
# (here on a port of the test's own, through a drop-in, the documented way
# to move it) and starts todod-web.service on the first connection, which
# comes up Type=notify with its status; the page is refused without the key,
# the key becomes an HttpOnly SameSite=Strict cookie, a tab's WebSocket
# reaches todod and is counted in the status; todod down is said to the tab;
# the key is the user's only and never in the journal or on a command
# line; another uid reaching the port gets 401; the sandbox's exposure is at
# most 2.5. Prints one line per check and a closing "systemd: N passed, N failed".
set -uo pipefail
stage="$1"
source "$(dirname "$0")/checks.sh"

cleanup() {
  systemctl --user stop todod-web.socket todod-web.service todod.service todod.socket >/dev/null 2>&1
  [[ -z ${holder:-} ]] || kill "$holder" 2>/dev/null
}
trap cleanup EXIT

port=$(free_port)
page="http://127.0.0.1:$port"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
key_file="$HOME/.local/state/todod-web/token"
# tab [KEY-FILE] [hold SECONDS]: a tab's WebSocket (the key read from a file, never on a command line)
tab() { /usr/bin/python3 "$stage/Tests/systemd/tab.py" "$port" "${1:-$key_file}" "${@:2}"; }
web_status_is() { is "$(property todod-web.service StatusText)" "$1"; }
web_state_is() { is "$(property todod-web.service ActiveState)" "$1"; }

"$stage/scripts/install" --from "$stage/bin" >"$HOME/install.out" 2>&1
check "todod-web's units are installed" test -f "$XDG_CONFIG_HOME/systemd/user/todod-web.socket" -a -f "$XDG_CONFIG_HOME/systemd/user/todod-web.service"
check "install enabled todod-web.socket" is "$(systemctl --user is-enabled todod-web.socket 2>/dev/null)" enabled

# --- Another port, as the README says: a drop-in for the socket, and web.conf for todoctl web
mkdir -p "$XDG_CONFIG_HOME/systemd/user/todod-web.socket.d" "$XDG_CONFIG_HOME/todod"
printf '[Socket]\nListenStream=\nListenStream=127.0.0.1:%s\nListenStream=[::1]:%s\n' "$port" "$port" \
  >"$XDG_CONFIG_HOME/systemd/user/todod-web.socket.d/port.conf"
printf 'port = %s\n' "$port" >"$XDG_CONFIG_HOME/todod/web.conf"
systemctl --user daemon-reload
systemctl --user restart todod-web.socket
check "todod-web.socket listens on 127.0.0.1 and ::1 at the new port" \
  is "$(property todod-web.socket Listen | tr '\n' ' ')" "127.0.0.1:$port (Stream) [::1]:$port (Stream) "
check "todod-web.service waits for the first connection" is "$(property todod-web.service ActiveState)" inactive

# --- Refused without the key; the connection starts the service
check "a request without the key gets 401" is "$(code "$page/")" 401
check "that connection started todod-web.service (Type=notify: ready)" eventually web_state_is active
check "its status says how many tabs are open" web_status_is "0 tabs open; relaying to todod at $XDG_RUNTIME_DIR/todod/todod.sock"
check "the journal says where it serves" eventually unit_journal_has todod-web.service "serving the socket systemd passed"
url=$(todoctl web --print-url)
key=${url##*token=}
check "todoctl web --print-url gives the page with its key" is "$url" "$page/?token=$key"
check "the key is the user's only (600)" is "$(stat -c '%a %U' "$HOME/.local/state/todod-web/token")" "600 $(id -un)"
check "a wrong key gets 401" is "$(code "$page/?token=$(printf '0%.0s' {1..64})")" 401
curl -s -D "$HOME/signin" -o /dev/null "$url"
check "the right key is moved into a cookie (303 to /)" grep -q "^HTTP/1.1 303" "$HOME/signin"
check "…HttpOnly and SameSite=Strict" grep -qi "^set-cookie: todod-web=$key; Path=/; Max-Age=[0-9]*; HttpOnly; SameSite=Strict" "$HOME/signin"
check "…and out of the address" grep -qi "^location: /$(printf '\r')\$" "$HOME/signin"
check "the cookie opens the page" is "$(code -b "todod-web=$key" "$page/")" 200
check "the page forbids anything external (CSP)" bash -c "curl -s -D - -o /dev/null -b 'todod-web=$key' '$page/' | grep -qi \"^content-security-policy: default-src 'none'\""
check "a rebinding Host is refused" is "$(code -b "todod-web=$key" -H "Host: evil.example:$port" "$page/")" 403

# --- A tab: todod's greeting through the relay, counted in the status
todoctl add "buy milk" >/dev/null
greeted() { tab | grep -q '"method":"server.hello"'; }
check "a tab's WebSocket gets todod's greeting" greeted
/usr/bin/python3 "$stage/Tests/systemd/tab.py" "$port" "$key_file" hold 60 >"$HOME/held" &
holder=$!  # (the program itself: killing it drops the tab's connection without a close)
check "the open tab is counted in the status" eventually web_status_is "1 tab open; relaying to todod at $XDG_RUNTIME_DIR/todod/todod.sock"
kill "$holder" 2>/dev/null; holder=""
check "…and no longer once it closes" eventually web_status_is "0 tabs open; relaying to todod at $XDG_RUNTIME_DIR/todod/todod.sock"

# --- The key never shows
# (The pattern comes from the file: a pattern on grep's command line would be found there.)
check "the journal never holds the key" bash -c "! journalctl --user --no-pager -o cat | grep -qF -f '$key_file'"
check "no process has the key on its command line" bash -c "! grep -qaF -f '$key_file' /proc/[0-9]*/cmdline"

# --- Another user on the machine reaches the port, but not the list
if [[ $(id -u) -eq 0 ]]; then
  as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  check "another uid reaching the port gets 401" is "$(as_nobody curl -s -o /dev/null -w '%{http_code}' "$page/")" 401
  check "…and cannot read the key" bash -c "! setpriv --reuid=65534 --regid=65534 --clear-groups cat '$HOME/.local/state/todod-web/token' 2>/dev/null"
  wrong_key=$(mktemp /tmp/todod-web-test-key.XXXXXX)
  printf '%064d\n' 0 >"$wrong_key" && chmod 644 "$wrong_key"
  check "…and its WebSocket with a key of its own is closed at once (4401)" \
    is "$(as_nobody /usr/bin/python3 "$stage/Tests/systemd/tab.py" "$port" "$wrong_key" 2>&1)" \
    "close 4401 this page needs its key: open it with todoctl web"
  rm -f "$wrong_key"

  # A keyless flood from that uid (Tests/web/flood.py): the unit's sandbox
  # must still let todod-web tell whose connections are whose.
  mkfifo "$HOME/flood.in"
  as_nobody /usr/bin/python3 -c "$(cat "$stage/Tests/web/flood.py")" "$port" 300 2 <"$HOME/flood.in" >"$HOME/flood.out" 2>&1 &
  flood=$!
  exec 7>"$HOME/flood.in"
  check "another uid floods the port with connections that send no head" eventually grep -q '^ready' "$HOME/flood.out"
  check "…and the owner is served meanwhile" is "$(code -b "todod-web=$key" "$page/session")" 204
  check "…and the owner's tab is greeted" greeted
  echo stop >&7
  exec 7>&-
  wait "$flood"
  check "…and todod-web closed every connection of the flood's that never sent a head" \
    grep -q '"first_wave": 302, "first_wave_closed": 302' "$HOME/flood.out"
  turned_away() { is "$(journalctl --user-unit todod-web.service --no-pager -o cat 2>/dev/null | grep -c "another user's connections are turned away")" 1; }
  check "…and the journal said so once" eventually turned_away
fi

# --- todod down: the tab is told, not left blank
systemctl --user stop todod.socket todod.service
check "with todod down a tab is closed with 4001 \"todod is not running\"" is "$(tab)" "close 4001 todod is not running"
systemctl --user start todod.socket

# --- Stopping and starting again
systemctl --user stop todod-web.service
check "todod-web stops cleanly (exit 0)" is "$(property todod-web.service ExecMainStatus)" 0
check "the socket keeps listening" is "$(property todod-web.socket ActiveState)" active
check "the next connection starts it again" greeted

# --- Sandbox
check_exposure todod-web.service 2.5

finish
