-- JOIN ... USING and NATURAL JOIN: the USING columns once, first, in *
-- (the left side's value for INNER, LEFT and the semi joins, the right's
-- for RIGHT, COALESCE of both for FULL), unqualified names of them not
-- ambiguous, qualified ones reading their side; NULL keys match nothing.
-- DuckDB checks the rows (tests/peer/join_compat.js).
CREATE TABLE l (k INT, g STRING, v INT) STORED AS PARQUET;
INSERT INTO l VALUES (1, 'a', 10), (2, 'b', 20), (2, NULL, 21), (NULL, 'a', 30), (4, 'd', NULL);
CREATE TABLE r (k BIGINT, w INT, g STRING) STORED AS ORC;
INSERT INTO r VALUES (1, 100, 'a'), (2, 200, NULL), (3, 300, 'c'), (NULL, 400, 'a'), (1, NULL, 'x');
CREATE TABLE p (w INT) PARTITIONED BY (k INT) STORED AS TEXTFILE;
INSERT INTO p PARTITION (k=1) VALUES (7);
INSERT INTO p PARTITION (k=3) VALUES (8), (NULL);
-- run
SELECT * FROM l JOIN r USING (k) ORDER BY k, v, w;
-- run
SELECT * FROM l LEFT JOIN r USING (k) ORDER BY k, v, w;
-- run
SELECT * FROM l RIGHT JOIN r USING (k) ORDER BY k, v, w;
-- run
SELECT * FROM l FULL JOIN r USING (k) ORDER BY k, v, w;
-- two columns: a NULL in either does not match
-- run
SELECT * FROM l INNER JOIN r USING (k, g) ORDER BY k, v, w;
-- run
SELECT * FROM l FULL OUTER JOIN r USING (g, k) ORDER BY g, k, v, w;
-- NATURAL: every name the two sides share (here k and g)
-- run
SELECT * FROM l NATURAL JOIN r ORDER BY k, v;
-- run
SELECT * FROM l NATURAL LEFT JOIN r ORDER BY k, g, v;
-- run
SELECT * FROM l NATURAL RIGHT OUTER JOIN r ORDER BY k, g, w;
-- run
SELECT * FROM l NATURAL FULL JOIN r ORDER BY k, g, v, w;
-- Hive's semi joins: the left's rows, the USING column first
-- run
SELECT * FROM l LEFT SEMI JOIN r USING (k) ORDER BY k, v;
-- run
SELECT * FROM l LEFT ANTI JOIN r USING (k) ORDER BY k, v;
-- unqualified: the join's value (COALESCE for FULL); qualified: its side's
-- run
SELECT k, l.k AS lk, r.k AS rk, v, w FROM l FULL JOIN r USING (k) ORDER BY k, lk, rk, v, w;
-- run
SELECT k, l.k AS lk, r.k AS rk FROM l RIGHT JOIN r USING (k) ORDER BY k, lk, rk;
-- the USING column in WHERE, GROUP BY, ORDER BY and a window
-- run
SELECT k, count(*) AS n, sum(v) AS sv FROM l FULL JOIN r USING (k) WHERE k IS NULL OR k < 3 GROUP BY k ORDER BY k;
-- run
SELECT k, v, sum(w) OVER (PARTITION BY k ORDER BY v) AS s FROM l LEFT JOIN r USING (k) ORDER BY k, v, s;
-- l.* and r.* still give each side's columns
-- run
SELECT l.*, r.* FROM l JOIN r USING (k) ORDER BY l.v, r.w;
-- three relations: a USING join over a USING join, and over a partition key
-- run
SELECT * FROM (l FULL JOIN r USING (k)) FULL JOIN p USING (k) ORDER BY k, v, r.w, p.w;
-- run
SELECT k, v, p.w FROM l JOIN p USING (k) ORDER BY k, p.w;
-- run
EXPLAIN SELECT * FROM l JOIN p USING (k) WHERE k = 1;
-- run
EXPLAIN SELECT * FROM l FULL JOIN r USING (k);
-- sub-queries and WITH queries as the sides
-- run
WITH s AS (SELECT k, max(w) AS mw FROM r GROUP BY k) SELECT * FROM l JOIN s USING (k) ORDER BY k, v;
-- run
SELECT * FROM (SELECT k, v FROM l) x NATURAL FULL JOIN (SELECT k, w FROM r) y ORDER BY k, v, w;
-- run
SELECT count(*) AS n FROM l WHERE k IN (SELECT k FROM l FULL JOIN r USING (k) WHERE w > 150);
-- views over USING and NATURAL joins keep their columns (NATURAL becomes
-- USING of the columns it joined on)
-- run
CREATE VIEW vu AS SELECT * FROM l FULL JOIN r USING (k, g);
SHOW CREATE VIEW vu;
SELECT * FROM vu ORDER BY k, g, v, w;
-- run
CREATE VIEW vn AS SELECT k, v, w FROM l NATURAL RIGHT JOIN r WHERE k IS NOT NULL;
SHOW CREATE VIEW vn;
SELECT * FROM vn ORDER BY k, v, w;
-- DISTINCT * groups by each side's g apart (both are named g)
-- run
SELECT DISTINCT * FROM l RIGHT JOIN r USING (k) ORDER BY k, w, r.g;
-- errors
-- run
SELECT l.k, count(*) FROM l FULL JOIN r USING (k) GROUP BY k;
-- run
SELECT * FROM l JOIN r USING (zz);
-- run
SELECT * FROM l JOIN r USING (v);
-- run
SELECT * FROM l JOIN r USING (k, k);
-- run
SELECT g FROM l JOIN r USING (k);
-- run
SELECT k FROM (l JOIN r USING (k)) JOIN p ON p.w = l.v;
-- run
SELECT * FROM l NATURAL JOIN (SELECT 1 AS q) x;
-- run
SELECT * FROM (l JOIN r ON l.v = r.w) JOIN p USING (k);
-- run
SELECT * FROM l NATURAL CROSS JOIN r;
-- run
SELECT * FROM l JOIN r USING ();
-- run
SELECT * FROM l WHERE EXISTS (SELECT 1 FROM r JOIN p USING (k) WHERE r.w = l.v);
