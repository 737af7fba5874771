-- GROUP BY with COUNT(*)/COUNT/SUM/MIN/MAX/AVG/COUNT(DISTINCT) and HAVING
-- through chv_hash_agg; aggregates without GROUP BY give one row; NULL keys
-- form one group; SELECT DISTINCT groups by the select items.
CREATE TABLE t (a INT, b STRING, amount DOUBLE, price DECIMAL(6,2)) PARTITIONED BY (dt STRING);
INSERT INTO t VALUES (1, 'x', 5.5, 1.10, 'd1'), (2, 'y', 20, 2.25, 'd1'), (3, NULL, NULL, NULL, 'd2'), (NULL, 'x', 11, 3.00, 'd2'), (2, NULL, 1, 0.05, 'd2');
SELECT b, count(*) AS n, count(a), sum(a), min(amount), max(amount), avg(amount), count(DISTINCT dt), sum(price), avg(price) FROM t GROUP BY b ORDER BY b;
SELECT count(*), count(b), sum(amount), avg(a), min(b), max(b) FROM t;
SELECT count(*), sum(a), max(b) FROM t WHERE a > 100;
SELECT dt, sum(a) + 1 AS s1, count(*) AS n FROM t GROUP BY dt HAVING count(*) > 2;
SELECT a % 2 AS odd, count(*) FROM t GROUP BY a % 2 ORDER BY odd;
SELECT dt, b, count(*) FROM t WHERE amount >= 1 GROUP BY dt, b ORDER BY dt, b;
SELECT b, count(*) FROM t GROUP BY b HAVING min(a) > 1 OR b IS NULL ORDER BY b;
SELECT DISTINCT b FROM t ORDER BY b;
SELECT DISTINCT dt, a % 2 AS odd FROM t ORDER BY dt, odd DESC;
EXPLAIN SELECT b, count(*) FROM t WHERE dt = 'd2' AND a > 1 GROUP BY b;
-- run
SELECT b, a FROM t GROUP BY b;
-- run
SELECT sum(b) FROM t;
-- run
SELECT a FROM t WHERE count(*) > 1;
-- run
SELECT b, count(*) FROM t GROUP BY b HAVING count(*);
-- run
SELECT sum(DISTINCT a) FROM t;
-- run
SELECT *, count(*) FROM t;
-- run
INSERT INTO t PARTITION (dt='d3') SELECT a, b, sum(amount) FROM t GROUP BY a, b;
-- run
SELECT count(*) FROM t;
-- run
-- The hash table of a GROUP BY is bounded by chive.exec.operator-memory:
-- past it, the rows of groups it does not hold spill to partition files
-- (spill.sql), and every group comes out once.
-- sh: seq 1 200000 > many.txt
CREATE TABLE many (id INT);
LOAD DATA LOCAL INPATH 'many.txt' INTO TABLE many;
SET 'chive.exec.operator-memory' = '1mb';
SELECT count(*), sum(n), min(id), max(id) FROM (SELECT id, count(*) AS n FROM many GROUP BY id) g;
-- Without keys there is one group, which does not spill: its DISTINCT set
-- is bounded.
SELECT count(DISTINCT id) FROM many;
-- sh: $CHIVE sql --warehouse "$WH" -e "SET 'chive.exec.operator-memory' = '64mb'; SELECT id, count(*) FROM many GROUP BY id" | tail -1
-- sh: $CHIVE sql --warehouse "$WH" -e "SET 'chive.exec.operator-memory' = 'lots'"
-- Each split is grouped on its reader thread and the partial aggregates
-- are folded in split order, so that the groups and even the last bits of
-- DOUBLE sums are the same whatever the number of reader threads.
-- sh: seq 1 50000 > nums.txt
CREATE TABLE nums (id INT);
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE nums;
CREATE TABLE d (k INT, x DOUBLE) PARTITIONED BY (p INT);
INSERT INTO d PARTITION (p) SELECT id % 7, id / 3.0 + 0.1, id % 5 FROM nums;
INSERT INTO d PARTITION (p) SELECT id % 11, id / 7.0, id % 3 FROM nums WHERE id < 20000;
-- sh: q="SELECT k, count(*), sum(x), avg(x), min(x), max(x) FROM d WHERE x > 1 GROUP BY k"; for t in 1 2 4; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'table.exec.hive.infer-source-parallelism.max' = '$t'; $q" > g$t.csv; done; cmp g1.csv g2.csv && cmp g1.csv g4.csv && echo "$(wc -l < g1.csv) lines, equal with 1, 2 and 4 threads"; sort -t, -k1,1n g1.csv | cut -d, -f1,2,5,6 | head -4
-- Two to four keys pack into one word when each fits its share (an
-- integer of 32, 21 or 16 bits, a string of 3, 2 or 1 bytes); a NULL or a
-- wider value anywhere in the batch takes the group table: the groups are
-- the same either way
-- run
CREATE TABLE pk (a BIGINT, s STRING, d DATE, t TINYINT) STORED AS PARQUET;
INSERT INTO pk VALUES (-1, 'abc', DATE '2020-01-01', 1), (-1, 'abd', DATE '2020-01-01', 1), (-1, 'abc', DATE '2020-01-01', 1), (2147483647, 'ab', DATE '1970-01-01', -1), (-2147483648, '', DATE '1969-12-31', 127), (2147483647, 'ab', DATE '1970-01-01', -1), (1, 'a', DATE '2020-01-02', 0), (1, 'a', DATE '2020-01-02', 0);
SELECT a, s, count(*) FROM pk GROUP BY a, s ORDER BY a, s;
SELECT s, d, t, count(*) FROM pk GROUP BY s, d, t ORDER BY s, d, t;
SELECT a, s, d, t, count(*) FROM pk GROUP BY a, s, d, t ORDER BY a, s, d, t;
INSERT INTO pk VALUES (4294967296, 'abcd', NULL, NULL), (-1, NULL, DATE '2020-01-01', 1), (4294967296, 'abcd', NULL, NULL);
SELECT a, s, count(*) FROM pk GROUP BY a, s ORDER BY a, s;
SELECT s, d, t, count(*) FROM pk GROUP BY s, d, t ORDER BY s, d, t;
-- An argument several aggregates share is computed once.  Where no input
-- can fail and the filter keeps at least half a batch, the arguments are
-- computed over the whole batch and the kept rows picked out: a product
-- that overflows to NULL on the rows the filter dropped (id > 45000 here)
-- changes nothing, and one on a kept row is NULL as ever.
-- run
SELECT count(*), count(x), min(x), max(x) FROM (SELECT CAST(id AS DECIMAL(38,0)) * CAST(2100000000000000000000000000000000 AS DECIMAL(34,0)) AS x FROM nums WHERE id <= 45000) s;
SELECT count(*), count(x), max(x) FROM (SELECT CAST(id AS DECIMAL(38,0)) * CAST(2100000000000000000000000000000000 AS DECIMAL(34,0)) AS x FROM nums WHERE id >= 20000) s;
SELECT id % 3 AS k, sum(CAST(id AS DECIMAL(9,2)) * 0.5), avg(CAST(id AS DECIMAL(9,2)) * 0.5), sum(id), avg(id) FROM nums WHERE id <= 45000 GROUP BY id % 3 ORDER BY k;
