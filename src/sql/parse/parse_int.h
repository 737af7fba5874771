/*
** sql/parse internals: the lexer's tokens and state, shared by lexer.c
** (characters to tokens, string decoding, the script splitter) and
** parser.c (tokens to the tree of include/chive/sql.h).
**
** INTERFACE
**   struct sql_lexer, sql_lex_init(), sql_lex_next()   tokens on demand
**   sql_decode_string()    a quoted literal's value per dialect
**   sql_tok_kind_name()    "string", "number" ... for error messages
**   sql_is_reserved_word() the words that are not names unless backquoted
*/
#ifndef CHV_SQL_PARSE_INT_H
#define CHV_SQL_PARSE_INT_H

#include "chive/sql.h"
#include "common/common.h"

enum sql_tok_kind {
  TK_EOF,
  TK_WORD,    /* identifier or keyword: letters, digits, '_' ($ too) */
  TK_QIDENT,  /* `quoted name` ( `` is a backquote) */
  TK_STRING,  /* 'text' */
  TK_DSTRING, /* "text" */
  TK_BINARY,  /* X'0A' */
  TK_NUMBER,  /* 12, 1.5, 1e10, 10Y, 10BD */
  TK_BYTES,   /* 100M: Hive's byte length (digits, then one of b k m g in
                 either case), which only TABLESAMPLE takes */
  TK_OP,      /* punctuation and operators: text holds it */
  TK_ERROR    /* lexical error: msg says what */
};

struct sql_token {
  enum sql_tok_kind kind;
  const char *start; /* into the source */
  size_t len;
  struct chv_sql_pos pos;
  /* The last /\*+ ... *\/ hint right before this token (len 0: none):
  ** its text between the markers and the position of that text. */
  const char *hint;
  size_t hint_len;
  struct chv_sql_pos hint_pos;
  /* Hints right before the token (only the last is kept above) and where
  ** the first of them opens its text; the parser sets taken once it has
  ** parsed the hint as a table's. */
  int nhints;
  struct chv_sql_pos first_hint_pos;
  bool taken;
  const char *msg; /* TK_ERROR: "unterminated string" ... */
};

struct sql_lexer {
  const char *src, *end, *cur;
  int line, column;
  enum chv_sql_dialect dialect;
};

void sql_lex_init(struct sql_lexer *lx, const char *src, size_t len,
                  struct chv_sql_pos start, enum chv_sql_dialect dialect);
/* Next token; never fails (errors come back as TK_ERROR tokens). */
void sql_lex_next(struct sql_lexer *lx, struct sql_token *t);
/* Move the lexer back to pos (a position it has passed). */
void sql_lex_seek(struct sql_lexer *lx, struct chv_sql_pos pos);

/* Decode a quoted token (TK_STRING, TK_DSTRING, TK_QIDENT, TK_BINARY's
** quoted part) into arena memory: the doubled quote always, backslash
** escapes when hive is true.  *out_len gets the length.  NULL on OOM. */
char *sql_decode_string(chv_arena *arena, const char *start, size_t len,
                        bool hive, size_t *out_len);

/* Whether w (NUL-terminated) is a word the parser does not take as a name
** without backquotes (SELECT, FROM, LEFT ...), case-insensitively. */
bool sql_is_reserved_word(const char *w);

#endif /* CHV_SQL_PARSE_INT_H */
