-- ANALYZE TABLE ... COMPUTE STATISTICS: basic statistics per partition (or
-- of the table), column statistics with FOR COLUMNS, shown by DESCRIBE
-- FORMATTED t [PARTITION (...)] col as Hive shows them; TEXTFILE, Parquet
-- and ORC, NULLs in every column.
-- A plain text table, loaded without statistics.
CREATE TABLE tx (id INT, name STRING, price DOUBLE, ok BOOLEAN, d DATE, amt DECIMAL(10,2), ts TIMESTAMP, c CHAR(5), tags ARRAY<STRING>) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' COLLECTION ITEMS TERMINATED BY '|';
-- sh: printf '1,alpha,1.5,true,2024-01-01,10.25,2024-01-01 10:00:00,hi,a|b\n2,\\N,\\N,false,\\N,\\N,\\N,\\N,\\N\n3,b,-2.0,true,2023-05-06,-3.10,2020-02-02 02:02:02,hello,c\n3,é,0.0,\\N,2023-05-06,0,2020-02-02 02:02:02,x,\\N\n' > tx.csv
SET 'table.exec.hive.sink.statistic-auto-gather.enable' = 'false';
LOAD DATA LOCAL INPATH 'tx.csv' INTO TABLE tx;
-- run
ANALYZE TABLE tx COMPUTE STATISTICS NOSCAN;
DESCRIBE FORMATTED tx id;
ANALYZE TABLE tx COMPUTE STATISTICS;
-- every column Hive keeps statistics of (the array is skipped)
ANALYZE TABLE tx COMPUTE STATISTICS FOR COLUMNS;
DESCRIBE FORMATTED tx id;
DESCRIBE FORMATTED tx name;
DESCRIBE FORMATTED tx price;
DESCRIBE FORMATTED tx ok;
DESCRIBE FORMATTED tx d;
DESCRIBE FORMATTED tx amt;
DESCRIBE FORMATTED tx ts;
DESCRIBE FORMATTED tx c;
DESCRIBE FORMATTED tx tags;
DESCRIBE tx name;
-- sh: printf '9,nine,9.0,false,\\N,\\N,\\N,\\N,\\N\n' > tx2.csv
-- a write leaves the column statistics (as Hive keeps them) but no longer
-- claims them accurate; loading text files, whose rows the sink does not
-- count, leaves the basic ones inexact too
LOAD DATA LOCAL INPATH 'tx2.csv' INTO TABLE tx;
DESCRIBE FORMATTED tx id;
-- Flink's form names the columns again
ANALYZE TABLE tx COMPUTE STATISTICS FOR COLUMNS id, name;
DESCRIBE FORMATTED tx id;
-- run
-- Partitioned Parquet: a partial spec analyzes every partition under it.
CREATE TABLE pq (a INT, s STRING, b BINARY) PARTITIONED BY (dt STRING, hr INT) STORED AS PARQUET;
INSERT INTO pq VALUES (1, 'x', 'ab', 'd1', 1), (2, 'y', NULL, 'd1', 1), (3, NULL, 'abcd', 'd1', 2), (NULL, 'zz', NULL, 'd2', 1);
ANALYZE TABLE pq PARTITION (dt='d1', hr) COMPUTE STATISTICS FOR COLUMNS a, b;
ANALYZE TABLE pq PARTITION (dt='d2', hr=1) COMPUTE STATISTICS FOR ALL COLUMNS;
-- the table's column statistics are its partitions' merged
DESCRIBE FORMATTED pq a;
DESCRIBE FORMATTED pq s;
DESCRIBE FORMATTED pq PARTITION (dt='d1', hr=1) a;
DESCRIBE FORMATTED pq PARTITION (dt='d1', hr=2) b;
DESCRIBE FORMATTED pq PARTITION (dt='d1', hr=1);
INSERT INTO pq VALUES (5, 'q', NULL, 'd1', 1);
DESCRIBE FORMATTED pq PARTITION (dt='d1', hr=1) a;
-- every partition: no spec, or keys without values
ANALYZE TABLE pq PARTITION (dt, hr) COMPUTE STATISTICS;
ANALYZE TABLE pq COMPUTE STATISTICS NOSCAN;
-- run
-- ORC, unpartitioned, many distinct values: exact up to 1024, then the
-- HyperLogLog estimate (within 1% here).
CREATE TABLE seq (n BIGINT);
-- sh: seq 1 5000 > seq.txt && printf '\\N\n' >> seq.txt
LOAD DATA LOCAL INPATH 'seq.txt' INTO TABLE seq;
CREATE TABLE o (n BIGINT, s STRING) STORED AS ORC;
INSERT INTO o SELECT n, CAST(n % 700 AS STRING) FROM seq;
ANALYZE TABLE o COMPUTE STATISTICS FOR COLUMNS;
DESCRIBE FORMATTED o n;
DESCRIBE FORMATTED o s;
-- a write without gathered statistics claims nothing accurate any more
SET 'table.exec.hive.sink.statistic-auto-gather.enable' = 'false';
INSERT INTO o SELECT 1, 'a';
DESCRIBE FORMATTED o n;
-- run
-- Errors name what is wrong and where.
ANALYZE TABLE nope COMPUTE STATISTICS;
-- run
ANALYZE TABLE pq PARTITION (dt='d9') COMPUTE STATISTICS;
-- run
ANALYZE TABLE pq PARTITION (zz='d9') COMPUTE STATISTICS;
-- run
ANALYZE TABLE pq PARTITION (hr='x') COMPUTE STATISTICS;
-- run
ANALYZE TABLE pq COMPUTE STATISTICS FOR COLUMNS a, nope;
-- run
ANALYZE TABLE pq COMPUTE STATISTICS FOR COLUMNS dt;
-- run
ANALYZE TABLE pq COMPUTE STATISTICS FOR COLUMNS a, a;
-- run
ANALYZE TABLE tx COMPUTE STATISTICS FOR COLUMNS tags;
-- run
ANALYZE TABLE tx PARTITION (a=1) COMPUTE STATISTICS;
-- run
CREATE VIEW v AS SELECT a FROM pq;
ANALYZE TABLE v COMPUTE STATISTICS;
-- run
DESCRIBE FORMATTED pq nope;
-- run
DESCRIBE FORMATTED pq PARTITION (dt='d7', hr=1) a;
-- run
ANALYZE TABLE pq COMPUTE STATISTICS NOSCAN FOR COLUMNS;
-- The planner sizes joins by the distinct counts: jf's 8 rows hold 2 keys,
-- so its aggregate by k gives 2 rows, fewer than jd's 3, and builds once
-- the statistics say so (without them, 8 rows grouped by one key are
-- taken to give 4, and jd builds)
-- run
CREATE TABLE jf (k INT, v INT) STORED AS PARQUET;
INSERT INTO jf VALUES (1, 1), (1, 2), (2, 3), (2, 4), (1, NULL), (2, 6), (1, 7), (NULL, 8);
CREATE TABLE jd (k INT, name STRING) STORED AS PARQUET;
INSERT INTO jd VALUES (1, 'one'), (2, 'two'), (NULL, 'none');
EXPLAIN SELECT jd.name, g.c FROM jd JOIN (SELECT k, count(*) AS c FROM jf GROUP BY k) g ON jd.k = g.k;
ANALYZE TABLE jf COMPUTE STATISTICS FOR COLUMNS;
ANALYZE TABLE jd COMPUTE STATISTICS FOR COLUMNS;
EXPLAIN SELECT jd.name, g.c FROM jd JOIN (SELECT k, count(*) AS c FROM jf GROUP BY k) g ON jd.k = g.k;
SELECT jd.name, g.c FROM jd JOIN (SELECT k, count(*) AS c FROM jf GROUP BY k) g ON jd.k = g.k ORDER BY jd.name;
-- a comparison with a literal keeps its range's share of the column's least
-- to greatest value (v: 1 to 8): v > 6 keeps 2/7 of jf's 8 rows, and a lower
-- and an upper bound of one column AND-ed the share between them (2 <= v <
-- 4: 2/7 too, not the product of the two shares); with no statistics for
-- a column (jd's name) a range keeps a third
EXPLAIN SELECT jd.name, jf.v FROM jd JOIN jf ON jd.k = jf.k WHERE jf.v > 6;
EXPLAIN SELECT jd.name, jf.v FROM jd JOIN jf ON jd.k = jf.k WHERE jf.v >= 2 AND jf.v < 4;
EXPLAIN SELECT jd.name, jf.v FROM jd JOIN jf ON jd.k = jf.k WHERE 4 > jf.v AND jf.v >= 2 AND jd.name > 'a';
-- a scan that a join below filters (the 50 suppliers of region 1 keep half
-- of big's rows) is taken by a join further up whose keys leave at most
-- half that share (the parts of size 3: 20 of big's 1,000 part keys), as
-- TPC-H Q02's sub-query: big's Scan in the sub-query names the outer join
CREATE TABLE big (pk BIGINT, sk BIGINT, cost BIGINT) STORED AS PARQUET;
INSERT INTO big SELECT n % 1000, n % 100, n FROM seq WHERE n IS NOT NULL;
CREATE TABLE sup (sk BIGINT, region INT) STORED AS PARQUET;
INSERT INTO sup SELECT n, CAST(n % 2 AS INT) FROM seq WHERE n <= 100;
CREATE TABLE pp (pk BIGINT, size INT) STORED AS PARQUET;
INSERT INTO pp SELECT n, CAST(n % 50 AS INT) FROM seq WHERE n <= 1000;
ANALYZE TABLE big COMPUTE STATISTICS FOR COLUMNS;
ANALYZE TABLE sup COMPUTE STATISTICS FOR COLUMNS;
ANALYZE TABLE pp COMPUTE STATISTICS FOR COLUMNS;
EXPLAIN SELECT pp.pk, s.mc FROM pp JOIN (SELECT big.pk, min(big.cost) AS mc FROM big JOIN sup ON big.sk = sup.sk WHERE sup.region = 1 GROUP BY big.pk) s ON pp.pk = s.pk WHERE pp.size = 3;
SELECT pp.pk, s.mc FROM pp JOIN (SELECT big.pk, min(big.cost) AS mc FROM big JOIN sup ON big.sk = sup.sk WHERE sup.region = 1 GROUP BY big.pk) s ON pp.pk = s.pk WHERE pp.size = 3 ORDER BY pp.pk;
