-- Databases and tables in the Hive and the Flink forms, round trip.
SHOW CATALOGS;
SHOW CURRENT DATABASE;
CREATE DATABASE sales COMMENT 'sales data' WITH DBPROPERTIES ('owner'='ops');
CREATE DATABASE IF NOT EXISTS sales;
SHOW DATABASES;
USE sales;
SHOW CURRENT DATABASE;
CREATE TABLE page_views (
  user_id BIGINT COMMENT 'who',
  page STRING,
  amount DECIMAL(10,2)
) COMMENT 'page views'
PARTITIONED BY (dt STRING, country STRING)
ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' COLLECTION ITEMS TERMINATED BY '|'
  MAP KEYS TERMINATED BY ':' NULL DEFINED AS 'NA'
STORED AS TEXTFILE
TBLPROPERTIES ('sink.partition-commit.policy.kind'='metastore,success-file');
CREATE TABLE flink_t (
  id INT,
  name VARCHAR(20),
  price DECIMAL(12,3),
  ts TIMESTAMP(9),
  raw BYTES,
  tags ARRAY<STRING>,
  attrs MAP<STRING, BIGINT>,
  pos ROW<x DOUBLE, y DOUBLE>,
  dt STRING,
  hr INT
) PARTITIONED BY (hr, dt) WITH (
  'connector' = 'hive',
  'sink.partition-commit.policy.kind' = 'metastore'
);
CREATE EXTERNAL TABLE IF NOT EXISTS ext (a INT, b STRING);
CREATE TABLE IF NOT EXISTS ext (a INT);
SHOW TABLES;
SHOW TABLES LIKE 'p%';
SHOW TABLES IN default;
DESCRIBE flink_t;
DESCRIBE FORMATTED page_views;
DESCRIBE FORMATTED ext;
DESCRIBE FORMATTED flink_t;
ALTER TABLE ext SET TBLPROPERTIES ('note'='kept', 'hive.exec.compress.output'='true');
ALTER TABLE ext RENAME TO ext2;
DESCRIBE FORMATTED ext2;
SHOW TABLES;
DROP TABLE ext2;
DROP TABLE IF EXISTS ext2;
SHOW TABLES;
USE default;
DROP DATABASE sales CASCADE;
SHOW DATABASES;
