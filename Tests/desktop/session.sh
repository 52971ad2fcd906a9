# A desktop session for the desktop tests (sourced, not run): a session bus,
# Xvfb with dunst, todod, `todoctl notify`, each in $work and stopped at the
# end; and the checks' helpers. Each check prints one line; the run ends with
# "desktop: N passed, N failed".
passed=0 failed=0
session_pids=()

check() {  # check DESCRIPTION COMMAND...
  local description="$1"; shift
  if "$@"; then passed=$((passed + 1)); echo "  ok   $description"
  else failed=$((failed + 1)); echo "  FAIL $description"; fi
}
eventually() {  # eventually COMMAND...: true once COMMAND succeeds within 30 s
  for _ in $(seq 150); do "$@" 2>/dev/null && return 0; sleep 0.2; done
  "$@"
}
quiet() { "$@" >/dev/null 2>&1; }
is() { [[ "$1" == "$2" ]] || { echo "       expected '$2', got '$1'" >&2; return 1; }; }
json_field() {  # json_field FIELD: reads one JSON object on stdin
  python3 -c 'import json, sys; value = json.load(sys.stdin); [value := value[key] for key in sys.argv[1].split(".")]; print(value)' "$1"
}
finish_checks() {
  echo "desktop: $passed passed, $failed failed"
  [[ $failed -eq 0 ]]
}

start_session() {  # start_session WORK BIN
  work=$1 bin=$2
  mkdir -p -m 0700 "$work/run" "$work/run/todod" "$work/home"
  export HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_CONFIG_HOME="$work/home/.config"
  export TODOD_SOCKET="$work/run/todod/todod.sock"
  export DBUS_SESSION_BUS_ADDRESS="unix:path=$work/run/bus"
  unset DISPLAY
  display=90
  while [[ -e /tmp/.X11-unix/X$display || -e /tmp/.X$display-lock ]]; do display=$((display + 1)); done
  Xvfb ":$display" -screen 0 800x600x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
  session_pids+=($!)
  for _ in $(seq 100); do [[ -e /tmp/.X11-unix/X$display ]] && break; sleep 0.1; done
  : >"$work/todod.conf"
  start_todod
}

stop_session() {
  local index
  for ((index = ${#session_pids[@]} - 1; index >= 0; index--)); do kill "${session_pids[index]}" 2>/dev/null || true; done
  [[ -f "$work/todod.pid" ]] && kill "$(cat "$work/todod.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
}

todoctl() { "$bin/todoctl" "$@"; }

start_todod() {
  "$bin/todod" --socket "$TODOD_SOCKET" --data-dir "$work/data" --config "$work/todod.conf" >>"$work/todod.log" 2>&1 &
  echo $! >"$work/todod.pid"
  for _ in $(seq 100); do [[ -S "$TODOD_SOCKET" ]] && return 0; sleep 0.1; done
  echo "todod did not start" >&2; return 1
}

stop_bus() {  # the bus and the notification server on it go away
  kill "$dunst_pid" "$bus_pid"
  wait "$dunst_pid" "$bus_pid" 2>/dev/null || true
}

restart_todod() {
  local pid
  pid=$(cat "$work/todod.pid")
  kill "$pid" && while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  start_todod
}

start_notify() {
  "$bin/todoctl" notify >"$work/notify.log" 2>&1 &
  session_pids+=($!)
}

# A session bus that starts no services on demand: the standard session
# configuration would start dunst (installed here) for the first Notify, and
# "no notification server yet" would not be tested.
start_bus() {
  rm -f "$work/run/bus"
  cat >"$work/bus.conf" <<'CONF'
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
  dbus-daemon --config-file="$work/bus.conf" --address="$DBUS_SESSION_BUS_ADDRESS" --nofork --nopidfile >>"$work/bus.log" 2>&1 &
  bus_pid=$!
  session_pids+=($!)
  for _ in $(seq 100); do [[ -S "$work/run/bus" ]] && break; sleep 0.1; done
  dbus-monitor --address "$DBUS_SESSION_BUS_ADDRESS" "interface='org.freedesktop.Notifications'" >>"$work/monitor.log" 2>&1 &
  session_pids+=($!)
}

# dunst's context menu runs its "dmenu" with one line per button; this one
# picks the button named in $work/pick-label, as a person would.
start_dunst() {
  cat >"$work/pick" <<PICK
#!/bin/sh
grep -m1 -F "#\$(cat '$work/pick-label') ("
PICK
  chmod +x "$work/pick"
  cat >"$work/dunstrc" <<DUNSTRC
[global]
    font = DejaVu Sans Mono 11
    width = 520
    origin = top-right
    offset = 16x16
    format = "<b>%a</b> · %s\n%b"
    dmenu = $work/pick
DUNSTRC
  DISPLAY=":$display" dunst -conf "$work/dunstrc" >>"$work/dunst.log" 2>&1 &
  dunst_pid=$!
  session_pids+=($!)
}

press() {  # press LABEL: the button, through dunst's context menu
  echo "$1" >"$work/pick-label"
  dunstctl context
}

notified() { grep -qF "string \"$1\"" "$work/monitor.log"; }  # a string some Notify call carried
displayed() { is "$(dunstctl count displayed)" "$1"; }

desktop_titles() {
  todoctl ls --json | python3 -c 'import json, sys; print(",".join(r["summary"] for r in json.load(sys.stdin)["properties"]["desktopReminders"]))'
}

desktop_is() { is "$(desktop_titles)" "$1"; }

item_done() {  # item_done ID True|False
  is "$(todoctl ls --json | python3 -c 'import json, sys; print(next(r["done"] for r in json.load(sys.stdin)["rows"] if r["id"] == int(sys.argv[1])))' "$1")" "$2"
}

screenshot() {  # screenshot FILE.png (and FILE.ppm beside it)
  xwd -root -display ":$display" | xwdtopnm 2>/dev/null >"${1%.png}.ppm"
  pnmtopng <"${1%.png}.ppm" >"$1" 2>/dev/null
}

# Something is drawn in the top right quarter, where dunst puts its window.
lit_top_right() {
  python3 - "${1%.png}.ppm" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
fields, at = [], 0
while len(fields) < 4:
    while data[at:at + 1].isspace(): at += 1
    start = at
    while not data[at:at + 1].isspace(): at += 1
    fields.append(data[start:at])
magic, width, height, _ = fields[0], int(fields[1]), int(fields[2]), fields[3]
pixels = data[at + 1:]
lit = sum(1 for y in range(height // 2) for x in range(width // 2, width)
          if max(pixels[(y * width + x) * 3:(y * width + x) * 3 + 3]) > 64)
print(f"       {lit} lit pixels", file=sys.stderr)
sys.exit(0 if magic == b"P6" and lit > 500 else 1)
PY
}
