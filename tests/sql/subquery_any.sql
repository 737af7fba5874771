-- Sub-queries in every position.  An IN or EXISTS sub-query that reads
-- nothing of the query around it runs once while the query is planned
-- (also under EXPLAIN); IN holds its values in a hash set and answers with
-- SQL's three values: x NULL gives NULL unless the sub-query gives no row
-- (then FALSE), a value not found gives NULL when the sub-query gives a
-- NULL.  DuckDB checks many more (tests/peer/subquery_compat.js).
CREATE TABLE o (id INT, x INT, s STRING) PARTITIONED BY (dt STRING);
INSERT INTO o VALUES (1, 1, 'a', 'd1'), (2, 2, 'b', 'd1'), (3, NULL, NULL, 'd2'), (4, 4, 'd', 'd2'), (5, 1, 'a', 'd2');
CREATE TABLE i (y BIGINT, t STRING, g INT) STORED AS ORC;
INSERT INTO i VALUES (1, 'a', 1), (3, NULL, 1), (NULL, 'z', 2), (4, 'd', 2), (1, 'b', 3);
-- run
-- in the select list: with a NULL among the values, without, and none
SELECT id, x, x IN (SELECT y FROM i) AS any_null, x IN (SELECT y FROM i WHERE y IS NOT NULL) AS no_null, x IN (SELECT y FROM i WHERE y > 100) AS empty FROM o ORDER BY id;
SELECT id, x, x NOT IN (SELECT y FROM i) AS any_null, x NOT IN (SELECT y FROM i WHERE y IS NOT NULL) AS no_null, x NOT IN (SELECT y FROM i WHERE y > 100) AS empty FROM o ORDER BY id;
SELECT id, s IN (SELECT t FROM i) AS st, EXISTS (SELECT 1 FROM i WHERE g = 3) AS e, NOT EXISTS (SELECT 1 FROM i WHERE g = 9) AS ne FROM o ORDER BY id;
-- under OR, NOT and CASE; a partition key's IN stays a filter
SELECT id FROM o WHERE x > 3 OR x IN (SELECT y FROM i WHERE g = 1) ORDER BY id;
SELECT id FROM o WHERE NOT (x IN (SELECT y FROM i WHERE y IS NOT NULL)) OR s IS NULL ORDER BY id;
SELECT id FROM o WHERE dt IN (SELECT 'd1') OR EXISTS (SELECT 1 FROM i WHERE g > 5) ORDER BY id;
SELECT id, CASE WHEN x IN (SELECT y FROM i) THEN 'in' WHEN x NOT IN (SELECT y FROM i) THEN 'out' ELSE 'unknown' END AS c FROM o ORDER BY id;
-- two sub-queries in aggregates are two aggregates
SELECT sum(CASE WHEN x IN (SELECT y FROM i) THEN 1 ELSE 0 END) AS a, sum(CASE WHEN x IN (SELECT 4) THEN 1 ELSE 0 END) AS b, sum(x * (SELECT max(y) FROM i)) AS c, sum(x * (SELECT min(y) FROM i)) AS d FROM o;
-- in HAVING and in ON
SELECT dt, count(*) AS n FROM o GROUP BY dt HAVING count(*) IN (SELECT y FROM i) ORDER BY dt;
SELECT x, count(*) AS n FROM o GROUP BY x HAVING x NOT IN (SELECT y FROM i WHERE g = 2) ORDER BY x;
SELECT x, count(*) AS n FROM o GROUP BY x HAVING x NOT IN (SELECT y FROM i WHERE g = 3) ORDER BY x;
SELECT o.id, i.t FROM o LEFT JOIN i ON o.x = i.y AND i.g IN (SELECT g FROM i WHERE t = 'a') ORDER BY o.id, i.t;
EXPLAIN SELECT id FROM o WHERE dt IN (SELECT t FROM i) OR x IN (SELECT y FROM i);
-- run
SELECT id, x IN (SELECT y, t FROM i) FROM o;
