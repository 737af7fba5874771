#!/usr/bin/env bash
# Golden test of `chive sql`: runs NAME.sql against a fresh warehouse and
# compares what it prints (stdout and stderr) with NAME.out.
#
# NAME.sql is cut into scripts, each run as `chive sql -f` on the same
# warehouse and followed in the output by "[exit N]":
#   -- format: F      (first line) output format for every run (default table)
#   -- run            ends a script (so a failing script can be followed by
#                     one showing that nothing changed)
#   -- sh: COMMAND    ends a script, then runs COMMAND with bash in the work
#                     folder, $WH naming the warehouse (partition folders,
#                     data files); its output is kept too
# The work folder's path, create times, the random ids of data file names,
# and what EXPLAIN ANALYZE measures that differs from run to run (times,
# reader threads, staging names) are masked in the output.
# usage: run.sh CHIVE DIR NAME [--update]
set -u
chive=$1 dir=$2 name=$3
tmp=$(mktemp -d /tmp/chvsql.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export WH="$tmp/wh" CHIVE="$chive" SQLDIR="$dir"
fmt=table
first=$(head -n 1 "$dir/$name.sql")
case "$first" in "-- format: "*) fmt=${first#-- format: } ;; esac
cd "$tmp" || exit 1
: > "$tmp/out"
: > "$tmp/chunk.sql"
flush() {
  if grep -q '[^[:space:]]' "$tmp/chunk.sql"; then
    "$chive" sql --warehouse "$WH" -f "$tmp/chunk.sql" --format "$fmt" \
      >> "$tmp/out" 2>&1
    echo "[exit $?]" >> "$tmp/out"
  fi
  : > "$tmp/chunk.sql"
}
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
  "-- format: "*) ;;
  "-- run") flush ;;
  "-- sh: "*)
    flush
    bash -c "${line#-- sh: }" >> "$tmp/out" 2>&1 ;;
  *) printf '%s\n' "$line" >> "$tmp/chunk.sql" ;;
  esac
done < "$dir/$name.sql"
flush
sed -e "s|$tmp|/tmp/chvsql.XXXXXX|g" \
    -e 's/part-[0-9a-f-]\{36\}-task/part-<id>-task/g' \
    -e '/transient_lastDdlTime/s/[0-9]\{10\}/##########/' \
    -e 's/time=[0-9][0-9.]* ms/time=# ms/g' -e 's/ threads=[0-9]*/ threads=#/g' \
    -e 's/\.staging_[0-9_]*/.staging_#/g' \
    "$tmp/out" > "$tmp/actual"
if [ "${4:-}" = --update ]; then
  cp "$tmp/actual" "$dir/$name.out"
  exit 0
fi
diff -u "$dir/$name.out" "$tmp/actual"
