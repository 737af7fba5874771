#!/bin/sh
# chive dump of ORC files: rows as JSON Lines, --columns, --limit, --schema
# as a table schema (by position for _col files), empty and malformed files.
#   check_dump.sh CHIVE FIXTURES_DIR
chive=$1
fx=$2/orc
[ -d "$fx" ] || { echo "# the format fixtures were not found; skipped"; exit 77; }
fail=0
check() { # name expected actual
  if [ "$2" != "$3" ]; then
    printf 'FAIL %s\n--- expected\n%s\n--- got\n%s\n' "$1" "$2" "$3"
    fail=1
  fi
}
out=$("$chive" dump --limit 1 --columns string1,int1 "$fx/TestOrcFile.test1.orc")
check columns '{"string1":"hi","int1":65536}' "$out"
out=$("$chive" dump --limit 2 --schema 'id bigint, g string' "$fx/demo-12-zlib.orc")
check schema '{"id":1,"g":"M"}
{"id":2,"g":"F"}' "$out"
out=$("$chive" dump "$fx/TestOrcFile.testTimestamp.orc" | head -2)
check timestamp '{"_col0":"2037-01-01 00:00:00.000999"}
{"_col0":"2003-01-01 00:00:00.000000222"}' "$out"
out=$("$chive" dump "$fx/zero.orc"; echo "rc=$?")
check zero 'rc=0' "$out"
out=$("$chive" dump "$fx/corrupt/negative_dict_entry_lengths.orc" 2>&1 >/dev/null; echo "rc=$?")
check corrupt "chive dump: $fx/corrupt/negative_dict_entry_lengths.orc: column date_string_col, stripe 0: dictionary entry 1 has a negative length (-17)
rc=1" "$out"
out=$("$chive" dump "$fx/version1999.orc" 2>&1; echo "rc=$?")
check future "chive dump: $fx/version1999.orc: written by a future ORC version 19.99 (this reader knows 0.11, 0.12 and 1.9999)
rc=1" "$out"
out=$("$chive" dump --columns nope "$fx/TestOrcFile.test1.orc" 2>&1; echo "rc=$?")
check nocolumn "chive dump: $fx/TestOrcFile.test1.orc: no column 'nope' to read
rc=1" "$out"
exit $fail
