-- INSERT static, dynamic and overwrite; SELECT with partition pruning;
-- EXPLAIN shows what is pushed into the scan.
CREATE TABLE pv (user_id BIGINT, page STRING, amount DECIMAL(10,2), ok BOOLEAN,
                 d DATE, ts TIMESTAMP, score DOUBLE)
  PARTITIONED BY (dt STRING, country STRING);
INSERT INTO pv PARTITION (dt='2026-11-27', country='DE')
  VALUES (1, '/home', 0, true, DATE '2026-11-27', TIMESTAMP '2026-11-27 10:00:00', 1.5),
         (2, '/cart', 19.99, false, '2026-11-27', '2026-11-27 10:00:01.5', -2);
INSERT INTO pv PARTITION (dt='2026-11-28', country)
  VALUES (1, '/checkout', 59.9, NULL, NULL, NULL, NULL, 'DE'),
         (3, '/home', '7.5', TRUE, NULL, NULL, 1e3, 'US');
INSERT INTO pv VALUES (4, 'it''s', -1.25, false, NULL, NULL, 0, '2026-11-29', 'FR');
SHOW PARTITIONS pv;
SELECT * FROM pv;
SELECT user_id, page AS p, dt FROM pv WHERE dt = '2026-11-28';
SELECT page, country FROM pv WHERE country IN ('DE', 'FR') AND dt <> '2026-11-27';
SELECT page FROM pv WHERE dt BETWEEN '2026-11-28' AND '2026-11-29' OR NOT country = 'DE' LIMIT 2;
SELECT * FROM pv WHERE dt IS NULL;
EXPLAIN SELECT user_id, page FROM pv WHERE dt = '2026-11-28' AND country = 'US' LIMIT 10;
EXPLAIN SELECT * FROM pv;
EXPLAIN SELECT page FROM pv WHERE '2026-11-28' <= dt;
INSERT OVERWRITE TABLE pv PARTITION (dt='2026-11-28', country='DE') VALUES (9, '/new', 1, true, NULL, NULL, NULL);
SELECT user_id, page FROM pv WHERE dt = '2026-11-28' AND country = 'DE';
CREATE TABLE plain (a INT, b STRING);
INSERT INTO plain VALUES (1, 'one'), (2, 'two');
INSERT OVERWRITE plain VALUES (3, 'three');
SELECT * FROM plain;
SELECT b FROM plain LIMIT 0;
DESCRIBE FORMATTED plain;
