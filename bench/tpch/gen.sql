-- The eight TPC-H tables, written by DuckDB as Parquet (docs/bench.md, "The
-- TPC-H benchmark").  bench/tpch.js runs this script with the placeholders
-- {{DIR}} (the output folder) and the cardinalities of the scale factor SF
-- substituted: {{SUPPLIERS}} = SF * 10,000, {{CUSTOMERS}} = SF * 150,000,
-- {{PARTS}} = SF * 200,000, {{ORDERS}} = SF * 1,500,000 and {{CLERKS}} =
-- SF * 1,000.  Plain DuckDB SQL, no extension.
--
-- Every value is integer arithmetic on a row number: rnd(i, s, n) mixes row
-- i with the salt s (one per column) and gives 0 .. n-1, so two runs, with
-- any DuckDB version, compute the same rows; the temporary tables are
-- sorted on their keys and the files are written with one thread, so they
-- are the same files too.  i must stay below 2^31 (SF up to 178).
-- The value rules are those of the TPC-H specification (clause 4.2.3):
-- the word lists, the partsupp supplier formula, sparse order keys, a
-- third of the customers without orders, dates from 1992-01-01, ship,
-- commit and receipt dates after the order date, the return flag and line
-- status around 1995-06-17, prices from the part key, phones with the
-- nation key + 10 as country code.  Comments are cut from a pool of
-- pseudo-text, as dbgen cuts them from its text buffer.
--
-- lineitem and orders are Hive tables partitioned by the year of
-- l_shipdate and o_orderdate (l_shipyear, o_orderyear; folders
-- l_shipyear=1992 ..); the other six are one file each.

SET threads = 2;
SET preserve_insertion_order = true;

CREATE OR REPLACE MACRO rnd(i, s, n) AS
  (xor((xor(((i) * ((s) * 2654435761 % 4294967291 + 1)) % 4294967291,
            (((i) * ((s) * 2654435761 % 4294967291 + 1)) % 4294967291) >> 16)
        * 1597334677) % 4294967291,
       ((xor(((i) * ((s) * 2654435761 % 4294967291 + 1)) % 4294967291,
             (((i) * ((s) * 2654435761 % 4294967291 + 1)) % 4294967291) >> 16)
         * 1597334677) % 4294967291) >> 13) % (n));
-- Money from cents, exactly.
CREATE OR REPLACE MACRO money(c) AS ((c) * 0.01)::DECIMAL(15,2);
-- A comment of lo .. hi characters cut from the pool text t.
CREATE OR REPLACE MACRO cut(t, i, s, lo, hi) AS
  substr(t, 1 + rnd(i, s, length(t) - (hi)), (lo) + rnd(i, (s) + 1, (hi) - (lo) + 1));
-- A phone number of nation k: country code k + 10.
CREATE OR REPLACE MACRO phone(k, i, s) AS
  concat((k) + 10, '-', 100 + rnd(i, s, 900), '-', 100 + rnd(i, (s) + 1, 900), '-',
         1000 + rnd(i, (s) + 2, 9000));
-- An address: 10 .. 40 characters of [0-9A-Za-z ,].
CREATE OR REPLACE MACRO address(i, s) AS
  array_to_string(list_transform(range(10 + rnd(i, s, 31)),
    j -> substr('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz ,',
                1 + rnd((i) * 41 + j, (s) + 1, 64), 1)), '');
-- The partsupp suppliers of part p (0 <= k < 4), as the specification
-- gives them; S suppliers.
CREATE OR REPLACE MACRO suppkey(p, k, S) AS
  ((p) + (k) * ((S) // 4 + ((p) - 1) // (S))) % (S) + 1;
-- The retail price of part p.
CREATE OR REPLACE MACRO retailprice(p) AS
  money(90000 + ((p) // 10) % 20001 + 100 * ((p) % 1000));

-- The text pool: 4,096 lines of 80 words of dbgen's grammar vocabulary
-- (the words sorted, so the pool is the same every run).
CREATE OR REPLACE TEMP TABLE words AS SELECT unnest([
  'foxes', 'ideas', 'theodolites', 'pinto', 'beans', 'instructions', 'dependencies',
  'excuses', 'platelets', 'asymptotes', 'courts', 'dolphins', 'multipliers', 'sauternes',
  'warthogs', 'frets', 'dinos', 'attainments', 'somas', 'Tiresias', 'patterns', 'forges',
  'braids', 'hockey', 'players', 'frays', 'warhorses', 'dugouts', 'notornis', 'epitaphs',
  'pearls', 'tithes', 'waters', 'orbits', 'gifts', 'sheaves', 'depths', 'sentiments',
  'decoys', 'realms', 'pains', 'grouches', 'escapades', 'packages', 'requests', 'accounts',
  'deposits', 'sleep', 'wake', 'are', 'cajole', 'haggle', 'nag', 'use', 'boost', 'affix',
  'detect', 'integrate', 'maintain', 'nod', 'was', 'lose', 'sublate', 'solve', 'thrash',
  'promise', 'engage', 'hinder', 'print', 'x-ray', 'breach', 'eat', 'grow', 'impress',
  'mold', 'poach', 'serve', 'run', 'dazzle', 'snooze', 'doze', 'unwind', 'kindle', 'play',
  'hang', 'believe', 'doubt', 'furious', 'sly', 'careful', 'blithe', 'quick', 'fluffy',
  'slow', 'quiet', 'ruthless', 'thin', 'close', 'dogged', 'daring', 'brave', 'stealthy',
  'permanent', 'enticing', 'idle', 'busy', 'regular', 'final', 'ironic', 'even', 'bold',
  'silent', 'special', 'pending', 'unusual', 'express', 'sometimes', 'always', 'never',
  'furiously', 'slyly', 'carefully', 'blithely', 'quickly', 'fluffily', 'slowly', 'quietly',
  'ruthlessly', 'thinly', 'closely', 'doggedly', 'daringly', 'bravely', 'stealthily',
  'permanently', 'enticingly', 'idly', 'busily', 'regularly', 'finally', 'ironically',
  'evenly', 'boldly', 'silently', 'about', 'above', 'according to', 'across', 'after',
  'against', 'along', 'among', 'around', 'at', 'atop', 'before', 'behind', 'beneath',
  'beside', 'between', 'beyond', 'by', 'despite', 'during', 'except', 'for', 'from',
  'inside', 'instead of', 'into', 'near', 'of', 'on', 'outside', 'over', 'past', 'since',
  'through', 'to', 'toward', 'under', 'until', 'up', 'upon', 'without', 'with', 'within',
  'the', 'the', 'the', 'quickly.', 'blithely.', 'slyly.', 'carefully.', 'furiously.'])
  AS w
  -- dbgen's grammar weighs these nouns and adjectives 20 to 40 times the others
  UNION ALL SELECT unnest(['packages', 'requests', 'accounts', 'deposits', 'special',
                           'pending', 'unusual', 'express']) FROM range(5);
CREATE OR REPLACE TEMP TABLE pool AS
  WITH v AS (SELECT list(w ORDER BY w) AS ws FROM words)
  SELECT p::INTEGER AS id,
         string_agg(ws[1 + rnd(p * 80 + k + 1, 1, len(ws))], ' ' ORDER BY k) AS t
  FROM range(4096) a(p), range(80) b(k), v
  GROUP BY p;

-- region and nation: the specification's rows.
CREATE OR REPLACE TEMP TABLE region AS
  SELECT (k - 1)::BIGINT AS r_regionkey,
         ['AFRICA', 'AMERICA', 'ASIA', 'EUROPE', 'MIDDLE EAST'][k] AS r_name,
         cut(t, k, 2, 31, 115) AS r_comment
  FROM range(1, 6) r(k) JOIN pool ON pool.id = rnd(k, 98, 4096)
  ORDER BY k;
CREATE OR REPLACE TEMP TABLE nation AS
  SELECT (k - 1)::BIGINT AS n_nationkey,
         ['ALGERIA', 'ARGENTINA', 'BRAZIL', 'CANADA', 'EGYPT', 'ETHIOPIA', 'FRANCE',
          'GERMANY', 'INDIA', 'INDONESIA', 'IRAN', 'IRAQ', 'JAPAN', 'JORDAN', 'KENYA',
          'MOROCCO', 'MOZAMBIQUE', 'PERU', 'CHINA', 'ROMANIA', 'SAUDI ARABIA', 'VIETNAM',
          'RUSSIA', 'UNITED KINGDOM', 'UNITED STATES'][k] AS n_name,
         [0, 1, 1, 1, 4, 0, 3, 3, 2, 2, 4, 4, 2, 4, 0, 0, 0, 1, 2, 3, 4, 2, 3, 3, 1][k]::BIGINT
           AS n_regionkey,
         cut(t, k, 4, 31, 114) AS n_comment
  FROM range(1, 26) r(k) JOIN pool ON pool.id = rnd(k, 6, 4096)
  ORDER BY k;

-- supplier: about SF * 5 comments hold "Customer ... Complaints" and as
-- many "Customer ... Recommends" (Q16 leaves the first out).
CREATE OR REPLACE TEMP TABLE supplier AS
  SELECT s_suppkey, s_name, s_address, s_nationkey, phone(s_nationkey, s_suppkey, 7) AS s_phone,
         s_acctbal,
         CASE rnd(s_suppkey, 10, 2000)
           WHEN 0 THEN concat(substr(c, 1, 20), 'Customer ', substr(c, 21, 12), 'Complaints',
                              substr(c, 33))
           WHEN 1 THEN concat(substr(c, 1, 20), 'Customer ', substr(c, 21, 12), 'Recommends',
                              substr(c, 33))
           ELSE c END AS s_comment
  FROM (SELECT k::BIGINT AS s_suppkey, concat('Supplier#', lpad(k::VARCHAR, 9, '0')) AS s_name,
               address(k, 11) AS s_address, rnd(k, 13, 25)::BIGINT AS s_nationkey,
               money(-99999 + rnd(k, 14, 1099999)) AS s_acctbal, cut(t, k, 15, 25, 100) AS c
        FROM range(1, {{SUPPLIERS}} + 1) r(k) JOIN pool ON pool.id = rnd(k, 17, 4096))
  ORDER BY s_suppkey;

-- part: a name of five different colours, brands Brand#MN of
-- Manufacturer#M, 150 types, 40 containers.
CREATE OR REPLACE TEMP TABLE part AS
  WITH colours AS (SELECT ['almond', 'antique', 'aquamarine', 'azure', 'beige', 'bisque',
    'black', 'blanched', 'blue', 'blush', 'brown', 'burlywood', 'burnished', 'chartreuse',
    'chiffon', 'chocolate', 'coral', 'cornflower', 'cornsilk', 'cream', 'cyan', 'dark', 'deep',
    'dim', 'dodger', 'drab', 'firebrick', 'floral', 'forest', 'frosted', 'gainsboro', 'ghost',
    'goldenrod', 'green', 'grey', 'honeydew', 'hot', 'indian', 'ivory', 'khaki', 'lace',
    'lavender', 'lawn', 'lemon', 'light', 'lime', 'linen', 'magenta', 'maroon', 'medium',
    'metallic', 'midnight', 'mint', 'misty', 'moccasin', 'navajo', 'navy', 'olive', 'orange',
    'orchid', 'pale', 'papaya', 'peach', 'peru', 'pink', 'plum', 'powder', 'puff', 'purple',
    'red', 'rose', 'rosy', 'royal', 'saddle', 'salmon', 'sandy', 'seashell', 'sienna', 'sky',
    'slate', 'smoke', 'snow', 'spring', 'steel', 'tan', 'thistle', 'tomato', 'turquoise',
    'violet', 'wheat', 'white', 'yellow'] AS c)
  SELECT p_partkey,
         -- c0 + j * d (mod 92), d odd and not a multiple of 23: five different colours
         array_to_string(list_transform(range(5), j -> c[1 + (c0 + j * d) % 92]), ' ') AS p_name,
         concat('Manufacturer#', m) AS p_mfgr, concat('Brand#', m, n) AS p_brand,
         concat(['STANDARD', 'SMALL', 'MEDIUM', 'LARGE', 'ECONOMY', 'PROMO'][1 + rnd(p_partkey, 22, 6)], ' ',
                ['ANODIZED', 'BURNISHED', 'PLATED', 'POLISHED', 'BRUSHED'][1 + rnd(p_partkey, 23, 5)], ' ',
                ['TIN', 'NICKEL', 'BRASS', 'STEEL', 'COPPER'][1 + rnd(p_partkey, 24, 5)]) AS p_type,
         (1 + rnd(p_partkey, 25, 50))::INTEGER AS p_size,
         concat(['SM', 'LG', 'MED', 'JUMBO', 'WRAP'][1 + rnd(p_partkey, 26, 5)], ' ',
                ['CASE', 'BOX', 'BAG', 'JAR', 'PKG', 'PACK', 'CAN', 'DRUM'][1 + rnd(p_partkey, 27, 8)])
           AS p_container,
         retailprice(p_partkey) AS p_retailprice,
         cut(t, p_partkey, 28, 5, 22) AS p_comment
  FROM (SELECT k::BIGINT AS p_partkey, rnd(k, 19, 92) AS c0,
               CASE WHEN (1 + 2 * rnd(k, 20, 46)) % 23 = 0 THEN 3 + 2 * rnd(k, 20, 46)
                    ELSE 1 + 2 * rnd(k, 20, 46) END AS d,
               1 + rnd(k, 21, 5) AS m, 1 + rnd(k, 30, 5) AS n
        FROM range(1, {{PARTS}} + 1) r(k)) JOIN pool ON pool.id = rnd(p_partkey, 31, 4096), colours
  ORDER BY p_partkey;

-- partsupp: four suppliers a part.
CREATE OR REPLACE TEMP TABLE partsupp AS
  SELECT p::BIGINT AS ps_partkey, suppkey(p, k, {{SUPPLIERS}})::BIGINT AS ps_suppkey,
         (1 + rnd(p * 4 + k, 33, 9999))::INTEGER AS ps_availqty,
         money(100 + rnd(p * 4 + k, 34, 99901)) AS ps_supplycost,
         cut(t, p * 4 + k, 35, 49, 198) AS ps_comment
  FROM (SELECT p, k FROM range(1, {{PARTS}} + 1) a(p), range(4) b(k))
    JOIN pool ON pool.id = rnd(p * 4 + k, 37, 4096)
  ORDER BY p, k;

-- customer
CREATE OR REPLACE TEMP TABLE customer AS
  SELECT k::BIGINT AS c_custkey, concat('Customer#', lpad(k::VARCHAR, 9, '0')) AS c_name,
         address(k, 38) AS c_address, rnd(k, 40, 25)::BIGINT AS c_nationkey,
         phone(rnd(k, 40, 25), k, 41) AS c_phone, money(-99999 + rnd(k, 44, 1099999)) AS c_acctbal,
         ['AUTOMOBILE', 'BUILDING', 'FURNITURE', 'MACHINERY', 'HOUSEHOLD'][1 + rnd(k, 45, 5)]
           AS c_mktsegment,
         cut(t, k, 46, 29, 116) AS c_comment
  FROM range(1, {{CUSTOMERS}} + 1) r(k) JOIN pool ON pool.id = rnd(k, 48, 4096)
  ORDER BY c_custkey;

-- orders before its lines: the i-th order has key 32 (i div 8) + i mod 8 + 1
-- (8 of every 32 keys), a customer whose key is not a multiple of 3, a date
-- from 1992-01-01 to 1998-08-02 and 1 .. 7 lines.
CREATE OR REPLACE TEMP TABLE order_base AS
  SELECT i, (i // 8) * 32 + i % 8 + 1 AS o_orderkey,
         (CASE WHEN c % 3 = 0 THEN c - 1 ELSE c END)::BIGINT AS o_custkey,
         DATE '1992-01-01' + rnd(i + 1, 50, 2406)::INTEGER AS o_orderdate,
         ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW'][1 + rnd(i + 1, 51, 5)]
           AS o_orderpriority,
         concat('Clerk#', lpad((1 + rnd(i + 1, 52, {{CLERKS}}))::VARCHAR, 9, '0')) AS o_clerk,
         0::INTEGER AS o_shippriority,
         cut(t, i + 1, 53, 19, 78) AS o_comment,
         1 + rnd(i + 1, 55, 7) AS lines
  FROM (SELECT i, 1 + rnd(i + 1, 49, {{CUSTOMERS}}) AS c FROM range({{ORDERS}}) r(i))
    JOIN pool ON pool.id = rnd(i + 1, 56, 4096)
  ORDER BY i;

-- lineitem: line j of order i is row 8 i + j.  The part is any, its
-- supplier one of the part's four; the price is quantity times the part's
-- retail price; shipped 1 .. 121 days after the order, committed 30 .. 90
-- days after it, received 1 .. 30 days after shipping; returned (R or A)
-- when received by 1995-06-17, else N; open (O) when shipped after it.
CREATE OR REPLACE TEMP TABLE lineitem AS
  SELECT o_orderkey AS l_orderkey, l_partkey,
         suppkey(l_partkey, rnd(r, 58, 4), {{SUPPLIERS}})::BIGINT AS l_suppkey,
         j::INTEGER AS l_linenumber, l_quantity,
         (l_quantity * retailprice(l_partkey))::DECIMAL(15,2) AS l_extendedprice,
         money(rnd(r, 59, 11)) AS l_discount, money(rnd(r, 60, 9)) AS l_tax,
         CASE WHEN l_receiptdate <= DATE '1995-06-17'
              THEN ['R', 'A'][1 + rnd(r, 61, 2)] ELSE 'N' END AS l_returnflag,
         CASE WHEN l_shipdate > DATE '1995-06-17' THEN 'O' ELSE 'F' END AS l_linestatus,
         l_shipdate, l_commitdate, l_receiptdate,
         ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'][1 + rnd(r, 62, 4)]
           AS l_shipinstruct,
         ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'][1 + rnd(r, 63, 7)] AS l_shipmode,
         cut(t, r, 64, 10, 43) AS l_comment
  FROM (SELECT o_orderkey, j, i * 8 + j AS r,
               (1 + rnd(i * 8 + j, 57, {{PARTS}}))::BIGINT AS l_partkey,
               money(100 * (1 + rnd(i * 8 + j, 66, 50))) AS l_quantity,
               o_orderdate + (1 + rnd(i * 8 + j, 67, 121))::INTEGER AS l_shipdate,
               o_orderdate + (30 + rnd(i * 8 + j, 68, 61))::INTEGER AS l_commitdate,
               o_orderdate + (1 + rnd(i * 8 + j, 67, 121) + 1 + rnd(i * 8 + j, 69, 30))::INTEGER
                 AS l_receiptdate
        FROM order_base, range(1, 8) b(j) WHERE j <= lines)
    JOIN pool ON pool.id = rnd(r, 70, 4096)
  ORDER BY l_orderkey, l_linenumber;

-- orders: the status (F when every line is F, O when every line is O,
-- else P) and the total price from its lines.
CREATE OR REPLACE TEMP TABLE orders AS
  SELECT o_orderkey, o_custkey,
         CASE WHEN f = n THEN 'F' WHEN f = 0 THEN 'O' ELSE 'P' END AS o_orderstatus,
         o_totalprice, o_orderdate, o_orderpriority, o_clerk, o_shippriority, o_comment
  FROM order_base JOIN (
    SELECT l_orderkey, count(*) AS n, count(*) FILTER (WHERE l_linestatus = 'F') AS f,
           sum((l_extendedprice * (1 + l_tax) * (1 - l_discount))::DECIMAL(15,2))::DECIMAL(15,2)
             AS o_totalprice
    FROM lineitem GROUP BY l_orderkey) ON l_orderkey = o_orderkey
  ORDER BY o_orderkey;

-- The files, written by one thread.
SET threads = 1;
COPY region TO '{{DIR}}/region/data_0.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY nation TO '{{DIR}}/nation/data_0.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY supplier TO '{{DIR}}/supplier/data_0.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY part TO '{{DIR}}/part/data_0.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY partsupp TO '{{DIR}}/partsupp/data_0.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY customer TO '{{DIR}}/customer/data_0.parquet' (FORMAT parquet, COMPRESSION snappy);
COPY (SELECT *, year(o_orderdate)::INTEGER AS o_orderyear FROM orders ORDER BY o_orderkey)
  TO '{{DIR}}/orders' (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (o_orderyear));
COPY (SELECT *, year(l_shipdate)::INTEGER AS l_shipyear FROM lineitem
      ORDER BY l_orderkey, l_linenumber)
  TO '{{DIR}}/lineitem' (FORMAT parquet, COMPRESSION snappy, PARTITION_BY (l_shipyear));
