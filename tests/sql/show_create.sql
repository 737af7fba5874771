-- SHOW CREATE TABLE prints DDL that makes the same table again (in the
-- Hive dialect, whose strings take backslash escapes).
SET 'table.sql-dialect' = 'hive';
CREATE TABLE t (a INT COMMENT 'it\'s a', b STRING, m MAP<STRING,INT>, d DECIMAL(10,2))
  COMMENT 'the table'
  PARTITIONED BY (dt STRING, hr INT)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY '\001' ESCAPED BY '\\'
  COLLECTION ITEMS TERMINATED BY '\002' MAP KEYS TERMINATED BY '\003' NULL DEFINED AS ''
  TBLPROPERTIES ('sink.partition-commit.policy.kind' = 'metastore');
SHOW CREATE TABLE t;
CREATE EXTERNAL TABLE e (x BIGINT) STORED AS TEXTFILE LOCATION 'elsewhere';
SHOW CREATE TABLE e;
CREATE TABLE f (id BIGINT, data STRING, partition_hour STRING) PARTITIONED BY (partition_hour)
  WITH ('connector' = 'hive', 'streaming-source.enable' = 'true', 'streaming-source.monitor-interval' = '5 min');
SHOW CREATE TABLE f;
-- sh: "$CHIVE" sql --warehouse "$WH" --format tsv -e 'SHOW CREATE TABLE t' | tail -n +2 | sed 's/\\\\/\\/g; s/`t`/`t2`/; s|/t.$|/t2'"'"'|' > t2.sql && (echo "SET 'table.sql-dialect'='hive';"; cat t2.sql; echo ';') | "$CHIVE" sql --warehouse "$WH" && "$CHIVE" sql --warehouse "$WH" -e 'SHOW CREATE TABLE t2' | sed -e 's/`t2`/`t`/' -e "s|/wh/t2'|/wh/t'|" > a && "$CHIVE" sql --warehouse "$WH" -e 'SHOW CREATE TABLE t' > b && diff a b && echo "same DDL"
-- run
SHOW CREATE TABLE nosuch;
