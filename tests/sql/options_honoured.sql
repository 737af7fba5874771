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
