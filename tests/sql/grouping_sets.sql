-- GROUPING SETS, ROLLUP, CUBE and () (crossed with plain keys, as the SQL
-- standard and Flink read them), Hive's WITH ROLLUP, WITH CUBE and GROUPING
-- SETS after its keys, GROUPING() and Hive's GROUPING__ID, with NULLs in
-- keys and values: a NULL of the data and one of a rolled-up key differ by
-- GROUPING().  The rows are checked against DuckDB in
-- tests/peer/grouping_compat.js, GROUPING__ID against Hive's .q.out.
CREATE TABLE t (a STRING, b INT, v INT);
INSERT INTO t VALUES ('x', 1, 10), ('x', 2, 20), ('y', 1, 5), (NULL, 1, 7), ('y', NULL, NULL), (NULL, NULL, 3), ('x', 1, NULL);
SELECT a, b, count(*), count(v), sum(v), GROUPING(a), GROUPING(b), GROUPING(a, b) AS g FROM t GROUP BY GROUPING SETS ((a, b), (a), ()) ORDER BY g, a, b;
SELECT a, b, count(*) AS n, GROUPING(b, a) AS g FROM t GROUP BY ROLLUP (a, b) ORDER BY g, a, b;
SELECT a, b, sum(v) AS s, GROUPING(a, b) AS g FROM t GROUP BY CUBE (a, b) ORDER BY g, a, b;
-- the cross product: a with each of ROLLUP (b, v)'s sets
SELECT a, b, v, count(*) AS n, GROUPING(a, b, v) AS g FROM t GROUP BY a, ROLLUP (b, v) ORDER BY g, a, b, v;
-- a composite item, and () crossed in
SELECT a, b, count(*) AS n, GROUPING(a, b) AS g FROM t GROUP BY ROLLUP ((a, b)), () ORDER BY g, a, b;
SELECT count(*), sum(v) FROM t GROUP BY ();
-- repeated sets give repeated rows
SELECT a, count(*) AS n, GROUPING(a) AS g FROM t GROUP BY GROUPING SETS (a, a, ()) ORDER BY g, a, n;
-- HAVING and ORDER BY on GROUPING() and the keys
SELECT a, b, count(*) AS n FROM t GROUP BY CUBE (a, b) HAVING GROUPING(a) = 1 AND count(*) > 1 ORDER BY GROUPING(b) DESC, b;
SELECT a, sum(v) AS s FROM t GROUP BY ROLLUP (a) ORDER BY GROUPING(a), s DESC;
-- an expression as a key; an aggregate of a rolled-up key still sees its values
SELECT upper(a) AS ua, count(a) AS ca, min(b) AS mb, GROUPING(upper(a)) AS g FROM t GROUP BY ROLLUP (upper(a)) ORDER BY g, ua;
-- no rows: only the empty sets give one, as the standard says
SELECT a, count(*), sum(v) FROM t WHERE b > 100 GROUP BY ROLLUP (a);
SELECT count(*) FROM t WHERE b > 100 GROUP BY GROUPING SETS ((), a, ());
-- GROUPING() in a plain GROUP BY is 0
SELECT a, GROUPING(a) FROM t GROUP BY a ORDER BY a;
EXPLAIN SELECT a, b, count(*) FROM t WHERE v > 1 GROUP BY ROLLUP (a, b);
SET 'table.sql-dialect' = 'hive';
-- Hive's forms; GROUPING__ID as Hive 2.3 and later give it
SELECT a, b, GROUPING__ID, count(*) FROM t GROUP BY a, b WITH ROLLUP ORDER BY GROUPING__ID, a, b;
SELECT a, b, GROUPING__ID, count(*) FROM t GROUP BY a, b WITH CUBE ORDER BY GROUPING__ID, a, b;
SELECT a, b, GROUPING__ID, grouping(a), grouping(b) FROM t GROUP BY a, b GROUPING SETS ((a, b), b, ()) ORDER BY GROUPING__ID, a, b;
SELECT a, grouping__id AS gid, count(*) FROM t GROUP BY a, b GROUPING SETS (a) ORDER BY a;
SELECT GROUPING__ID, count(*) FROM t GROUP BY ROLLUP (a, b) HAVING GROUPING__ID = 1 ORDER BY 2;
-- a view keeps the form in its text
CREATE VIEW vr AS SELECT a, b, GROUPING__ID AS gid, count(*) AS n FROM t GROUP BY a, b WITH ROLLUP;
SHOW CREATE TABLE vr;
SELECT * FROM vr ORDER BY gid, a, b;
CREATE VIEW vs AS SELECT a, b, GROUPING(a, b) AS g FROM t GROUP BY a, ROLLUP (b), ();
SHOW CREATE TABLE vs;
SELECT * FROM vs ORDER BY g, a, b;
-- into a table, and from a sub-query
CREATE TABLE r (a STRING, b INT, gid BIGINT, n BIGINT);
INSERT INTO r SELECT a, b, GROUPING__ID, count(*) FROM t GROUP BY a, b WITH CUBE;
SELECT gid, count(*), sum(n) FROM r GROUP BY gid ORDER BY gid;
SELECT a, b, count(*) AS n FROM (SELECT a, b FROM t WHERE v IS NOT NULL) s GROUP BY CUBE (a, b) ORDER BY a, b, n;
SELECT a, b, count(*) AS n, sum(v) AS s FROM (SELECT a, b, v FROM t) s WHERE v > 4 GROUP BY CUBE (a, b) ORDER BY a, b, n;
-- sh: seq 1 30000 > nums.txt
CREATE TABLE nums (id INT);
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE nums;
CREATE TABLE big (k INT, j STRING, x DOUBLE) PARTITIONED BY (p INT) STORED AS PARQUET;
INSERT INTO big PARTITION (p) SELECT id % 7, CAST(id % 3 AS STRING), id / 3.0, id % 5 FROM nums;
-- the Expand runs in the scan's stage: the same groups on 1, 2 and 4 threads
-- sh: q="SELECT k, j, GROUPING__ID, count(*), sum(x) FROM big WHERE x > 2 GROUP BY k, j WITH CUBE"; for t in 1 2 4; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SET 'table.sql-dialect' = 'hive'; SET 'table.exec.hive.infer-source-parallelism.max' = '$t'; $q" > g$t.csv; done; cmp g1.csv g2.csv && cmp g1.csv g4.csv && echo "$(wc -l < g1.csv) lines, equal with 1, 2 and 4 threads"; sort g1.csv | head -3
EXPLAIN ANALYZE SELECT k, count(*) FROM big GROUP BY ROLLUP (k);
-- run
SELECT a, b FROM t GROUP BY a, b GROUPING SETS ((a, b), v);
-- run
SELECT a, GROUPING(b) FROM t GROUP BY ROLLUP (a);
-- run
SELECT a, GROUPING__ID FROM t GROUP BY a;
-- run
SELECT a FROM t GROUP BY CUBE (a, b, v, a, b, v, a, b, v, a, b, v, a);
-- run
SELECT a FROM t GROUP BY CUBE (a, b), CUBE (a, b), CUBE (a, b), CUBE (a, b), CUBE (a, b), CUBE (a, b), CUBE (a, b);
-- run
SELECT a, b, v FROM t GROUP BY ROLLUP (a, b);
-- run
SELECT a FROM t GROUP BY ROLLUP (a) WITH CUBE;
-- run
SELECT GROUPING(a) FROM t;
