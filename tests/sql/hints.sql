-- OPTIONS hints after a table name are table options of that statement
-- only, over the table's properties and never stored, validated as table
-- options (errors point at the key in the hint); any other hint is
-- refused, and table.dynamic-table-options.enabled turns them all off.
CREATE TABLE h (a INT, b STRING) PARTITIONED BY (dt STRING) TBLPROPERTIES ('sink.partition-commit.policy.kind' = 'metastore');
INSERT INTO h PARTITION (dt='d1') VALUES (1, 'x');
-- a write hint: a success file for this INSERT, none for the next one
INSERT INTO h /*+ OPTIONS('sink.partition-commit.policy.kind'='metastore,success-file') */ PARTITION (dt='d2') VALUES (2, 'y');
INSERT INTO TABLE h PARTITION (dt='d3') VALUES (3, 'z');
-- sh: for d in d1 d2 d3; do echo "dt=$d:"; ls -A "$WH/h/dt=$d" | sed 's/^part-.*/part-file/'; done
INSERT OVERWRITE TABLE h /*+ OPTIONS('sink.partition-commit.policy.kind'='metastore,success-file', 'sink.partition-commit.success-file.name'='_DONE') */ PARTITION (dt='d3') SELECT a + 10, b FROM h WHERE dt = 'd3';
-- sh: ls -A "$WH/h/dt=d3" | sed 's/^part-.*/part-file/'
SHOW CREATE TABLE h;
-- read hints: accepted, for batch reads
SELECT * FROM h /*+ OPTIONS('streaming-source.enable'='false', 'streaming-source.monitor-interval'='1 min') */ WHERE dt = 'd1';
SELECT x.a FROM h /*+ options('lookup.join.cache.ttl'='10 min') */ AS x ORDER BY x.a;
SELECT * FROM (SELECT a FROM h /*+ OPTIONS('streaming-source.enable'='false') */ WHERE dt = 'd2') s;
SELECT count(*) FROM h /*+ OPTIONS('streaming-source.consume-order'='partition-name') */;
EXPLAIN SELECT a FROM h /*+ OPTIONS('streaming-source.enable'='false') */ WHERE dt = 'd1';
EXPLAIN INSERT INTO h /*+ OPTIONS('sink.parallelism'='2') */ PARTITION (dt='d9') SELECT a, b FROM h;
-- run
SELECT * FROM h /*+ OPTIONS('streaming-source.enabled'='false') */;
-- run
SELECT * FROM h /*+ OPTIONS('a'='b', 'no.such.option'='1') */;
-- run
INSERT INTO h /*+ OPTIONS('sink.parallelism'='0') */ PARTITION (dt='d4') VALUES (4, 'w');
-- run
INSERT INTO h /*+ OPTIONS('sink.partition-commit.policy.kind'='metastore,nope') */ PARTITION (dt='d4') VALUES (4, 'w');
-- run
INSERT INTO h /*+ OPTIONS('sink.partition-commit.policy.kind'='success-file') */ PARTITION (dt='d4') VALUES (4, 'w');
-- run
SELECT * FROM h /*+ OPTIONS('table.exec.hive.split-max-size'='1mb') */;
-- run
SELECT * FROM h /*+ OPTIONS('streaming-source.enable') */;
-- run
SELECT * FROM h /*+ OPTIONS('transactional'='true') */;
-- run
SELECT * FROM (SELECT a FROM h) /*+ OPTIONS('streaming-source.enable'='false') */ s;
-- run
WITH w AS (SELECT a FROM h) SELECT * FROM w /*+ OPTIONS('streaming-source.enable'='false') */;
-- run
SELECT * FROM h /*+ LOOKUP('table'='h') */;
-- run
SELECT * FROM h /*+ OPTIONS('streaming-source.enable'='false'), BROADCAST(h) */;
-- run
SELECT /*+ BROADCAST(h) */ * FROM h;
-- run
SELECT * FROM h /*+ OPTIONS('a'='b') */ /*+ OPTIONS('streaming-source.enable'='false') */;
-- run
SET 'table.dynamic-table-options.enabled' = 'false';
SELECT * FROM h WHERE dt = 'd1';
SELECT * FROM h /*+ OPTIONS('streaming-source.enable'='false') */;
-- run
SET 'table.dynamic-table-options.enabled' = 'maybe';
-- run
-- the failed statements changed nothing
SELECT dt, count(*) FROM h GROUP BY dt ORDER BY dt;
-- sh: ls -A "$WH/h"
