#!/usr/bin/env bash
# Inside a real user manager (run by Tests/desktop/under-systemd): install
# todod and todod-notify.service with scripts/install, start a session bus
# (the manager's dbus.socket if Debian's dbus-user-session provides one),
# Xvfb and dunst, enable the service as the README says, and check that an
# overdue item arrives on screen and that Done is carried out.
set -uo pipefail
stage="$1"
source "$stage/Tests/desktop/session.sh"
work=$(mktemp -d "$XDG_RUNTIME_DIR/desktop.XXXXXX")
bin="$HOME/.local/bin"

"$stage/scripts/install" --from "$stage/bin" >/dev/null 2>&1
unit_dir="$XDG_CONFIG_HOME/systemd/user"
check "scripts/install put todod-notify.service beside todod's units" test -f "$unit_dir/todod-notify.service"
check "systemd-analyze --user verify accepts it" systemd-analyze --user verify "$unit_dir/todod-notify.service"

export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
systemctl --user start dbus.socket >/dev/null 2>&1
if [[ -S "$XDG_RUNTIME_DIR/bus" ]]; then
  echo "  info session bus: the manager's dbus.socket"
else
  echo "  info session bus: a dbus-daemon of the test's (no dbus.socket here)"
  dbus-daemon --session --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >"$work/bus.log" 2>&1 &
  session_pids+=($!)
  for _ in $(seq 100); do [[ -S "$XDG_RUNTIME_DIR/bus" ]] && break; sleep 0.1; done
fi
dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" "interface='org.freedesktop.Notifications'" >"$work/monitor.log" 2>&1 &
session_pids+=($!)
display=90
while [[ -e /tmp/.X11-unix/X$display || -e /tmp/.X$display-lock ]]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 800x600x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
session_pids+=($!)
for _ in $(seq 100); do [[ -e /tmp/.X11-unix/X$display ]] && break; sleep 0.1; done
start_dunst
trap stop_session EXIT

check "systemctl --user enable --now todod-notify.service" quiet systemctl --user enable --now todod-notify.service
check "it is active" eventually is "$(systemctl --user show -p ActiveState --value todod-notify.service)" active
check "todoctl add (todod starts through its socket)" quiet todoctl add pay rent pro:home due:yesterday
check "the reminder arrives on screen" eventually displayed 1
check "…sent by the service as todod" notified todod
check "the journal names the notification server" \
  eventually bash -c "journalctl --user-unit todod-notify.service --no-pager | grep -q 'showing reminders through dunst'"
press Done
check "Done: the item is done" eventually item_done 1 True
check "…said in the service's journal" \
  eventually bash -c "journalctl --user-unit todod-notify.service --no-pager | grep -q 'done: “pay rent”'"
check "no libdispatch line about thread priorities (LIBDISPATCH_LOG=NO)" \
  bash -c "! journalctl --user-unit todod-notify.service --no-pager | grep -q 'set thread priority'"
echo "  info todod-notify.service: $(systemd-analyze --user security todod-notify.service --no-pager 2>/dev/null | tail -1)"
echo "  info todod.service: $(systemd-analyze --user security todod.service --no-pager 2>/dev/null | tail -1)"
exposure=$(systemd-analyze --user security todod-notify.service --no-pager 2>/dev/null | tail -1 | grep -Eo '[0-9]+\.[0-9]+' | head -1)
check "its exposure is at most 2.0 (systemd-analyze --user security)" python3 -c "import sys; sys.exit(0 if float('${exposure:-99}') <= 2.0 else 1)"
systemctl --user disable --now todod-notify.service >/dev/null 2>&1
finish_checks
