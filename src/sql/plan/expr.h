/*
** sql/plan/expr: the typed expression IR the binder builds and the
** evaluator (sql/exec) runs, and its constructors.  The constructors check
** argument types with Hive's rules, derive the result type, insert the
** implicit CASTs Hive inserts and fold CASTs of literals, so that the
** evaluator only ever sees operands of one common type.  Scalar casts of
** single values (chv_exec_cast_value()) and LIKE patterns live here too:
** folding and the evaluator both use them.
**
** INTERFACE
**   chv_expr_column()/_literal()/_call()/_func()/_and()/_or()/_not()
**   chv_expr_is_null()/_in()/_between()/_case()/_cast()/_coalesce()/_like()
**   chv_exec_cast_value()    one value to another type, as Hive casts
**   chv_like_compile()/_match()
**
** Ownership: expressions and their types live in the arena passed to the
** constructors and are read-only afterwards (several threads may evaluate
** one tree).
*/
#ifndef CHV_SQL_PLAN_EXPR_H
#define CHV_SQL_PLAN_EXPR_H

#include "common/common.h"
#include "chive/types.h"
#include "sql/func/func.h"

/* ---- expression IR ----------------------------------------------------- */

enum chv_expr_kind {
  CHV_EXPR_COLUMN,      /* column `column` of the input batch */
  CHV_EXPR_LITERAL,     /* value (or NULL) of `type` */
  CHV_EXPR_CALL,        /* operator `fn` of args */
  CHV_EXPR_FUNC,        /* registered function `func`, overload `impl` */
  CHV_EXPR_AND,         /* args[0] AND args[1], three-valued */
  CHV_EXPR_OR,
  CHV_EXPR_NOT,
  CHV_EXPR_IS_NULL,
  CHV_EXPR_IS_NOT_NULL,
  CHV_EXPR_IN,          /* args[0] IN (args[1..] literals), or IN `set` */
  CHV_EXPR_BETWEEN,     /* args[0] BETWEEN args[1] AND args[2] (negated) */
  CHV_EXPR_CASE,        /* WHEN args[2i] THEN args[2i+1] ... ELSE last */
  CHV_EXPR_CAST,        /* args[0] as `type` */
  CHV_EXPR_COALESCE,
  CHV_EXPR_LIKE         /* args[0] LIKE compiled `like` pattern */
};

/* The operators (docs/func.md says why they are not registry functions). */
#define CHV_FN_MAP(X)                                                         \
  X(ADD, "+") X(SUB, "-") X(MUL, "*") X(DIV, "/") X(MOD, "%")                 \
  X(IDIV, "div") X(NEG, "negative")                                           \
  X(EQ, "=") X(NE, "<>") X(LT, "<") X(LE, "<=") X(GT, ">") X(GE, ">=")        \
  X(NSEQ, "<=>")

enum chv_fn {
#define CHV_X_(id, name) CHV_FN_##id,
  CHV_FN_MAP(CHV_X_)
#undef CHV_X_
  CHV_FN_COUNT
};

const char *chv_fn_name(enum chv_fn fn);

struct chv_like; /* compiled LIKE pattern (exec-private) */

/* The values of an uncorrelated IN (SELECT ..), read once while the query
** is planned: the non-NULL ones as keys (chv_keyset_encode_value() of the
** comparison type), in the arena and read-only (never freed: the arrays of
** `keys` are arena memory). */
struct chv_inset {
  struct chv_keyset keys;
  int64_t rows;   /* the sub-query's rows, NULLs too (0: IN is FALSE) */
  bool has_null;  /* one of them is NULL (a value not found: NULL) */
};

struct chv_expr {
  enum chv_expr_kind kind;
  const struct chv_type *type; /* result type (arena or caller-owned) */
  int column;                  /* COLUMN: batch column index */
  struct chv_value value;      /* LITERAL (strings in the arena) */
  enum chv_fn fn;              /* CALL */
  const struct chv_func *func; /* FUNC: the function */
  const struct chv_func_overload *impl; /* FUNC: the overload resolved */
  bool negated;                /* IN, BETWEEN, LIKE: NOT IN/... */
  int nargs;
  struct chv_expr **args;
  const struct chv_like *like; /* LIKE */
  const struct chv_inset *set; /* IN of a sub-query's values (nargs 1) */
  const struct chv_expr *lowered; /* BETWEEN: the AND/NOT tree evaluated */
};

/* Whether two bound expressions are the same computation: the same tree
** (a = b and b = a are the same), nothing said of whether it gives the
** same values twice. */
bool chv_expr_same(const struct chv_expr *a, const struct chv_expr *b);

/* Arena-allocated primitive type (id, decimal precision/scale, or length
** for CHAR/VARCHAR); NULL on out-of-memory. */
const struct chv_type *chv_exec_type(chv_arena *a, enum chv_type_id id,
                                     int precision_or_length, int scale);

/* Constructors.  Each writes *out on success only; CHV_ENOMEM, CHV_ETYPE
** (message naming the operator and the argument types) or CHV_EINVAL. */
int chv_expr_column(chv_arena *a, int column, const struct chv_type *type,
                    struct chv_expr **out, struct chv_error *err);
/* v->str is copied into the arena. */
int chv_expr_literal(chv_arena *a, const struct chv_type *type,
                     const struct chv_value *v, struct chv_expr **out,
                     struct chv_error *err);
int chv_expr_call(chv_arena *a, enum chv_fn fn, struct chv_expr **args,
                  int nargs, struct chv_expr **out, struct chv_error *err);
/* A call of the scalar function f (chv_func_lookup()): the overload that
** takes the argument types (chv_func_resolve(); its errors), with the
** arguments cast to its parameters' types. */
int chv_expr_func(chv_arena *a, const struct chv_func *f,
                  struct chv_expr **args, int nargs, struct chv_expr **out,
                  struct chv_error *err);
int chv_expr_and(chv_arena *a, struct chv_expr *l, struct chv_expr *r,
                 struct chv_expr **out, struct chv_error *err);
int chv_expr_or(chv_arena *a, struct chv_expr *l, struct chv_expr *r,
                struct chv_expr **out, struct chv_error *err);
int chv_expr_not(chv_arena *a, struct chv_expr *x, struct chv_expr **out,
                 struct chv_error *err);
int chv_expr_is_null(chv_arena *a, struct chv_expr *x, bool negated,
                     struct chv_expr **out, struct chv_error *err);
/* list: cast to the common comparison type; items that are not literals
** make it an OR of equalities (with an IN of the literals). */
int chv_expr_in(chv_arena *a, struct chv_expr *x, struct chv_expr **list,
                int n, bool negated, struct chv_expr **out,
                struct chv_error *err);
/* x [NOT] IN the values of vals (borrowed; a sub-query's one column),
** each cast to the common comparison type and kept in a set in the arena
** (struct chv_inset). */
int chv_expr_in_values(chv_arena *a, struct chv_expr *x,
                       const struct chv_vector *vals, bool negated,
                       struct chv_expr **out, struct chv_error *err);
int chv_expr_between(chv_arena *a, struct chv_expr *x, struct chv_expr *lo,
                     struct chv_expr *hi, bool negated, struct chv_expr **out,
                     struct chv_error *err);
/* Searched CASE: whens[i]/thens[i], els may be NULL (ELSE NULL). */
int chv_expr_case(chv_arena *a, struct chv_expr **whens,
                  struct chv_expr **thens, int n, struct chv_expr *els,
                  struct chv_expr **out, struct chv_error *err);
/* Simple CASE x WHEN v THEN r ...: lowered to searched CASE of x = v. */
int chv_expr_case_simple(chv_arena *a, struct chv_expr *x,
                         struct chv_expr **vals, struct chv_expr **thens,
                         int n, struct chv_expr *els, struct chv_expr **out,
                         struct chv_error *err);
int chv_expr_cast(chv_arena *a, struct chv_expr *x,
                  const struct chv_type *to, struct chv_expr **out,
                  struct chv_error *err);
int chv_expr_coalesce(chv_arena *a, struct chv_expr **args, int n,
                      struct chv_expr **out, struct chv_error *err);
/* pattern: a string literal; '%' any run, '_' one character, '\' escapes
** the next character. */
int chv_expr_like(chv_arena *a, struct chv_expr *x, struct chv_expr *pattern,
                  bool negated, struct chv_expr **out, struct chv_error *err);

/* The type a UNION gives two branches' columns of types l and r (Hive's
** common class for UNION ALL): equal types stay, strings with any other
** primitive give STRING, numbers the comparison's common type.  In the
** arena; NULL when the two have none. */
const struct chv_type *chv_exec_union_type(chv_arena *a,
                                           const struct chv_type *l,
                                           const struct chv_type *r);

/* CAST of one string to a double the way Hive's (Java's) parser reads it;
** false when malformed. Exposed for tests. */
bool chv_exec_parse_double(const char *s, size_t n, double *out);

/* Convert a non-NULL value of type `from` to `to`; false when Hive gives
** NULL.  String results are written into *buf (grown as needed; freed by the
** caller) and out->str points there.  CHV_ENOMEM is reported through *rc. */
bool chv_exec_cast_value(const struct chv_type *from,
                         const struct chv_value *v, const struct chv_type *to,
                         struct chv_value *out, struct chv_buf *buf, int *rc);

/* Fold a CAST of a literal into a literal. */
int chv_exec_fold(chv_arena *a, const struct chv_expr *cast,
                  struct chv_expr **out, struct chv_error *err);

/* LIKE patterns */
int chv_like_compile(chv_arena *a, const char *p, size_t n,
                     struct chv_like **out, struct chv_error *err);
bool chv_like_match(const struct chv_like *lk, const char *s, size_t n);

#endif
