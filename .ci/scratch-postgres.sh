# Sourced by .ci/run: a scratch PostgreSQL cluster for the whole run, thrown away at its end.
#
#   start_scratch_postgres   installs Debian's postgresql when its programs are missing, creates
#                            a cluster in a temp folder and starts it; sets PROMO_PG_URL
#   stop_scratch_postgres    stops it and removes the folder (meant for a trap on EXIT)
#
# The cluster: initdb --no-locale -E UTF8, so its default collation and ctype are C (promo's
# databases must order and fold text as SQLite does); trust authentication, reachable on a unix
# socket in its folder and on 127.0.0.1 at a free port only; fsync on, as in production.
# initdb refuses to run as root: as root, the cluster runs as the `postgres` user the Debian
# package creates.

SCRATCH_PG_DIR=""
SCRATCH_PG_BIN=""
SCRATCH_PG_AS=()

# The folder of initdb and pg_ctl: pg_config's bindir, else Debian's newest major version.
postgres_bindir() {
  local dir
  if dir=$(pg_config --bindir 2>/dev/null) && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
    echo "$dir"
    return 0
  fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then
      echo "$dir"
      return 0
    fi
  done
  return 1
}

install_postgres() {
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "ci: PostgreSQL's programs are missing: installing Debian's postgresql" >&2
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends postgresql
  # The package creates (and may start) a cluster of its own on port 5432; this run has its own,
  # so that one only costs memory.
  if command -v pg_lsclusters >/dev/null; then
    pg_lsclusters -h | while read -r version name _; do
      "${sudo[@]}" pg_dropcluster --stop "$version" "$name" || true
    done || true
  fi
}

free_port() {
  node -e "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })"
}

start_scratch_postgres() {
  local port started
  SCRATCH_PG_BIN=$(postgres_bindir) || { install_postgres; SCRATCH_PG_BIN=$(postgres_bindir); }
  SCRATCH_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/promo-ci-pg.XXXXXX")
  if [ "$(id -u)" -eq 0 ]; then
    chown postgres: "$SCRATCH_PG_DIR"
    SCRATCH_PG_AS=(runuser -u postgres --)
  fi
  port=$(free_port)
  started=$(date +%s%N)
  # --no-sync: initdb's own files need no flush in a cluster that lives for one run.
  "${SCRATCH_PG_AS[@]}" "$SCRATCH_PG_BIN/initdb" -D "$SCRATCH_PG_DIR/data" --no-locale -E UTF8 -U postgres \
    --auth=trust --no-sync >"$SCRATCH_PG_DIR/initdb.log"
  "${SCRATCH_PG_AS[@]}" "$SCRATCH_PG_BIN/pg_ctl" -D "$SCRATCH_PG_DIR/data" -l "$SCRATCH_PG_DIR/server.log" -w -t 120 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$SCRATCH_PG_DIR -c fsync=on -c shared_buffers=64MB -c max_connections=200" \
    start >/dev/null || { cat "$SCRATCH_PG_DIR/server.log" >&2; return 1; }
  PROMO_PG_URL="postgresql://postgres@127.0.0.1:$port/postgres"
  echo "ci: scratch $("$SCRATCH_PG_BIN/postgres" --version) on 127.0.0.1:$port in $SCRATCH_PG_DIR," \
    "initdb + start $(( ($(date +%s%N) - started) / 1000000 )) ms" >&2
}

stop_scratch_postgres() {
  [ -n "$SCRATCH_PG_DIR" ] || return 0
  if [ -f "$SCRATCH_PG_DIR/data/postmaster.pid" ]; then
    "${SCRATCH_PG_AS[@]}" "$SCRATCH_PG_BIN/pg_ctl" -D "$SCRATCH_PG_DIR/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$SCRATCH_PG_DIR"
  SCRATCH_PG_DIR=""
}
