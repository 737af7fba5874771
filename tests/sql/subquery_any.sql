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
-- correlated scalar sub-queries in the select list and HAVING: a left
-- join to the sub-query's aggregate grouped by its correlating columns;
-- COUNT gives 0 where no row matches (x NULL matches none)
SELECT id, x, (SELECT count(*) FROM i WHERE i.y = o.x) AS n, (SELECT max(t) FROM i WHERE i.y = o.x) AS mt, (SELECT count(*) FROM i WHERE i.y = o.x AND i.g > 5) AS none FROM o ORDER BY id;
SELECT id, CASE WHEN x > 1 THEN (SELECT sum(g) FROM i WHERE i.y = o.x AND i.t = o.s) END AS sg FROM o ORDER BY id;
-- over groups: the correlating columns are GROUP BY keys
SELECT x, count(*) AS c, (SELECT count(*) FROM i WHERE i.y = o.x) AS n FROM o GROUP BY x ORDER BY x;
SELECT x, count(*) AS c FROM o GROUP BY x HAVING count(*) >= (SELECT count(*) FROM i WHERE i.y = o.x) + 1 ORDER BY x;
SELECT dt, sum((SELECT count(*) FROM i WHERE i.y = o.x)) AS n FROM o GROUP BY dt ORDER BY dt;
-- two sub-queries over groups are two aggregates of their columns
SELECT x, count(*) AS c, (SELECT count(*) FROM i WHERE i.y = o.x) AS n, (SELECT sum(g) FROM i WHERE i.y = o.x) AS sg FROM o GROUP BY x HAVING (SELECT max(g) FROM i WHERE i.y = o.x) > 1 OR (SELECT min(g) FROM i WHERE i.y = o.x) IS NULL ORDER BY x;
EXPLAIN SELECT x, count(*) AS c, (SELECT count(*) FROM i WHERE i.y = o.x) AS n FROM o GROUP BY x;
-- correlated EXISTS and IN under OR, in the select list and HAVING: marks,
-- left joins to the distinct correlating keys (EXISTS), and to the counts
-- of rows and values per key and the distinct (key, value) pairs (IN)
SELECT id, x, s, EXISTS (SELECT 1 FROM i WHERE i.y = o.x) AS e, NOT EXISTS (SELECT 1 FROM i WHERE i.y = o.x AND i.g = 2) AS ne FROM o ORDER BY id;
SELECT id FROM o WHERE id = 2 OR EXISTS (SELECT 1 FROM i WHERE i.y = o.x AND i.t = o.s) ORDER BY id;
-- IN: i's g values per t are a: {1}, b: {3}, d: {2}, z: {2}, NULL: {1};
-- of y per g 1: {1, 3}, 2: {NULL, 4}, 3: {1}
SELECT id, x, s, x IN (SELECT g FROM i WHERE i.t = o.s) AS m, x NOT IN (SELECT g FROM i WHERE i.t = o.s) AS nm FROM o ORDER BY id;
SELECT id, x, x IN (SELECT y FROM i WHERE i.g = o.id) AS m, x NOT IN (SELECT y FROM i WHERE i.g = o.id) AS nm FROM o ORDER BY id;
SELECT id FROM o WHERE s IS NULL OR x IN (SELECT y FROM i WHERE i.g = o.id) ORDER BY id;
SELECT x, count(*) AS c FROM o GROUP BY x HAVING EXISTS (SELECT 1 FROM i WHERE i.y = o.x AND i.g > 1) OR x IN (SELECT g FROM i WHERE i.y = o.x) ORDER BY x;
EXPLAIN SELECT id, x IN (SELECT y FROM i WHERE i.g = o.id) AS m FROM o;
-- correlated NOT IN in WHERE: a NULL x is kept only where the sub-query
-- gives no row, and no row is kept where it gives a NULL
SELECT id, x FROM o WHERE x NOT IN (SELECT y FROM i WHERE i.g = o.id) ORDER BY id;
SELECT id, x FROM o WHERE x NOT IN (SELECT g FROM i WHERE i.t = o.s) AND id > 1 ORDER BY id;
-- a correlated sub-query with a sub-query of its own inside
SELECT id, (SELECT count(*) FROM i WHERE i.y = o.x AND EXISTS (SELECT 1 FROM i i2 WHERE i2.g = i.g AND i2.t = 'd')) AS n FROM o ORDER BY id;
-- in ORDER BY
SELECT id, x FROM o ORDER BY (SELECT count(*) FROM i WHERE i.y = o.x) DESC, EXISTS (SELECT 1 FROM i WHERE i.t = o.s), id;
-- as a window function's argument; not in its OVER (below)
SELECT id, sum((SELECT count(*) FROM i WHERE i.y = o.x)) OVER (ORDER BY id) AS s FROM o ORDER BY id;
-- in an inner join's ON, as in the WHERE
SELECT o.id, i.t FROM o JOIN i ON o.x = i.y AND EXISTS (SELECT 1 FROM i i2 WHERE i2.g = o.id) ORDER BY o.id, i.t;
SELECT o.id, i.t FROM o JOIN i ON o.x = i.y AND i.g > (SELECT count(*) FROM i i2 WHERE i2.y = o.x) - 2 ORDER BY o.id, i.t;
-- a sub-query on the left of an uncorrelated IN
SELECT id FROM o WHERE (SELECT count(*) FROM i WHERE i.y = o.x) IN (SELECT g FROM i) ORDER BY id;
-- keys of another type: a wider one is grouped as it is; one whose values
-- the comparison's cast could make equal ('1', '01') is refused
SELECT id, (SELECT count(*) FROM i WHERE i.y = o.id) AS n, EXISTS (SELECT 1 FROM i WHERE CAST(i.g AS TINYINT) = o.x) AS e FROM o ORDER BY id;
-- what is not supported says so
-- run
SELECT id, (SELECT count(*) FROM i WHERE i.t = o.x) FROM o;
-- run
SELECT id FROM o WHERE 1 <= (SELECT count(*) FROM i WHERE i.t = o.x);
-- run
SELECT id, x IN (SELECT y, t FROM i) FROM o;
-- run
SELECT x, count(*) FROM o GROUP BY x ORDER BY (SELECT count(*) FROM i WHERE i.y = o.x);
-- run
SELECT count(*) FROM o GROUP BY (SELECT count(*) FROM i WHERE i.y = o.x);
-- run
SELECT o.id FROM o LEFT JOIN i ON o.x = i.y AND EXISTS (SELECT 1 FROM i i2 WHERE i2.g = o.id);
-- run
SELECT a.id, b.id FROM o a LEFT JOIN (o b JOIN i ON b.x = i.y AND EXISTS (SELECT 1 FROM i i2 WHERE i2.g = b.id)) ON a.id = b.id;
-- run
SELECT id, rank() OVER (ORDER BY (SELECT count(*) FROM i WHERE i.y = o.x)) FROM o;
-- run
SELECT id, (SELECT count(*) FROM i WHERE i.y < o.x) FROM o;
-- run
SELECT dt, count(*), (SELECT count(*) FROM i WHERE i.y = o.x) FROM o GROUP BY dt;
-- run
SELECT o.x, count(*), (SELECT count(*) FROM i WHERE i.y = o2.x) FROM o JOIN o o2 ON o.id = o2.id GROUP BY o.x;
-- run
SELECT x, count(*), (SELECT count(*) FROM i WHERE i.y = o.x) FROM o GROUP BY ROLLUP (x);
-- run
SELECT id, EXISTS (SELECT g FROM i WHERE i.y = o.x GROUP BY g) FROM o;
-- run
SELECT id, x IN (SELECT y FROM i WHERE i.t = o.s LIMIT 1) FROM o;
-- run
SELECT id, x IN (SELECT y FROM i WHERE i.t = o.s OR i.g = 1) FROM o;
-- run
SELECT id, (SELECT y FROM i WHERE i.t = o.s) FROM o;
-- run
SELECT id, EXISTS (SELECT o.x FROM i) FROM o;
-- run
SELECT id, (SELECT count(*) FROM i WHERE i.y = o.x AND EXISTS (SELECT 1 FROM i i2 WHERE i2.g = o.id)) FROM o;
-- run
SELECT id, x IN (SELECT o.id FROM i WHERE i.g = o.id) FROM o;
-- run
SELECT id FROM o WHERE x NOT IN (SELECT y FROM i WHERE i.t = o.s GROUP BY y);
-- run
SELECT id FROM o WHERE (SELECT count(*) FROM i WHERE i.y = o.x) IN (SELECT g FROM i WHERE i.t = o.s);
