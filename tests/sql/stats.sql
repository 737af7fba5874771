-- EXPLAIN's statistics line: the row count the source reports and the
-- parallelism Flink's inference gives the scan.
-- Row counts from the metastore (numRows of each partition, of the table).
CREATE TABLE ev (id INT, kind STRING) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO ev VALUES (1, 'a', 'd1'), (2, 'b', 'd1'), (3, 'c', 'd2'), (4, 'd', 'd3'), (5, 'e', 'd3'), (6, 'f', 'd3');
EXPLAIN SELECT * FROM ev;
-- pruned partitions count alone; a pushed LIMIT caps the count
EXPLAIN SELECT id FROM ev WHERE dt >= 'd2';
EXPLAIN SELECT id FROM ev LIMIT 4;
-- no partition left: 0 rows
EXPLAIN SELECT id FROM ev WHERE dt = 'd9';
-- Without numRows (files loaded while statistics are not gathered) the
-- Parquet footers are read; with partitions of both kinds the count is
-- mixed.
CREATE TABLE staging (id INT, kind STRING) STORED AS PARQUET;
INSERT INTO staging VALUES (7, 'g'), (8, 'h');
INSERT INTO staging VALUES (9, 'i');
-- sh: mkdir in && cp "$WH"/staging/part-* in/
SET 'table.exec.hive.sink.statistic-auto-gather.enable' = 'false';
LOAD DATA LOCAL INPATH 'in' INTO TABLE ev PARTITION (dt='d4');
EXPLAIN SELECT id FROM ev WHERE dt >= 'd4';
EXPLAIN SELECT id FROM ev;
EXPLAIN SELECT id FROM ev LIMIT 8;
-- ORC tails likewise (an unpartitioned table written without gathering).
CREATE TABLE o (n BIGINT) STORED AS ORC;
INSERT INTO o VALUES (1), (2), (3);
INSERT INTO o VALUES (4), (5);
EXPLAIN SELECT n FROM o;
SELECT COUNT(*) FROM o;
-- Text files have no footer: unknown without numRows.
CREATE TABLE txt (a INT, b STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',';
-- sh: printf '1,one\n2,two\n' > f.csv
LOAD DATA LOCAL INPATH 'f.csv' INTO TABLE txt;
EXPLAIN SELECT a FROM txt;
EXPLAIN SELECT a FROM txt LIMIT 1;
-- source.report-statistics NONE: unknown.
SET 'source.report-statistics' = 'NONE';
EXPLAIN SELECT * FROM ev;
-- run
-- Parallelism: static mode infers a number from the splits (n = 1 for
-- Hadoop's formula: one split per small file) capped by max, and by one per
-- thousand rows of a pushed LIMIT; the folders' entries reaching max give
-- max.  The scan then reads on at most one thread per CPU.
SET 'table.exec.hive.infer-source-parallelism.mode' = 'static';
EXPLAIN SELECT * FROM ev;
EXPLAIN SELECT id FROM ev WHERE dt = 'd3';
EXPLAIN SELECT id FROM ev LIMIT 2500;
SET 'table.exec.hive.infer-source-parallelism.max' = '2';
EXPLAIN SELECT * FROM ev;
SELECT COUNT(*), SUM(id) FROM ev;
SELECT id FROM ev ORDER BY id LIMIT 3;
-- dynamic mode is bounded by the CPUs of the machine that runs the query;
-- none (or the switch off) takes the default parallelism, the CPUs.
SET 'table.exec.hive.infer-source-parallelism.mode' = 'dynamic';
EXPLAIN SELECT * FROM ev;
SET 'table.exec.hive.infer-source-parallelism.mode' = 'none';
EXPLAIN SELECT * FROM ev;
SELECT COUNT(*) FROM ev;
