-- Window functions: ranking, NTILE, LAG/LEAD, FIRST/LAST_VALUE and the
-- aggregates over ROWS and RANGE frames, with NULLs in the partition
-- keys, the order keys and the values, and ties; windows over GROUP BY;
-- the sort windows share; the top-N of ROW_NUMBER; the errors.
CREATE TABLE t (id INT, k STRING, v INT, x DOUBLE, d DECIMAL(6,2));
INSERT INTO t VALUES (1, 'a', 10, 1.5, 1.10), (2, 'a', 20, NULL, 2.20), (3, 'a', 20, 3.0, NULL), (4, 'a', NULL, 4.0, 4.40), (5, 'b', 5, NULL, 5.50), (6, 'b', NULL, 6.5, NULL), (7, NULL, 7, 7.0, 7.70), (8, NULL, NULL, NULL, 8.80), (9, 'c', 1, 9.0, 9.90);
SELECT id, k, v, row_number() OVER (PARTITION BY k ORDER BY v, id) AS rn, rank() OVER (PARTITION BY k ORDER BY v) AS r, dense_rank() OVER (PARTITION BY k ORDER BY v) AS dr, percent_rank() OVER (PARTITION BY k ORDER BY v) AS pr, cume_dist() OVER (PARTITION BY k ORDER BY v) AS cd FROM t;
SELECT id, ntile(2) OVER (PARTITION BY k ORDER BY id) AS a, ntile(4) OVER (ORDER BY id) AS b, ntile(20) OVER (ORDER BY id DESC) AS c FROM t ORDER BY id;
SELECT id, k, lag(v) OVER (PARTITION BY k ORDER BY id) AS a, lag(v, 2, -1) OVER (PARTITION BY k ORDER BY id) AS b, lead(x) OVER (PARTITION BY k ORDER BY id) AS c, lead(k, 1, 'end') OVER (ORDER BY id) AS e, lag(d, 1, 0) OVER (ORDER BY id) AS f FROM t ORDER BY id;
SELECT id, first_value(v) OVER (PARTITION BY k ORDER BY id) AS f, last_value(v) OVER (PARTITION BY k ORDER BY id) AS l, first_value(x, true) OVER (PARTITION BY k ORDER BY id) AS fs, last_value(x, true) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS ls, last_value(v) OVER (PARTITION BY k ORDER BY v) AS peers FROM t ORDER BY id;
SELECT id, count(*) OVER (PARTITION BY k) AS n, count(v) OVER (PARTITION BY k) AS c, sum(v) OVER (PARTITION BY k) AS s, avg(x) OVER (PARTITION BY k) AS a, min(d) OVER (PARTITION BY k) AS mi, max(k) OVER () AS mk, sum(d) OVER (PARTITION BY k) AS sd, avg(d) OVER () AS ad, count(DISTINCT v) OVER () AS dv FROM t ORDER BY id;
SELECT id, v, sum(v) OVER (ORDER BY v) AS running, count(*) OVER (ORDER BY v RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest, sum(v) OVER (ORDER BY v RANGE BETWEEN CURRENT ROW AND CURRENT ROW) AS peers FROM t ORDER BY v, id;
SELECT id, sum(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s3, avg(v) OVER (ORDER BY id ROWS 2 PRECEDING) AS a3, sum(x) OVER (ORDER BY id ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING) AS ahead, count(v) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING) AS behind, min(v) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS mi, sum(d) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS sd, max(v) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS tail FROM t ORDER BY id;
SELECT k, count(*) AS n, sum(v) AS s, rank() OVER (ORDER BY sum(v) DESC) AS r, sum(count(*)) OVER () AS total FROM t GROUP BY k HAVING count(*) > 1;
SELECT id, rank() OVER w AS r, sum(v) OVER w AS s, lag(id) OVER (w ORDER BY id) AS l FROM t WINDOW w AS (PARTITION BY k ORDER BY v) ORDER BY id;
SELECT id, v - lag(v) OVER (ORDER BY id) AS delta, 10 * row_number() OVER (ORDER BY id DESC) AS r FROM t WHERE id > 2 ORDER BY r LIMIT 3;
SELECT * FROM (SELECT k, id, v, row_number() OVER (PARTITION BY k ORDER BY v DESC, id) AS rn FROM t) s WHERE rn <= 2;
SELECT * FROM (SELECT k, id, rank() OVER (PARTITION BY k ORDER BY v) AS r FROM t) s WHERE r < 2;
EXPLAIN SELECT id, row_number() OVER (PARTITION BY k ORDER BY v, id) AS a, sum(v) OVER (PARTITION BY k ORDER BY v) AS b, count(*) OVER (PARTITION BY k) AS c, avg(x) OVER (ORDER BY id) AS e FROM t;
EXPLAIN SELECT * FROM (SELECT k, id, row_number() OVER (PARTITION BY k ORDER BY v DESC) AS rn FROM t) s WHERE rn = 1;
EXPLAIN SELECT * FROM (SELECT k, id, row_number() OVER (PARTITION BY k ORDER BY v DESC) AS rn, count(*) OVER (PARTITION BY k) AS n FROM t) s WHERE rn = 1;
CREATE VIEW ranked AS SELECT k, id, row_number() OVER (PARTITION BY k ORDER BY id DESC) AS rn, sum(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM t;
SHOW CREATE TABLE ranked;
SELECT * FROM ranked WHERE rn = 1;
CREATE TABLE top1 AS SELECT k, id FROM (SELECT k, id, row_number() OVER (PARTITION BY k ORDER BY id) AS rn FROM t) s WHERE rn = 1;
SELECT * FROM top1 ORDER BY id;
-- run
SELECT id FROM t WHERE row_number() OVER (ORDER BY id) > 1;
-- run
SELECT k, count(*) FROM t GROUP BY k HAVING rank() OVER (ORDER BY k) > 1;
-- run
SELECT rank() FROM t;
-- run
SELECT upper(k) OVER () FROM t;
-- run
SELECT rank() OVER (PARTITION BY k) FROM t;
-- run
SELECT ntile(0) OVER (ORDER BY id) FROM t;
-- run
SELECT lag(v, -1) OVER (ORDER BY id) FROM t;
-- run
SELECT row_number() OVER (ORDER BY id ROWS UNBOUNDED PRECEDING) FROM t;
-- run
SELECT sum(v) OVER (ORDER BY id ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t;
-- run
SELECT sum(v) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t;
-- run
SELECT sum(v) OVER (ORDER BY v, id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t;
-- run
SELECT sum(v) OVER w FROM t;
-- run
SELECT sum(row_number() OVER (ORDER BY id)) FROM t;
-- run
SELECT k, sum(v) OVER (PARTITION BY k) FROM t GROUP BY k;
-- run
SELECT first_value(v, 1) OVER (ORDER BY id) FROM t;
-- run
SELECT sum(v) OVER (ORDER BY id ROWS BETWEEN v PRECEDING AND CURRENT ROW) FROM t;
-- run
-- A window holds its rows within chive.exec.operator-memory; the top-N of
-- ROW_NUMBER holds about its rows of each partition.
-- sh: seq 1 300000 > many.txt
CREATE TABLE many (id INT);
LOAD DATA LOCAL INPATH 'many.txt' INTO TABLE many;
SET 'chive.exec.operator-memory' = '1mb';
SELECT count(*) FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM many) s;
-- run
SET 'chive.exec.operator-memory' = '1mb';
SELECT * FROM (SELECT id % 3 AS g, id, row_number() OVER (PARTITION BY id % 3 ORDER BY id DESC) AS rn FROM many) s WHERE rn <= 2;
SELECT g, count(*), max(rn) FROM (SELECT id % 4 AS g, rank() OVER (PARTITION BY id % 4 ORDER BY id % 1000) AS rn FROM many) s WHERE rn <= 300 GROUP BY g ORDER BY g;
