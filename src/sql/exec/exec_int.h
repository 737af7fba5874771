/*
** sql/exec private declarations shared by eval.c and agg.c.  Values, decimals and type predicates are sql/func's
** (chv_func_*(), func.h).
*/
#ifndef CHV_SQL_EXEC_INT_H
#define CHV_SQL_EXEC_INT_H

#include "sql/exec/exec.h"

/* (value casts, CAST folding and LIKE patterns: sql/plan/expr.h) */

#endif /* CHV_SQL_EXEC_INT_H */
