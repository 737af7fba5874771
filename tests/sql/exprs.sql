-- Expressions in the SELECT list (arithmetic, comparisons, CASE, CAST,
-- COALESCE, functions, literals, aliases) over data and partition columns,
-- and WHERE on any column: conjuncts on partition columns only go to the
-- catalog, the rest filter each scanned batch.
CREATE TABLE t (a INT, b STRING, amount DOUBLE) PARTITIONED BY (dt STRING, hr INT);
INSERT INTO t VALUES (1, 'x', 5.5, 'd1', 1), (2, 'y', 20, 'd1', 2), (3, NULL, NULL, 'd2', 1), (NULL, 'z', 11, 'd2', 2);
SELECT a, a + 1, a - hr, a * 2 AS twice, -a, amount * 2 AS dbl FROM t;
-- Hive's / is double division; DIV and % stay integer; x / 0 is NULL.
SELECT a, a / 2, a DIV 2, a % 2, a / 0, a % 0, amount / 0 FROM t;
SELECT a, a = 2, a <> 2, a < 2, a >= 2, a <=> NULL, b = 'x' FROM t;
SELECT a, CASE WHEN a > 1 THEN 'big' ELSE 'small' END AS size, CASE a WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS name FROM t;
SELECT CAST(a AS STRING) || '-' || b AS ab, CAST(amount AS INT), CAST(b AS INT), COALESCE(b, dt, 'none') AS c FROM t;
SELECT upper(b), lower('ABC'), length(b), substr(b, 1, 1), trim('  p  '), abs(-a), round(amount), concat(b, dt), year(DATE '2020-02-03') FROM t;
SELECT 1, 10L, 1.5, 1.5D, 'it''s', TRUE, NULL, DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05' FROM t LIMIT 1;
SELECT x.a AS aa, x.hr * 100 + x.a AS code FROM t x;
SELECT *, a + hr FROM t;
-- WHERE on data columns: NULL is not TRUE, so rows where the condition is
-- NULL are dropped, also under NOT.
SELECT a, b FROM t WHERE a > 1;
SELECT a, b FROM t WHERE NOT (a > 1);
SELECT a, b FROM t WHERE b = NULL;
SELECT a, b FROM t WHERE b IS NULL OR a IS NULL;
SELECT a FROM t WHERE amount BETWEEN 5 AND 12 AND b LIKE '_';
SELECT a FROM t WHERE a IN (1, 3) AND amount IS NULL;
-- Mixed: dt/hr conjuncts prune partitions, the rest filters rows.
SELECT a, dt, hr FROM t WHERE dt = 'd2' AND amount > 10;
SELECT a, hr FROM t WHERE hr = 1 AND a + hr > 2;
SELECT a FROM t WHERE amount > 1 LIMIT 2;
SELECT a FROM t WHERE amount > 1 LIMIT 0;
SELECT 'row' AS r FROM t WHERE dt = 'd1';
EXPLAIN SELECT a FROM t WHERE dt = 'd2' AND amount > 10 AND hr = 2 LIMIT 3;
EXPLAIN SELECT a + 1, upper(b) FROM t WHERE a IS NOT NULL;
EXPLAIN SELECT b FROM t WHERE dt = 'd1' OR a > 1;
-- run
-- Type errors name the operator and the types; nothing changed.
SELECT a + true FROM t;
-- run
SELECT a FROM t WHERE a + 1;
-- run
SELECT upper(true) FROM t;
-- run
SELECT a FROM t WHERE b < DATE '2020-01-01' AND a > 'x' AND a = true;
-- run
SELECT CAST(a AS array<int>) FROM t;
-- run
SELECT nosuch + 1 FROM t;
-- run
SELECT a FROM t WHERE y.a > 1;
-- run
SELECT nosuchfn(a) FROM t;
-- run
SELECT a, hr FROM t WHERE a > 0;
-- IN of literals over a column of an integer type, DATE, STRING or VARCHAR
-- reads the column in place (also after another filter's selection): NULL
-- for a NULL x, and for an x in no item of a list that has a NULL.
-- run
CREATE TABLE inl (ti TINYINT, si SMALLINT, i INT, bi BIGINT, d DATE, s STRING, vc VARCHAR(8)) STORED AS PARQUET;
INSERT INTO inl VALUES (1, 300, 70000, 5000000000, DATE '2020-01-01', 'MAIL', 'ab'), (-2, -300, -70000, -5000000000, DATE '1969-12-31', 'SHIP', 'abcdefgh'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL), (3, 301, 70001, 5000000001, DATE '2020-01-02', '', ''), (1, 300, 70000, 5000000000, DATE '2020-01-01', 'MAILX', 'abcdefg');
SELECT ti, ti IN (1, 3), ti NOT IN (1, 3), ti IN (1, NULL), ti NOT IN (3, NULL), si IN (-300, 301), i IN (70000), bi IN (-5000000000, 5000000001), d IN (DATE '2020-01-02', DATE '1969-12-31') FROM inl;
SELECT s, s IN ('MAIL', 'SHIP'), s NOT IN ('MAIL', ''), s IN ('SHIP', NULL), vc IN ('abcdefgh', ''), vc NOT IN ('ab', NULL) FROM inl;
SELECT s, ti FROM inl WHERE ti > 0 AND s IN ('MAIL', '', 'MAILX') AND bi NOT IN (5000000001);
SELECT count(*) FROM inl WHERE s NOT IN ('MAIL', NULL);
