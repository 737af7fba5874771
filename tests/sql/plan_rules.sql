-- The rewrite rules of the plan (docs/plan.md), each shown by EXPLAIN and
-- checked on the rows it gives.
CREATE TABLE t (a INT, b STRING, c DOUBLE) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO t PARTITION (dt='d1') VALUES (1, 'x', 1.5), (2, 'y', 2.5), (3, 'z', NULL);
INSERT INTO t PARTITION (dt='d2') VALUES (4, 'x', 4.5), (5, NULL, 5.5);
-- pushdown: the partition conjunct prunes, the data one goes to the readers and stays a Filter
EXPLAIN SELECT b FROM t WHERE dt = 'd2' AND a > 4;
SELECT b FROM t WHERE dt = 'd2' AND a > 4;
-- every conjunct prunes partitions: no Filter is left
EXPLAIN SELECT a FROM t WHERE dt = 'd1' OR dt = 'd3';
-- fold: a condition that is always true goes; one never true reads nothing
EXPLAIN SELECT a FROM t WHERE 1 + 1 = 2 AND a > 3;
EXPLAIN SELECT a FROM t WHERE 1 = 0;
SELECT count(*), max(a) FROM t WHERE 1 = 0;
SELECT a FROM t WHERE cast('1' AS INT) = 1 AND a < 2;
-- prune: the scan reads the columns the query uses (none to count rows)
EXPLAIN SELECT count(*) FROM t;
EXPLAIN SELECT upper(b) FROM t WHERE c > 2;
-- a Project that gives its input as it is goes; one that renames stays
EXPLAIN SELECT a, b, c FROM t;
EXPLAIN SELECT a AS x FROM t;
-- limit: pushed into a scan with nothing between them
EXPLAIN SELECT a FROM t LIMIT 2;
EXPLAIN SELECT a FROM t WHERE a > 1 LIMIT 2;
-- topn: ORDER BY with LIMIT, under the Project
EXPLAIN SELECT upper(b) AS u FROM t ORDER BY a DESC LIMIT 2;
SELECT upper(b) AS u FROM t ORDER BY a DESC LIMIT 2;
-- a TopN over a sub-query's rows
SELECT x FROM (SELECT a + 1 AS x FROM t) s ORDER BY x LIMIT 3;
