-- Hive's multi-insert: FROM src INSERT ... SELECT ... INSERT ... reads src
-- once and writes every target; nothing is committed until every branch
-- has written all its rows, then each target in one commit of its own.
CREATE TABLE src (id INT, name STRING, amount DECIMAL(10,2)) PARTITIONED BY (dt STRING);
INSERT INTO src PARTITION (dt='d1') VALUES (1, 'ann', 10.50), (2, 'bob', 3.00), (3, NULL, 7.25);
INSERT INTO src PARTITION (dt='d2') VALUES (4, 'cy', 99.99), (5, 'dee', 0.01);
CREATE TABLE big (id INT, name STRING);
CREATE TABLE bydt (id INT, amount DOUBLE) PARTITIONED BY (dt STRING);
CREATE TABLE small (id INT) STORED AS PARQUET;
INSERT INTO small VALUES (100);
FROM src
INSERT INTO TABLE big SELECT id, upper(name) WHERE amount >= 5
INSERT OVERWRITE TABLE bydt PARTITION (dt) SELECT id, amount * 2, dt
INSERT OVERWRITE TABLE small SELECT id WHERE dt = 'd2' LIMIT 1;
SELECT * FROM big ORDER BY id;
SELECT * FROM bydt ORDER BY id;
SHOW PARTITIONS bydt;
SELECT * FROM small;
-- an alias, *, static partitions, a hint on a target and on the source
FROM src /*+ OPTIONS('streaming-source.enable'='false') */ s
INSERT INTO big SELECT s.id, s.name WHERE s.dt = 'd1' AND s.name IS NOT NULL
INSERT INTO bydt /*+ OPTIONS('sink.partition-commit.policy.kind'='metastore,success-file') */ PARTITION (dt='all') SELECT id, amount;
SELECT count(*) FROM big;
SELECT count(*) FROM bydt WHERE dt = 'all';
-- sh: ls -A "$WH/bydt/dt=all" | sed 's/^part-.*/part-file/'
-- a sub-query as the source, one branch
FROM (SELECT id, name FROM src WHERE dt = 'd2') q INSERT OVERWRITE TABLE big SELECT *;
SELECT * FROM big ORDER BY id;
-- the same table twice, other partitions
FROM src INSERT OVERWRITE TABLE bydt PARTITION (dt='x') SELECT id, 1 INSERT OVERWRITE TABLE bydt PARTITION (dt='y') SELECT id, 2 WHERE id > 4;
SELECT dt, count(*), sum(amount) FROM bydt GROUP BY dt ORDER BY dt;
EXPLAIN FROM src INSERT INTO big SELECT id, name WHERE dt = 'd1' INSERT OVERWRITE TABLE small SELECT id LIMIT 2;
EXPLAIN ANALYZE FROM src INSERT INTO big SELECT id, name WHERE dt = 'd1' INSERT OVERWRITE TABLE small SELECT id LIMIT 2;
SELECT count(*) FROM big;
SELECT * FROM small ORDER BY id;
-- run
-- the source fails after the branches wrote the rows of its first
-- partition (a damaged file in the second): no target changes
CREATE TABLE p (id INT) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO p PARTITION (dt='d1') VALUES (1), (2);
INSERT INTO p PARTITION (dt='d2') VALUES (3);
-- sh: printf 'not parquet' > "$WH/p/dt=d2/damaged"; bash "$SQLDIR/snapshot.sh" save
FROM p INSERT OVERWRITE TABLE big SELECT id, 'p' INSERT INTO small SELECT id;
-- sh: bash "$SQLDIR/snapshot.sh" check
-- run
-- a branch that fails: no target changes
-- sh: bash "$SQLDIR/snapshot.sh" save
FROM src INSERT OVERWRITE TABLE big SELECT id, name INSERT INTO small SELECT id, name;
-- run
FROM src INSERT OVERWRITE TABLE big SELECT id, name INSERT INTO bydt PARTITION (dt='z') SELECT id, CAST(name AS DATE);
-- run
FROM src INSERT OVERWRITE TABLE big SELECT id, name INSERT INTO nosuch SELECT id;
-- run
FROM src INSERT OVERWRITE TABLE big SELECT id, name INSERT INTO small /*+ OPTIONS('sink.parallelism'='-1') */ SELECT id;
-- run
FROM src INSERT INTO big SELECT id, name INSERT INTO big SELECT id, name WHERE id > 3;
-- run
FROM src INSERT INTO small SELECT count(*);
-- run
FROM src INSERT INTO small SELECT id GROUP BY id;
-- run
FROM src INSERT INTO small SELECT id ORDER BY id;
-- run
FROM src INSERT OVERWRITE LOCAL DIRECTORY 'd' SELECT id;
-- run
FROM src a JOIN src b ON a.id = b.id INSERT INTO small SELECT a.id;
-- run
FROM src INSERT INTO small SELECT nope;
-- run
FROM src INSERT INTO small SELECT id FROM src;
-- sh: bash "$SQLDIR/snapshot.sh" check
