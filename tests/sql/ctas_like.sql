-- CREATE TABLE ... AS SELECT and CREATE TABLE ... LIKE.
CREATE TABLE src (a INT, b STRING, c DOUBLE) PARTITIONED BY (dt STRING)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' TBLPROPERTIES ('owner'='ops');
INSERT INTO src PARTITION (dt) VALUES (1, 'x', 1.5, 'd1'), (2, 'y', 2.5, 'd2'), (3, 'y', 3.5, 'd2');
-- CTAS: columns and types from the query, _cN for unnamed expressions
CREATE TABLE agg AS SELECT b, COUNT(*) AS n, SUM(c) FROM src GROUP BY b;
DESCRIBE agg;
SELECT * FROM agg ORDER BY b;
CREATE TABLE proj AS SELECT a * 2 AS a2, upper(b), dt FROM src WHERE dt = 'd2';
DESCRIBE proj;
SELECT * FROM proj ORDER BY a2;
CREATE TABLE consts AS SELECT 'Tom' AS name, 25 AS age, CAST(1.5 AS DECIMAL(5,2)) AS d;
DESCRIBE consts;
SELECT * FROM consts;
-- IF NOT EXISTS on an existing table: nothing happens
CREATE TABLE IF NOT EXISTS consts AS SELECT 'Ann' AS name;
SELECT * FROM consts;
-- LIKE: columns, partition keys, storage and parameters, no data
CREATE TABLE empty_like LIKE src;
SHOW PARTITIONS empty_like;
SELECT COUNT(*) FROM empty_like;
DESCRIBE FORMATTED empty_like;
CREATE EXTERNAL TABLE ext_like LIKE src LOCATION 'ext_like' TBLPROPERTIES ('owner'='bi');
SHOW CREATE TABLE ext_like;
INSERT INTO empty_like PARTITION (dt='d9') SELECT a, b, c FROM src WHERE dt = 'd1';
SELECT * FROM empty_like;
-- sh: find "$WH" -path '*agg*' -o -path '*proj*' -o -path '*consts*' -o -path '*empty_like*' | grep -v '\.staging' | sed 's/part-.*/part-.../' | sort
-- Errors: the table is not created.
CREATE TABLE bad (x INT) AS SELECT 1;
-- run
CREATE TABLE bad PARTITIONED BY (dt STRING) AS SELECT 1 AS x;
-- run
CREATE EXTERNAL TABLE bad AS SELECT 1 AS x;
-- run
CREATE TABLE agg AS SELECT 1 AS x;
-- run
CREATE TABLE bad AS SELECT nosuch FROM src;
-- run
CREATE TABLE bad AS SELECT * FROM nosuch;
-- run
-- the WHERE, ORDER BY and HAVING are checked before the table is made
CREATE TABLE bad AS SELECT a FROM src WHERE nosuch > 1;
-- run
CREATE TABLE bad AS SELECT a FROM src ORDER BY nosuch;
-- run
CREATE TABLE bad AS SELECT b, COUNT(*) FROM src GROUP BY b HAVING COUNT(*);
-- run
CREATE TABLE bad LIKE nosuch;
-- run
CREATE TABLE src LIKE agg;
-- run
SHOW TABLES;
-- sh: ls "$WH" | grep -c bad
