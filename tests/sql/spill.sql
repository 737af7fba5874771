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
-- The spilling aggregation: past its bound the groups it holds keep taking
-- their rows, the rows of other groups go to 16 partition files by the
-- hash of their keys, each aggregated alone afterwards (and partitioned
-- again, by another hash, while it passes the bound).  The same groups
-- with the same values, in another order: the groups held first, then
-- each partition's.  (A DOUBLE sum may round differently where a group's
-- rows were added in another order: not in these queries.)  Over a scan
-- the partials per split spill; over a UNION ALL the Aggregate itself.
-- sh: for q in "SELECT k, count(*), sum(id), min(s), max(s), count(DISTINCT s), avg(d), sum(d) FROM t GROUP BY k" "SELECT id % 50000 AS m, s, count(*), max(d) FROM t GROUP BY id % 50000, s" "SELECT s, count(*), min(id) FROM t GROUP BY s" "SELECT k, count(*), sum(id), max(s) FROM (SELECT id % 30011 AS k, id, s FROM t UNION ALL SELECT id % 20011, -id, 'x' FROM t) u GROUP BY k"; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'table.exec.hive.infer-source-parallelism.max' = '1'; SET 'io.tmp.dirs' = '$PWD/spill'; SET 'chive.exec.operator-memory' = '64kb'; $q" > spilled.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'table.exec.hive.infer-source-parallelism.max' = '1'; $q" > mem.csv; sort spilled.csv > a.csv; sort mem.csv > b.csv; cmp a.csv b.csv && echo "$q: $(($(wc -l < mem.csv) - 1)) groups, the same; $(ls spill | wc -l) files left"; done
-- sh: "$CHIVE" sql --warehouse "$WH" -e "CREATE TABLE p (id INT, k INT, s STRING) PARTITIONED BY (q INT); INSERT INTO p PARTITION (q) SELECT id, id % 40000, s, id % 4 FROM t" > /dev/null; for q in "SELECT k, count(*), sum(id), min(s), max(s), count(DISTINCT s) FROM p GROUP BY k" "SELECT k, q, count(*) FROM p GROUP BY k, q"; do for th in 1 4; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'table.exec.hive.infer-source-parallelism.max' = '$th'; SET 'chive.exec.operator-memory' = '64kb'; $q" | sort > a.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'table.exec.hive.infer-source-parallelism.max' = '$th'; $q" | sort > b.csv; cmp a.csv b.csv && echo "$th threads, $q: $(($(wc -l < a.csv) - 1)) groups, the same"; done; done
-- GROUPING SETS spill too; the grand total is there once.
-- sh: q="SELECT k % 100 AS a, s, count(*), sum(id), GROUPING(k % 100, s) AS g FROM t GROUP BY GROUPING SETS ((k % 100, s), (k % 100), ())"; "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'chive.exec.operator-memory' = '64kb'; $q" | sort > a.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" | sort > b.csv; cmp a.csv b.csv && echo "$(($(wc -l < a.csv) - 1)) groups, the same; grand totals: $(tr -d '\r' < a.csv | grep -c ',3$')"
-- The partitioned hash join: past the bound the build side (held and to
-- come) and then the probe side go to 16 pairs of files by the hash of
-- their keys (NULL keys, which match nothing, dealt round), each pair
-- joined alone, partitioned again by another hash while its build side
-- passes the bound.  Every kind of join gives the rows it gives in memory,
-- the unmatched and NULL-key rows of outer and anti joins included.
-- sh: "$CHIVE" sql --warehouse "$WH" -e "CREATE TABLE ja AS SELECT id, CASE WHEN id % 17 = 0 THEN NULL ELSE id % 30000 END AS k, concat('a', cast(id AS STRING)) AS s FROM nums WHERE id <= 120000; CREATE TABLE jb AS SELECT id, CASE WHEN id % 19 = 0 THEN NULL ELSE (id * 7) % 45000 END AS k, concat('b', cast(id AS STRING)) AS s FROM nums WHERE id <= 90000" > /dev/null; for q in "SELECT ja.id, ja.k, jb.id, jb.s FROM ja JOIN jb ON ja.k = jb.k" "SELECT ja.id, jb.id FROM ja LEFT JOIN jb ON ja.k = jb.k" "SELECT ja.id, jb.id FROM ja RIGHT JOIN jb ON ja.k = jb.k" "SELECT ja.id, jb.id, ja.k FROM ja FULL JOIN jb ON ja.k = jb.k" "SELECT ja.id FROM ja LEFT SEMI JOIN jb ON ja.k = jb.k" "SELECT ja.id FROM ja LEFT ANTI JOIN jb ON ja.k = jb.k" "SELECT jb.id FROM jb LEFT ANTI JOIN ja ON ja.k = jb.k" "SELECT ja.id, jb.id FROM ja JOIN jb ON ja.k = jb.k AND ja.id < jb.id" "SELECT ja.id, jb.id FROM ja LEFT JOIN jb ON ja.k = jb.k AND ja.id % 3 = jb.id % 3" "SELECT ja.id FROM ja LEFT SEMI JOIN jb ON ja.k = jb.k AND jb.id > ja.id"; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'io.tmp.dirs' = '$PWD/spill'; SET 'chive.exec.operator-memory' = '64kb'; $q" | sort > a.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" | sort > b.csv; cmp a.csv b.csv && echo "$q: $(($(wc -l < a.csv) - 1)) rows, the same; $(ls spill | wc -l) files left"; done
-- One key whose rows alone pass the bound cannot be split: after 5 levels
-- of partitions the join fails naming the setting (here NULL <=> NULL
-- matches, and 4,736 build rows have a NULL key).
-- run
SET 'chive.exec.operator-memory' = '64kb';
SELECT count(*) FROM ja JOIN jb ON ja.k <=> jb.k;
-- A join without keys (CROSS, or only a residual condition) past the
-- bound is a nested loop over blocks of its build side, each probed with
-- the whole probe side read again from its file; the probe rows' marks
-- gather over the blocks.
-- sh: "$CHIVE" sql --warehouse "$WH" -e "CREATE TABLE c1 AS SELECT id, id % 97 AS k FROM nums WHERE id <= 12000; CREATE TABLE c2 AS SELECT id, CASE WHEN id % 11 = 0 THEN NULL ELSE id % 89 END AS k, concat('c', cast(id AS STRING)) AS s FROM nums WHERE id <= 6000" > /dev/null; for q in "SELECT count(*), sum(c1.id * c2.id) FROM c1 CROSS JOIN c2" "SELECT c1.id, c2.s FROM c1 JOIN c2 ON c1.k < c2.k - 85" "SELECT c1.id, c2.id FROM c1 FULL JOIN c2 ON c1.k > c2.k + 91" "SELECT c1.id FROM c1 LEFT SEMI JOIN c2 ON c1.k > c2.k + 90" "SELECT c1.id FROM c1 LEFT ANTI JOIN c2 ON c1.k > c2.k + 90"; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'io.tmp.dirs' = '$PWD/spill'; SET 'chive.exec.operator-memory' = '64kb'; $q" | sort > a.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" | sort > b.csv; cmp a.csv b.csv && echo "$q: $(($(wc -l < a.csv) - 1)) rows, the same; $(ls spill | wc -l) files left"; done
-- run
-- Derived relations (sub-queries, WITH, UNION ALL) stream and hold
-- nothing; UNION, INTERSECT and EXCEPT are a Distinct (an aggregation) or
-- joins, which spill as above.
-- sh: for q in "SELECT id FROM t UNION SELECT id + 1 FROM t" "SELECT k, s FROM t INTERSECT SELECT k, s FROM t WHERE id % 2 = 0" "SELECT id % 70000 FROM t EXCEPT SELECT id FROM t WHERE id % 3 = 0" "WITH w AS (SELECT id, s FROM t) SELECT a.id, b.s FROM w a JOIN w b ON a.id = b.id + 1"; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'chive.exec.operator-memory' = '64kb'; $q" | sort > a.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" | sort > b.csv; cmp a.csv b.csv && echo "$q: $(($(wc -l < a.csv) - 1)) rows, the same"; done
-- EXPLAIN ANALYZE says what an operator spilled on its line.
-- run
SET 'chive.exec.operator-memory' = '64kb';
EXPLAIN ANALYZE SELECT * FROM t ORDER BY k, id;
SET 'table.exec.hive.infer-source-parallelism.max' = '1';
EXPLAIN ANALYZE SELECT id % 50000 AS m, count(*) FROM t GROUP BY id % 50000;
EXPLAIN ANALYZE SELECT count(*) FROM ja FULL JOIN jb ON ja.k = jb.k;
EXPLAIN ANALYZE SELECT count(*) FROM c1 LEFT JOIN c2 ON c1.k > c2.k + 91;
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
