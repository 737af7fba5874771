-- STORED AS ORC through every SQL path: CREATE, INSERT INTO/OVERWRITE with
-- static and dynamic partitions, SELECT with pruning and predicates pushed
-- to stripes and row groups (EXPLAIN counts them), CTAS, LIKE, LOAD DATA,
-- MSCK REPAIR, statistics from the writer and from file tails, the
-- writer's table properties, SHOW CREATE TABLE.
CREATE TABLE sales (id BIGINT, item STRING, qty INT, price DECIMAL(10,2), sold DATE, at TIMESTAMP)
  PARTITIONED BY (dt STRING) STORED AS ORC
  TBLPROPERTIES ('orc.compress' = 'SNAPPY', 'orc.bloom.filter.columns' = 'item');
INSERT INTO sales PARTITION (dt='2026-01-01') VALUES
  (1, 'apple', 3, 1.50, DATE '2026-01-01', TIMESTAMP '2026-01-01 09:00:00'),
  (2, 'pear', NULL, 2.25, DATE '2026-01-01', TIMESTAMP '2026-01-01 09:30:00.123456'),
  (3, NULL, 7, NULL, NULL, NULL);
INSERT INTO sales PARTITION (dt) SELECT id + 10, item, qty * 2, price, sold, at, '2026-01-02' FROM sales;
SELECT * FROM sales ORDER BY id;
SELECT dt, COUNT(*), SUM(qty), MAX(price) FROM sales GROUP BY dt ORDER BY dt;
SELECT id, item FROM sales WHERE id >= 12 ORDER BY id;
SELECT id FROM sales WHERE item = 'pear' ORDER BY id;
EXPLAIN SELECT id, item FROM sales WHERE id >= 12;
EXPLAIN SELECT id, item FROM sales WHERE dt = '2026-01-02' AND qty IS NULL;
DESCRIBE FORMATTED sales;
SHOW PARTITIONS sales;
-- sh: for f in "$WH"/sales/dt=*/part-*; do head -c 3 "$f"; echo " ${f##*/dt=}" | sed 's|/part-.*||'; done
INSERT OVERWRITE TABLE sales PARTITION (dt='2026-01-01') SELECT id, item, qty, price, sold, at FROM sales WHERE id = 1;
SELECT id, dt FROM sales ORDER BY id;
-- One writer (sink.parallelism): the CTAS reads two partitions, and the
-- statements below take its one file.
SET 'sink.parallelism' = '1';
CREATE TABLE cheap STORED AS ORC AS SELECT id, item, price FROM sales WHERE price < 2;
SELECT * FROM cheap ORDER BY id;
DESCRIBE FORMATTED cheap;
CREATE TABLE sales_copy LIKE sales;
SHOW CREATE TABLE sales_copy;
-- LOAD DATA of an ORC file: its rows counted from its tail
-- sh: cp "$(ls "$WH"/cheap/part-* | head -1)" loaded.orc
CREATE TABLE loaded (id BIGINT, item STRING, price DECIMAL(10,2)) STORED AS ORC;
LOAD DATA LOCAL INPATH 'loaded.orc' INTO TABLE loaded;
SELECT * FROM loaded ORDER BY id;
DESCRIBE FORMATTED loaded;
-- MSCK REPAIR over ORC partitions copied in
-- sh: mkdir -p "$WH/sales_copy/dt=2026-03-03" && cp "$WH"/sales/dt=2026-01-02/part-* "$WH/sales_copy/dt=2026-03-03/"
MSCK REPAIR TABLE sales_copy;
SELECT COUNT(*), MIN(id), MAX(id) FROM sales_copy;
-- a table column the files lack reads as NULL; int widens to bigint
CREATE EXTERNAL TABLE wider (id BIGINT, qty BIGINT, extra STRING) PARTITIONED BY (dt STRING)
  STORED AS ORC LOCATION 'wh/sales';
MSCK REPAIR TABLE wider;
SELECT id, qty, extra FROM wider WHERE dt = '2026-01-02' ORDER BY id;
-- Stripes and row groups skipped: 30,000 rows in stripes of a few
-- thousand, row groups of 1,000.
-- sh: seq 1 30000 > nums.txt
CREATE TABLE nums_text (n BIGINT);
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE nums_text;
CREATE TABLE nums (n BIGINT, s STRING) STORED AS ORC
  TBLPROPERTIES ('orc.stripe.size' = '64k', 'orc.row.index.stride' = '1000', 'orc.compress' = 'NONE');
INSERT INTO nums SELECT n, CAST(n AS STRING) FROM nums_text;
SELECT COUNT(*), SUM(n) FROM nums;
SELECT n, s FROM nums WHERE n BETWEEN 20499 AND 20501 ORDER BY n;
EXPLAIN SELECT n, s FROM nums WHERE n >= 20499 AND n <= 20501;
EXPLAIN SELECT COUNT(*) FROM nums WHERE n > 100000;
-- Decimal statistics of chive's own files are used (ORC Java's ORC-517
-- workaround is for its own version-6 files only).
CREATE TABLE decs (n BIGINT, d DECIMAL(12,2)) STORED AS ORC
  TBLPROPERTIES ('orc.stripe.size' = '64k', 'orc.row.index.stride' = '1000', 'orc.compress' = 'NONE');
INSERT INTO decs SELECT n, CASE WHEN n % 97 = 0 THEN NULL ELSE CAST(n AS DECIMAL(12,2)) / 100 END FROM nums_text;
EXPLAIN SELECT n FROM decs WHERE d >= 299.90;
CREATE TABLE decs_pq STORED AS PARQUET TBLPROPERTIES ('parquet.block.size' = '8192') AS SELECT * FROM decs;
CREATE TABLE dups (n BIGINT, d DECIMAL(12,2)) STORED AS ORC TBLPROPERTIES ('orc.row.index.stride' = '1000');
INSERT INTO dups SELECT n, CAST(n % 300 AS DECIMAL(12,2)) FROM nums_text WHERE n <= 10000;
INSERT INTO dups SELECT n, CAST(n % 300 AS DECIMAL(12,2)) FROM nums_text WHERE n > 10000 AND n <= 20000;
INSERT INTO dups SELECT n, CAST(n % 300 AS DECIMAL(12,2)) FROM nums_text WHERE n > 20000;
INSERT INTO decs_pq SELECT n + 30000, d FROM decs;
-- A top-N on a column whose NULLs sort last bounds the scan by its last
-- kept row; the rows are still the head of the full sort.
-- sh: for t in decs decs_pq dups; do for o in "d DESC, n" "d ASC NULLS LAST, n DESC" "d DESC NULLS FIRST, n" "d DESC, n DESC"; do for n in 1 7 2500; do "$CHIVE" sql --warehouse "$WH" --format csv -e "SELECT n, d FROM $t ORDER BY $o LIMIT $n" > top.csv; "$CHIVE" sql --warehouse "$WH" --format csv -e "SELECT n, d FROM $t ORDER BY $o" | head -n $((n + 1)) > full.csv; cmp top.csv full.csv || echo "$t ORDER BY $o LIMIT $n differs"; done; done; done; echo "top-N of decs, decs_pq and dups: heads of the full sorts"
-- Nested columns from a text table (collections split at \002, map keys
-- at \003) written to ORC and read back.
-- sh: printf '1\001red\002green\001a\0031\002b\0032\0011.5\002-2\n2\001\001\\N\001\\N\n3\001\\N\001c\003\\N\0010\0020\n' > nested.txt
CREATE TABLE nested_text (id INT, tags ARRAY<STRING>, attrs MAP<STRING,INT>, loc STRUCT<x:DOUBLE,y:DOUBLE>);
LOAD DATA LOCAL INPATH 'nested.txt' INTO TABLE nested_text;
CREATE TABLE nested STORED AS ORC TBLPROPERTIES ('orc.compress' = 'ZSTD') AS SELECT * FROM nested_text;
SELECT * FROM nested ORDER BY id;
SELECT * FROM nested_text ORDER BY id;
-- hive.default.fileformat
SET 'hive.default.fileformat' = 'ORC';
CREATE TABLE by_default (a INT);
INSERT INTO by_default VALUES (1), (2);
SELECT SUM(a) FROM by_default;
-- sh: head -c 3 "$WH"/by_default/part-*; echo
-- Errors: nothing is created.
CREATE TABLE bad (a INT) STORED AS ORC TBLPROPERTIES ('orc.compress' = 'ZIP');
-- run
CREATE TABLE bad (a INT) STORED AS ORC TBLPROPERTIES ('orc.bloom.filter.fpp' = '1');
-- run
CREATE TABLE bad (a INT) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS ORC;
-- run
ALTER TABLE sales SET TBLPROPERTIES ('orc.stripe.size' = 'big');
-- run
CREATE EXTERNAL TABLE wrongtype (id DATE) STORED AS ORC LOCATION 'wh/cheap';
SELECT * FROM wrongtype;
-- run
-- sh: printf 'not orc\n' > notorc.orc
LOAD DATA LOCAL INPATH 'notorc.orc' INTO TABLE loaded;
-- run
SELECT COUNT(*) FROM loaded;
-- a damaged file in a table: the error names it
-- sh: f=$(ls "$WH"/cheap/part-* | head -1); head -c 20 "$f" > "$WH/cheap/zz-damaged"
SELECT COUNT(*) FROM cheap;
-- run
SHOW TABLES;
