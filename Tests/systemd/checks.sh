# Helpers shared by the systemd test scripts (sourced, not run).
# Each check prints one line; the script ends with "systemd: N passed, N failed".
export PATH="$HOME/.local/bin:$PATH"
passed=0 failed=0

check() {  # check DESCRIPTION COMMAND...
  local description="$1"; shift
  if "$@"; then passed=$((passed + 1)); echo "  ok   $description"
  else failed=$((failed + 1)); echo "  FAIL $description"; fi
}
property() { systemctl --user show -p "$2" --value "$1"; }
eventually() {  # eventually COMMAND...: true once COMMAND succeeds within 40 s
  for _ in $(seq 200); do "$@" && return 0; sleep 0.2; done
  return 1
}
quiet() { "$@" >/dev/null 2>&1; }
is() { [[ "$1" == "$2" ]] || { echo "       expected '$2', got '$1'" >&2; return 1; }; }
status_is() { is "$(property todod.service StatusText)" "$1"; }
journal() { journalctl --user-unit todod.service --no-pager "$@" 2>/dev/null; }
# journal_has PATTERN: the journal, read anew on each call, has a line matching
# PATTERN (for `eventually`: a journal read once, before the line was
# written, would be searched again and again in vain).
journal_has() { journal -o cat | grep -q -- "$1"; }
json_field() {  # json_field FIELD: reads one JSON object on stdin
  python3 -c 'import json, sys; value = json.load(sys.stdin); [value := value[key] for key in sys.argv[1].split(".")]; print(value)' "$1"
}
at_most() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) <= float(sys.argv[2]) else 1)' "${1:-99}" "$2"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# unit_journal_has UNIT PATTERN: the unit's journal, read anew on each call, has a line matching PATTERN.
unit_journal_has() { journalctl --user-unit "$1" --no-pager -o cat 2>/dev/null | grep -q -- "$2"; }
# check_exposure UNIT LIMIT: systemd-analyze's overall exposure for UNIT, said, and checked to be at most LIMIT.
check_exposure() {
  local exposure
  exposure=$(systemd-analyze --user security "$1" --no-pager 2>&1 | tail -n 1 | grep -Eo '[0-9]+\.[0-9]+' | head -n 1)
  echo "  info $1 exposure: ${exposure:-unknown}"
  check "$1's exposure is at most $2" at_most "$exposure" "$2"
}
finish() {
  echo "systemd: $passed passed, $failed failed"
  [[ $failed -eq 0 ]]
}
