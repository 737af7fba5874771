-- INSERT INTO/OVERWRITE ... SELECT: static, dynamic and mixed partition
-- specs; each column converted to the target column's type by CAST as Hive
-- converts it (a string that does not read as a number is NULL).
CREATE TABLE src (a INT, b STRING, amount DOUBLE) PARTITIONED BY (dt STRING);
INSERT INTO src VALUES (1, 'x', 5.5, 'd1'), (2, 'y', 20, 'd1'), (3, NULL, NULL, 'd2'), (NULL, '42', 11.04, 'd2');
CREATE TABLE dst (id BIGINT, name STRING, amt DECIMAL(5,1)) PARTITIONED BY (day STRING, part INT);
INSERT INTO dst PARTITION (day='s', part=7) SELECT a, b, amount FROM src WHERE a > 1;
INSERT INTO dst PARTITION (day='t', part) SELECT a, upper(b), amount * 2, a % 2 FROM src;
INSERT INTO dst PARTITION (day, part) SELECT b, dt, a, dt, 1 FROM src WHERE dt = 'd2';
INSERT INTO dst PARTITION (day='e', part=0) SELECT a, b, amount FROM src WHERE a > 100;
SHOW PARTITIONS dst;
SELECT * FROM dst;
INSERT OVERWRITE TABLE dst PARTITION (day='s', part=7) SELECT 9, 'nine', 9.95 FROM src LIMIT 1;
SELECT * FROM dst WHERE day = 's' ORDER BY id, name;
-- A table into itself, and an unpartitioned target.
INSERT INTO src SELECT * FROM src WHERE dt = 'd1';
SELECT * FROM src WHERE dt = 'd1';
CREATE TABLE flat (s STRING, n SMALLINT, ok BOOLEAN);
INSERT INTO flat SELECT concat(b, '!'), a * 1000, a > 1 FROM src WHERE dt = 'd2';
INSERT OVERWRITE flat SELECT b, a, a = 1 FROM src WHERE a = 1 LIMIT 1;
SELECT * FROM flat;
-- run
-- Errors name the column; nothing is written.
INSERT INTO dst PARTITION (day='s', part=7) SELECT a, b FROM src;
-- run
INSERT INTO dst PARTITION (day='s', part) SELECT a, b, amount FROM src;
-- run
INSERT INTO dst PARTITION (day='s', part=7) SELECT a, b, DATE '2020-01-01' FROM src;
-- run
INSERT INTO dst PARTITION (day='s', part=7) SELECT a, b, nosuch FROM src;
-- run
INSERT INTO dst PARTITION (day='s', part=7) SELECT a, b, amount FROM src ORDER BY a;
-- run
SELECT * FROM dst WHERE day = 's' ORDER BY id, name;
SELECT * FROM flat;
-- run
-- INSERT ... SELECT with GROUP BY and HAVING, into static and dynamic
-- partitions; aggregates converted to the column types.
CREATE TABLE sums (n BIGINT, total DECIMAL(6,1), name STRING) PARTITIONED BY (k STRING);
INSERT INTO sums PARTITION (k='all') SELECT count(*), sum(amount), max(b) FROM src;
INSERT INTO sums PARTITION (k) SELECT count(*), sum(amount), min(b), dt FROM src GROUP BY dt HAVING count(*) > 1;
INSERT OVERWRITE TABLE sums PARTITION (k) SELECT DISTINCT a, a, b, 'd' FROM src WHERE a = 2;
SELECT * FROM sums ORDER BY k, n;
-- run
INSERT INTO sums PARTITION (k='x') SELECT count(*), sum(amount), max(b) FROM src ORDER BY 1;
-- run
SELECT * FROM sums ORDER BY k, n;
