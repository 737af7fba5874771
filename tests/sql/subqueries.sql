-- Sub-queries in FROM, WITH and UNION [ALL]: each is a derived relation
-- whose rows stream into the outer query (nothing is held: a derived
-- relation larger than chive.exec.operator-memory reads as well), which
-- reads it as a table without partitions.  UNION's columns take
-- the common type of each pair; UNION removes duplicates, UNION ALL keeps
-- them; ORDER BY and LIMIT after a UNION apply to all of its rows.
CREATE TABLE t (a INT, b STRING, amount DOUBLE) PARTITIONED BY (dt STRING);
INSERT INTO t VALUES (1, 'x', 5.5, 'd1'), (2, 'y', 20, 'd1'), (3, NULL, NULL, 'd2'), (NULL, 'x', 11, 'd2'), (2, NULL, 1, 'd2');
SELECT * FROM (SELECT a, b FROM t WHERE dt = 'd2') s ORDER BY a;
SELECT s.b, count(*) AS n FROM (SELECT b, a * 10 AS a10 FROM t) s WHERE s.a10 > 10 GROUP BY s.b ORDER BY n DESC, b;
SELECT count(*), sum(x) FROM (SELECT a + 1 AS x FROM t) AS s;
SELECT * FROM (SELECT a FROM t ORDER BY a DESC LIMIT 2) s;
SELECT * FROM (SELECT * FROM (SELECT a, dt FROM t WHERE a > 1) i WHERE dt = 'd2') o;
SELECT _c0 FROM (SELECT upper(b) FROM t WHERE b IS NOT NULL) s ORDER BY 1;
-- WITH: a query sees the ones before it; one named twice runs once
WITH big AS (SELECT a, amount FROM t WHERE amount > 5), n AS (SELECT count(*) AS n FROM big) SELECT * FROM n;
WITH w AS (SELECT a FROM t WHERE dt = 'd1') SELECT a FROM w UNION ALL SELECT a * 10 FROM w;
WITH w AS (SELECT b FROM t) SELECT DISTINCT b FROM w x WHERE x.b IS NOT NULL ORDER BY b;
SELECT * FROM (WITH v AS (SELECT 7 AS seven) SELECT seven FROM v) s;
-- UNION ALL and UNION, with common types and ORDER BY/LIMIT over the whole
SELECT a FROM t UNION ALL SELECT a + 100 FROM t WHERE a > 2;
SELECT b FROM t UNION SELECT 'z' ORDER BY b LIMIT 3;
SELECT a, b FROM t UNION ALL SELECT 2.5, 7 ORDER BY a DESC;
SELECT dt FROM t UNION SELECT dt FROM t UNION ALL SELECT 'd1' ORDER BY dt;
SELECT count(*) FROM (SELECT a FROM t UNION ALL SELECT a FROM t) u;
SELECT DISTINCT * FROM t ORDER BY a;
EXPLAIN WITH w AS (SELECT a FROM t WHERE dt = 'd1') SELECT * FROM (SELECT a FROM w UNION ALL SELECT a FROM t) u WHERE a > 1;
EXPLAIN SELECT b FROM t UNION SELECT 'z' ORDER BY b LIMIT 3;
-- INSERT and CTAS take a UNION ALL branch by branch; ORDER BY in INSERT.
-- One writer (sink.parallelism), so that the files counted below do not
-- depend on which reader thread reads which split.
SET 'sink.parallelism' = '1';
CREATE TABLE u (a INT, b STRING);
INSERT INTO u SELECT a, b FROM t WHERE dt = 'd1' UNION ALL SELECT a, 'lit' FROM t WHERE a = 3;
INSERT INTO u SELECT a, b FROM (SELECT a, b FROM t ORDER BY a LIMIT 1) s;
SELECT * FROM u ORDER BY a;
CREATE TABLE c AS SELECT a FROM t WHERE a = 1 UNION ALL SELECT 2.5;
DESCRIBE c;
SELECT * FROM c ORDER BY a;
-- sh: for d in u c; do echo "$d: $(ls $WH/$d | grep -c '^part-') data files"; done
-- errors name the relation, the branch or the column
SELECT a FROM t UNION ALL SELECT a, b FROM t;
-- run
SELECT a FROM t UNION SELECT DATE '2020-01-01' FROM t;
-- run
SELECT * FROM (SELECT a, a FROM t) s;
-- run
SELECT nosuch FROM (SELECT a FROM t) s;
-- run
SELECT t.a FROM (SELECT a FROM t) s;
-- run
WITH w AS (SELECT a FROM t), w AS (SELECT b FROM t) SELECT * FROM w;
-- run
WITH w AS (SELECT a FROM w) SELECT * FROM w;
-- run
SELECT * FROM (SELECT a FROM nosuch) s;
-- run
-- sh: seq 1 100000 > nums.txt
CREATE TABLE nums (id INT);
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE nums;
SET 'chive.exec.operator-memory' = '1mb';
SELECT count(*) FROM (SELECT id, cast(id AS STRING) AS s FROM nums UNION ALL SELECT id, 'x' FROM nums) u;
-- run
SELECT count(*), min(id), max(id) FROM (SELECT id FROM nums UNION ALL SELECT id FROM nums) u;
