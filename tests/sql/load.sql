-- LOAD DATA: a file (LOCAL copies it), a folder's visible files, OVERWRITE.
CREATE TABLE l (a INT, b STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
  PARTITIONED BY (dt STRING);
-- sh: mkdir -p in/dir && printf '1,one\n2,two\n' > in/f1.csv && printf '3,three\n' > in/dir/a && printf '4,four\n' > in/dir/b && printf 'x\n' > in/dir/.hidden
LOAD DATA LOCAL INPATH 'in/f1.csv' INTO TABLE l PARTITION (dt='d1');
LOAD DATA INPATH 'in/dir' INTO TABLE l PARTITION (dt='d2');
SELECT * FROM l WHERE dt = 'd1';
SHOW PARTITIONS l;
-- sh: ls in in/dir "$WH/l/dt=d2"
LOAD DATA LOCAL INPATH 'in/f1.csv' OVERWRITE INTO TABLE l PARTITION (dt='d2');
SELECT * FROM l WHERE dt = 'd2';
-- run
LOAD DATA LOCAL INPATH 'in/nosuch.csv' INTO TABLE l PARTITION (dt='d1');
-- run
LOAD DATA LOCAL INPATH 'in/f1.csv' INTO TABLE l;
-- run
SELECT * FROM l;
