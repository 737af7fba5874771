-- A value that does not fit its column fails the whole INSERT.
CREATE TABLE n (i TINYINT, d DECIMAL(4,2), s VARCHAR(3), dt DATE) PARTITIONED BY (p INT);
INSERT INTO n PARTITION (p=1) VALUES (1, 1.5, 'abcdef', '2026-01-01');
SELECT * FROM n;
-- run
INSERT INTO n PARTITION (p=1) VALUES (2, 1, 'a', NULL), (300, 1, 'b', NULL);
-- run
INSERT INTO n PARTITION (p=1) VALUES (2, 123.5, 'a', NULL);
-- run
INSERT INTO n PARTITION (p=1) VALUES (2, 1, 'a', 'not a date');
-- run
INSERT INTO n PARTITION (p=1) VALUES (true, 1, 'a', NULL);
-- run
INSERT INTO n PARTITION (p=1) VALUES (2, 1, 'a');
-- run
INSERT INTO n VALUES (2, 1, 'a', NULL, 'x');
-- run
INSERT INTO n PARTITION (p='x') VALUES (2, 1, 'a', NULL);
-- run
SELECT * FROM n;
SHOW PARTITIONS n;
