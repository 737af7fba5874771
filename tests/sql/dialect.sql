-- format: tsv
-- SET 'table.sql-dialect'='hive' switches string literals to Hive's
-- escapes from the next statement on; TSV escapes tabs and newlines.
CREATE TABLE s (a STRING, b DOUBLE) PARTITIONED BY (p INT);
INSERT INTO s PARTITION (p=1) VALUES ('x\ty', 1);
SET 'table.sql-dialect' = 'hive';
INSERT INTO s PARTITION (p=2) VALUES ('x\ty', 2.5), ("double", NULL);
SELECT * FROM s;
SET;
