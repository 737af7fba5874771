-- EXPLAIN ANALYZE runs the statement (an INSERT writes) and shows each
-- plan node's rows and time, and what each scan read; its own rows are
-- not shown.  Times and reader threads are masked by run.sh.
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO t PARTITION (dt='d1') VALUES (1, 'x'), (2, 'y'), (3, 'z');
INSERT INTO t PARTITION (dt='d2') VALUES (4, 'x'), (5, 'y');
CREATE TABLE o (a INT, b STRING) STORED AS ORC TBLPROPERTIES ('orc.row.index.stride' = '2');
-- one file whose rows come in a known order: its row groups read the same
-- on any number of cores
INSERT INTO o /*+ OPTIONS('sink.parallelism'='1') */ SELECT a, b FROM t ORDER BY a;
CREATE TABLE c (a INT, b STRING);
EXPLAIN ANALYZE SELECT a, b FROM t WHERE a > 1 ORDER BY a DESC LIMIT 2;
EXPLAIN ANALYZE SELECT b, count(*) AS n FROM t WHERE dt = 'd1' GROUP BY b HAVING count(*) > 0;
EXPLAIN ANALYZE SELECT * FROM t WHERE a >= 4;
EXPLAIN ANALYZE SELECT a FROM o WHERE a = 5;
EXPLAIN ANALYZE SELECT * FROM (SELECT a FROM t WHERE dt = 'd2' UNION ALL SELECT 7) u WHERE a > 4;
EXPLAIN ANALYZE SELECT 1 + 1;
-- an INSERT writes, as without EXPLAIN
EXPLAIN ANALYZE INSERT INTO c SELECT a, upper(b) FROM t WHERE dt = 'd1';
EXPLAIN ANALYZE INSERT INTO c VALUES (9, 'q');
SELECT * FROM c ORDER BY a;
-- EXPLAIN without ANALYZE reads no rows and writes nothing
EXPLAIN INSERT OVERWRITE TABLE c SELECT a, b FROM t;
SELECT count(*) FROM c;
-- sh: ls -A "$WH/c" | sed 's/^part-.*/part-file/'
-- run
EXPLAIN ANALYZE CREATE TABLE d AS SELECT 1;
-- run
EXPLAIN ANALYZE INSERT INTO c SELECT a FROM t;
-- run
SELECT count(*) FROM c;
