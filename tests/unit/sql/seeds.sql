-- The SQL examples of the project's seed documents (/work/shared/seeds),
-- copied as written.  tests/unit/sql/test_sql_parse.c parses this whole
-- file as one script; every statement must parse.
--
-- Left out, because they are not complete SQL in either dialect:
--   * 003: CREATE TABLE kafka_table (user_id STRING, order_amount DOUBLE,
--     log_ts TIMESTAMP(3), WATERMARK FOR log_ts AS log_ts - INTERVAL '5'
--     SECOND) WITH (...);  -- "WITH (...)" is an elided option list.
--     parse_golden.txt has it with a real option list.
--
-- Java string concatenations (seed 001) are joined into their SQL text.
-- The last INSERT of seed 003 ends where the document ends (no FROM);
-- it is still a valid statement.

-- ==== seed 000 ====
-- Table-level configuration
CREATE TABLE hive_streaming_source (
    id BIGINT,
    data STRING,
    event_time TIMESTAMP(3),
    partition_hour STRING
) PARTITIONED BY (partition_hour)
WITH (
    'connector' = 'hive',
    
    -- Streaming configuration
    'streaming-source.enable' = 'true',
    'streaming-source.partition.include' = 'latest', 
    'streaming-source.monitor-interval' = '5 min',
    'streaming-source.consume-start-offset' = '2023-01-01 00:00:00',
    'streaming-source.partition-order' = 'CREATE_TIME',
    
    -- Reading optimization
    'table.exec.hive.infer-source-parallelism' = 'true',
    'table.exec.hive.split-max-size' = '256MB',
    
    -- Lookup join caching
    'lookup.join.cache.ttl' = '30 min',
    'lookup.join.cache.max-size' = '5000'
);

-- Sink table configuration
CREATE TABLE hive_sink (
    id BIGINT,
    processed_data STRING,
    partition_date STRING
) PARTITIONED BY (partition_date)
WITH (
    'connector' = 'hive',
    
    -- Writing configuration
    'sink.partition-commit.policy.kind' = 'metastore,success-file',
    'table.exec.hive.sink.sort-by-dynamic-partition.enable' = 'true',
    'table.exec.hive.sink.statistic-auto-gather.enable' = 'true',
    
    -- Performance tuning
    'table.exec.hive.fallback-mapred-writer' = 'false'
);

-- Catalog configuration
CREATE CATALOG production_hive WITH (
    'type' = 'hive',
    'hive-conf-dir' = '/opt/hive/conf',
    'hadoop-conf-dir' = '/opt/hadoop/conf', 
    'hive-version' = '3.1.2',
    'default-database' = 'analytics'
);

-- ==== seed 001 ====
CREATE TABLE time_series_data (  sensor_id STRING,  measurement DOUBLE,  event_time TIMESTAMP(3)) PARTITIONED BY (  year INT,  month INT,  day INT) WITH (  'connector' = 'hive',  'streaming-source.enable' = 'true',  'streaming-source.partition-order' = 'partition-time');

SELECT   o.order_id,  o.customer_id,  c.customer_name FROM orders o LEFT JOIN customer_profiles FOR SYSTEM_TIME AS OF o.order_time AS c   ON o.customer_id = c.customer_id;

-- Create table with specific performance settings
CREATE TABLE high_volume_data (
  id BIGINT,
  data STRING,
  timestamp_col TIMESTAMP(3)
) PARTITIONED BY (
  year INT,
  month INT,
  day INT
) WITH (
  'connector' = 'hive',
  'table.exec.hive.infer-source-parallelism' = 'true',
  'table.exec.hive.infer-source-parallelism.max' = '1000',
  'streaming-source.enable' = 'true',
  'streaming-source.monitor-interval' = '30s',
  'streaming-source.partition-order' = 'partition-time'
);

-- Create table optimized for lookup joins
CREATE TABLE reference_data (
  key_id BIGINT,
  reference_value STRING,
  last_updated TIMESTAMP(3)
) WITH (
  'connector' = 'hive',
  'lookup.cache.ttl' = '1h'
);

-- ==== seed 002 ====
    SELECT user_id, event_type, COUNT(*) as event_count
    FROM user_events 
    WHERE event_date >= '2024-01-01' 
      AND event_type IN ('login', 'purchase')
    GROUP BY user_id, event_type
    LIMIT 1000
;

-- ==== seed 003 ====
CREATE CATALOG default_hive WITH (
    'type' = 'hive',
    -- hive-site.xml 文件的路径
    'hive-conf-dir' = '/opt/tiger/workdir'
);


SELECT * FROM default_hive.db.table WHERE `date`='${date}';

-- 插入新数据到非分区表 
INSERT INTO default_hive.db.mytable SELECT 'Tom', 25; 
-- 覆盖写入非分区表 
INSERT OVERWRITE default_hive.db.mytable SELECT 'Tom', 25; 
-- 插入新数据到分区表 
INSERT INTO default_hive.db.myparttable PARTITION (`date`='${date}') SELECT 'Tom', 25; 
-- 覆盖写入分区表 
INSERT OVERWRITE default_hive.db.myparttable PARTITION (`date`='${date}') SELECT 'Tom', 25;

CREATE TABLE db.hive_table (
  user_id STRING,
  order_amount DOUBLE
) PARTITIONED BY (dt STRING, hr STRING) STORED AS parquet TBLPROPERTIES (
  'partition.time-extractor.timestamp-pattern'='$dt $hr:00:00',
  'sink.partition-commit.trigger'='partition-time',
  'sink.partition-commit.delay'='1 h',
  'sink.partition-commit.policy.kind'='metastore,success-file'
);

INSERT INTO TABLE default_hive.db.hive_table 
SELECT user_id, order_amount, DATE_FORMAT(log_ts, 'yyyy-MM-dd'), DATE_FORMAT(log_ts, 'HH');
