/* expr-lexer.h: the tokenizer of DynamoDB's expression language (private to the expression
 * parser). A pure function over the text: no allocation, no state beyond the position. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  DDB_TOK_EOF,
  DDB_TOK_ID,    /* a name: a letter, then letters, digits and '_' */
  DDB_TOK_NAME,  /* #placeholder */
  DDB_TOK_VALUE, /* :placeholder */
  DDB_TOK_INT,   /* a list index: "0" or a digit 1-9 followed by digits */
  /* keywords, any case */
  DDB_TOK_AND,
  DDB_TOK_OR,
  DDB_TOK_NOT,
  DDB_TOK_BETWEEN,
  DDB_TOK_IN,
  DDB_TOK_SET,
  DDB_TOK_REMOVE,
  DDB_TOK_ADD,
  DDB_TOK_DELETE,
  /* operators and punctuation */
  DDB_TOK_EQ,
  DDB_TOK_NE,
  DDB_TOK_LT,
  DDB_TOK_LE,
  DDB_TOK_GT,
  DDB_TOK_GE,
  DDB_TOK_LPAREN,
  DDB_TOK_RPAREN,
  DDB_TOK_LBRACKET,
  DDB_TOK_RBRACKET,
  DDB_TOK_COMMA,
  DDB_TOK_DOT,
  DDB_TOK_PLUS,
  DDB_TOK_MINUS,
  DDB_TOK_BAD, /* one character the language does not use (a whole UTF-8 sequence) */
} DdbTokenKind;

typedef struct {
  DdbTokenKind kind;
  guint start; /* byte offset in the text */
  guint len;   /* 0 for EOF */
} DdbToken;

/* Reads the token at or after `pos` (whitespace skipped) in text[0..len) and returns the
 * offset just past it. At the end of the text, returns an EOF token at `len`. */
gsize ddb_expr_lex (const char *text, gsize len, gsize pos, DdbToken *tok);

G_END_DECLS
