#!/usr/bin/env bash
# The TPC-H benchmark's own checks fail when they should.  A stand-in for
# chive runs the real one, except for the query it is told to spoil: it
# changes one digit of that query's first row (the last 0 of its first
# quoted value ending in 0: a wrong answer), fails as chive fails (an
# error), or hangs.  bench/tpch.sh at SF 0.01 must then report DIFF or
# ERROR and exit 1 (for an error, only when the query is expected to
# pass), kill the hanging one after --timeout, and exit 0 on the real
# chive's answers.  The runs share one generated data folder.
#
#   bench_tpch.sh CHIVE
set -u
chive=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v node > /dev/null || { echo "SKIP: node is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name, condition result (0 = holds)
  if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}

# The stand-in: SPOIL=diff:WORD changes the answer of a query whose text
# has WORD, SPOIL=error:WORD fails it, SPOIL=sleep:WORD hangs on it.
cat > "$tmp/chive" <<EOS
#!/usr/bin/env bash
text="\${@: -1}"
case "\${SPOIL:-}" in
diff:*) if [[ "\$text" == *"\${SPOIL#diff:}"* ]]; then
          "$chive" "\$@" | sed '1s/0"/1"/'
          exit "\${PIPESTATUS[0]}"
        fi ;;
error:*) if [[ "\$text" == *"\${SPOIL#error:}"* ]]; then
          echo "chive: line 1, column 1: spoiled on purpose" >&2; exit 1
        fi ;;
sleep:*) if [[ "\$text" == *"\${SPOIL#sleep:}"* ]]; then exec sleep 20; fi ;;
esac
exec "$chive" "\$@"
EOS
chmod +x "$tmp/chive"

run() { # expected exit, output pattern, SPOIL, tpch.sh arguments...
  local want=$1 pat=$2 spoil=$3; shift 3
  SPOIL=$spoil "$root/bench/tpch.sh" --chive "$tmp/chive" 0.01 --data "$tmp/data" --results-only "$@" \
    > "$tmp/out" 2>&1
  local rc=$?
  [ $rc -eq 77 ] && { cat "$tmp/out"; exit 77; }
  [ $rc -eq "$want" ] && grep -q -- "$pat" "$tmp/out"
  local ok=$?
  [ $ok -eq 0 ] || { echo "--- SPOIL=$spoil $* (exit $rc, wanted $want and /$pat/):"; cat "$tmp/out"; }
  return $ok
}

run 0 "results on 2 of 2 queries: Q1 Q6" "" --queries 1,6 --expect-pass 1,6
check "Q1 and Q6 give DuckDB's results" $?
run 1 "Q01 DIFF" "diff:l_returnflag" --queries 1,6 --threads 1
check "a changed digit of Q1 is a DIFF, and fails the run" $?
run 1 "Q06 ERROR (t=1): chive: line 1, column 1: spoiled on purpose" "error:l_quantity < 24" \
  --queries 1,6 --threads 1 --expect-pass 6
check "an error of an expected query shows chive's message and fails the run" $?
run 0 "Q06 ERROR" "error:l_quantity < 24" --queries 1,6 --threads 1 --expect-pass 1
check "an error of a query not expected to pass does not fail the run" $?
run 0 "passing beyond --expect-pass (widen the list): Q6" "" --queries 1,6 --threads 1 --expect-pass 1
check "a query passing beyond the list is named" $?
run 0 "Q06 ERROR (t=1): chive: killed after 2 s (--timeout)" "sleep:l_quantity < 24" \
  --queries 1,6 --threads 1 --timeout 2
check "a query running past --timeout is killed and shows ERROR" $?
run 2 "there is no query 23" "" --queries 23
check "an unknown query is a usage error" $?

echo "bench_tpch: $pass passed, $fail failed"
[ $fail -eq 0 ]
