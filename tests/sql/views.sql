-- Views: kept as Hive keeps them (VIRTUAL_VIEW, no folder, the query as
-- written and with every name qualified) and expanded where a query names
-- them, as a derived relation.
CREATE TABLE t (a INT, b STRING, amount DOUBLE) PARTITIONED BY (dt STRING);
INSERT INTO t VALUES (1, 'x', 5.5, 'd1'), (2, 'y', 20, 'd1'), (3, NULL, NULL, 'd2'), (4, 'x', 11, 'd2'), (5, 'y', 1, 'd2');
CREATE VIEW big AS SELECT * FROM t WHERE amount > 5;
SELECT * FROM big ORDER BY a;
-- filters, aggregates, order and limit over the view
SELECT b, count(*) AS n, sum(amount) FROM big WHERE dt = 'd1' OR a > 3 GROUP BY b ORDER BY b;
SELECT a, amount FROM big ORDER BY amount DESC LIMIT 2;
SELECT x.a, x.b FROM big x WHERE x.b = 'x' ORDER BY 1 DESC;
DESCRIBE big;
DESCRIBE FORMATTED big;
SHOW CREATE TABLE big;
SHOW CREATE VIEW big;
-- no folder: the warehouse holds t alone
-- sh: ls "$WH"
-- a column list with comments, a comment and properties
CREATE VIEW totals (who COMMENT 'the b column', n, total) COMMENT 'per b' TBLPROPERTIES ('owner'='ops') AS SELECT b, count(*), sum(amount) FROM t WHERE b IS NOT NULL GROUP BY b;
SELECT * FROM totals ORDER BY who;
DESCRIBE totals;
SHOW CREATE VIEW totals;
DESCRIBE EXTENDED totals;
-- what SHOW CREATE VIEW prints makes the view again (with the same columns,
-- comments, properties and rows; run once more, the same text)
-- sh: show() { "$CHIVE" sql --warehouse "$WH" --format tsv -e "SHOW CREATE VIEW totals" | tail -n +2; }; again() { "$CHIVE" sql --warehouse "$WH" -e "DROP VIEW totals; $(cat "$1")" > /dev/null; }; show > ddl1.sql && again ddl1.sql && show > ddl2.sql && again ddl2.sql && show | diff ddl2.sql - && echo "the same text again"
DESCRIBE EXTENDED totals;
SELECT * FROM totals ORDER BY who;
-- views of views, in WITH queries and sub-queries; a WITH query of the
-- same name hides the view; WITH and UNION inside a view
CREATE VIEW top AS SELECT who, total FROM totals WHERE n > 1;
SELECT * FROM top ORDER BY total DESC;
WITH w AS (SELECT who FROM top) SELECT count(*) FROM w;
SELECT s.total * 2 AS twice FROM (SELECT total FROM top WHERE who = 'x') s;
WITH top AS (SELECT 'mine' AS who) SELECT * FROM top;
-- the WITH queries around a view are not seen by it: big reads table t
WITH t AS (SELECT 99 AS a) SELECT count(*) FROM big;
CREATE VIEW mixed AS WITH d1 AS (SELECT a, b FROM t WHERE dt = 'd1') SELECT a, b FROM d1 UNION ALL SELECT a * 10, b FROM big WHERE dt = 'd2';
SELECT * FROM mixed ORDER BY a;
SHOW CREATE VIEW mixed;
EXPLAIN SELECT who FROM top WHERE total > 10;
-- a * before an ORDER BY position: the position still names its item
CREATE VIEW pos AS SELECT *, a * 10 AS a10, upper(b) AS ub FROM t ORDER BY 3, 2 DESC LIMIT 4;
SELECT * FROM pos;
SELECT *, a * 10 AS a10, upper(b) AS ub FROM t ORDER BY 3, 2 DESC LIMIT 4;
SHOW CREATE VIEW pos;
-- strings as Flink writes them are kept as Hive reads them
CREATE VIEW quoted AS SELECT 'it''s' AS q, 'a\b' AS bs, concat(b, '|') AS bar FROM t WHERE b = 'x';
SELECT * FROM quoted;
SHOW CREATE VIEW quoted;
-- run
SET 'table.sql-dialect' = 'hive';
CREATE VIEW hive_quoted AS SELECT "dq" AS d, 'tab\there' AS t2, a FROM t WHERE a = 1;
SELECT * FROM hive_quoted;
SHOW CREATE VIEW hive_quoted;
-- run
-- from another database the view reads the same tables
CREATE DATABASE other;
USE other;
SELECT count(*) FROM default.big;
CREATE VIEW other.few AS SELECT a FROM default.t WHERE a < 3;
SELECT * FROM few ORDER BY a;
SHOW TABLES;
SHOW VIEWS IN default;
SHOW VIEWS IN default LIKE 't*';
SHOW VIEWS;
USE default;
SHOW TABLES;
SHOW TABLES LIKE 'to*';
-- a view reads the tables of its own catalog, where it runs from any
CREATE CATALOG c2 WITH ('type' = 'hive');
CREATE VIEW c2.default.cv AS SELECT a FROM c2.default.t WHERE a = 2;
SELECT * FROM c2.default.cv;
USE CATALOG c2;
SELECT * FROM cv;
USE CATALOG hive;
CREATE VIEW c2.default.cv2 AS SELECT a FROM t;
-- run
-- CREATE OR REPLACE, ALTER VIEW AS (properties kept), SET TBLPROPERTIES,
-- RENAME TO, IF NOT EXISTS
CREATE VIEW IF NOT EXISTS big AS SELECT 1 AS one;
SELECT count(*) FROM big;
CREATE OR REPLACE VIEW big AS SELECT a, b FROM t WHERE amount > 10;
SELECT * FROM big ORDER BY a;
ALTER VIEW totals AS SELECT b AS who, count(*) AS n, max(amount) AS total FROM t GROUP BY b;
DESCRIBE totals;
SELECT * FROM totals ORDER BY n DESC, who;
SELECT * FROM top ORDER BY who;
ALTER VIEW totals SET TBLPROPERTIES ('owner'='dev', 'k'='v');
SHOW CREATE VIEW totals;
ALTER VIEW other.few RENAME TO other.fewer;
ALTER VIEW other.fewer RENAME TO other.few;
SELECT * FROM other.few;
-- a table LIKE a view has its columns, stored as TEXTFILE
CREATE TABLE like_big LIKE big;
SHOW CREATE TABLE like_big;
-- run
-- Errors name the object; nothing changes.
DROP TABLE big;
-- run
DROP VIEW t;
-- run
ALTER TABLE big SET TBLPROPERTIES ('k'='v');
-- run
ALTER TABLE big RENAME TO big2;
-- run
ALTER VIEW t SET TBLPROPERTIES ('k'='v');
-- run
ALTER VIEW t AS SELECT 1 AS one;
-- run
ALTER VIEW nosuch AS SELECT 1 AS one;
-- run
DROP VIEW nosuch;
-- run
SHOW CREATE VIEW t;
-- run
INSERT INTO big VALUES (9, 'z');
-- run
INSERT OVERWRITE TABLE big SELECT a, b FROM t;
-- run
LOAD DATA LOCAL INPATH 'nowhere' INTO TABLE big;
-- run
TRUNCATE TABLE big;
-- run
MSCK REPAIR TABLE big;
-- run
ALTER TABLE big ADD PARTITION (dt='d3');
-- run
CREATE VIEW big AS SELECT 1 AS one;
-- run
CREATE VIEW t AS SELECT 1 AS one;
-- run
CREATE OR REPLACE VIEW t AS SELECT 1 AS one;
-- run
CREATE OR REPLACE VIEW IF NOT EXISTS v AS SELECT 1 AS one;
-- run
CREATE TEMPORARY VIEW v AS SELECT 1 AS one;
-- run
CREATE VIEW v (x) AS SELECT a, b FROM t;
-- run
CREATE VIEW v (x, x) AS SELECT a, b FROM t;
-- run
CREATE VIEW v (x, y) AS SELECT a, b AS a FROM t;
-- run
CREATE VIEW v AS SELECT a, b AS a FROM t;
-- run
CREATE VIEW v AS SELECT nosuch FROM t;
-- run
CREATE VIEW v AS SELECT a FROM t WHERE nosuch = 1;
-- run
CREATE VIEW v AS SELECT a FROM nosuch;
-- run
CREATE VIEW v AS SELECT t.a FROM t JOIN big ON t.a = big.a;
-- run
CREATE VIEW nodb.v AS SELECT 1 AS one;
-- run
-- a view may not read itself, through ALTER or CREATE OR REPLACE
ALTER VIEW totals AS SELECT * FROM top;
-- run
CREATE OR REPLACE VIEW totals AS SELECT who FROM top;
-- run
SHOW VIEWS;
SELECT * FROM top ORDER BY who;
-- run
-- DROP VIEW IF EXISTS of a table and DROP TABLE IF EXISTS of a view do
-- nothing, as in Hive
DROP VIEW IF EXISTS t;
DROP TABLE IF EXISTS big;
DROP VIEW IF EXISTS nosuch;
SHOW TABLES;
-- run
-- a cycle made by renaming a view into the place of one it reads fails
-- when it is queried, naming the cycle
CREATE VIEW r0 AS SELECT a FROM t;
CREATE VIEW r1 AS SELECT a FROM r0;
CREATE VIEW r2 AS SELECT a FROM r1;
DROP VIEW r0;
ALTER VIEW r2 RENAME TO r0;
-- run
SELECT * FROM r1;
-- run
SELECT count(*) FROM (SELECT a FROM r0) s;
-- run
-- a view whose table was dropped fails when it is queried, naming both
CREATE TABLE gone (x INT);
CREATE VIEW vgone AS SELECT x FROM gone;
CREATE VIEW vvgone AS SELECT x + 1 AS y FROM vgone;
DROP TABLE gone;
-- run
SELECT * FROM vvgone;
-- run
DESCRIBE vvgone;
DROP VIEW vvgone;
DROP VIEW vgone;
DROP VIEW r0;
DROP VIEW r1;
DROP VIEW IF EXISTS big;
DROP VIEW cv;
SHOW VIEWS;
-- run
SELECT * FROM big;
