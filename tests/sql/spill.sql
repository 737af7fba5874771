-- Operators past chive.exec.operator-memory (at least 64 kb) spill rows to
-- files in the folders of io.tmp.dirs instead of failing, and give exactly
-- the rows they give in memory.  Spill files are unlinked as soon as they
-- are created: the folder stays empty whatever happens.
-- sh: seq 1 200000 > nums.txt; mkdir spill
CREATE TABLE nums (id INT);
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE nums;
CREATE TABLE t AS SELECT id, id % 97 AS k, CASE WHEN id % 13 = 0 THEN NULL ELSE concat('v', cast(id % 1000 AS STRING)) END AS s, id / 7.0 AS d FROM nums;
SELECT count(*), count(s), count(DISTINCT k) FROM t;
-- The external merge sort: runs of at most 64 kb, merged 16 at a time;
-- ties keep their input order, as in memory.
-- sh: for q in "SELECT * FROM t ORDER BY k" "SELECT id, s FROM t ORDER BY s DESC NULLS FIRST, k" "SELECT * FROM t ORDER BY d DESC LIMIT 150000" "SELECT k, s FROM t ORDER BY s, id LIMIT 10"; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'io.tmp.dirs' = '$PWD/spill'; SET 'chive.exec.operator-memory' = '64kb'; $q" > spilled.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" > mem.csv; cmp spilled.csv mem.csv && echo "$q: $(($(wc -l < mem.csv) - 1)) rows, the same; $(ls spill | wc -l) files left"; done
-- EXPLAIN ANALYZE says what an operator spilled on its line.
-- run
SET 'chive.exec.operator-memory' = '64kb';
EXPLAIN ANALYZE SELECT * FROM t ORDER BY k, id;
-- The folders must exist: an error names the one that does not.
-- run
SET 'chive.exec.operator-memory' = '64kb';
SET 'io.tmp.dirs' = '/nonexistent/chive-spill';
SELECT * FROM t ORDER BY k;
-- run
SET 'chive.exec.operator-memory' = '64kb';
SET 'io.tmp.dirs' = 'nums.txt';
SELECT * FROM t ORDER BY k;
-- Below 64 kb the bound is refused.
-- run
SET 'chive.exec.operator-memory' = '32kb';
