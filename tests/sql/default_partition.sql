-- format: csv
-- Pruning in the metastore agrees with the rows: the default partition is
-- NULL on non-string keys (also under a custom
-- hive.exec.default.partition.name) and its name on string keys, as Flink
-- reads it.  Each predicate runs pruned, then with "OR id = -1", which
-- keeps it off the metastore and evaluates it on the rows: both agree.
CREATE TABLE s (id INT) PARTITIONED BY (k STRING);
INSERT INTO s PARTITION (k) VALUES (1, NULL), (2, 'a'), (3, '');
SELECT id, k FROM s WHERE k IS NULL ORDER BY id;
SELECT id, k FROM s WHERE k IS NULL OR id = -1 ORDER BY id;
SELECT id, k FROM s WHERE k IS NOT NULL ORDER BY id;
SELECT id, k FROM s WHERE k IS NOT NULL OR id = -1 ORDER BY id;
SELECT id, k FROM s WHERE k = '__HIVE_DEFAULT_PARTITION__' ORDER BY id;
SELECT id, k FROM s WHERE k = '__HIVE_DEFAULT_PARTITION__' OR id = -1 ORDER BY id;
SELECT id, k FROM s WHERE k <> 'a' ORDER BY id;
SELECT id, k FROM s WHERE k <> 'a' OR id = -1 ORDER BY id;
CREATE TABLE d (id INT) PARTITIONED BY (k DATE);
INSERT INTO d PARTITION (k) VALUES (1, NULL), (2, DATE '2026-01-01');
SET 'hive.exec.default.partition.name' = 'none';
INSERT INTO d PARTITION (k) VALUES (3, NULL);
SELECT id, k FROM d WHERE k IS NULL ORDER BY id;
SELECT id, k FROM d WHERE k IS NULL OR id = -1 ORDER BY id;
SELECT id, k FROM d WHERE k IS NOT NULL ORDER BY id;
SELECT id, k FROM d WHERE k IS NOT NULL OR id = -1 ORDER BY id;
SELECT id, k FROM d WHERE k > DATE '2020-01-01' ORDER BY id;
SELECT id, k FROM d WHERE k > DATE '2020-01-01' OR id = -1 ORDER BY id;
SELECT id, k FROM d WHERE k <> DATE '2026-01-02' ORDER BY id;
SELECT id, k FROM d WHERE k <> DATE '2026-01-02' OR id = -1 ORDER BY id;
CREATE TABLE n (id INT) PARTITIONED BY (k INT);
INSERT INTO n PARTITION (k) VALUES (1, NULL), (2, 5);
SELECT id, k FROM n WHERE k IS NULL ORDER BY id;
SELECT id, k FROM n WHERE k IS NULL OR id = -1 ORDER BY id;
SELECT id, k FROM n WHERE k >= 0 ORDER BY id;
SELECT id, k FROM n WHERE k >= 0 OR id = -1 ORDER BY id;
-- sh: ls "$WH/d" "$WH/n"
