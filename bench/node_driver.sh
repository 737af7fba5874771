#!/usr/bin/env bash
# What the benchmark wrappers share (lineitem.sh, narrow_insert.sh,
# tpch.sh): --build DIR or --chive PATH find chive (default build/chive),
# node must be there (else exit 77, skipped), and the driver NAME.js runs
# with chive's absolute path and the other arguments.
#
#   bench/node_driver.sh NAME [--build DIR | --chive PATH] [ARGS ...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
name=$1
shift
chive=
build=$root/build
args=()
while [ $# -gt 0 ]; do
  case "$1" in
  --build) build=$2; shift 2 ;;
  --chive) chive=$2; shift 2 ;;
  *) args+=("$1"); shift ;;
  esac
done
chive=${chive:-$build/chive}
[ -x "$chive" ] || { echo "$name: no chive at $chive (build it, or give --build DIR or --chive PATH)" >&2; exit 2; }
command -v node > /dev/null || { echo "SKIP: node is not installed"; exit 77; }
exec node "$root/bench/$name.js" --chive "$(cd "$(dirname "$chive")" && pwd)/$(basename "$chive")" "${args[@]}"
