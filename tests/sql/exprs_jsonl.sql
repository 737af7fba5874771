-- format: jsonl
-- Computed columns and a residual filter in JSON Lines (names _cN).
CREATE TABLE t (a INT, b STRING) PARTITIONED BY (dt STRING);
INSERT INTO t VALUES (1, 'x', 'd1'), (2, NULL, 'd2');
SELECT a * 10 AS ten, b || dt, a / 4 FROM t WHERE a > 0;
EXPLAIN SELECT a FROM t WHERE dt = 'd1' AND b IS NULL;
