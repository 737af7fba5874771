-- VALUES as a relation: a query of its own, a derived table with its
-- columns named (AS t (a, b)), the rows of an INSERT ... SELECT and of a
-- view.  A column takes the common type of its values (a bare NULL the
-- others'); Flink names the columns EXPR$0, ..., Hive's dialect col1, ...
VALUES (1, 'a'), (2, NULL), (NULL, 'c');
SELECT * FROM (VALUES (1, 'x'), (2.5, 'y')) AS t (n, s) ORDER BY n DESC;
SELECT s, count(*) FROM (VALUES (1, 'x'), (2, 'x'), (3, NULL)) v(n, s) GROUP BY s;
EXPLAIN SELECT n FROM (VALUES (1, 'a'), (2, 'b')) AS t (n, s) WHERE n > 1;
CREATE TABLE z (a INT, b STRING) PARTITIONED BY (dt STRING);
INSERT INTO z SELECT * FROM (VALUES (1, 'x', 'd1'), (2, 'y', 'd2')) v (a, b, dt);
SELECT * FROM z ORDER BY a;
CREATE VIEW vv AS SELECT n * 10 AS m FROM (VALUES (1), (2)) t (n);
SHOW CREATE TABLE vv;
SELECT * FROM vv;
FROM (VALUES (7, 'q')) src (a, b) INSERT INTO z PARTITION (dt='d3') SELECT a, b;
SELECT * FROM z WHERE dt = 'd3';
SET 'table.sql-dialect' = 'hive';
SELECT * FROM (VALUES (1, 2)) t;
SELECT col2 FROM (VALUES (1, 2), (3, 4)) t WHERE col1 > 1;
-- run
VALUES (1), ('a', 2);
-- run
VALUES (1), (DATE '2020-01-01');
-- run
SELECT * FROM (VALUES (1, 2)) t (a);
-- run
SELECT * FROM (VALUES (1, 2)) t (a, a);
-- run
VALUES (count(1));
-- run
VALUES (x);
