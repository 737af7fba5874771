-- chive splits and chive read-split: the planned splits of a table (file
-- ranges of pruned partitions, ORC stripes packed by Flink's split size)
-- and their rows read back from the bytes alone, in other processes.
CREATE TABLE tx (id INT, name STRING);
-- sh: seq 1 3000 | sed 's/$/\x01row/' > nums.txt
LOAD DATA LOCAL INPATH 'nums.txt' INTO TABLE tx;
CREATE TABLE p (id INT, name STRING) PARTITIONED BY (dt STRING) STORED AS ORC;
INSERT INTO p PARTITION (dt) SELECT id, name, CASE WHEN id <= 1000 THEN 'a' WHEN id <= 2000 THEN 'b' ELSE 'c' END FROM tx;
-- sh: $CHIVE splits --warehouse "$WH" p | sed 's/"path":"[^"]*",//; s/,"split":"[^"]*"//'
-- every row once, through the splits
-- sh: $CHIVE splits --warehouse "$WH" p 2>/dev/null | $CHIVE read-split - | awk -F'[:,]' '{n++; s+=$2} END {print n, s}'
-- pruned to dt >= 'b', projected, and id > 2990 pushed into the reader:
-- the stripe of dt=b is skipped, rows are not filtered
-- sh: $CHIVE splits --warehouse "$WH" p --columns id,dt --where "dt >= 'b' AND id > 2990" 2>&1 | sed 's/"path":"[^"]*",//; s/,"split":"[^"]*"//'
-- sh: $CHIVE splits --warehouse "$WH" p --columns id,dt --where "dt >= 'b' AND id > 2990" 2>/dev/null | $CHIVE read-split - | sed -n '1p;$p'
-- sh: $CHIVE splits --warehouse "$WH" p --columns dt --limit 2 2>/dev/null | $CHIVE read-split -
-- a text table: one split a file
-- sh: $CHIVE splits --warehouse "$WH" default.tx | sed 's/"path":"[^"]*",//; s/,"split":"[^"]*"//'
-- errors
-- sh: $CHIVE splits --warehouse "$WH" nope; echo "exit $?"
-- sh: $CHIVE splits --warehouse "$WH" p --where "id >"; echo "exit $?"
-- sh: $CHIVE splits --warehouse "$WH" p --columns id,nope; echo "exit $?"
-- sh: $CHIVE splits --warehouse "$WH" p --limit -3; echo "exit $?"
-- sh: $CHIVE read-split Q0hWUwEK; echo "exit $?"
-- sh: $CHIVE read-split 'not a split'; echo "exit $?"
-- sh: $CHIVE read-split Q0hWUwI=; echo "exit $?"
