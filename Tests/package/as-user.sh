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
check "stopping the page's units" quiet systemctl --user stop todod-web.service todod-web.socket
check "stopping leaves the list saved" quiet systemctl --user stop todod.service todod.socket
check "todod stopped cleanly (exit 0)" is "$(property todod.service Result) $(property todod.service ExecMainStatus)" "success 0"
finish
