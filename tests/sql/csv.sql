-- format: csv
CREATE TABLE c (a INT, s STRING);
INSERT INTO c VALUES (1, 'plain'), (2, 'with, comma'), (3, 'with "quotes"'), (NULL, NULL);
SELECT * FROM c;
