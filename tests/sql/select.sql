-- Projections (repeated columns, qualified names, aliases) and predicates
-- on an INT partition key, compared as numbers.
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (hr INT);
INSERT INTO t VALUES (1, 'x', 5), (2, 'y', 10);
SELECT a, a, hr FROM t;
SELECT x.a, x.b AS bee FROM t x WHERE x.hr = '10';
SELECT t.b FROM t WHERE hr IN (5, 10) AND hr > 7;
SELECT default.t.a FROM default.t WHERE hr NOT BETWEEN 6 AND 20;
SELECT b FROM t WHERE hr IS NOT NULL AND NOT (hr < 6 OR hr > 10);
EXPLAIN SELECT a, hr, a FROM t WHERE hr NOT IN (5);
-- run
SELECT * FROM t WHERE hr = 'abc';
-- run
SELECT y.a FROM t x;
-- run
SELECT t.* FROM t x;
