-- Joins: the plan EXPLAIN shows (the order of inner joins, the build side,
-- conditions pushed into scans and partitions pruned), errors naming the
-- column or clause, and results over TEXTFILE and ORC tables with NULL
-- keys.  DuckDB checks the results of many more (tests/peer/join_compat.js).
CREATE TABLE fact (id INT, k INT, v DOUBLE) PARTITIONED BY (dt STRING) STORED AS PARQUET;
INSERT INTO fact PARTITION (dt='d1') VALUES (1, 1, 1.5), (2, 2, 2.5), (3, NULL, 3.5), (4, 1, NULL);
INSERT INTO fact PARTITION (dt='d2') VALUES (5, 2, 5.5), (6, 3, 6.5), (7, 9, 7.5);
CREATE TABLE dim (k INT, name STRING) STORED AS TEXTFILE;
INSERT INTO dim VALUES (1, 'one'), (2, 'two'), (2, 'deux'), (3, NULL), (NULL, 'none');
CREATE TABLE tiny (k BIGINT, tag STRING) STORED AS ORC;
INSERT INTO tiny VALUES (1, 'a'), (3, 'c'), (NULL, 'z');
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k ORDER BY f.id, d.name;
-- run
SELECT f.id, d.name, t.tag FROM fact f LEFT JOIN dim d ON f.k = d.k LEFT JOIN tiny t ON f.k = t.k ORDER BY f.id, d.name;
-- run
SELECT d.k, d.name, f.id FROM fact f RIGHT JOIN dim d ON f.k = d.k AND f.dt = 'd2' ORDER BY d.name, f.id;
-- run
SELECT f.id, t.k, t.tag FROM fact f FULL JOIN tiny t ON f.k = t.k ORDER BY f.id, t.tag;
-- run
SELECT f.id FROM fact f LEFT SEMI JOIN tiny t ON f.k = t.k ORDER BY f.id;
-- run
SELECT f.id FROM fact f LEFT ANTI JOIN tiny t ON f.k = t.k ORDER BY f.id;
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k <=> d.k ORDER BY f.id, d.name;
-- run
SELECT count(*) AS pairs FROM fact, dim;
-- the relation estimated largest (dim, 5 rows less a few for its filter)
-- probes; the others build, in order of size, each joined to what it has
-- an equality with
-- run
EXPLAIN SELECT f.id FROM dim d, tiny t, fact f WHERE f.k = d.k AND t.k = f.k AND f.dt = 'd1' AND d.name <> 'x';
-- a condition of one side goes into its scan (pruning partitions); one of
-- the left in a LEFT JOIN's ON stays in the join
-- run
EXPLAIN SELECT f.id, d.name FROM fact f LEFT JOIN dim d ON f.k = d.k AND f.v > 2 AND d.name > 'a' WHERE f.dt = 'd2';
-- run
EXPLAIN SELECT f.id FROM fact f LEFT SEMI JOIN dim d ON f.k = d.k AND d.name = 'two';
-- run
EXPLAIN ANALYZE SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k;
-- GROUP BY and DISTINCT tell columns of one name apart by their relation
-- run
SELECT DISTINCT f.k, d.k FROM fact f FULL JOIN tiny d ON f.k = d.k ORDER BY f.k, d.k;
-- run
SELECT min(f.k) AS a, min(t.k) AS b, count(DISTINCT f.k) AS c, count(DISTINCT t.k) AS d FROM fact f FULL JOIN tiny t ON f.k = t.k HAVING max(t.k) > max(f.k) - 10 ORDER BY min(t.k);
-- run
SELECT f.id, max(f.k) OVER () AS a, max(t.k) OVER () AS b, count(*) OVER (PARTITION BY f.k) AS n, count(*) OVER (PARTITION BY t.k) AS m FROM fact f LEFT JOIN tiny t ON f.k = t.k ORDER BY f.id;
-- run
SELECT f.k, t.k, count(*) AS n, GROUPING(t.k) AS gt FROM fact f FULL JOIN tiny t ON f.k = t.k GROUP BY ROLLUP (f.k, t.k) ORDER BY f.k, t.k, gt;
-- run
SELECT f.k, count(*) AS n FROM fact f JOIN dim d ON f.k = d.k GROUP BY d.k;
-- errors
-- run
SELECT k FROM fact JOIN dim ON fact.k = dim.k;
-- run
SELECT d.name FROM fact f LEFT SEMI JOIN dim d ON f.k = d.k;
-- run
SELECT d.* FROM fact f LEFT SEMI JOIN dim d ON f.k = d.k;
-- run
SELECT f.id FROM fact f JOIN dim d ON f.k;
-- run
SELECT f.id FROM fact f JOIN dim d ON count(*) > 1;
-- run
SELECT f.id FROM fact f JOIN dim d ON f.k = x.k;
-- run
SELECT f.id FROM fact f JOIN dim d ON f.k = d.nope;
-- run
SELECT f.id FROM fact f JOIN dim d ON f.k = d.k JOIN tiny t ON t.k = d.k AND f.id = x.id;
-- run
SELECT f.id FROM fact f LEFT SEMI JOIN dim d;
-- run
SELECT f.id FROM (fact f JOIN dim d ON f.k = d.k) JOIN tiny t ON t.k = f.k ORDER BY f.id;
-- run
SELECT f.id, t.tag FROM fact f LEFT JOIN (dim d JOIN tiny t ON d.k = t.k) ON f.k = d.k ORDER BY f.id;
-- run
CREATE VIEW vj AS SELECT f.id, t.tag FROM fact f LEFT JOIN (dim d JOIN tiny t ON d.k = t.k) ON f.k = d.k;
SELECT * FROM vj ORDER BY id;
SHOW CREATE TABLE vj;
-- a view over a join: its * and its names qualified in the expanded text
-- run
CREATE VIEW vs AS SELECT * FROM fact f LEFT SEMI JOIN tiny t ON f.k = t.k WHERE f.id > 1;
SELECT * FROM vs ORDER BY id;
CREATE VIEW vq AS SELECT id FROM fact f WHERE EXISTS (SELECT 1 FROM dim d WHERE d.k = f.k AND d.name = 'one') AND k IN (SELECT k FROM tiny WHERE k IS NOT NULL OR tag = 'z');
SELECT * FROM vq ORDER BY id;
DESCRIBE FORMATTED vs;
-- run
CREATE VIEW vbad AS SELECT k FROM fact JOIN dim ON fact.k = dim.k;
-- the build side is bounded by chive.exec.operator-memory: past it the join
-- partitions both sides to spill files (spill.sql) and joins them pair by pair
-- run
CREATE TABLE ten AS SELECT * FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) v(x);
CREATE TABLE big AS SELECT a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x AS k, concat('padding padding padding padding padding padding ', cast(a.x AS STRING)) AS pad FROM ten a, ten b, ten c, ten d, ten e;
SELECT count(*) FROM big;
SET 'chive.exec.operator-memory' = '1mb';
SELECT count(*) FROM big b1 JOIN big b2 ON b1.k = b2.k;
-- sub-queries of WHERE are joins: IN and EXISTS a semi join, NOT EXISTS an
-- anti join, NOT IN the anti join that knows NULLs, a correlated scalar
-- sub-query a left join to its rows grouped by the correlating columns
-- run
EXPLAIN SELECT f.id FROM fact f WHERE f.k IN (SELECT k FROM dim WHERE name > 'o');
-- run
EXPLAIN SELECT id FROM fact WHERE k NOT IN (SELECT k FROM tiny);
-- run
SELECT id FROM fact WHERE k NOT IN (SELECT k FROM tiny) ORDER BY id;
-- run
SELECT id FROM fact WHERE k NOT IN (SELECT k FROM tiny WHERE k IS NOT NULL) ORDER BY id;
-- run
EXPLAIN SELECT id FROM fact f WHERE NOT EXISTS (SELECT 1 FROM dim d WHERE d.k = f.k);
-- run
EXPLAIN SELECT id FROM fact f WHERE v > (SELECT avg(v) FROM fact f2 WHERE f2.k = f.k);
-- run
SELECT id FROM fact f WHERE v > (SELECT avg(v) FROM fact f2 WHERE f2.k = f.k) ORDER BY id;
-- run
SELECT id, (SELECT max(k) FROM tiny) AS m FROM fact WHERE id < 3 ORDER BY id;
-- run
SELECT id FROM fact WHERE v > (SELECT k FROM tiny);
-- run
SELECT id FROM fact WHERE v > (SELECT k, tag FROM tiny);
-- run
SELECT id FROM fact f WHERE k NOT IN (SELECT k FROM dim d WHERE d.name = f.dt);
-- run
SELECT id FROM fact f WHERE v > (SELECT avg(k) FROM dim d WHERE d.k < f.k);
-- run
SELECT id FROM fact f WHERE v > (SELECT avg(k) FROM dim d WHERE d.k = f.k GROUP BY name);
-- run
SELECT id, k IN (SELECT k FROM tiny) FROM fact;
-- run
SELECT id FROM fact WHERE id = 1 OR EXISTS (SELECT 1 FROM tiny);
-- run
SELECT id FROM fact WHERE k IN (SELECT k, tag FROM tiny);
-- an OR of conditions that every branch shares a key of: the key is the
-- join's, and each side gets the OR of its own conditions (TPC-H Q19)
-- run
EXPLAIN SELECT f.id FROM fact f, dim d WHERE (f.k = d.k AND f.v > 2 AND d.name = 'one') OR (d.k = f.k AND f.v < 2 AND d.name = 'two');
-- run
SELECT f.id, d.name FROM fact f, dim d WHERE (f.k = d.k AND f.v > 2 AND d.name = 'one') OR (d.k = f.k AND f.v < 2 AND d.name = 'two') OR (f.k = d.k AND d.name IS NULL) ORDER BY f.id;
-- A semi, anti or NOT IN join whose condition reads one relation of a
-- group of inner joins goes down onto that relation: fact is filtered by
-- the sub-query before it joins dim (TPC-H Q18), the results as written
-- run
EXPLAIN SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE f.id IN (SELECT k FROM tiny);
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE f.id IN (SELECT k FROM tiny) ORDER BY f.id, d.name;
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE f.id NOT IN (SELECT k FROM tiny WHERE k IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM tiny t WHERE t.k = d.k) ORDER BY f.id, d.name;
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE f.id NOT IN (SELECT k FROM tiny) ORDER BY f.id, d.name;
-- The joins of a group are chosen pair by pair, the pair giving the
-- fewest rows first: the two small tables join each other before the big
-- one probes their result
-- run
EXPLAIN SELECT count(*) FROM big b JOIN ten t1 ON b.k = t1.x JOIN ten t2 ON t1.x = t2.x JOIN fact f ON f.k = b.k;
-- run
SELECT count(*), sum(f.id) FROM big b JOIN ten t1 ON b.k = t1.x JOIN ten t2 ON t1.x = t2.x JOIN fact f ON f.k = b.k;
