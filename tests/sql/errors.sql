-- Each error names the object and points into the statement; nothing
-- changes (the script after each one shows it).
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (dt STRING);
INSERT INTO t PARTITION (dt='d1') VALUES (1, 'x');
-- run
CREATE TABLE t2 (a int b int);
-- run
SELECT * FROM nosuch;
-- run
SELECT * FROM nodb.t;
-- run
USE nodb;
-- run
SELECT a, nosuch FROM t;
-- run
SELECT a FROM t WHERE b RLIKE 'x';
-- run
SELECT a FROM t WHERE a IN (SELECT a FROM t);
-- run
WITH w AS (SELECT a FROM t) SELECT b FROM w;
-- run
SELECT * FROM (SELECT a FROM t) s, t;
-- run
SELECT * FROM t JOIN t t2 ON t.a = t2.a;
-- run
SELECT DISTINCT * FROM t GROUP BY a;
-- run
CREATE TABLE t3 (a INT) STORED AS AVRO;
-- run
CREATE TABLE t3 (a INT, b FOO);
-- run
CREATE TABLE t3 (a INT) TBLPROPERTIES ('sink.partition-commit.trigger'='sometimes');
-- run
CREATE TABLE t3 (a INT) WITH ('connector'='kafka');
-- run
CREATE TABLE t3 (a INT, b STRING) PARTITIONED BY (dt) WITH ('connector'='hive');
-- run
CREATE TABLE t3 (a INT, r ROW<x INT, y FOO>);
-- run
CREATE TABLE t3 (a INT, ts TIMESTAMP_LTZ(3));
-- run
CREATE TABLE t3 (a INT, b AS a + 1);
-- run
CREATE CATALOG c WITH ('type'='hive', 'hive-conf-dir'='/nonexistent/conf');
-- run
INSERT INTO t SELECT * FROM t UNION ALL SELECT a, b FROM t;
-- run
SHOW TABLES;
SELECT * FROM t;
