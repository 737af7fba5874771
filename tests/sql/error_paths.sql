-- Every error path of chive sql: the message names the object and points
-- into the statement, and afterwards the warehouse (files and folders) and
-- the metastore's rows are exactly as before (snapshot.sh).
-- sh: printf '7\x01z\n' > data.txt
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (dt STRING);
CREATE TABLE n2 (a INT);
CREATE TABLE p2 (a INT) PARTITIONED BY (dt STRING, hr INT);
INSERT INTO t PARTITION (dt='d1') VALUES (1, 'x'), (2, 'y');
INSERT INTO p2 PARTITION (dt='d1', hr=1) VALUES (5);
CREATE VIEW v AS SELECT a, b FROM t;
CREATE VIEW vv AS SELECT a FROM v;
-- sh: "$SQLDIR/snapshot.sh" save
-- unknown catalog
SELECT * FROM nocat.default.t;
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO nocat.default.t PARTITION (dt='d2') VALUES (2, 'y');
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE nocat.default.n (a INT);
-- sh: "$SQLDIR/snapshot.sh" check
USE CATALOG nocat;
-- sh: "$SQLDIR/snapshot.sh" check
-- unknown database
SELECT * FROM nodb.t;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE nodb.n (a INT);
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO nodb.t VALUES (1, 'x');
-- sh: "$SQLDIR/snapshot.sh" check
USE nodb;
-- sh: "$SQLDIR/snapshot.sh" check
DROP DATABASE nodb;
-- sh: "$SQLDIR/snapshot.sh" check
SHOW TABLES IN nodb;
-- sh: "$SQLDIR/snapshot.sh" check
-- unknown table
SELECT * FROM nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO nosuch VALUES (1);
-- sh: "$SQLDIR/snapshot.sh" check
INSERT OVERWRITE TABLE nosuch SELECT a FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
DROP TABLE nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
ALTER TABLE nosuch ADD PARTITION (dt='x');
-- sh: "$SQLDIR/snapshot.sh" check
TRUNCATE TABLE nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
MSCK REPAIR TABLE nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
LOAD DATA LOCAL INPATH 'data.txt' INTO TABLE nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
DESCRIBE nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE n LIKE nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
-- unknown column
SELECT nosuch FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
SELECT a FROM t WHERE nosuch = 1;
-- sh: "$SQLDIR/snapshot.sh" check
SELECT a FROM t ORDER BY nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
SELECT nosuch, COUNT(*) FROM t GROUP BY nosuch;
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO t PARTITION (dt) SELECT a, nosuch, dt FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE n AS SELECT nosuch FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
-- type mismatch in INSERT
INSERT INTO t PARTITION (dt='d2') SELECT DATE '2026-01-01', b FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO t PARTITION (dt='d2') SELECT a, b, dt FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO t PARTITION (dt='d2') VALUES (1);
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO t PARTITION (dt='d2') VALUES (DATE '2026-01-01', 'x');
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO n2 VALUES (true);
-- sh: "$SQLDIR/snapshot.sh" check
-- wrong partition spec
INSERT INTO t PARTITION (nosuch='x') VALUES (1, 'x');
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO t PARTITION (dt='d2', hr='1') VALUES (1, 'x');
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO n2 PARTITION (dt='d2') VALUES (1);
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO p2 PARTITION (dt, hr=1) VALUES (1, 'd2');
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO p2 PARTITION (dt='d2', hr='one') VALUES (1);
-- sh: "$SQLDIR/snapshot.sh" check
ALTER TABLE p2 ADD PARTITION (dt='d2');
-- sh: "$SQLDIR/snapshot.sh" check
ALTER TABLE p2 DROP PARTITION (hr=7);
-- sh: "$SQLDIR/snapshot.sh" check
LOAD DATA LOCAL INPATH 'data.txt' INTO TABLE p2 PARTITION (dt='d2');
-- sh: "$SQLDIR/snapshot.sh" check
TRUNCATE TABLE t PARTITION (dt='nosuch');
-- sh: "$SQLDIR/snapshot.sh" check
-- invalid option value
CREATE TABLE n (a INT) WITH ('connector'='hive', 'sink.partition-commit.delay'='soon');
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE n (a INT) TBLPROPERTIES ('streaming-source.monitor-interval'='-1 min');
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE n (a INT) WITH ('connector'='hive', 'sink.partition-commit.policy.kind'='metastore,email');
-- sh: "$SQLDIR/snapshot.sh" check
ALTER TABLE t SET TBLPROPERTIES ('sink.partition-commit.success-file.name'='');
-- sh: "$SQLDIR/snapshot.sh" check
SET 'table.exec.hive.infer-source-parallelism.max' = '0';
-- sh: "$SQLDIR/snapshot.sh" check
SET table.exec.hive.sink.sort-by-dynamic-partition.enable = maybe;
-- sh: "$SQLDIR/snapshot.sh" check
-- (a key the registry does not know is kept, as Flink's SET keeps it)
SET 'no.such.chive.option' = '1';
-- sh: "$SQLDIR/snapshot.sh" check
-- views: the wrong kind of object, a bad query, a cycle
DROP TABLE v;
-- sh: "$SQLDIR/snapshot.sh" check
DROP VIEW t;
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO v VALUES (1, 'x');
-- sh: "$SQLDIR/snapshot.sh" check
INSERT OVERWRITE TABLE v SELECT a, b FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
TRUNCATE TABLE v;
-- sh: "$SQLDIR/snapshot.sh" check
ALTER TABLE v SET TBLPROPERTIES ('k'='v');
-- sh: "$SQLDIR/snapshot.sh" check
ALTER VIEW t AS SELECT 1 AS one;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE OR REPLACE VIEW t AS SELECT 1 AS one;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE VIEW v AS SELECT 1 AS one;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE VIEW w (x) AS SELECT a, b FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE VIEW w AS SELECT nosuch FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
ALTER VIEW v AS SELECT a FROM vv;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE OR REPLACE VIEW v AS SELECT * FROM vv;
-- sh: "$SQLDIR/snapshot.sh" check
-- parse error
SELEC * FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
SELECT a FROM t WHERE;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE n (a INT,);
-- sh: "$SQLDIR/snapshot.sh" check
INSERT INTO t PARTITION (dt='d2' VALUES (1, 'x');
-- sh: "$SQLDIR/snapshot.sh" check
SELECT 'unterminated FROM t;
-- sh: "$SQLDIR/snapshot.sh" check
CREATE TABLE n (a INT) PARTITIONED BY (dt STRING) STORED AS;
-- sh: "$SQLDIR/snapshot.sh" check
SELECT * FROM t ORDER BY a;
SHOW PARTITIONS p2;
