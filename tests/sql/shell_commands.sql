-- The shell's commands inside scripts (-f, as every golden test runs):
-- .mode in each format, .maxrows, the commands without an argument, help;
-- each bad command is an error naming it; \q, quit, exit and .quit end a
-- script with status 0 and what follows does not run.
CREATE TABLE n (i INT, s STRING, d DECIMAL(5,2), f DOUBLE, b BOOLEAN);
INSERT INTO n VALUES (1, 'one', 1.5, 0.25, true), (22, 'twenty-two', 22.25, 1e10, false),
  (333, NULL, NULL, -1.0, NULL), (4, 'a|b', 4.00, NULL, true), (-5, 'five', -5.5, 5.0, false);
SELECT * FROM n ORDER BY i;
.mode markdown
SELECT * FROM n ORDER BY i;
SELECT count(*) AS rows_, 'x' AS x FROM n;
.mode csv
SELECT * FROM n ORDER BY i;
.mode tsv
SELECT i, s FROM n ORDER BY i;
.mode jsonl
SELECT i, s FROM n ORDER BY i;
.mode table
-- the first M - M/2 rows and the last M/2
.maxrows 2
SELECT * FROM n ORDER BY i;
.maxrows 3;
SELECT i, s FROM n ORDER BY i;
.maxrows 5
SELECT i FROM n ORDER BY i;
.maxrows 0
SELECT i FROM n ORDER BY i;
SELECT i FROM n WHERE i > 1000;
.maxrows -1
SELECT i FROM n ORDER BY i;
.mode csv; SELECT 'on the line of the command' AS same_line;
.mode table;
.mode
.maxrows
.timer
.timer off
help
-- run
.mode xml
SELECT 'not run';
-- run
.maxrows many
-- run
.maxrows -2
-- run
.timer maybe
-- run
SELECT 'first';
  .nosuch arg
SELECT 'not run';
-- run
\x
-- run
SELECT 'before';
quit
SELECT 'after quit';
-- run
SELECT 'before';
exit;
SELECT 'after exit';
-- run
SELECT 'before';
\q
SELECT 'after \q';
-- run
SELECT 'before'; .quit
SELECT 'after .quit';
-- run
SELECT 'before';
-- a comment, then the command
.exit
SELECT 'after .exit';
-- run
SELECT i AS still_there FROM n WHERE i = 1;
