-- Options are honoured or refused, never silently ignored.
-- hive.metastore.uris: no metastore client yet, so an error from SET and
-- from --conf as from hive-site.xml; a blank value is the embedded one.
SET 'hive.metastore.uris' = 'thrift://127.0.0.1:9083';
-- run
SET 'hive.metastore.uris' = ' ';
-- sh: printf 'hive.metastore.uris: thrift://127.0.0.1:9083\n' > uris.yaml && "$CHIVE" sql --warehouse "$WH" --conf uris.yaml -e 'SHOW TABLES'; echo "[exit $?]"
-- A key under a prefix chive owns that is not an option: an error with the
-- closest key, in TBLPROPERTIES, WITH and SET TBLPROPERTIES as in SET.
CREATE TABLE typo (a INT) TBLPROPERTIES ('sink.partition-commit.policy.knd' = 'metastore');
-- run
CREATE TABLE typo (a INT) WITH ('connector' = 'hive', 'streaming-source.enabled' = 'true');
-- run
CREATE TABLE typo (a INT) TBLPROPERTIES ('partition.time-extractor.knd' = 'default');
-- run
CREATE TABLE typo (a INT) TBLPROPERTIES ('auto-compaction.enabled' = 'true');
-- run
SET 'sink.partition-commit.policy.knd' = 'metastore';
-- run
-- Other keys are kept, as Hive keeps them.
CREATE TABLE kept (a INT) TBLPROPERTIES ('owner.team' = 'x', 'lookup.join.cache.max-size' = '5000');
ALTER TABLE kept SET TBLPROPERTIES ('lookup.join.cache.max-sise' = '1');
-- run
SHOW CREATE TABLE kept;
-- run
-- lookup.join.cache.max-size is an Integer of at least 1.
ALTER TABLE kept SET TBLPROPERTIES ('lookup.join.cache.max-size' = 'big');
-- run
-- lookup.cache.ttl (seed 001) is accepted as the deprecated spelling of
-- lookup.join.cache.ttl, with a warning.
SET 'lookup.cache.ttl' = '1h';
SET;
-- run
CREATE TABLE dim (k INT, v STRING) WITH ('connector' = 'hive', 'lookup.cache.ttl' = '30 min');
-- run
-- sink.partition-commit.success-file.name is one file inside the partition
-- folder: a path is refused where it is set.
CREATE TABLE esc (a INT) TBLPROPERTIES ('sink.partition-commit.success-file.name' = '../../escape');
-- run
SET 'sink.partition-commit.success-file.name' = 'sub/_DONE';
-- run
SET 'sink.partition-commit.success-file.name' = '..';
-- run
-- sh: printf 'sink.partition-commit.success-file.name: ../x\n' > esc.yaml && "$CHIVE" sql --warehouse "$WH" --conf esc.yaml -e 'SHOW TABLES'; echo "[exit $?]"
-- No mapred reader or writer: asking for one is a warning, once, and the
-- native ones are used.
SET 'table.exec.hive.fallback-mapred-reader' = 'true';
SET 'table.exec.hive.fallback-mapred-reader' = 'true';
SET 'table.exec.hive.fallback-mapred-writer' = 'false';
CREATE TABLE mr (a INT) STORED AS PARQUET TBLPROPERTIES ('table.exec.hive.fallback-mapred-writer' = 'true');
INSERT INTO mr VALUES (1);
SELECT * FROM mr;
-- run
-- ACID tables are refused, as Flink's connector refuses them.
CREATE TABLE acid (a INT) STORED AS ORC TBLPROPERTIES ('transactional' = 'true');
-- run
CREATE TABLE acid (a INT) TBLPROPERTIES ('TRANSACTIONAL' = 'TRUE');
-- run
CREATE TABLE acid (a INT) TBLPROPERTIES ('transactional' = 'false');
ALTER TABLE acid SET TBLPROPERTIES ('transactional' = 'true');
-- run
-- statistic-auto-gather.enable false: no numRows for partitions either,
-- so the row count comes from the footers.
SET 'table.exec.hive.sink.statistic-auto-gather.enable' = 'false';
CREATE TABLE ng (id INT) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO ng VALUES (1, 'a'), (2, 'a'), (3, 'b');
EXPLAIN SELECT id FROM ng;
-- run
-- read-partition-with-subdirectory: a nested folder is read by default;
-- with false the read fails naming it, in chive sql and chive splits.
CREATE TABLE sub (id INT) PARTITIONED BY (dt STRING);
INSERT INTO sub VALUES (1, 'a');
-- sh: mkdir "$WH"/sub/dt=a/nested && printf '2\n' > "$WH"/sub/dt=a/nested/f
SELECT * FROM sub ORDER BY id;
-- run
SET 'table.exec.hive.read-partition-with-subdirectory.enabled' = 'false';
SELECT * FROM sub;
-- sh: printf 'table.exec.hive.read-partition-with-subdirectory.enabled: false\n' > sub.yaml && "$CHIVE" splits --warehouse "$WH" --conf sub.yaml sub > /dev/null; echo "[exit $?]"
-- sh: "$CHIVE" splits --warehouse "$WH" sub | grep -c nested
ALTER TABLE sub SET TBLPROPERTIES ('table.exec.hive.read-partition-with-subdirectory.enabled' = 'false');
SELECT COUNT(*) FROM sub;
-- sh: "$CHIVE" splits --warehouse "$WH" sub > /dev/null; echo "[exit $?]"
-- hive.exec.default.partition.name: the folder of NULL and empty dynamic
-- values, read back as NULL (as the name itself on a string key, as Flink
-- reads it).
SET 'hive.exec.default.partition.name' = 'no_value';
CREATE TABLE dp (id INT) PARTITIONED BY (k STRING, n INT);
INSERT INTO dp VALUES (1, NULL, NULL), (2, '', 5), (3, 'a', 1);
SHOW PARTITIONS dp;
SELECT id, k, n, n IS NULL AS n_null FROM dp ORDER BY id;
-- sh: cd "$WH"/dp && ls -d */*
-- run
-- Without it, Hive's own name, which the catalog keeps as NULL.
INSERT INTO dp VALUES (4, NULL, NULL);
SHOW PARTITIONS dp;
SELECT id, k, n FROM dp WHERE id = 4;
-- run
-- A table property names it for that table.
CREATE TABLE dpt (id INT) PARTITIONED BY (d DATE) TBLPROPERTIES ('hive.exec.default.partition.name' = 'none');
INSERT INTO dpt VALUES (1, NULL), (2, DATE '2024-01-02');
SHOW PARTITIONS dpt;
SELECT id, d FROM dpt ORDER BY id;
-- run
-- OPTIONS hints after a table apply (hints.sql); a streaming read is
-- refused, and any other hint wherever it stands; a plain comment is
-- still a comment.
CREATE TABLE h (a INT);
INSERT INTO h VALUES (1);
SELECT * FROM h /*+ OPTIONS('streaming-source.enable'='true') */;
-- run
SELECT * FROM h WHERE a = 1 /*+ OPTIONS('x'='y') */
-- run
SELECT /*+ not even a hint */ a FROM h;
-- run
INSERT INTO h /*+ OPTIONS('sink.parallelism'='2') */ VALUES (2);
-- run
-- a hint standing alone, after a statement or in a script of its own
SELECT COUNT(*) FROM h; /*+ OPTIONS('x'='y') */ ;
-- run
/*+ OPTIONS('x'='y') */
-- run
SELECT /* plain */ COUNT(*) FROM h /* trailing */;
