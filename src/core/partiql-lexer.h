/* partiql-lexer.h: the tokenizer of PartiQL statements (private to partiql.c). Keywords are
 * words (T_WORD) that the parser compares without case; quoted names and strings are undone
 * into their text. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  T_EOF,
  T_WORD,   /* unquoted name or keyword */
  T_QNAME,  /* "quoted name" */
  T_STRING, /* 'string' */
  T_NUMBER, /* 12, 1.5, 1e3, .5 */
  T_QMARK,  /* ? */
  T_LPAREN,
  T_RPAREN,
  T_LBRACKET,
  T_RBRACKET,
  T_LBRACE,
  T_RBRACE,
  T_LBAG, /* << */
  T_RBAG, /* >> */
  T_COMMA,
  T_DOT,
  T_COLON,
  T_SEMICOLON,
  T_STAR,
  T_EQ,
  T_NE, /* <> or != */
  T_LT,
  T_LE,
  T_GT,
  T_GE,
  T_PLUS,
  T_MINUS,
  T_BAD, /* anything else, or an unterminated quote or comment */
} PqlTokenKind;

typedef struct {
  PqlTokenKind kind;
  const char *start; /* in the statement */
  gsize len;
  /* T_QNAME, T_STRING: the text with doubled quotes undone (may hold NUL); else NULL. */
  GString *text;
} PqlToken;

/* The token at *pos, which then moves past it. */
void pql_lex (const char *text, gsize text_len, gsize *pos, PqlToken *out);
void pql_token_clear (PqlToken *t);

G_END_DECLS
