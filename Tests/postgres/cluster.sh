# shellcheck shell=bash
# A throwaway PostgreSQL cluster for shell-script tests: the shell twin of
# Tests/PostgresTestSupport/PostgresCluster.swift, with the same rules. Source it, then:
#
#   pg_cluster_start DIR       initdb in DIR/data and start the server. DIR is made if
#                              missing; as root it must be reachable by `postgres` (under
#                              /tmp, say). Sets PG_PORT, PG_SOCKET_DIR, PG_USER (todod),
#                              PG_PASSWORD (random) and PG_PASSFILE (a pgpass file, 0600).
#   pg_cluster_createdb NAME   a database owned by $PG_USER
#   pg_cluster_psql SQL [DB]   SQL as the superuser over the socket; prints rows only,
#                              unaligned; statements run one by one, the first error stops it
#   pg_cluster_stop            stops the server (fast, else immediate); DIR stays, yours to delete
#   pg_cluster_restart [COMMAND...]  stops it (fast), runs COMMAND while it is down (what
#                              the test waits for), starts it again, same port and settings:
#                              clients see the server go away
#
# Other hosts (set before pg_cluster_start; unset: the server listens on 127.0.0.1 only):
#
#   PG_CLUSTER_NETNS=NAME      the server runs in network namespace NAME (`ip netns exec`, so
#                              root only); its socket directory is in the file system as usual
#   PG_CLUSTER_LISTEN="ADDR…"  IPv4 addresses it listens on as well as 127.0.0.1; PG_PASSFILE
#                              gets a line for each
#   PG_CLUSTER_CLIENTS="NET…"  networks (CIDR, e.g. 10.77.0.0/16) whose clients may log in as
#                              PG_USER with the password, as from 127.0.0.1
#
# Nothing is exported: give clients PGPASSFILE="$PG_PASSFILE" yourself. The role
# needs its password on the socket as over TCP; the superuser is trusted on the
# socket. fsync and synchronous_commit stay on: todod promises durability.

# Runs a command in the cluster's folder, without the caller's exported PG…
# variables (they must not point it at another server), messages in English.
_pg_run() {
  (
    cd "$_PG_DIR" || exit
    for name in $(compgen -e PG); do unset "$name"; done
    export LC_ALL=C PGCONNECT_TIMEOUT=10
    "$@"
  )
}

# PostgreSQL refuses to run as root: then the server's programs run as `postgres`
# (setpriv, not runuser: no PAM session around a long-lived server).
# In PG_CLUSTER_NETNS, if one was given to pg_cluster_start: `ip netns exec` first
# (it needs root), then the change of user.
_pg_as_server() {
  local netns=()
  [[ -z ${_PG_NETNS:-} ]] || netns=(ip netns exec "$_PG_NETNS")
  if ((EUID == 0)); then
    _pg_run "${netns[@]}" setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"
  else
    _pg_run "${netns[@]}" "$@"
  fi
}

_pg_ctl() { _pg_as_server "$_PG_BIN/pg_ctl" "$@" -D "$_PG_DIR/data" -w -t 60; }

pg_cluster_start() {
  local dir=${1:?usage: pg_cluster_start DIR}
  # Debian keeps each version's server in /usr/lib/postgresql/VERSION/bin: the newest.
  local initdb
  initdb=$(ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  _PG_BIN=${initdb%/initdb}
  [[ -n $initdb ]] || _PG_BIN=$(pg_config --bindir 2>/dev/null)
  if [[ ! -x $_PG_BIN/initdb ]]; then
    echo "pg_cluster_start: PostgreSQL's server is not installed (apt-get install postgresql)" >&2
    return 1
  fi
  mkdir -p "$dir/socket" && chmod 0755 "$dir" "$dir/socket" || return
  _PG_DIR=$(cd "$dir" && pwd)
  if ((EUID == 0)); then _PG_SUPERUSER=postgres; else _PG_SUPERUSER=$(id -un); fi
  ((EUID == 0)) && { chown postgres: "$_PG_DIR" "$_PG_DIR/socket" || return; }
  # Read once, here: later calls (stop, restart) use the same namespace.
  _PG_NETNS=${PG_CLUSTER_NETNS:-}
  local listen=127.0.0.1 address network
  for address in ${PG_CLUSTER_LISTEN:-}; do listen+=",$address"; done
  PG_SOCKET_DIR=$_PG_DIR/socket
  PG_USER=todod
  PG_PASSWORD=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
  PG_PASSFILE=$_PG_DIR/pgpass

  _pg_as_server "$_PG_BIN/initdb" -D "$_PG_DIR/data" -U "$_PG_SUPERUSER" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C --no-sync --no-instructions >/dev/null || return
  local data=$_PG_DIR/data log=$_PG_DIR/server.log
  # The role's line first: the first match wins.
  printf '%s\n' "local all $PG_USER scram-sha-256" "local all all trust" \
    "host all all 127.0.0.1/32 scram-sha-256" >"$data/pg_hba.conf"
  for network in ${PG_CLUSTER_CLIENTS:-}; do
    printf '%s\n' "host all $PG_USER $network scram-sha-256" >>"$data/pg_hba.conf"
  done
  cp "$data/postgresql.conf" "$data/postgresql.conf.initdb"

  # A random port; another one if something already listens there.
  local attempt logged
  for attempt in 1 2 3 4 5; do
    PG_PORT=$((20000 + RANDOM % 12000))
    {
      cat "$data/postgresql.conf.initdb"
      printf '%s\n' "listen_addresses = '$listen'" "port = $PG_PORT" \
        "unix_socket_directories = '$PG_SOCKET_DIR'" "max_connections = 100" "ssl = off" \
        "fsync = on" "synchronous_commit = on" "logging_collector = off"
    } >"$data/postgresql.conf"
    ((EUID == 0)) && chown postgres: "$data/postgresql.conf" "$data/pg_hba.conf"
    logged=$(stat -c %s "$log" 2>/dev/null || echo 0)
    _pg_ctl start -l "$log" >/dev/null && break
    if ((attempt == 5)) || ! tail -c +$((logged + 1)) "$log" | grep -q 'Address already in use'; then
      echo "pg_cluster_start: PostgreSQL did not start; end of $log:" >&2
      tail -n 25 "$log" >&2
      return 1
    fi
  done

  pg_cluster_psql "CREATE ROLE $PG_USER LOGIN PASSWORD '$PG_PASSWORD'" >/dev/null || return
  # libpq's format: host:port:database:user:password, the socket directory as the
  # host, with \ and : escaped.
  local socket_host=${PG_SOCKET_DIR//\\/\\\\}
  socket_host=${socket_host//:/\\:}
  (umask 077 && printf '%s\n' "$socket_host:$PG_PORT:*:$PG_USER:$PG_PASSWORD" \
    "127.0.0.1:$PG_PORT:*:$PG_USER:$PG_PASSWORD" "localhost:$PG_PORT:*:$PG_USER:$PG_PASSWORD" >"$PG_PASSFILE")
  for address in ${PG_CLUSTER_LISTEN:-}; do
    printf '%s\n' "$address:$PG_PORT:*:$PG_USER:$PG_PASSWORD" >>"$PG_PASSFILE"
  done
}

pg_cluster_createdb() {
  local name=${1:?usage: pg_cluster_createdb NAME}
  pg_cluster_psql "CREATE DATABASE \"${name//\"/\"\"}\" OWNER $PG_USER" >/dev/null
}

# Clients such as psql run as whoever runs the tests: the superuser is trusted on the socket.
pg_cluster_psql() {
  local sql=${1:?usage: pg_cluster_psql SQL [DB]}
  _pg_run "$_PG_BIN/psql" -X -q -A -t -w -v ON_ERROR_STOP=1 -h "$PG_SOCKET_DIR" -p "$PG_PORT" \
    -U "$_PG_SUPERUSER" -d "${2:-postgres}" -f - <<<"$sql"
}

pg_cluster_stop() {
  _pg_ctl stop -m fast >/dev/null 2>&1 || _pg_ctl stop -m immediate >/dev/null
}

# Not `pg_ctl restart`, whose outage is too short to be sure a client sees it:
# stop, run COMMAND (what the test waits for while the server is down), start,
# in the same namespace, with the same port and settings. The server starts
# again even when COMMAND fails; its status is returned then.
pg_cluster_restart() {
  local down=0
  _pg_ctl stop -m fast >/dev/null || return
  if [[ $# -gt 0 ]]; then "$@" || down=$?; fi
  _pg_ctl start -l "$_PG_DIR/server.log" >/dev/null || {
    echo "pg_cluster_restart: PostgreSQL did not start again; end of $_PG_DIR/server.log:" >&2
    tail -n 25 "$_PG_DIR/server.log" >&2
    return 1
  }
  return "$down"
}
