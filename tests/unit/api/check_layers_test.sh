#!/bin/sh
# check_layers.sh can fail: small source trees, each breaking one rule (or
# none), and the real tree with and without its exceptions.
# usage: check_layers_test.sh <check_layers.sh> <source dir> [excepted file]...
set -eu
check=$1
real=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
n=0

# A tree that keeps every rule: modules common < sql/parse < sql/exec <
# sql/session, a public header, and the command line over it.
base() {
  rm -rf "$tmp/t"
  mkdir -p "$tmp/t/include/chive" "$tmp/t/src/common" "$tmp/t/src/sql/parse" \
    "$tmp/t/src/sql/exec" "$tmp/t/src/sql/session" "$tmp/t/src/cli"
  cd "$tmp/t"
  echo '/* public */' >include/chive/chive.h
  printf '#include "chive/chive.h"\n' >src/common/common.h
  printf '#include "common/common.h"\n#include <stdio.h>\n' >src/sql/parse/parse.h
  printf '#include "parse.h"\n' >src/sql/parse/parser.c
  printf '#include "sql/parse/parse.h"\n' >src/sql/exec/exec.h
  printf '#include "sql/exec/exec.h"\n#include "common/common.h"\n' \
    >src/sql/session/session.c
  printf '#include "chive/chive.h"\n' >src/cli/cli.h
  printf '#include "cli.h"\n#include <chive/chive.h>\n#include <stdio.h>\n' \
    >src/cli/main.c
  cd - >/dev/null
}

# expect STATUS TEXT [ARGS...]: check_layers.sh ARGS on the tree exits with
# STATUS and, when TEXT is not empty, prints TEXT.
expect() {
  want=$1
  text=$2
  shift 2
  n=$((n + 1))
  set +e
  out=$(sh "$check" "$@" 2>&1)
  got=$?
  set -e
  if [ "$got" -ne "$want" ]; then
    echo "case $n: exit $got, wanted $want:"
    echo "$out"
    failures=$((failures + 1))
  elif [ -n "$text" ] && ! printf '%s\n' "$out" | grep -qF -- "$text"; then
    echo "case $n: no \"$text\" in:"
    echo "$out"
    failures=$((failures + 1))
  fi
}

base
expect 0 "check_layers: ok (" "$tmp/t"

# 1. the command line reaching into src/
base
printf '#include "cli.h"\n#include "sql/exec/exec.h"\n' >"$tmp/t/src/cli/cmd_x.c"
expect 1 'src/cli/cmd_x.c:2: includes "sql/exec/exec.h" (src/sql/exec/exec.h)' \
  "$tmp/t"
base
printf '#include <common/common.h>\n' >"$tmp/t/src/cli/cmd_x.c"
expect 1 'src/cli/cmd_x.c:1: includes <common/common.h>' "$tmp/t"
base
printf '  #  include "../common/common.h"\n' >"$tmp/t/src/cli/cmd_x.c"
expect 1 'src/cli/cmd_x.c:1: includes "../common/common.h" (src/common/common.h)' \
  "$tmp/t"
base
printf '#include "cli/cli.h"\n' >"$tmp/t/src/cli/cmd_x.c"
expect 1 'src/cli/cmd_x.c:1: includes "cli/cli.h" through src/' "$tmp/t"
base
printf '#include "nowhere.h"\n' >"$tmp/t/src/cli/cmd_x.c"
expect 1 'src/cli/cmd_x.c:1: includes "nowhere.h", which is neither' "$tmp/t"
# a header of the command line reaching in counts as well
base
printf '#include "common/common.h"\n' >>"$tmp/t/src/cli/cli.h"
expect 1 'src/cli/cli.h:2: includes "common/common.h"' "$tmp/t"

# exceptions: let off, but only while needed, and only in src/cli/
base
printf '#include "cli.h"\n#include "sql/session/session.h"\n' \
  >"$tmp/t/src/cli/cmd_sql.c"
touch "$tmp/t/src/sql/session/session.h"
expect 1 'src/cli/cmd_sql.c:2' "$tmp/t"
expect 0 "let off: src/cli/cmd_sql.c" --except src/cli/cmd_sql.c "$tmp/t"
printf '#include "cli.h"\n' >"$tmp/t/src/cli/cmd_sql.c"
expect 1 "--except src/cli/cmd_sql.c: it includes no header under src/ any more" \
  --except src/cli/cmd_sql.c "$tmp/t"
expect 1 "--except src/cli/gone.c: no such file" --except src/cli/gone.c "$tmp/t"
expect 1 "--except src/sql/exec/exec.h: only files of src/cli/" \
  --except src/sql/exec/exec.h "$tmp/t"

# 2. nothing includes the command line
base
printf '#include "cli/cli.h"\n' >>"$tmp/t/src/sql/session/session.c"
expect 1 'src/sql/session/session.c:3: includes "cli/cli.h", a header of the command line' \
  "$tmp/t"

# 3. cycles: two modules, three modules, and one through a file's folder
base
printf '#include "sql/session/session.h"\n' >>"$tmp/t/src/sql/exec/exec.h"
touch "$tmp/t/src/sql/session/session.h"
expect 1 "an include cycle among modules: sql/exec -> sql/session -> sql/exec" \
  "$tmp/t"
expect 1 "sql/session -> sql/exec: src/sql/session/session.c:1" "$tmp/t"
base
printf '#include "sql/session/session.h"\n' >>"$tmp/t/src/sql/parse/parser.c"
touch "$tmp/t/src/sql/session/session.h"
expect 1 "sql/exec -> sql/parse -> sql/session -> sql/exec" "$tmp/t"
base
mkdir -p "$tmp/t/src/sql/plan"
printf '#include "../exec/exec.h"\n' >"$tmp/t/src/sql/plan/plan.h"
printf '#include "sql/plan/plan.h"\n' >>"$tmp/t/src/sql/parse/parse.h"
expect 1 "sql/exec -> sql/parse -> sql/plan -> sql/exec" "$tmp/t"
# includes inside one module, or of public headers, make no cycle
base
printf '#include "parse.h"\n' >"$tmp/t/src/sql/parse/lexer.h"
printf '#include "lexer.h"\n' >>"$tmp/t/src/sql/parse/parse.h"
printf '#include "chive/chive.h"\n' >>"$tmp/t/src/sql/parse/parse.h"
expect 0 "check_layers: ok (" "$tmp/t"

# the tree itself: clean with its exceptions, caught without them
ex=""
for f in "$@"; do ex="$ex --except $f"; done
# shellcheck disable=SC2086
expect 0 "check_layers: ok (" $ex "$real"
if [ -n "$ex" ]; then
  expect 1 "$1:" "$real"
fi

if [ "$failures" -ne 0 ]; then
  echo "check_layers_test: $failures of $n cases failed"
  exit 1
fi
echo "check_layers_test: ok ($n cases)"
