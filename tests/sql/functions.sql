-- The function registry: SHOW FUNCTIONS lists it (aliases too); every
-- function and alias, named in any case, over columns (also under a
-- filter's selection), literals and NULLs; the aggregates; and the errors
-- of unknown functions, arity, constant arguments and types.
SHOW FUNCTIONS;
-- run
CREATE TABLE f (s STRING, v VARCHAR(8), c CHAR(4), i INT, n BIGINT, d DECIMAL(7,3), x DOUBLE, dt DATE, ts TIMESTAMP, b BOOLEAN);
INSERT INTO f VALUES ('Hello', 'AbC', 'ab', -7, 1250, -12.345, -2.5, DATE '2024-02-29', TIMESTAMP '2023-12-31 23:59:59', TRUE), ('  héllo w ', 'xyz', 'q', 2147483647, -1250, 1.005, 1.005, DATE '1969-12-31', TIMESTAMP '2000-01-01 00:00:00', FALSE), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), ('2024-05-06', '12', 'zz', 0, 5, 0.5, 1234.5678, DATE '2000-01-01', TIMESTAMP '1999-12-31 12:00:00', TRUE);
SELECT upper(s), UCASE(v), lower(s), LCase(c), length(s), length(c), trim(s), concat(s, '|', v, '|', c) FROM f;
SELECT substr(s, 2), substring(s, -3, 2), SUBSTR(s, 0), substr(s, 2, 0), substr(v, 9), substr(i, 2, 3) FROM f;
SELECT abs(i), abs(n), abs(d), abs(x), abs(s), abs(-i) FROM f;
SELECT round(x), round(x, 2), round(d), round(d, 1), round(d, 5), round(n, 2), round(i, 1), round('2.5') FROM f;
SELECT year(dt), month(dt), day(dt), dayofmonth(ts), to_date(ts), year(s), MONTH('2024-11-02'), to_date(s) FROM f;
SELECT concat(i, b, x), concat(NULL, s), length(123), upper(dt), s || i FROM f;
-- a function over the rows a filter keeps
SELECT upper(s), length(v), year(dt), abs(i) FROM f WHERE i < 1 OR b;
SELECT count(*), COUNT(s), count(DISTINCT b), sum(i), SUM(d), min(s), MAX(v), avg(x), Avg(d), min(dt), max(ts) FROM f;
SELECT b, count(*), sum(n), max(upper(s)) FROM f GROUP BY b ORDER BY b;
-- run
SELECT nosuchfn(s) FROM f;
-- run
SELECT substr(s) FROM f;
-- run
SELECT upper(s, v) FROM f;
-- run
SELECT round(x, i) FROM f;
-- run
SELECT round(b) FROM f;
-- run
SELECT substring(s, 'a') FROM f;
-- run
SELECT year(i) FROM f;
-- run
SELECT abs(dt) FROM f;
-- run
SELECT ucase(b) FROM f;
-- run
SELECT upper(DISTINCT s) FROM f;
-- run
SELECT s FROM f WHERE count(*) > 1;
-- run
SELECT sum(dt) FROM f;
-- run
SELECT avg(s) FROM f;
