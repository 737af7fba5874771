#!/usr/bin/env bash
# SIGKILL `chive sql` at random moments during INSERT INTO and INSERT
# OVERWRITE, with static and with dynamic partitions, until 50 statements
# were killed while running.  After each
# kill the table must read exactly as before the statement or exactly as
# after it, as a model of the table kept here computes them; the read is
# the next chive process, which first finishes or undoes what the kill left.
#
#   kill_insert.sh CHIVE [SEED]
set -u
chive=$1
seed=${2:-$(date +%s)}
echo "# seed $seed (pass it as the second argument to repeat)"
RANDOM=$seed
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wh=$tmp/wh
model=$tmp/model      # one file of csv rows per partition
mkdir -p "$model"
pass=0 fail=0 killed=0 after_seen=0

table_digest() {
  "$chive" sql --warehouse "$wh" --format csv -e 'SELECT * FROM t;' | tr -d '\r' | sort | md5sum | cut -c1-32
}
model_digest() { # folder -> digest of the rows it holds, as chive prints them
  { echo "id,s,dt"; cat "$1"/* 2> /dev/null; } | sort | md5sum | cut -c1-32
}

"$chive" sql --warehouse "$wh" -e "CREATE TABLE t (id int, s string) PARTITIONED BY (dt string);" > /dev/null || exit 1

# Statement i inserts 300 rows; kind = i % 4: INTO static, OVERWRITE static,
# INTO dynamic, OVERWRITE dynamic.  Writes the statement to $tmp/stmt and
# the model after it to $tmp/next.
plan() {
  local i=$1 kind=$(( $1 % 4 )) rows="" r id dt
  rm -rf "$tmp/next" "$tmp/new"
  cp -a "$model" "$tmp/next"
  mkdir -p "$tmp/new"
  for r in $(seq 0 299); do
    id=$(( i * 1000 + r ))
    if [ $kind -lt 2 ]; then
      dt=d$(( i % 3 ))
      rows="$rows($id, 'v$r'),"
    else
      dt=d$(( (i + r) % 3 ))
      rows="$rows($id, 'v$r', '$dt'),"
    fi
    echo "$id,v$r,$dt" >> "$tmp/new/$dt"
  done
  rows=${rows%,}
  for f in "$tmp/new"/*; do
    p=$(basename "$f")
    if [ $kind = 1 ] || [ $kind = 3 ]; then cp "$f" "$tmp/next/$p"; else cat "$f" >> "$tmp/next/$p"; fi
  done
  case $kind in
    0) echo "INSERT INTO t PARTITION (dt='d$(( i % 3 ))') VALUES $rows;" ;;
    1) echo "INSERT OVERWRITE TABLE t PARTITION (dt='d$(( i % 3 ))') VALUES $rows;" ;;
    2) echo "INSERT INTO t PARTITION (dt) VALUES $rows;" ;;
    3) echo "INSERT OVERWRITE TABLE t PARTITION (dt) VALUES $rows;" ;;
  esac > "$tmp/stmt"
}

# Calibration: statement 0 runs to the end, timed, so that kills can be
# spread over a statement's whole run on this machine and build; the window
# narrows whenever a statement ends before its kill.
plan 0
t0=$(date +%s%N)
"$chive" sql --warehouse "$wh" -f "$tmp/stmt" > /dev/null || exit 1
span=$(( ($(date +%s%N) - t0) / 1000000 + 1 ))
rm -rf "$model"; mv "$tmp/next" "$model"
echo "# one statement takes about $span ms; kills land within that"

# Statements run until 50 of them were killed while running (150 at most).
i=0
while [ $killed -lt 50 ] && [ $i -lt 150 ]; do
  i=$((i + 1))
  plan "$i"
  before=$(model_digest "$model")
  after=$(model_digest "$tmp/next")
  "$chive" sql --warehouse "$wh" -f "$tmp/stmt" > /dev/null 2>&1 &
  pid=$!
  ms=$(( RANDOM % span ))
  sleep "$(( ms / 1000 )).$(printf '%03d' $(( ms % 1000 )))"
  # A statement that finished first narrows the window (the machine may be
  # busier or idler than when it was timed).
  if kill -9 "$pid" 2> /dev/null; then
    killed=$((killed + 1))
  else
    span=$(( span * 3 / 4 + 1 ))
  fi
  wait "$pid" 2> /dev/null
  now=$(table_digest)
  if [ "$now" = "$after" ]; then
    pass=$((pass + 1)); after_seen=$((after_seen + 1))
    rm -rf "$model"; mv "$tmp/next" "$model"
  elif [ "$now" = "$before" ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "not ok - statement $i (kind $(( i % 4 ))): the table reads neither as before nor as after it"
  fi
done
# The next writer recovers what the last kill left; the table reads the same.
last=$(table_digest)
"$chive" sql --warehouse "$wh" -e "INSERT INTO t PARTITION (dt='z') VALUES (1, 'x'); TRUNCATE TABLE t PARTITION (dt='z');" > /dev/null
[ "$(table_digest)" = "$last" ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "not ok - recovery changed the table"; }
left=$(find "$wh" -name '.staging_*' | wc -l)
[ "$left" = 0 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "not ok - $left staging folders left"; }
echo "# $killed of $i statements killed while running; $after_seen found complete"
echo "kill_insert: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$killed" -ge 50 ]
