-- Hive's SORT BY, DISTRIBUTE BY and CLUSTER BY in one process, LIMIT m, n
-- and LIMIT n OFFSET m (the rows are checked against DuckDB in
-- tests/peer/query_compat.js; here the plans, the errors and the texts).
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (dt STRING);
CREATE TABLE u (a INT);
INSERT INTO t VALUES (3, 'c', 'd1'), (1, 'a', 'd1'), (NULL, 'n', 'd2'), (2, NULL, 'd2'), (5, 'e', 'd2');
SELECT a, b FROM t SORT BY a;
SELECT a, b FROM t CLUSTER BY b;
SELECT a FROM t DISTRIBUTE BY b SORT BY a DESC;
SELECT a FROM t ORDER BY a LIMIT 1, 2;
SELECT a FROM t ORDER BY a LIMIT 2 OFFSET 3;
EXPLAIN SELECT a FROM t SORT BY a LIMIT 2, 2;
EXPLAIN SELECT a FROM t LIMIT 1, 3;
EXPLAIN SELECT b FROM t DISTRIBUTE BY a;
-- a view keeps its clauses
CREATE VIEW v AS SELECT a, b FROM t CLUSTER BY a LIMIT 1, 2;
SHOW CREATE TABLE v;
SELECT * FROM v;
-- Hive's conflicts, and counts that are not literals
-- run
SELECT a FROM t ORDER BY a SORT BY a;
-- run
SELECT a FROM t CLUSTER BY a SORT BY a;
-- run
SELECT a FROM t CLUSTER BY a DISTRIBUTE BY a;
-- run
SELECT a FROM t ORDER BY a DISTRIBUTE BY a;
-- run
SELECT a FROM t LIMIT 1 OFFSET -1;
-- run
SELECT a FROM t LIMIT a, 2;
-- run
SELECT a FROM t DISTRIBUTE BY nosuch;
-- run
-- a multi-insert branch streams: it cannot sort
FROM t INSERT INTO u SELECT a SORT BY a;
