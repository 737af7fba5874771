-- ORDER BY expressions, select aliases and positions, ASC/DESC with
-- Hive's NULL order (NULLS FIRST for ASC, NULLS LAST for DESC) unless
-- NULLS FIRST/LAST is given; LIMIT after the sort; ties keep scan order.
CREATE TABLE t (a INT, b STRING, amount DOUBLE, d DATE) PARTITIONED BY (dt STRING);
INSERT INTO t VALUES (1, 'x', 5.5, DATE '2020-01-02', 'd1'), (2, 'y', 20, NULL, 'd1'), (3, NULL, NULL, DATE '2019-12-31', 'd2'), (NULL, 'x', 11, DATE '2020-01-01', 'd2'), (2, NULL, -1, DATE '2021-05-05', 'd2');
SELECT a, b FROM t ORDER BY a;
SELECT a, b FROM t ORDER BY a DESC;
SELECT a, b FROM t ORDER BY a ASC NULLS LAST;
SELECT a, b FROM t ORDER BY a DESC NULLS FIRST;
SELECT a, b FROM t ORDER BY b NULLS LAST, a DESC NULLS FIRST;
SELECT a * 2 AS twice, b FROM t ORDER BY twice DESC LIMIT 2;
SELECT a, b FROM t ORDER BY 2, 1;
SELECT b, d FROM t ORDER BY d;
SELECT a, amount FROM t WHERE amount < 100 ORDER BY amount DESC;
SELECT * FROM t ORDER BY amount / a, dt LIMIT 3;
SELECT upper(b) AS u FROM t WHERE dt = 'd2' ORDER BY u;
EXPLAIN SELECT a FROM t ORDER BY b LIMIT 1;
-- run
SELECT a FROM t ORDER BY 3;
-- run
SELECT a FROM t ORDER BY nosuch;
-- run
SELECT a FROM t ORDER BY a LIMIT 1;
-- ORDER BY ... LIMIT over many rows keeps only the best rows as it reads
-- (top-N); ties keep the order the rows came in, as a full sort does.
-- sh: seq 1 30000 > nums.txt
CREATE TABLE nums (id INT);
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE nums;
SELECT id, id % 7 AS k FROM nums ORDER BY k DESC LIMIT 5;
SELECT id FROM nums ORDER BY id DESC LIMIT 3;
SELECT id FROM nums ORDER BY CASE WHEN id % 5000 = 0 THEN 0 ELSE 1 END LIMIT 5;
SELECT id % 1000 AS m, id FROM nums WHERE id > 100 ORDER BY m, id DESC LIMIT 4;
-- sh: $CHIVE sql --warehouse "$WH" -e "SELECT id % 1000 AS m, id FROM nums WHERE id > 100 ORDER BY m, id DESC" --format csv | head -5
-- A full sort past chive.exec.operator-memory spills sorted runs to
-- io.tmp.dirs and merges them (the same rows as in memory); a top-N holds
-- a few.
-- run
SET 'chive.exec.operator-memory' = '1mb';
SELECT id, concat(cast(id AS STRING), '-padding-padding-padding-padding') AS s FROM nums ORDER BY s LIMIT 2;
-- sh: q="SELECT id, concat(cast(id AS STRING), '-padding-padding-padding-padding') AS s FROM nums ORDER BY s"; "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'chive.exec.operator-memory' = '1mb'; $q" > spilled.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" > mem.csv; cmp spilled.csv mem.csv && wc -l < mem.csv
-- run
-- The top-N path (threshold on the best rows so far) gives exactly the
-- first rows of the full sort, with NULLs, ties, DESC and several keys.
-- sh: q="SELECT id, CASE WHEN id % 11 = 0 THEN NULL ELSE id % 7 END AS k, id % 13 AS j FROM nums ORDER BY k DESC, j NULLS LAST, id % 5 DESC"; for n in 1 10 100 5000; do "$CHIVE" sql --warehouse "$WH" --format csv -e "$q LIMIT $n" > top.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "$q" | head -n $((n + 1)) > full.csv; cmp top.csv full.csv && echo "LIMIT $n: $(($(wc -l < top.csv) - 1)) rows equal to the full sort"; done
