-- INSERT OVERWRITE [LOCAL] DIRECTORY writes a query's rows as a file in a
-- folder, replacing the folder whole (staged beside it, then swapped in);
-- a failed statement leaves the old folder as it was.
CREATE TABLE t (a INT, b STRING, d DATE) PARTITIONED BY (dt STRING);
INSERT INTO t PARTITION (dt='d1') VALUES (1, 'x', DATE '2024-01-01'), (2, NULL, NULL);
INSERT INTO t PARTITION (dt='d2') VALUES (3, 'z', DATE '2024-03-01');
-- TEXTFILE with Hive's defaults: fields \001, NULL as \N
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' SELECT * FROM t;
-- sh: ls -A x/out; cat -v x/out/000000_0; "$CHIVE" dump --schema 'a int, b string, d date, dt string' x/out/000000_0
-- without LOCAL the same (a local path: chive has no HDFS); the old file goes
INSERT OVERWRITE DIRECTORY 'x/out' ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' NULL DEFINED AS 'null' SELECT a, b FROM t WHERE a > 1;
-- sh: ls -A x x/out; cat x/out/000000_0
INSERT OVERWRITE LOCAL DIRECTORY 'x/out/../pq' STORED AS PARQUET SELECT dt, count(*) AS n, max(a) AS top FROM t GROUP BY dt;
-- sh: ls -A x/pq; "$CHIVE" dump x/pq/000000_0
INSERT OVERWRITE LOCAL DIRECTORY 'x/orc/' STORED AS ORC SELECT a, d FROM t ORDER BY a DESC LIMIT 2;
-- sh: "$CHIVE" dump x/orc/000000_0
-- a folder made with its parents; an empty result is an empty file
INSERT OVERWRITE LOCAL DIRECTORY 'x/deep/er/out' SELECT a FROM t WHERE a > 100;
-- sh: ls -A x/deep/er/out; wc -c < x/deep/er/out/000000_0
SET hive.exec.compress.output=true;
INSERT OVERWRITE LOCAL DIRECTORY 'x/gz' SELECT a FROM t;
-- sh: ls -A x/gz; gzip -dc x/gz/000000_0.gz
EXPLAIN INSERT OVERWRITE LOCAL DIRECTORY 'x/never' SELECT a FROM t WHERE dt = 'd1';
EXPLAIN ANALYZE INSERT OVERWRITE LOCAL DIRECTORY 'x/out' SELECT upper(b) FROM t WHERE b IS NOT NULL;
-- sh: ls -A x; cat x/out/000000_0
-- run
-- a query failing while it writes: the old folder stays, no staging is left
-- sh: mkdir "$WH/t/dt=d2/sub" && touch "$WH/t/dt=d2/sub/f"
SET table.exec.hive.read-partition-with-subdirectory.enabled=false;
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' SELECT a FROM t;
-- sh: ls -A x; cat x/out/000000_0; rm -r "$WH/t/dt=d2/sub"
-- run
-- the same when the query fails after rows went to the new file: a
-- damaged file in the second partition of a Parquet table
CREATE TABLE p (a INT) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO p PARTITION (dt='d1') VALUES (1), (2);
INSERT INTO p PARTITION (dt='d2') VALUES (3);
-- sh: printf 'not parquet' > "$WH/p/dt=d2/damaged"
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' SELECT a FROM p;
-- sh: ls -A x; cat x/out/000000_0
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' SELECT a, a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/out/000000_0' SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'wh/t' SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/.' SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY '/tmp/' SELECT a FROM t;
-- run
INSERT OVERWRITE DIRECTORY 'hdfs://nn:8020/tmp/out' SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' STORED AS AVRO SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS PARQUET SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.OpenCSVSerde' SELECT a FROM t;
-- run
INSERT OVERWRITE LOCAL DIRECTORY 'x/out' SELECT nope FROM t;
-- sh: ls -A x; cat x/out/000000_0
