#!/usr/bin/env bash
# Fingerprint of a warehouse for the error-path golden tests: every file and
# folder (path and size) and the metastore's rows (SQLite's logical dump,
# without the id counters).  "save" keeps it in ./snapshot; "check" says
# whether the warehouse still matches it, or shows how it differs.
# usage: snapshot.sh save|check   ($WH names the warehouse)
set -u
take() {
  (cd "$WH" && find . -path ./.chive_metastore.db-wal -prune -o \
     -path ./.chive_metastore.db-shm -prune -o \
     -path ./.chive_metastore.db -prune -o -printf '%p %s\n' | sort)
  sqlite3 "$WH/.chive_metastore.db" .dump | grep -v 'sqlite_sequence'
}
case "${1:-}" in
save) take > snapshot ;;
check)
  if take | cmp -s - snapshot; then
    echo "(warehouse and metastore unchanged)"
  else
    echo "(warehouse or metastore CHANGED:)"
    take | diff snapshot - | head -20
  fi ;;
*) echo "usage: snapshot.sh save|check" >&2; exit 2 ;;
esac
