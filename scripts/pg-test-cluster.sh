#!/usr/bin/env bash
# Runs a command with a private PostgreSQL cluster of its own:
#   scripts/pg-test-cluster.sh env EMERGO_TEST_BACKEND=postgres cargo test --workspace --test server
# Installs PostgreSQL from the OS packages (apt) when it is missing; creates the cluster with
# initdb in a temporary directory, as an unprivileged user (created when this runs as root:
# PostgreSQL refuses to run as root); starts it with pg_ctl on a free loopback port; runs the
# command with EMERGO_TEST_PG_URL naming it; stops the cluster and removes it at the end, however
# the command ends. Nothing depends on a server that happens to be running.
set -euo pipefail

PG_USER=emergo-pg

find_bindir() {
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    pg_config --bindir
    return
  fi
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ]; then
      echo "$dir"
      return
    fi
  done
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

BINDIR="$(find_bindir)"
if [ -z "$BINDIR" ]; then
  echo "pg-test-cluster: installing PostgreSQL (apt)" >&2
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  BINDIR="$(find_bindir)"
fi
if [ -z "$BINDIR" ]; then
  echo "pg-test-cluster: no initdb found after installing PostgreSQL" >&2
  exit 1
fi

# Who runs the server: this user, or an unprivileged one when this is root.
if [ "$(id -u)" = 0 ]; then
  if ! id "$PG_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$PG_USER"
  fi
  run_pg() { runuser -u "$PG_USER" -- "$@"; }
else
  run_pg() { "$@"; }
fi

# A free loopback port: the first from a random start that nobody answers on.
free_port() {
  local port=$((20000 + RANDOM % 20000)) i
  for i in $(seq 1 200); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
    port=$((port + 1))
  done
  return 1
}

DIR="$(mktemp -d "${TMPDIR:-/tmp}/emergo-pg.XXXXXX")"
chmod 755 "$DIR"
[ "$(id -u)" = 0 ] && chown "$PG_USER" "$DIR"
PORT="$(free_port)"

stop_cluster() {
  run_pg "$BINDIR/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop_cluster EXIT

run_pg "$BINDIR/initdb" -D "$DIR/data" -U emergo --auth=trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 || {
  cat "$DIR/initdb.log" >&2
  exit 1
}
# fsync off: the tests never pull the plug on the machine, and a clean stop writes everything.
run_pg "$BINDIR/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 start -o \
  "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" >/dev/null || {
  cat "$DIR/server.log" >&2
  exit 1
}

export EMERGO_TEST_PG_URL="postgres://emergo@127.0.0.1:$PORT/postgres"
export EMERGO_TEST_PG_DATA="$DIR/data" EMERGO_TEST_PG_BIN="$BINDIR"
echo "pg-test-cluster: PostgreSQL on 127.0.0.1:$PORT ($DIR)" >&2
"$@"
