-- table.exec.hive.sink.sort-by-dynamic-partition.enable: on (the default)
-- the rows of a dynamic insert are sorted by partition and written one file
-- at a time, so each partition gets one file; off, 100 partitions whose
-- rows interleave cycle through the bounded set of open files and a
-- partition gets several.  The writers follow the reader threads (each
-- thread's writer has files of its own); sink.parallelism = 1 makes them
-- share one writer, so the file counts do not depend on the machine's CPUs.
-- sh: seq 0 99 > keys.txt
SET 'sink.parallelism' = '1';
CREATE TABLE src (k INT);
LOAD DATA LOCAL INPATH 'keys.txt' INTO TABLE src;
INSERT INTO src SELECT * FROM src;
INSERT INTO src SELECT * FROM src;
INSERT INTO src SELECT * FROM src;
INSERT INTO src SELECT * FROM src;
INSERT INTO src SELECT * FROM src;
INSERT INTO src SELECT * FROM src;
CREATE TABLE sorted (v INT) PARTITIONED BY (p INT);
INSERT INTO sorted PARTITION (p) SELECT k, k FROM src;
SELECT COUNT(*), COUNT(DISTINCT p) FROM sorted;
-- sh: for d in "$WH"/sorted/p=*; do ls "$d" | grep -c '^part-'; done | sort | uniq -c
SET 'table.exec.hive.sink.sort-by-dynamic-partition.enable' = 'false';
CREATE TABLE unsorted (v INT) PARTITIONED BY (p INT);
INSERT INTO unsorted PARTITION (p) SELECT k, k FROM src;
SELECT COUNT(*), COUNT(DISTINCT p) FROM unsorted;
-- sh: for d in "$WH"/unsorted/p=*; do ls "$d" | grep -c '^part-'; done | sort | uniq -c | awk '$2 > 1 { many += $1 } END { print (many == 100 ? "every partition has several files" : "some partition has one file") }'
-- the same rows either way
SELECT p, COUNT(*) FROM sorted WHERE p IN (0, 57, 99) GROUP BY p ORDER BY p;
SELECT p, COUNT(*) FROM unsorted WHERE p IN (0, 57, 99) GROUP BY p ORDER BY p;
