#!/usr/bin/env bash
# Inside a real user manager, as a normal user, with the todod package
# installed (run by Tests/package/run): what a person does after
# `apt install todod`.
set -uo pipefail
source "$(dirname "$0")/checks.sh"

check "systemctl --user enable --now todod.socket" quiet systemctl --user enable --now todod.socket
check "the socket is listening" is "$(property todod.socket ActiveState)" active
check "todoctl add starts todod through the socket" quiet /usr/bin/todoctl add buy milk +errands
check "todod runs from /usr/bin" is "$(property todod.service ExecMainStatus) $(property todod.service ActiveState)" "0 active"
check "todoctl ls shows the item" bash -c '/usr/bin/todoctl ls | grep -q "buy milk"'
check "man todoctl renders" bash -c 'man -P cat todoctl 2>/dev/null | grep -q "todoctl watch"'
check "man 1 todod renders" bash -c 'man -P cat 1 todod 2>/dev/null | grep -q -- "--reminder-hours"'
check "man 5 todod.conf lists the settings" bash -c 'man -P cat 5 todod.conf 2>/dev/null | grep -q "reminder-hours = hours"'
check "bash completes todoctl's commands" bash -c '
  source /usr/share/bash-completion/bash_completion
  __load_completion todoctl || exit 1
  function=$(complete -p todoctl | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
  COMP_WORDS=(todoctl wat); COMP_CWORD=1; COMP_LINE="todoctl wat"; COMP_POINT=${#COMP_LINE}
  "$function" todoctl wat todoctl
  [[ " ${COMPREPLY[*]} " == *" watch "* ]] || { echo "       completions: ${COMPREPLY[*]}" >&2; exit 1; }'
check "man 1 todod-web renders" bash -c 'man -P cat 1 todod-web 2>/dev/null | grep -q -- "--daemon-socket"'
# The page, on the port the package's socket unit names (8636)
check "systemctl --user enable --now todod-web.socket" quiet systemctl --user enable --now todod-web.socket
check "the page refuses a request without its key (401)" is "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8636/)" 401
check "todod-web runs from /usr/bin" is "$(property todod-web.service ExecMainStatus) $(property todod-web.service ActiveState)" "0 active"
check "the key todoctl web gives opens the page" bash -c '
  curl -s -o /dev/null -w "%{http_code}" -L -c /dev/null "$(/usr/bin/todoctl web --print-url)" | grep -qx 200'
# The sync, with the package alone, against a CalDAV server of the user's own
check "man 1 todod-sync renders" bash -c 'man -P cat 1 todod-sync 2>/dev/null | grep -q "CalDAV"'
server_dir="$HOME/radicale"
port=$(free_port)
mkdir -p "$server_dir"
printf 'me:s3cret-pass\n' >"$server_dir/users"
printf '[server]\nhosts = 127.0.0.1:%s\n[auth]\ntype = htpasswd\nhtpasswd_filename = %s/users\nhtpasswd_encryption = plain\n[storage]\nfilesystem_folder = %s/collections\n' \
  "$port" "$server_dir" "$server_dir" >"$server_dir/config"
/usr/bin/python3 -m radicale --config "$server_dir/config" >"$server_dir/log" 2>&1 &
radicale_pid=$!
trap 'kill "$radicale_pid" 2>/dev/null' EXIT
collection="http://127.0.0.1:$port/me/todo/"
check "Radicale answers" eventually quiet curl -s -o /dev/null -u me:s3cret-pass "http://127.0.0.1:$port/"
check "the collection is made" is "$(curl -s -o /dev/null -w '%{http_code}' -u me:s3cret-pass -X MKCALENDAR "$collection")" 201
printf 's3cret-pass\n' >"$HOME/password"
check "todoctl sync add works with the package alone" quiet /usr/bin/todoctl sync add "$collection" --user me --password-file "$HOME/password"
sync_runs() { [[ $(property todod-sync.service ActiveState) == active ]]; }
check "todod-sync.service runs" eventually sync_runs
check "... from /usr/bin" bash -c 'systemctl --user show -p ExecStart todod-sync.service | grep -q "path=/usr/bin/todod-sync "' 
on_server() {  # python3-caldav reads the collection, as a phone would
  CALDAV_URL="$collection" /usr/bin/python3 -c '
import caldav, os
calendar = caldav.DAVClient(os.environ["CALDAV_URL"], username="me", password="s3cret-pass").calendar(url=os.environ["CALDAV_URL"])
print([str(t.icalendar_component["summary"]) for t in calendar.todos()])' 2>/dev/null | grep -q "$1"
}
check "the item reached the server" eventually on_server "buy milk"
check "todoctl sync status says it runs" bash -c '/usr/bin/todoctl sync status | grep -q "service: running"'

check "stopping the page's units" quiet systemctl --user stop todod-web.service todod-web.socket
check "stopping leaves the list saved" quiet systemctl --user stop todod.service todod.socket
check "todod stopped cleanly (exit 0)" is "$(property todod.service Result) $(property todod.service ExecMainStatus)" "success 0"

# Before apt remove, as README's package section says: every user unit
# disabled (the package cannot reach the user's manager), no link left.
# shellcheck disable=SC2046  # one unit name a word
systemctl --user disable --now todod.socket todod.service todod-web.socket todod-web.service todod-notify.service \
  todod-sync.service $(systemctl --user list-units --all --plain --no-legend 'todod-sync@*' | cut -d' ' -f1) >/dev/null 2>&1
check "README's command disables every unit (no link left)" is "$(find "${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user" -type l 2>/dev/null | wc -l)" 0
finish
