-- ALTER TABLE ADD/DROP PARTITION, SHOW PARTITIONS, MSCK REPAIR over
-- folders made outside chive, TRUNCATE.
CREATE TABLE logs (msg STRING) PARTITIONED BY (dt STRING, hr INT);
ALTER TABLE logs ADD PARTITION (dt='2026-01-01', hr=1) PARTITION (dt='2026-01-01', hr=2);
ALTER TABLE logs ADD IF NOT EXISTS PARTITION (dt='2026-01-01', hr=1);
SHOW PARTITIONS logs;
SHOW PARTITIONS logs PARTITION (hr=2);
ALTER TABLE logs DROP PARTITION (dt='2026-01-01', hr=2);
ALTER TABLE logs DROP IF EXISTS PARTITION (dt='2026-01-09', hr=9);
SHOW PARTITIONS logs;
-- sh: mkdir -p "$WH/logs/dt=2026-01-02/hr=3" "$WH/logs/dt=2026-01-02/hr=10" && printf 'a\nb\n' > "$WH/logs/dt=2026-01-02/hr=3/f0" && printf 'c\n' > "$WH/logs/dt=2026-01-02/hr=10/f0"
MSCK REPAIR TABLE logs;
SHOW PARTITIONS logs;
SELECT * FROM logs;
SELECT msg, hr FROM logs WHERE hr > 5;
TRUNCATE TABLE logs PARTITION (dt='2026-01-02', hr=3);
SELECT * FROM logs;
SHOW PARTITIONS logs;
-- run
-- A missing partition: an error, and the partitions stay as they were.
ALTER TABLE logs DROP PARTITION (dt='2026-12-31', hr=1);
-- run
ALTER TABLE logs ADD PARTITION (dt='2026-01-05', nosuch=1);
-- run
ALTER TABLE logs ADD PARTITION (dt='2026-01-05', hr=1) PARTITION (dt='2026-01-06', hr='one');
-- run
ALTER TABLE logs ADD PARTITION (dt='2026-01-01', hr=1);
-- run
-- sh: mkdir -p "$WH/logs/bogus"
MSCK REPAIR TABLE logs;
-- run
SHOW PARTITIONS logs;
