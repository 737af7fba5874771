-- The sink reads session options (SET) below table properties.
CREATE TABLE o (a INT) PARTITIONED BY (p STRING);
CREATE TABLE o2 (a INT) PARTITIONED BY (p STRING)
  TBLPROPERTIES ('sink.partition-commit.policy.kind'='metastore,success-file');
SET 'sink.partition-commit.policy.kind' = 'metastore';
INSERT INTO o PARTITION (p='no_marker') VALUES (1);
INSERT INTO o2 PARTITION (p='table_wins') VALUES (1);
SET 'sink.partition-commit.policy.kind' = 'metastore,success-file';
SET 'sink.partition-commit.success-file.name' = '_DONE';
INSERT INTO o PARTITION (p='marker') VALUES (2);
-- sh: cd "$WH" && find o o2 -type f ! -name '.*' | sed 's/part-.*/part-*/' | sort
SELECT * FROM o;
