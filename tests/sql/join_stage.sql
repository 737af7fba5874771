-- A join's probe runs on the reader threads of the scan of its probe side
-- (with its Filter and Project) when that scan reads on several threads
-- and the build side is held in memory: INNER, a LEFT join preserving the
-- probe side, SEMI and ANTI, with keys of expressions, NULL keys and
-- residual conditions; the results are the main thread's (one reader),
-- and a build side past the memory bound is partitioned as before
-- run
CREATE TABLE pf (id INT, k INT, s STRING) PARTITIONED BY (p INT) STORED AS PARQUET;
INSERT INTO pf PARTITION (p=1) VALUES (1, 1, 'a'), (2, 2, 'b'), (3, NULL, 'c'), (4, 1, NULL);
INSERT INTO pf PARTITION (p=2) VALUES (5, 2, 'e'), (6, 3, 'f'), (7, 9, 'g');
INSERT INTO pf PARTITION (p=3) VALUES (8, 1, 'h'), (9, NULL, NULL), (10, 4, 'j');
INSERT INTO pf PARTITION (p=4) VALUES (11, 2, 'k'), (12, 3, 'l');
CREATE TABLE bd (k INT, name STRING) STORED AS TEXTFILE;
INSERT INTO bd VALUES (1, 'one'), (2, 'two'), (2, 'deux'), (3, NULL), (NULL, 'none'), (5, 'five');
SET 'table.exec.hive.infer-source-parallelism.max' = '4';
EXPLAIN ANALYZE SELECT pf.id, bd.name FROM pf JOIN bd ON pf.k = bd.k;
-- run
SET 'table.exec.hive.infer-source-parallelism.max' = '4';
SELECT pf.id, bd.name FROM pf JOIN bd ON pf.k = bd.k ORDER BY pf.id, bd.name;
SELECT pf.id, pf.s, bd.name FROM pf JOIN bd ON pf.k + 1 = bd.k + 1 AND bd.name <> 'deux' WHERE pf.id <> 5 ORDER BY pf.id, bd.name;
SELECT pf.id, bd.k, bd.name FROM pf LEFT JOIN bd ON pf.k = bd.k ORDER BY pf.id, bd.name;
SELECT pf.id, bd.name FROM pf LEFT JOIN bd ON pf.k = bd.k AND pf.s > 'b' ORDER BY pf.id, bd.name;
SELECT pf.id FROM pf LEFT SEMI JOIN bd ON pf.k = bd.k ORDER BY pf.id;
SELECT pf.id FROM pf LEFT SEMI JOIN bd ON pf.k = bd.k AND bd.name > 'o' ORDER BY pf.id;
SELECT pf.id FROM pf WHERE NOT EXISTS (SELECT 1 FROM bd WHERE bd.k = pf.k) ORDER BY pf.id;
SELECT pf.id FROM pf WHERE NOT EXISTS (SELECT 1 FROM bd WHERE bd.k = pf.k AND bd.name <> 'one') ORDER BY pf.id;
SELECT pf.id FROM pf WHERE pf.k NOT IN (SELECT k FROM bd WHERE k IS NOT NULL) ORDER BY pf.id;
SELECT count(*), sum(pf.id) FROM pf JOIN bd ON pf.k = bd.k JOIN bd b2 ON bd.name = b2.name;
-- The same on one reader: the main thread probes
-- run
SET 'table.exec.hive.infer-source-parallelism.max' = '1';
SELECT pf.id, bd.name FROM pf JOIN bd ON pf.k = bd.k ORDER BY pf.id, bd.name;
SELECT pf.id, pf.s, bd.name FROM pf JOIN bd ON pf.k + 1 = bd.k + 1 AND bd.name <> 'deux' WHERE pf.id <> 5 ORDER BY pf.id, bd.name;
SELECT pf.id, bd.k, bd.name FROM pf LEFT JOIN bd ON pf.k = bd.k ORDER BY pf.id, bd.name;
SELECT pf.id, bd.name FROM pf LEFT JOIN bd ON pf.k = bd.k AND pf.s > 'b' ORDER BY pf.id, bd.name;
SELECT pf.id FROM pf LEFT SEMI JOIN bd ON pf.k = bd.k ORDER BY pf.id;
SELECT pf.id FROM pf LEFT SEMI JOIN bd ON pf.k = bd.k AND bd.name > 'o' ORDER BY pf.id;
SELECT pf.id FROM pf WHERE NOT EXISTS (SELECT 1 FROM bd WHERE bd.k = pf.k) ORDER BY pf.id;
SELECT pf.id FROM pf WHERE NOT EXISTS (SELECT 1 FROM bd WHERE bd.k = pf.k AND bd.name <> 'one') ORDER BY pf.id;
SELECT pf.id FROM pf WHERE pf.k NOT IN (SELECT k FROM bd WHERE k IS NOT NULL) ORDER BY pf.id;
SELECT count(*), sum(pf.id) FROM pf JOIN bd ON pf.k = bd.k JOIN bd b2 ON bd.name = b2.name;
-- A build side past the memory bound is partitioned, and the main thread
-- probes the partitions: the same rows
-- run
CREATE TABLE bb AS SELECT a.id * 1000000 + b.id * 10000 + c.id * 100 + d.id AS k, concat('padding padding padding ', cast(a.id AS STRING)) AS name FROM pf a, pf b, pf c, pf d;
SET 'table.exec.hive.infer-source-parallelism.max' = '4';
SELECT count(*), sum(b1.k), count(DISTINCT b2.name) FROM bb b1 JOIN bb b2 ON b1.k = b2.k JOIN pf ON pf.id = b2.k % 100;
SELECT count(*), sum(b1.k) FROM bb b1 LEFT SEMI JOIN bb b2 ON b1.k = b2.k + 1;
SET 'chive.exec.operator-memory' = '64kb';
SELECT count(*), sum(b1.k), count(DISTINCT b2.name) FROM bb b1 JOIN bb b2 ON b1.k = b2.k JOIN pf ON pf.id = b2.k % 100;
SELECT count(*), sum(b1.k) FROM bb b1 LEFT SEMI JOIN bb b2 ON b1.k = b2.k + 1;
EXPLAIN ANALYZE SELECT count(*) FROM bb b1 LEFT SEMI JOIN bb b2 ON b1.k = b2.k + 1;
-- A chain of joins probes on the reader threads, each join the rows of the
-- one below; when one's build side is partitioned, the stage ends below it
-- and it and what is above it run on the main thread: the same rows
-- run
SET 'table.exec.hive.infer-source-parallelism.max' = '4';
EXPLAIN ANALYZE SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1;
SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1;
SET 'chive.exec.operator-memory' = '64kb';
EXPLAIN ANALYZE SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1;
SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1;
SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN bb b2 ON b2.k = b1.k - 1 JOIN pf ON pf.id = b1.k % 100 + 1 LEFT JOIN bd ON bd.k = pf.k;
SET 'table.exec.hive.infer-source-parallelism.max' = '1';
SET 'chive.exec.operator-memory' = '64mb';
SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1;
SELECT count(*), sum(b1.k), count(DISTINCT b2.name), sum(pf.id) FROM bb b1 JOIN bb b2 ON b2.k = b1.k - 1 JOIN pf ON pf.id = b1.k % 100 + 1 LEFT JOIN bd ON bd.k = pf.k;
-- The Aggregate of a staged chain's rows takes a partial per split on the
-- reader threads, merged in split order; unstaged, the main thread's
-- run
SET 'table.exec.hive.infer-source-parallelism.max' = '4';
SELECT bd.name, count(*), sum(pf.id), min(pf.s) FROM pf JOIN bd ON pf.k = bd.k GROUP BY bd.name ORDER BY bd.name;
SELECT pf.s, count(bd.k), count(*) FROM pf LEFT JOIN bd ON pf.k = bd.k GROUP BY pf.s ORDER BY pf.s;
SELECT b2.k % 7, count(*), sum(b1.k) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1 GROUP BY b2.k % 7 ORDER BY 1;
SET 'chive.exec.operator-memory' = '64kb';
SELECT b2.k % 7, count(*), sum(b1.k) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1 GROUP BY b2.k % 7 ORDER BY 1;
SET 'table.exec.hive.infer-source-parallelism.max' = '1';
SET 'chive.exec.operator-memory' = '64mb';
SELECT bd.name, count(*), sum(pf.id), min(pf.s) FROM pf JOIN bd ON pf.k = bd.k GROUP BY bd.name ORDER BY bd.name;
SELECT pf.s, count(bd.k), count(*) FROM pf LEFT JOIN bd ON pf.k = bd.k GROUP BY pf.s ORDER BY pf.s;
SELECT b2.k % 7, count(*), sum(b1.k) FROM bb b1 JOIN pf ON pf.id = b1.k % 100 + 1 JOIN bb b2 ON b2.k = b1.k - 1 GROUP BY b2.k % 7 ORDER BY 1;
-- A build side with a key of more than 64 rows is probed on the main
-- thread, a bounded number of pairs at a time: the same rows
-- run
CREATE TABLE dup AS SELECT 1 AS k, b.k AS v FROM bb b WHERE b.k < 2000000;
SET 'table.exec.hive.infer-source-parallelism.max' = '4';
SELECT count(*), sum(dup.v), sum(pf.id) FROM pf JOIN dup ON pf.k = dup.k;
SELECT count(*), sum(x.v) FROM pf JOIN dup ON pf.k = dup.k JOIN (SELECT k, v FROM dup WHERE v % 2 = 0) x ON x.k = pf.k;
SELECT count(*), sum(dup.v), sum(bb.k) FROM bb JOIN dup ON bb.k - 1010100 = dup.k;
SET 'table.exec.hive.infer-source-parallelism.max' = '1';
SELECT count(*), sum(dup.v), sum(pf.id) FROM pf JOIN dup ON pf.k = dup.k;
SELECT count(*), sum(x.v) FROM pf JOIN dup ON pf.k = dup.k JOIN (SELECT k, v FROM dup WHERE v % 2 = 0) x ON x.k = pf.k;
SELECT count(*), sum(dup.v), sum(bb.k) FROM bb JOIN dup ON bb.k - 1010100 = dup.k;
