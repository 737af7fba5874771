#!/usr/bin/env bash
# Hive's expected results: runs the cases of one FILE.hq (tests/sql/hive/)
# with `chive sql --format tsv` in Hive's dialect, on one warehouse for the
# file, and compares each result with the rows Hive's own tests print for
# it (the q.out file each .hq names).
#
# A case is a query (one statement, any number of lines), a line `----`,
# what is expected, and a line `====`:
#   ----          the rows, columns separated by a tab, NULL as NULL, in
#                 order (the header chive prints first is not compared)
#   ---- sorted   the same rows in any order (Hive's tests sort them)
#   ---- ok       no rows expected; the statement must succeed (set-up)
#   ---- error    one line follows: text chive's error message contains
# Lines starting with `#` outside a query are comments.
# usage: hive.sh CHIVE FILE.hq
set -u
chive=$1 file=$2
tmp=$(mktemp -d /tmp/chvhive.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
name=$(basename "$file")
state=query lineno=0 start=0 cases=0 failed=0
: > "$tmp/q"; : > "$tmp/want"

fail() {
  failed=$((failed + 1))
  {
    echo "FAIL $name:$start: $1"
    sed 's/^/  query: /' "$tmp/q"
    if [ -s "$tmp/want" ]; then sed 's/^/  want:  /' "$tmp/want"; fi
    sed 's/^/  got:   /' "$tmp/got"
  } >&2
}

run_case() {
  cases=$((cases + 1))
  "$chive" sql --warehouse "$tmp/wh" --format tsv \
    -e "SET table.sql-dialect=hive; $(cat "$tmp/q")" > "$tmp/out" 2> "$tmp/err"
  local rc=$?
  case "$mode" in
  error)
    cat "$tmp/out" "$tmp/err" > "$tmp/got"
    if [ $rc -eq 0 ] || ! grep -qF -- "$(cat "$tmp/want")" "$tmp/err"; then
      fail "expected an error containing the wanted text"
    fi
    return ;;
  esac
  if [ $rc -ne 0 ]; then
    cat "$tmp/err" > "$tmp/got"
    fail "exit $rc"
    return
  fi
  [ "$mode" = ok ] && return
  # chive's tsv escapes \\, tab, newline and CR; Hive prints them raw
  tail -n +2 "$tmp/out" |
    sed -e 's/\\\\/\x01/g' -e 's/\\t/\t/g' -e 's/\\n/\n/g' -e 's/\\r/\r/g' \
        -e 's/\x01/\\/g' > "$tmp/got"
  if [ "$mode" = sorted ]; then
    LC_ALL=C sort "$tmp/got" -o "$tmp/got"
    LC_ALL=C sort "$tmp/want" -o "$tmp/want"
  fi
  cmp -s "$tmp/want" "$tmp/got" || fail "rows differ"
}

while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  case "$state" in
  query)
    case "$line" in
    "----"*)
      mode=${line#----}; mode=${mode# }; mode=${mode:-rows}
      case "$mode" in rows|sorted|ok|error) ;;
      *) echo "$name:$lineno: unknown expectation '$line'" >&2; exit 2 ;;
      esac
      state=want ;;
    "#"*) ;;
    *)
      if [ ! -s "$tmp/q" ]; then
        case "$line" in *[![:space:]]*) start=$lineno ;; *) continue ;; esac
      fi
      printf '%s\n' "$line" >> "$tmp/q" ;;
    esac ;;
  want)
    if [ "$line" = "====" ]; then
      run_case
      : > "$tmp/q"; : > "$tmp/want"; state=query
    else
      printf '%s\n' "$line" >> "$tmp/want"
    fi ;;
  esac
done < "$file"
if [ "$state" != query ] || [ -s "$tmp/q" ]; then
  echo "$name:$start: case without its closing ====" >&2
  exit 2
fi
echo "$name: $((cases - failed)) of $cases cases give Hive's results"
[ $failed -eq 0 ]
