-- CREATE CATALOG, USE CATALOG, SHOW CATALOGS and three-part names.  A
-- catalog lives as long as the session (one script here); its warehouse is
-- the hive.metastore.warehouse.dir of the hive-site.xml in hive-conf-dir.
-- sh: mkdir -p conf hconf && printf '<configuration>\n<property><name>hive.metastore.warehouse.dir</name><value>%s/wh2</value></property>\n</configuration>\n' "$PWD" > conf/hive-site.xml && touch hconf/core-site.xml
SHOW CATALOGS;
SHOW CURRENT CATALOG;
CREATE CATALOG production_hive WITH (
    'type' = 'hive',
    'hive-conf-dir' = 'conf',
    'hadoop-conf-dir' = 'hconf',
    'hive-version' = '3.1.2'
);
CREATE CATALOG IF NOT EXISTS production_hive WITH ('type' = 'hive');
SHOW CATALOGS;
CREATE DATABASE production_hive.analytics;
CREATE TABLE production_hive.analytics.mytable (name STRING, age INT);
CREATE TABLE production_hive.analytics.myparttable (name STRING, age INT) PARTITIONED BY (`date` STRING);
INSERT INTO production_hive.analytics.mytable SELECT 'Tom', 25;
INSERT OVERWRITE production_hive.analytics.mytable SELECT 'Tom', 26;
INSERT INTO production_hive.analytics.myparttable PARTITION (`date`='2026-01-01') SELECT 'Tom', 25;
INSERT OVERWRITE production_hive.analytics.myparttable PARTITION (`date`='2026-01-01') SELECT 'Ann', 31;
SELECT * FROM production_hive.analytics.mytable;
SELECT * FROM production_hive.analytics.myparttable WHERE `date`='2026-01-01';
-- the second catalog's tables are not in the first
SHOW TABLES;
USE CATALOG production_hive;
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
USE analytics;
SHOW TABLES;
SELECT name FROM mytable;
-- a catalog opened on the session's warehouse, with a default database
CREATE DATABASE hive.sales;
CREATE CATALOG local_hive WITH ('type' = 'hive', 'default-database' = 'sales');
USE CATALOG local_hive;
SHOW CURRENT DATABASE;
USE hive.default;
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
-- sh: find wh2 -type f | grep -v metastore | sed 's/part-.*/part-.../' | sort
-- Errors: nothing is created, and the session goes on as before.
CREATE CATALOG bad WITH ('type' = 'hive', 'hive-conf-dir' = 'nosuch');
-- run
CREATE CATALOG bad WITH ('type' = 'jdbc');
-- run
CREATE CATALOG bad WITH ('hive-conf-dir' = 'conf');
-- run
CREATE CATALOG bad WITH ('type' = 'hive', 'hive.metastore.uris' = 'thrift://127.0.0.1:9083');
-- run
CREATE CATALOG bad WITH ('type' = 'hive', 'hive-version' = '9.9');
-- run
CREATE CATALOG bad WITH ('type' = 'hive', 'default-database' = 'nosuch');
-- run
CREATE CATALOG bad WITH ('type' = 'hive', 'hadoop-conf-dir' = 'conf');
-- run
CREATE CATALOG c WITH ('type' = 'hive');
CREATE CATALOG c WITH ('type' = 'hive');
-- run
SELECT * FROM nosuch.db.t;
-- run
USE CATALOG nosuch;
-- run
ALTER TABLE hive.default.t RENAME TO other.default.t;
-- run
SHOW CATALOGS;
