-- STORED AS PARQUET through every SQL path: CREATE, INSERT INTO/OVERWRITE
-- with static and dynamic partitions, SELECT with pruning and predicates
-- pushed to the row groups (EXPLAIN counts them), CTAS, LIKE, LOAD DATA,
-- MSCK REPAIR, statistics from the writer and from footers, table
-- properties of the writer, SHOW CREATE TABLE.
CREATE TABLE sales (id BIGINT, item STRING, qty INT, price DECIMAL(10,2), sold DATE, at TIMESTAMP)
  PARTITIONED BY (dt STRING) STORED AS PARQUET
  TBLPROPERTIES ('parquet.compression' = 'ZSTD', 'parquet.block.size' = '1024');
INSERT INTO sales PARTITION (dt='2026-01-01') VALUES
  (1, 'apple', 3, 1.50, DATE '2026-01-01', TIMESTAMP '2026-01-01 09:00:00'),
  (2, 'pear', NULL, 2.25, DATE '2026-01-01', TIMESTAMP '2026-01-01 09:30:00.123456'),
  (3, NULL, 7, NULL, NULL, NULL);
INSERT INTO sales PARTITION (dt) SELECT id + 10, item, qty * 2, price, sold, at, '2026-01-02' FROM sales;
SELECT * FROM sales ORDER BY id;
SELECT dt, COUNT(*), SUM(qty), MAX(price) FROM sales GROUP BY dt ORDER BY dt;
SELECT id, item FROM sales WHERE id >= 12 ORDER BY id;
EXPLAIN SELECT id, item FROM sales WHERE id >= 12;
EXPLAIN SELECT id, item FROM sales WHERE dt = '2026-01-02' AND qty IS NULL;
DESCRIBE FORMATTED sales;
SHOW PARTITIONS sales;
-- sh: for f in "$WH"/sales/dt=*/part-*; do head -c 4 "$f"; echo " ${f##*/dt=}" | sed 's|/part-.*||'; done
INSERT OVERWRITE TABLE sales PARTITION (dt='2026-01-01') SELECT id, item, qty, price, sold, at FROM sales WHERE id = 1;
SELECT id, dt FROM sales ORDER BY id;
-- One writer (sink.parallelism): the CTAS reads two partitions, and the
-- statements below take its one file.
SET 'sink.parallelism' = '1';
CREATE TABLE cheap STORED AS PARQUET AS SELECT id, item, price FROM sales WHERE price < 2;
SELECT * FROM cheap ORDER BY id;
DESCRIBE FORMATTED cheap;
CREATE TABLE sales_copy LIKE sales;
SHOW CREATE TABLE sales_copy;
-- LOAD DATA of a Parquet file: its rows counted from its footer
-- sh: cp "$(ls "$WH"/cheap/part-* | head -1)" loaded.parquet
CREATE TABLE loaded (id BIGINT, item STRING, price DECIMAL(10,2)) STORED AS PARQUET;
LOAD DATA LOCAL INPATH 'loaded.parquet' INTO TABLE loaded;
SELECT * FROM loaded ORDER BY id;
DESCRIBE FORMATTED loaded;
-- MSCK REPAIR over Parquet partitions copied in
-- sh: mkdir -p "$WH/sales_copy/dt=2026-03-03" && cp "$WH"/sales/dt=2026-01-02/part-* "$WH/sales_copy/dt=2026-03-03/"
MSCK REPAIR TABLE sales_copy;
SELECT COUNT(*), MIN(id), MAX(id) FROM sales_copy;
-- a table column the files lack reads as NULL; int widens to bigint
CREATE EXTERNAL TABLE wider (id BIGINT, qty BIGINT, extra STRING) PARTITIONED BY (dt STRING)
  STORED AS PARQUET LOCATION 'wh/sales';
MSCK REPAIR TABLE wider;
SELECT id, qty, extra FROM wider WHERE dt = '2026-01-02' ORDER BY id;
-- hive.default.fileformat
SET 'hive.default.fileformat' = 'Parquet';
CREATE TABLE by_default (a INT);
INSERT INTO by_default VALUES (1), (2);
SELECT SUM(a) FROM by_default;
-- sh: head -c 4 "$WH"/by_default/part-*; echo
-- Errors: nothing is created.
CREATE TABLE bad (a INT) STORED AS PARQUET TBLPROPERTIES ('parquet.compression' = 'ZIP');
-- run
CREATE TABLE bad (a INT) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS PARQUET;
-- run
ALTER TABLE sales SET TBLPROPERTIES ('parquet.block.size' = 'big');
-- run
CREATE EXTERNAL TABLE wrongtype (id DATE) STORED AS PARQUET LOCATION 'wh/cheap';
SELECT * FROM wrongtype;
-- run
-- sh: printf 'not parquet\n' > notparquet.parquet
LOAD DATA LOCAL INPATH 'notparquet.parquet' INTO TABLE loaded;
-- run
SELECT COUNT(*) FROM loaded;
SHOW TABLES;
