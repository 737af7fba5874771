-- Hive's TABLESAMPLE: (n ROWS) takes the first n rows of each split the
-- scan reads, (n PERCENT) and a length (100M) the first whole splits, in
-- plan order (partition, file, offset), until their bytes reach the target;
-- the sample is taken after partition pruning and before the WHERE.  The
-- partitions below hold one file each, of equal size, so each is a third
-- of the bytes.
SET 'table.sql-dialect' = 'hive';
CREATE TABLE t (id INT, v STRING) PARTITIONED BY (dt STRING) STORED AS TEXTFILE;
INSERT INTO t PARTITION (dt='a') VALUES (1, 'a1'), (2, NULL), (3, 'a3');
INSERT INTO t PARTITION (dt='b') VALUES (4, NULL), (5, 'b5'), (6, 'b6');
INSERT INTO t PARTITION (dt='c') VALUES (7, 'c7'), (8, 'c8'), (9, NULL);
CREATE TABLE pq (id INT, v STRING) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO pq SELECT * FROM t;
CREATE TABLE oc (id INT, v STRING) PARTITIONED BY (dt STRING) STORED AS ORC;
INSERT INTO oc SELECT * FROM t;
-- a second file in partition a of u: three splits there
CREATE TABLE u (id INT, v STRING) PARTITIONED BY (dt STRING) STORED AS TEXTFILE;
INSERT INTO u SELECT * FROM t;
INSERT INTO u PARTITION (dt='a') VALUES (10, 'a10'), (11, NULL), (12, 'a12');
-- run
-- n ROWS: two rows of each file, in every format
SELECT * FROM t TABLESAMPLE (2 ROWS) ORDER BY id;
SELECT * FROM pq TABLESAMPLE (2 ROWS) s ORDER BY s.id;
SELECT * FROM oc TABLESAMPLE (2 ROWS) AS s ORDER BY id;
SELECT * FROM u TABLESAMPLE (1 ROWS) ORDER BY id;
SELECT * FROM t TABLESAMPLE (0 ROWS);
SELECT count(*) FROM t TABLESAMPLE (1000 ROWS);
-- the sample comes before the WHERE: the NULLs among each file's first two
-- rows, not the first two NULLs
SELECT * FROM t TABLESAMPLE (2 ROWS) WHERE v IS NULL ORDER BY id;
SELECT * FROM pq TABLESAMPLE (2 ROWS) WHERE id > 2 ORDER BY id;
SELECT * FROM oc TABLESAMPLE (1 ROWS) WHERE id > 1 ORDER BY id;
-- ...and after the partitions are pruned
SELECT * FROM t TABLESAMPLE (1 ROWS) WHERE dt <> 'a' ORDER BY id;
-- a LIMIT takes the first rows of the sample
SELECT count(*) FROM (SELECT id FROM pq TABLESAMPLE (2 ROWS) LIMIT 3) x;
-- run
-- n PERCENT: whole files from the first, until n percent of the bytes
SELECT * FROM t TABLESAMPLE (0 PERCENT);
SELECT dt, count(*) AS n FROM t TABLESAMPLE (30 PERCENT) GROUP BY dt ORDER BY dt;
SELECT dt, count(*) AS n FROM pq TABLESAMPLE (60 PERCENT) GROUP BY dt ORDER BY dt;
SELECT dt, count(*) AS n FROM oc TABLESAMPLE (70 PERCENT) GROUP BY dt ORDER BY dt;
SELECT * FROM pq TABLESAMPLE (100 PERCENT) ORDER BY id;
SELECT dt, count(*) AS n FROM t TABLESAMPLE (0.001 PERCENT) GROUP BY dt;
-- of the pruned partitions' bytes: b is half of b and c
SELECT dt, count(*) AS n FROM t TABLESAMPLE (50 PERCENT) WHERE dt >= 'b' GROUP BY dt;
SELECT * FROM pq TABLESAMPLE (50 PERCENT) WHERE dt >= 'b' AND v IS NULL;
-- a length: 1 byte is the first file, 1K all three
SELECT dt, count(*) AS n FROM t TABLESAMPLE (1b) GROUP BY dt;
SELECT count(*) FROM oc TABLESAMPLE (1K);
SELECT count(*) FROM oc TABLESAMPLE (0B);
-- run
-- joins, sampled on either side (no dynamic filter on a sampled side)
SELECT a.id, b.v FROM t TABLESAMPLE (1 ROWS) a JOIN pq b ON a.id = b.id ORDER BY a.id;
SELECT a.id, b.v FROM t a JOIN oc TABLESAMPLE (30 PERCENT) b ON a.id = b.id ORDER BY a.id;
SELECT a.id, b.dt FROM pq TABLESAMPLE (1 ROWS) a LEFT JOIN oc TABLESAMPLE (1 ROWS) b ON a.id = b.id + 3 ORDER BY a.id;
-- run
-- ORC stripes: with a split per stripe (split-max-size of 1 byte) a file of
-- two stripes is two splits
CREATE TABLE n10 (d INT);
INSERT INTO n10 VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9);
CREATE TABLE big (id INT, s STRING) STORED AS ORC TBLPROPERTIES ('orc.stripe.size' = '1k', 'orc.compress' = 'NONE');
INSERT INTO big SELECT a.d * 100 + b.d * 10 + c.d, concat('value-', cast(a.d * 100 + b.d * 10 + c.d AS STRING)) FROM n10 a, n10 b, n10 c;
SELECT * FROM big TABLESAMPLE (2 ROWS) ORDER BY id;
SET 'table.exec.hive.split-max-size' = '1';
SELECT * FROM big TABLESAMPLE (2 ROWS) ORDER BY id;
SELECT count(*), min(id), max(id) FROM big TABLESAMPLE (50 PERCENT);
EXPLAIN SELECT * FROM big TABLESAMPLE (2 ROWS);
-- run
-- EXPLAIN shows the sample on the Scan and how many splits it reads; a
-- sample by rows takes no reader predicates (they would skip rows)
EXPLAIN SELECT * FROM t TABLESAMPLE (2 ROWS) WHERE id > 1;
EXPLAIN SELECT * FROM pq TABLESAMPLE (2 ROWS) WHERE id > 1 AND dt = 'b';
EXPLAIN SELECT * FROM pq TABLESAMPLE (50 PERCENT) WHERE id > 1 AND dt >= 'b';
EXPLAIN SELECT count(*) FROM oc TABLESAMPLE (1K);
EXPLAIN SELECT id FROM pq TABLESAMPLE (0 PERCENT) LIMIT 1;
-- the probe side pq gets a dynamic filter on dt, unless it is sampled
EXPLAIN SELECT a.id FROM t a JOIN pq b ON a.dt = b.dt WHERE a.id = 1;
EXPLAIN SELECT a.id FROM t a JOIN pq TABLESAMPLE (1 ROWS) b ON a.dt = b.dt WHERE a.id = 1;
EXPLAIN ANALYZE SELECT count(*) FROM pq TABLESAMPLE (30 PERCENT);
-- run
-- an INSERT, a multi-insert and a view read the sample too
CREATE TABLE copy (id INT, v STRING, dt STRING);
INSERT INTO copy SELECT * FROM oc TABLESAMPLE (1 ROWS);
SELECT * FROM copy ORDER BY id;
CREATE TABLE copy2 (id INT);
FROM pq TABLESAMPLE (30 PERCENT) s INSERT INTO copy2 SELECT s.id WHERE s.v IS NOT NULL;
SELECT * FROM copy2 ORDER BY id;
CREATE VIEW sv AS SELECT id, v FROM t TABLESAMPLE (1 ROWS) WHERE v IS NOT NULL;
SHOW CREATE TABLE sv;
SELECT * FROM sv ORDER BY id;
-- run
-- errors: the numbers Hive takes, and only tables
SELECT * FROM t TABLESAMPLE (101 PERCENT);
-- run
SELECT * FROM t TABLESAMPLE (-1 PERCENT);
-- run
SELECT * FROM t TABLESAMPLE (1.5 ROWS);
-- run
SELECT * FROM t TABLESAMPLE (2147483648 ROWS);
-- run
SELECT * FROM t TABLESAMPLE (3000000000M);
-- run
SELECT * FROM t TABLESAMPLE (10);
-- run
SELECT * FROM t TABLESAMPLE (BUCKET 1 OUT OF 2 ON id) s;
-- run
SELECT * FROM sv TABLESAMPLE (1 ROWS);
-- run
SELECT * FROM (SELECT * FROM t) TABLESAMPLE (1 ROWS) s;
-- run
WITH w AS (SELECT * FROM t) SELECT * FROM w TABLESAMPLE (1 ROWS);
-- run
SELECT * FROM t s TABLESAMPLE (1 ROWS);
