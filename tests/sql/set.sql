-- SET validates registered keys into the session layer; RESET removes them.
SET;
SET 'table.exec.hive.infer-source-parallelism.max' = '100';
SET table.sql-dialect = hive;
SET;
RESET table.sql-dialect;
SET;
RESET;
SET;
-- run
SET 'table.exec.hive.infer-source-parallelism.max' = 'many';
-- run
SET 'table.exec.hive.no-such-option' = '1';
-- run
SET 'table.sql-dialect' = 'oracle';
