/*
** chive public API: the SQL parser (Flink's default dialect and the Hive
** dialect), its syntax tree and a script splitter.
**
** INTERFACE
**   chv_sql_parse()      a script (statements separated by ';') to a tree
**   chv_sql_parse_ex()   the same with options (dialect, nesting limit) and
**                        the position of a syntax error
**   chv_sql_split()      cut a script into statements at ';' outside strings
**                        and comments, each with its line and column (for a
**                        shell that must know when a statement is complete)
**   chv_sql_ast_print()  a statement as canonical S-expression text
**   chv_sql_query_format() a query as SQL text that reads back the same
**
** The parser does not look at any catalog: names are kept as written
** (identifiers plain or `backquoted`, compared case-insensitively later),
** column types are kept as their source text and parsed by a later stage
** with chv_type_parse() (include/chive/types.h).  Flink spellings (ROW<..>,
** BYTES, TIMESTAMP(9), STRING) stay as written; mapping them to Hive types
** (struct, binary, timestamp) is the binder's job.
**
** Memory: every node and every string of a tree lives in the chv_arena the
** caller passes; chv_arena_close() frees the whole tree.  Strings are
** NUL-terminated copies; string literal values also carry their length
** (a Hive '\0' escape decodes to a NUL byte).
**
** Thread safety: the functions keep no global state; a tree belongs to the
** thread owning its arena.
*/
#ifndef CHIVE_SQL_H
#define CHIVE_SQL_H

#include "chive/common.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A place in the source text: line and column are 1-based (the column
** counts bytes), offset is 0-based from the start of the text. */
struct chv_sql_pos {
  int line;
  int column;
  size_t offset;
};

/* How string literals read.  DEFAULT (Flink): 'it''s' is the only escape,
** a backslash is an ordinary character.  HIVE: backslash escapes as Hive's
** unescapeSQLString reads them (\n \t \0 \' \\ \ooo octal \uXXXX ...) and
** "double quoted" text is a string too.  In both, '' inside '...' is a
** quote.  A script switches dialect with SET 'table.sql-dialect' = 'hive'
** (or 'default'), which applies from the next statement on. */
enum chv_sql_dialect {
  CHV_SQL_DIALECT_DEFAULT = 0,
  CHV_SQL_DIALECT_HIVE = 1
};

/* A name of one to three parts: table, db.table, catalog.db.table (or
** column, t.column, db.t.column).  Parts keep their original text without
** backquotes.  nparts == 0 means "no name". */
struct chv_sql_name {
  int nparts;
  const char *parts[3];
  struct chv_sql_pos pos;
};

/* 'key' = 'value' from WITH (...), TBLPROPERTIES, DBPROPERTIES,
** SERDEPROPERTIES or an OPTIONS hint (decoded values). */
struct chv_sql_prop {
  const char *key;
  const char *value; /* NULL for a hint argument that is a bare name */
  struct chv_sql_pos pos;
};

struct chv_sql_props {
  struct chv_sql_prop *items;
  size_t n;
};

/* A table hint: name(args), e.g. OPTIONS('k'='v'). */
struct chv_sql_hint {
  const char *name;
  struct chv_sql_props args;
  struct chv_sql_pos pos;
};

struct chv_sql_hints {
  struct chv_sql_hint *items;
  size_t n;
};

struct chv_sql_expr;
struct chv_sql_query;
struct chv_sql_stmt;

/* One k=v (static: value set) or k (dynamic: value NULL) of a PARTITION
** (...) clause.  value is a literal expression as written. */
struct chv_sql_part_kv {
  const char *key;
  struct chv_sql_expr *value;
  struct chv_sql_pos pos;
};

struct chv_sql_part_spec {
  struct chv_sql_part_kv *items;
  size_t n;
  struct chv_sql_pos pos;
};

/* ---- expressions ------------------------------------------------------ */

#define CHV_SQL_EXPR_KINDS(X)                                                 \
  X(LITERAL, "lit")                                                           \
  X(COLUMN, "col")                                                            \
  X(STAR, "star")                                                             \
  X(UNARY, "unary")                                                           \
  X(BINARY, "binary")                                                         \
  X(IN, "in")                                                                 \
  X(BETWEEN, "between")                                                       \
  X(LIKE, "like")                                                             \
  X(IS, "is")                                                                 \
  X(CASE, "case")                                                             \
  X(CAST, "cast")                                                             \
  X(FUNC, "call")                                                             \
  X(SUBQUERY, "subquery")                                                     \
  X(EXISTS, "exists") /* EXISTS (query): u.subquery */

enum chv_sql_expr_kind {
#define CHV_X_(k, s) CHV_SQL_EXPR_##k,
  CHV_SQL_EXPR_KINDS(CHV_X_)
#undef CHV_X_
};

#define CHV_SQL_LIT_KINDS(X)                                                  \
  X(INTEGER, "int")       /* 10, 10Y, 10S, 10L (suffix in .suffix) */        \
  X(DECIMAL, "dec")       /* 1.5, 10BD (exact in Flink; Hive: double) */      \
  X(DOUBLE, "double")     /* 1e10, 1.5e-3, 2D */                              \
  X(STRING, "str")        /* 'abc' or "abc" */                                \
  X(BOOLEAN, "bool")      /* TRUE, FALSE */                                   \
  X(NULL, "null")         /* NULL */                                          \
  X(DATE, "date")         /* DATE 'yyyy-mm-dd' */                             \
  X(TIMESTAMP, "timestamp") /* TIMESTAMP '...' */                             \
  X(INTERVAL, "interval") /* INTERVAL '1' DAY (AST only) */                   \
  X(BINARY, "binary")     /* X'0A' */

enum chv_sql_lit_kind {
#define CHV_X_(k, s) CHV_SQL_LIT_##k,
  CHV_SQL_LIT_KINDS(CHV_X_)
#undef CHV_X_
};

#define CHV_SQL_OPS(X)                                                        \
  X(NEG, "-")                                                                 \
  X(PLUS, "+")                                                                \
  X(NOT, "not")                                                               \
  X(BITNOT, "~")                                                              \
  X(OR, "or")                                                                 \
  X(AND, "and")                                                               \
  X(EQ, "=")                                                                  \
  X(NE, "<>")                                                                 \
  X(LT, "<")                                                                  \
  X(LE, "<=")                                                                 \
  X(GT, ">")                                                                  \
  X(GE, ">=")                                                                 \
  X(NULL_EQ, "<=>")                                                           \
  X(CONCAT, "||")                                                             \
  X(ADD, "+")                                                                 \
  X(SUB, "-")                                                                 \
  X(MUL, "*")                                                                 \
  X(DIV, "/")                                                                 \
  X(MOD, "%")                                                                 \
  X(INTDIV, "div")                                                            \
  X(SUBSCRIPT, "[]")

/* Operators: == is EQ and != is NE (the printer shows = and <>). */
enum chv_sql_op {
#define CHV_X_(k, s) CHV_SQL_OP_##k,
  CHV_SQL_OPS(CHV_X_)
#undef CHV_X_
};

/* IS [NOT] NULL / TRUE / FALSE */
enum chv_sql_is_what { CHV_SQL_IS_NULL, CHV_SQL_IS_TRUE, CHV_SQL_IS_FALSE };

struct chv_sql_expr {
  enum chv_sql_expr_kind kind;
  struct chv_sql_pos pos;
  union {
    struct {
      enum chv_sql_lit_kind kind;
      const char *text;  /* source text of the literal token(s) as written:
                            10BD, 'it''s', X'0A', the quoted part of
                            DATE '...' */
      const char *value; /* decoded: string contents (dialect rules), the
                            digits of a number without suffix, TRUE/FALSE */
      size_t value_len;
      const char *suffix; /* number suffix as written (Y S L BD D) or NULL */
      const char *unit;   /* INTERVAL unit: DAY, "DAY TO SECOND" ... */
    } lit;
    struct chv_sql_name column; /* a, t.a, db.t.a */
    struct chv_sql_name star;   /* *, t.*, db.t.* (nparts = qualifier) */
    struct {
      enum chv_sql_op op;
      struct chv_sql_expr *arg;
    } unary;
    struct {
      enum chv_sql_op op;
      struct chv_sql_expr *left, *right;
    } binary;
    struct {
      struct chv_sql_expr *arg;
      struct chv_sql_expr **list;
      size_t n;
      bool negated;
    } in;
    struct {
      struct chv_sql_expr *arg, *low, *high;
      bool negated;
    } between;
    struct {
      struct chv_sql_expr *arg, *pattern;
      bool negated;
      bool regex; /* RLIKE / REGEXP */
    } like;
    struct {
      struct chv_sql_expr *arg;
      enum chv_sql_is_what what;
      bool negated;
    } is;
    struct {
      struct chv_sql_expr *operand; /* CASE x WHEN ...; NULL for CASE WHEN */
      struct chv_sql_expr **when, **then;
      size_t n;
      struct chv_sql_expr *else_; /* NULL without ELSE */
    } case_;
    struct {
      struct chv_sql_expr *arg;
      const char *type_text; /* as written, see the file comment */
      struct chv_sql_pos type_pos;
    } cast;
    struct {
      const char *name;
      struct chv_sql_expr **args;
      size_t n;
      bool distinct;
      bool star; /* COUNT(*) */
      /* f(...) OVER (...) or OVER w: its window; NULL for a plain call */
      struct chv_sql_window *over;
    } func;
    struct chv_sql_query *subquery; /* (SELECT ...) in an expression */
  } u;
};

/* ---- windows ---------------------------------------------------------- */

/* A bound of a window frame. */
enum chv_sql_frame_bound {
  CHV_SQL_FRAME_UNBOUNDED_PRECEDING,
  CHV_SQL_FRAME_PRECEDING,           /* n PRECEDING */
  CHV_SQL_FRAME_CURRENT_ROW,
  CHV_SQL_FRAME_FOLLOWING,           /* n FOLLOWING */
  CHV_SQL_FRAME_UNBOUNDED_FOLLOWING
};

/* How a frame counts: none given (the default frame), ROWS or RANGE. */
enum chv_sql_frame_kind {
  CHV_SQL_FRAME_NONE,
  CHV_SQL_FRAME_ROWS,
  CHV_SQL_FRAME_RANGE
};

struct chv_sql_order_item;

/* OVER (...) or OVER w, or the (...) of WINDOW w AS (...).  The short
** form ROWS n PRECEDING has end CURRENT ROW. */
struct chv_sql_window {
  struct chv_sql_pos pos;
  /* OVER w, or OVER (w ...): the WINDOW clause's window it starts from;
  ** NULL when none */
  const char *name;
  struct chv_sql_expr **partition_by;
  size_t npartition_by;
  struct chv_sql_order_item *order_by;
  size_t norder_by;
  enum chv_sql_frame_kind frame;
  enum chv_sql_frame_bound start, end;
  struct chv_sql_expr *start_n, *end_n; /* n of n PRECEDING/FOLLOWING */
  struct chv_sql_pos frame_pos;         /* of ROWS or RANGE */
};

/* WINDOW name AS (...), one of a SELECT's named windows. */
struct chv_sql_window_def {
  const char *name;
  struct chv_sql_window *window;
  struct chv_sql_pos pos;
};

/* ---- queries ---------------------------------------------------------- */

struct chv_sql_select_item {
  struct chv_sql_expr *expr;
  const char *alias; /* NULL when none */
};

enum chv_sql_join_kind {
  CHV_SQL_JOIN_INNER,
  CHV_SQL_JOIN_LEFT,
  CHV_SQL_JOIN_RIGHT,
  CHV_SQL_JOIN_FULL,
  CHV_SQL_JOIN_CROSS,
  CHV_SQL_JOIN_SEMI,  /* LEFT SEMI JOIN: the left's rows that have a match */
  CHV_SQL_JOIN_ANTI,  /* LEFT ANTI JOIN: the left's rows that have none */
  /* x NOT IN (sub-query), made a join (never parsed): the left's rows
  ** that have no match, none when the right has a NULL key, and those of
  ** a NULL key only when the right has no rows */
  CHV_SQL_JOIN_NOT_IN
};

enum chv_sql_from_kind {
  CHV_SQL_FROM_TABLE,
  CHV_SQL_FROM_SUBQUERY,
  CHV_SQL_FROM_JOIN
};

/* Hive's TABLESAMPLE (...) after a table name: what part of the table's
** input a query reads (the binder gives it its meaning, docs/sql.md). */
enum chv_sql_sample_kind {
  CHV_SQL_SAMPLE_ROWS,    /* (n ROWS): n rows of each split */
  CHV_SQL_SAMPLE_PERCENT, /* (n PERCENT): n percent of the input's bytes */
  CHV_SQL_SAMPLE_BYTES,   /* (100M): a length, digits and b, k, m or g */
  CHV_SQL_SAMPLE_BUCKET   /* (BUCKET x OUT OF y [ON e, ...]) */
};

struct chv_sql_sample {
  enum chv_sql_sample_kind kind;
  struct chv_sql_pos pos;      /* of TABLESAMPLE */
  /* the number as written: n (10, 0.5, 1e1), the length (100M), BUCKET's
  ** x; and where it is */
  const char *value;
  struct chv_sql_pos value_pos;
  const char *out_of;          /* BUCKET: y as written; else NULL */
  struct chv_sql_expr **on;    /* BUCKET ... ON e, ...: non of them */
  size_t non;
};

struct chv_sql_from {
  enum chv_sql_from_kind kind;
  struct chv_sql_pos pos;
  const char *alias;                    /* TABLE and SUBQUERY; may be NULL */
  /* SUBQUERY: AS alias (c1, c2, ...), the names of its columns */
  const char **columns;
  size_t ncolumns;
  struct chv_sql_name table;            /* TABLE */
  struct chv_sql_hints hints;           /* TABLE, SUBQUERY: /\*+ ... *\/
                                           after the name or ')' */
  /* TABLE, SUBQUERY: the 'k'='v' arguments of its OPTIONS hints, in
  ** order (a key given twice stays twice: the last one counts); the
  ** table options of this statement's read (Flink's dynamic table
  ** options).  Other hints stay in hints only. */
  struct chv_sql_props options;
  struct chv_sql_expr *system_time;     /* TABLE: FOR SYSTEM_TIME AS OF e */
  struct chv_sql_sample *sample;        /* TABLE: TABLESAMPLE (...), or NULL */
  struct chv_sql_query *subquery;       /* SUBQUERY */
  enum chv_sql_join_kind join;          /* JOIN */
  struct chv_sql_from *left, *right;    /* JOIN */
  struct chv_sql_expr *on;              /* JOIN; NULL for CROSS or none */
  /* JOIN ... USING (c, ...): the columns both sides have, joined on their
  ** equality and given once (on is NULL); NATURAL JOIN: natural set, the
  ** columns left to the binder (every name the two sides share) */
  const char **using_cols;
  struct chv_sql_pos *using_pos;        /* where each of using_cols is */
  size_t nusing;
  bool natural;
  /* JOIN: its right side is a sub-query's, made a join (never parsed):
  ** only qualified names name its columns */
  bool from_subquery;
};

/* The set operation of a CHV_SQL_QUERY_UNION node. */
enum chv_sql_setop {
  CHV_SQL_SET_UNION,
  CHV_SQL_SET_INTERSECT,
  CHV_SQL_SET_EXCEPT     /* EXCEPT, and Hive's MINUS */
};

/* Which clause gave a query's order_by. */
enum chv_sql_order_kind {
  CHV_SQL_ORDER_BY,     /* ORDER BY (or none) */
  CHV_SQL_SORT_BY,      /* Hive's SORT BY */
  CHV_SQL_CLUSTER_BY    /* Hive's CLUSTER BY (its keys also distribute) */
};

struct chv_sql_order_item {
  struct chv_sql_expr *expr;
  bool desc;
  int nulls; /* 0 not given, 1 NULLS FIRST, 2 NULLS LAST */
};

/* One grouping set of GROUPING SETS (...), or one item of ROLLUP (...) or
** CUBE (...) (an expression, or a parenthesized list of them): the GROUP BY
** expressions it names, by their places in the query's group_by.  n == 0:
** the empty set (). */
struct chv_sql_grouping_set {
  size_t *keys;
  size_t n;
  bool paren;               /* written in parentheses: (a), (a, b), () */
  struct chv_sql_pos pos;
};

/* An element of a GROUP BY that has grouping sets. */
enum chv_sql_group_kind {
  CHV_SQL_GROUP_KEY,         /* an expression, or () (sets[0], one set) */
  CHV_SQL_GROUP_ROLLUP,      /* ROLLUP (items) */
  CHV_SQL_GROUP_CUBE,        /* CUBE (items) */
  CHV_SQL_GROUP_SETS,        /* GROUPING SETS (sets) */
  /* Hive's forms, last, over the KEY elements before them (the keys):
  ** GROUP BY a, b WITH ROLLUP | WITH CUBE | GROUPING SETS (sets) */
  CHV_SQL_GROUP_WITH_ROLLUP, /* no sets */
  CHV_SQL_GROUP_WITH_CUBE,   /* no sets */
  CHV_SQL_GROUP_HIVE_SETS    /* sets */
};

struct chv_sql_group_elem {
  enum chv_sql_group_kind kind;
  struct chv_sql_pos pos;
  struct chv_sql_grouping_set *sets;
  size_t nsets;
};

struct chv_sql_cte {
  const char *name;
  struct chv_sql_query *query;
  struct chv_sql_pos pos;
};

enum chv_sql_query_kind {
  CHV_SQL_QUERY_SELECT,
  CHV_SQL_QUERY_UNION, /* left UNION|INTERSECT|EXCEPT [ALL] right (setop) */
  CHV_SQL_QUERY_VALUES
};

struct chv_sql_query {
  enum chv_sql_query_kind kind;
  struct chv_sql_pos pos;
  struct chv_sql_cte *ctes; /* WITH name AS (...), ... */
  size_t nctes;
  /* SELECT */
  bool distinct;
  struct chv_sql_select_item *items;
  size_t nitems;
  struct chv_sql_from *from; /* NULL for SELECT without FROM */
  struct chv_sql_expr *where, *having;
  struct chv_sql_expr **group_by;
  size_t ngroup_by;
  /* UNION, INTERSECT, EXCEPT (MINUS) */
  struct chv_sql_query *left, *right;
  bool all;
  enum chv_sql_setop setop;
  /* VALUES: rows of expressions */
  struct chv_sql_expr ***rows;
  size_t *row_lens;
  size_t nrows;
  /* any kind */
  struct chv_sql_order_item *order_by;
  size_t norder_by;
  struct chv_sql_expr *limit;
  /* OFFSET m, LIMIT m, n (Hive), OFFSET m ROWS [FETCH ...]; NULL: none */
  struct chv_sql_expr *offset;
  /* Hive's SORT BY / CLUSTER BY keys (in order_by, sort_by set), and
  ** DISTRIBUTE BY / CLUSTER BY keys: CLUSTER BY k is DISTRIBUTE BY k SORT
  ** BY k */
  enum chv_sql_order_kind order_kind;
  struct chv_sql_expr **distribute_by;
  size_t ndistribute_by;
  /* SELECT: a GROUP BY with ROLLUP, CUBE, GROUPING SETS or (): its
  ** elements in order (ngroup_elems 0: a plain GROUP BY of group_by).
  ** group_by then holds every expression of the clause in the order
  ** written, and the elements name them by place; the grouping sets are
  ** the cross product of the elements' (the standard's and Flink's
  ** meaning), or, in Hive's forms, the last element's over the keys before
  ** it. */
  struct chv_sql_group_elem *group_elems;
  size_t ngroup_elems;
  /* SELECT: WINDOW w AS (...), ... (after HAVING) */
  struct chv_sql_window_def *windows;
  size_t nwindows;
};

/* ---- statements ------------------------------------------------------- */

/* A column of CREATE TABLE.  In the Flink partition form
** PARTITIONED BY (k, ...) a partition column has type_text NULL: it names a
** column of the column list. */
struct chv_sql_column {
  const char *name;
  const char *type_text; /* exact source span, e.g. "map<string,int>";
                            NULL for a computed column */
  struct chv_sql_pos type_pos;
  const char *comment;   /* NULL when none */
  bool not_null;         /* Flink: type NOT NULL */
  struct chv_sql_expr *computed; /* Flink: name AS expr */
  struct chv_sql_pos pos;
};

enum chv_sql_table_form {
  CHV_SQL_FORM_HIVE,  /* PARTITIONED BY (k type), STORED AS, TBLPROPERTIES */
  CHV_SQL_FORM_FLINK  /* PARTITIONED BY (k) or WITH ('connector'=...) */
};

enum chv_sql_row_format {
  CHV_SQL_ROW_FORMAT_NONE,
  CHV_SQL_ROW_FORMAT_DELIMITED,
  CHV_SQL_ROW_FORMAT_SERDE
};

struct chv_sql_create_table {
  struct chv_sql_name name;
  bool external, temporary, if_not_exists;
  enum chv_sql_table_form form;
  struct chv_sql_column *columns;
  size_t ncolumns;
  const char *comment;
  struct chv_sql_column *part_columns;
  size_t npart_columns;
  enum chv_sql_row_format row_format;
  /* ROW FORMAT DELIMITED: decoded delimiter strings, NULL when not given */
  const char *fields_terminated, *escaped_by, *collection_terminated,
      *map_keys_terminated, *lines_terminated, *null_defined_as;
  const char *serde;               /* ROW FORMAT SERDE '...' */
  struct chv_sql_props serde_props;
  const char *stored_as;           /* TEXTFILE, PARQUET ... as written */
  const char *input_format, *output_format; /* STORED AS INPUTFORMAT ... */
  const char *location;
  struct chv_sql_props tblproperties;
  struct chv_sql_props with;       /* Flink WITH (...) */
  struct chv_sql_query *as_query;  /* CREATE TABLE ... AS SELECT */
  struct chv_sql_name like;        /* CREATE TABLE t LIKE other */
  /* Flink: PRIMARY KEY (k, ...) [NOT ENFORCED] in the column list */
  const char **primary_key;
  size_t nprimary_key;
  bool pk_not_enforced;
  /* Flink: WATERMARK FOR column AS expr in the column list */
  const char *watermark_column;
  struct chv_sql_expr *watermark;
};

/* CREATE [OR REPLACE] [TEMPORARY] VIEW [IF NOT EXISTS] v [(col [COMMENT 's'],
** ...)] [COMMENT 's'] [TBLPROPERTIES (...)] AS query; ALTER VIEW v AS query
** fills name, query and query_text only. */
struct chv_sql_create_view {
  struct chv_sql_name name;
  bool or_replace, temporary, if_not_exists;
  struct chv_sql_column *columns; /* the column list: names and comments
                                     (type_text NULL); ncolumns 0: none */
  size_t ncolumns;
  const char *comment;
  struct chv_sql_props tblproperties;
  struct chv_sql_query *query;
  const char *query_text;      /* the query as written: its source text from
                                  its first token to its last */
  struct chv_sql_pos query_pos; /* where query_text starts */
};

struct chv_sql_add_partition {
  struct chv_sql_part_spec spec;
  const char *location;
};

#define CHV_SQL_STMT_KINDS(X)                                                 \
  X(CREATE_CATALOG, "create-catalog")                                         \
  X(USE_CATALOG, "use-catalog")                                               \
  X(SHOW_CATALOGS, "show-catalogs")                                           \
  X(SHOW_CURRENT_CATALOG, "show-current-catalog")                             \
  X(SHOW_CURRENT_DATABASE, "show-current-database")                           \
  X(CREATE_DATABASE, "create-database")                                       \
  X(DROP_DATABASE, "drop-database")                                           \
  X(USE, "use")                                                               \
  X(SHOW_DATABASES, "show-databases")                                         \
  X(SHOW_TABLES, "show-tables")                                               \
  X(SHOW_PARTITIONS, "show-partitions")                                       \
  X(SHOW_CREATE_TABLE, "show-create-table")                                   \
  X(SHOW_FUNCTIONS, "show-functions")                                         \
  X(DESCRIBE, "describe")                                                     \
  X(CREATE_TABLE, "create-table")                                             \
  X(CREATE_VIEW, "create-view")                                               \
  X(ALTER_VIEW, "alter-view")                                                 \
  X(SHOW_VIEWS, "show-views")                                                 \
  X(DROP_TABLE, "drop-table")                                                 \
  X(TRUNCATE_TABLE, "truncate-table")                                         \
  X(ADD_PARTITIONS, "add-partitions")                                         \
  X(DROP_PARTITIONS, "drop-partitions")                                       \
  X(SET_TBLPROPERTIES, "set-tblproperties")                                   \
  X(RENAME_TABLE, "rename-table")                                             \
  X(MSCK_REPAIR, "msck-repair")                                               \
  X(LOAD_DATA, "load-data")                                                   \
  X(INSERT, "insert")                                                         \
  X(QUERY, "query")                                                           \
  X(SET, "set")                                                               \
  X(RESET, "reset")                                                           \
  X(EXPLAIN, "explain")                                                       \
  X(INSERT_DIRECTORY, "insert-directory")                                     \
  X(MULTI_INSERT, "multi-insert")                                             \
  X(ANALYZE, "analyze")

enum chv_sql_stmt_kind {
#define CHV_X_(k, s) CHV_SQL_STMT_##k,
  CHV_SQL_STMT_KINDS(CHV_X_)
#undef CHV_X_
};

/* One statement.  Which fields mean something depends on kind; the others
** are zero.  name is the catalog, database or table the statement is about. */
struct chv_sql_stmt {
  enum chv_sql_stmt_kind kind;
  struct chv_sql_pos pos;
  enum chv_sql_dialect dialect; /* in force when it was parsed */
  /* Where the statement's first /\*+ ... *\/ hint opens, wherever it
  ** stands (also where no hint belongs, where it is not parsed); line 0:
  ** the statement has none. */
  struct chv_sql_pos first_hint;
  /* Where the first hint opens that the parser did not take as a table's
  ** (not right after a table name or a sub-query's ')', or a second hint
  ** comment before the same token); line 0: none. */
  struct chv_sql_pos stray_hint;
  struct chv_sql_name name;
  bool if_exists;     /* DROP ... IF EXISTS, ALTER ... DROP IF EXISTS */
  bool if_not_exists; /* CREATE DATABASE / ADD IF NOT EXISTS */
  struct chv_sql_props props; /* CREATE CATALOG WITH, DBPROPERTIES,
                                 SET TBLPROPERTIES */
  const char *comment;        /* CREATE DATABASE */
  const char *location;       /* CREATE DATABASE */
  bool cascade;               /* DROP DATABASE ... CASCADE */
  const char *like;           /* SHOW TABLES|VIEWS LIKE '...' */
  /* The statement names a view: DROP VIEW (DROP_TABLE), ALTER VIEW v SET
  ** TBLPROPERTIES (SET_TBLPROPERTIES), ALTER VIEW v RENAME TO
  ** (RENAME_TABLE), SHOW CREATE VIEW (SHOW_CREATE_TABLE). */
  bool view;
  const char *describe_mode;  /* DESCRIBE: NULL, "FORMATTED", "EXTENDED" */
  struct chv_sql_part_spec partition; /* SHOW PARTITIONS, TRUNCATE, LOAD,
                                         INSERT (n == 0: none) */
  struct chv_sql_create_table *create_table;
  struct chv_sql_create_view *create_view; /* CREATE VIEW, ALTER VIEW AS */
  struct chv_sql_add_partition *add_parts; /* ADD PARTITION ... */
  size_t nadd_parts;
  struct chv_sql_part_spec *drop_parts;    /* DROP PARTITION ... */
  size_t ndrop_parts;
  struct chv_sql_name new_name;            /* RENAME TO */
  /* LOAD DATA */
  bool local, overwrite;                   /* overwrite: INSERT too */
  const char *inpath;
  /* INSERT */
  struct chv_sql_hints hints;              /* INSERT INTO t /\*+ ... *\/ */
  struct chv_sql_props options;            /* its OPTIONS arguments, as in
                                              struct chv_sql_from */
  const char **columns;                    /* INSERT INTO t (a, b) ... */
  size_t ncolumns;
  struct chv_sql_query *query;             /* INSERT source, QUERY */
  /* SET / RESET: key NULL lists (SET) or resets all (RESET) */
  const char *key;
  const char *value;                       /* trimmed raw text or decoded */
  bool quoted;                             /* SET 'k' = 'v' form */
  struct chv_sql_stmt *explained;          /* EXPLAIN */
  bool analyze;                            /* EXPLAIN ANALYZE */
  /* INSERT OVERWRITE [LOCAL] DIRECTORY 'path' [ROW FORMAT ...] [STORED AS
  ** ...] query: local, the path, and the ROW FORMAT and STORED AS clauses
  ** in the fields CREATE TABLE uses (the others empty; NULL when neither
  ** is given) */
  const char *directory;
  struct chv_sql_create_table *storage;
  /* FROM src INSERT ... SELECT ... INSERT ... (Hive's multi-insert): the
  ** source read once, and each branch, an INSERT or INSERT_DIRECTORY
  ** whose query is a SELECT without FROM */
  struct chv_sql_from *source;
  struct chv_sql_stmt **inserts;
  size_t ninserts;
  /* ANALYZE TABLE name [PARTITION (k[=v], ...)] COMPUTE STATISTICS
  ** [NOSCAN] [FOR COLUMNS [c, ...] | FOR ALL COLUMNS] (Hive's and Flink's
  ** forms): the spec in partition (a key without a value: every value),
  ** noscan, and whether column statistics are asked for; the columns
  ** named (one-part names, with their places), none: every column */
  bool noscan;
  bool for_columns;
  struct chv_sql_name *stat_columns;
  size_t nstat_columns;
  /* DESCRIBE [FORMATTED|EXTENDED] t [PARTITION (...)] col (Hive's form):
  ** the column (nparts 0: none); the spec in partition */
  struct chv_sql_name describe_column;
};

struct chv_sql_script {
  struct chv_sql_stmt **stmts;
  size_t n;
};

struct chv_sql_parse_options {
  enum chv_sql_dialect dialect; /* at the start of the script */
  int max_depth; /* nesting limit (parentheses, sub-queries, unary
                   operators, each further operand of a chain such as
                   a + b + c or a AND b AND c); 0 means 1000 */
};

/* Parse sql[0, len) (need not be NUL-terminated).  On success *out is a
** script in arena (borrowed from the arena; freed with it).  Returns
** CHV_ESYNTAX with "line L, column C: expected X, found Y" in err (and
** err_pos, when not NULL, filled) for invalid text, CHV_ENOMEM, or
** CHV_EINVAL for NULL arguments.  Empty statements (";;") are skipped.
** chv_sql_parse() starts in the default (Flink) dialect. */
CHV_API int chv_sql_parse(const char *sql, size_t len, chv_arena *arena,
                          struct chv_sql_script **out, struct chv_error *err);
CHV_API int chv_sql_parse_ex(const char *sql, size_t len,
                             const struct chv_sql_parse_options *opts,
                             chv_arena *arena, struct chv_sql_script **out,
                             struct chv_sql_pos *err_pos,
                             struct chv_error *err);

/* One statement of a script as chv_sql_split() found it. */
struct chv_sql_piece {
  const char *text; /* points into the caller's sql; not NUL-terminated */
  size_t len;       /* up to (not including) the ';', trailing space and
                       comments cut, except a /\*+ hint *\/ */
  struct chv_sql_pos pos; /* first character that is not space/comment */
  bool terminated;  /* ended by ';' (false for the last, unfinished one) */
};

/* Split sql[0, len) at each ';' outside strings, `quoted names` and
** comments.  Pieces holding only space and comments are left out.
** *out (an array in arena) and *n are set; *complete is true when nothing
** but space and comments follows the last ';' (the shell may run the
** text), false inside an open string or comment or unterminated statement.
** dialect decides whether a backslash escapes a quote. */
CHV_API int chv_sql_split(const char *sql, size_t len,
                          enum chv_sql_dialect dialect, chv_arena *arena,
                          struct chv_sql_piece **out, size_t *n,
                          bool *complete, struct chv_error *err);

/* Append q as SQL text (one line, no newline) to out: keywords upper-case,
** every name backquoted, strings quoted as the Hive dialect reads them
** ('it\'s', '\\'), numbers as written, parentheses only where precedence
** needs them.  chv_sql_parse_ex() in the Hive dialect reads the text back
** into the same tree (what a view's expanded text relies on).  Returns
** CHV_OK, CHV_ENOMEM or CHV_EINVAL for NULL arguments. */
CHV_API int chv_sql_query_format(const struct chv_sql_query *q,
                                 struct chv_buf *out);

/* Append the canonical S-expression form of stmt (one line, no newline)
** to out.  Returns CHV_OK or CHV_ENOMEM. */
CHV_API int chv_sql_ast_print(const struct chv_sql_stmt *stmt,
                              struct chv_buf *out);

#ifdef __cplusplus
}
#endif
#endif /* CHIVE_SQL_H */
