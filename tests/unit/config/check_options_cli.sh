#!/bin/sh
# End-to-end check of `chive options`: the JSON listing holds every option of
# research §1 (research_keys.tsv) with Flink's key, type and default, and
# `--check` prints valid values parsed and rejects invalid ones with the
# key, the value and the rule, with the documented exit statuses.
#
# usage: check_options_cli.sh <chive binary> <research_keys.tsv>
set -u
chive=$1
keys=$2
tmp=${TMPDIR:-/tmp}/chv-options-cli.$$
trap 'rm -f "$tmp".*' EXIT

fail() {
  echo "check_options_cli: $*" >&2
  exit 1
}

command -v python3 >/dev/null 2>&1 || {
  echo "check_options_cli: python3 not found, skipped"
  exit 77
}

"$chive" options --format json >"$tmp.json" ||
  fail "'chive options --format json' failed"

python3 - "$chive" "$keys" "$tmp.json" <<'PY' || fail "the JSON listing does not match research section 1"
import json, subprocess, sys

chive, keys_path, json_path = sys.argv[1:4]
options = {o["key"]: o for o in json.load(open(json_path))}
bad = []
by_value = []  # (key, research default, chive default) compared parsed
for line in open(keys_path):
    if line.startswith("#") or not line.strip():
        continue
    key, typ, default = line.rstrip("\n").split("\t")
    o = options.get(key)
    if o is None:
        bad.append("missing option %s" % key)
        continue
    if o["type"] != typ:
        bad.append("%s: type %s, research says %s" % (key, o["type"], typ))
    if default == "none":
        if o["default"] is not None:
            bad.append("%s: default %r, research says none" % (key, o["default"]))
    elif o["default"] is None:
        bad.append("%s: no default, research says %r" % (key, default))
    elif typ in ("Duration", "MemorySize"):
        by_value.append((key, default, o["default"]))
    elif o["default"] != default:
        bad.append("%s: default %r, research says %r" % (key, o["default"], default))

def parsed(pairs):
    out = subprocess.run([chive, "options", "--check"] +
                         ["%s=%s" % p for p in pairs],
                         capture_output=True, text=True)
    if out.returncode != 0:
        bad.append("--check failed: " + out.stderr.strip())
        return []
    return out.stdout.splitlines()

want = parsed([(k, r) for k, r, _ in by_value])
got = parsed([(k, c) for k, _, c in by_value])
for w, g in zip(want, got):
    if w != g:
        bad.append("default %s, research says %s" % (g, w))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY

# --check: valid values are printed parsed.
out=$("$chive" options --check 'streaming-source.monitor-interval=5 min' \
  table.exec.hive.split-max-size=256MB \
  streaming-source.consume-order=PARTITION_TIME \
  sink.partition-commit.policy.kind=metastore,success-file) ||
  fail "--check of valid values failed"
for line in 'streaming-source.monitor-interval = 300000 ms (5 min)' \
  'table.exec.hive.split-max-size = 268435456 bytes (256 mb)' \
  'streaming-source.partition-order = partition-time' \
  'sink.partition-commit.policy.kind = [metastore, success-file]'; do
  case $out in
  *"$line"*) ;;
  *) fail "--check output lacks '$line': $out" ;;
  esac
done

# An invalid value: status 1, the message names key, value and rule.
"$chive" options --check streaming-source.enable=true \
  'sink.partition-commit.trigger=sideways' >"$tmp.out" 2>"$tmp.err"
status=$?
[ "$status" -eq 1 ] || fail "invalid value: status $status, want 1"
grep -q "invalid value 'sideways' for option 'sink.partition-commit.trigger': expected one of 'process-time' or 'partition-time'" "$tmp.err" ||
  fail "invalid value: unexpected message: $(cat "$tmp.err")"
[ ! -s "$tmp.out" ] || fail "invalid value: printed values before failing"

# An unknown key: status 1 with a suggestion.
"$chive" options --check lookup.join.cache.tll=1h 2>"$tmp.err"
[ $? -eq 1 ] || fail "unknown key: want status 1"
grep -q "did you mean 'lookup.join.cache.ttl'" "$tmp.err" ||
  fail "unknown key: no suggestion: $(cat "$tmp.err")"

# Usage errors: status 2.
for args in "--check" "--check novalue" "--bogus" "--format xml" \
  "--scope nowhere" "--markdown --format json"; do
  # shellcheck disable=SC2086
  "$chive" options $args >/dev/null 2>&1
  status=$?
  [ "$status" -eq 2 ] || fail "'chive options $args': status $status, want 2"
done

# JSON output of --check parses.
"$chive" options --format json --check lookup.join.cache.ttl=2h |
  python3 -c 'import json,sys; v=json.load(sys.stdin); assert v[0]["parsed"]=="7200000 ms (2 h)", v' ||
  fail "--format json --check output is not the expected JSON"

# The scope filter.
"$chive" options --scope endpoint | grep -q '^sql-gateway.endpoint.hiveserver2.thrift.port ' ||
  fail "--scope endpoint does not list thrift.port"
echo "check_options_cli: ok"
