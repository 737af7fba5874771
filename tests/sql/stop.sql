-- A script stops at its first failing statement with exit status 1.
CREATE TABLE a (x INT);
DROP TABLE nosuch;
CREATE TABLE b (x INT);
-- run
SHOW TABLES;
