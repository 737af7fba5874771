-- A table's folder is where its rows are: a table whose folder is gone is an
-- error naming the folder, not an empty table. A new table is empty, not an
-- error (CREATE TABLE makes its folder), and a registered partition without
-- a folder reads as empty.
CREATE TABLE t (id INT);
CREATE TABLE p (id INT) PARTITIONED BY (k INT);
CREATE EXTERNAL TABLE e (id INT) LOCATION 'outside/e';
SELECT count(*) FROM t;
SELECT count(*) FROM p;
SELECT count(*) FROM e;
INSERT INTO t VALUES (1), (2);
INSERT INTO p PARTITION (k=1) VALUES (5);
ALTER TABLE p ADD PARTITION (k=2);
SELECT k, count(*) FROM p GROUP BY k ORDER BY k;
SHOW PARTITIONS p;
-- sh: rm -rf "$WH/t" "outside/e"
SELECT count(*) FROM t;
-- run
SELECT * FROM e;
-- run
SELECT count(*) FROM p;
-- sh: rm -rf "$WH/p/k=1"
SELECT count(*) FROM p;
-- sh: rm -rf "$WH/p"
SELECT count(*) FROM p WHERE k = 1;
-- run
-- Writing makes the folder again, as Hive does.
INSERT INTO t VALUES (3);
SELECT * FROM t;
