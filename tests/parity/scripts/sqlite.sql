-- sqlite3 on a table of 10000 rows: integer and floating-point aggregates,
-- grouping, an index, string functions.  The expected output
-- (expected/sqlite3-script.txt) is computed by hand in the comments.
CREATE TABLE t(i INTEGER PRIMARY KEY, g TEXT, x REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
INSERT INTO t SELECT i, CASE WHEN i % 3 = 0 THEN 'three' ELSE 'other' END, i / 4.0 FROM n;
-- 10000 rows; sum 1..10000 = 10000 * 10001 / 2; x from 1/4 to 10000/4
SELECT count(*), sum(i), min(x), max(x) FROM t;
-- multiples of 3 up to 9999: 3333 of them, sum 3 * 3333 * 3334 / 2 = 16668333;
-- the others: 6667 rows, 50005000 - 16668333
SELECT g, count(*), sum(i) FROM t GROUP BY g ORDER BY g;
-- mean of i / 4 = 5000.5 / 4
SELECT printf('%.6f', avg(x)) FROM t;
-- harmonic number H(10) = 7381 / 2520 = 2.92896825396...
SELECT printf('%.10f', sum(1.0 / i)) FROM t WHERE i <= 10;
SELECT group_concat(i, ',') FROM (SELECT i FROM t WHERE i % 1000 = 0 ORDER BY i DESC);
CREATE INDEX tg ON t(g, x);
-- x > 2499 means i > 9996; of 9997..10000 only 9999 is a multiple of 3
SELECT i FROM t WHERE g = 'three' AND x > 2499 ORDER BY x;
SELECT hex(zeroblob(4)), upper('tile'), length('TensorLoad'), 7 / 2, 7 % 3, 2.0 * 3.5;
