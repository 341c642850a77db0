/* partiql-parser-private.h: what the PartiQL parser's files share: the parser's state, its token
 * helpers and literal values (partiql-parser.c), paths, operands and conditions
 * (partiql-conditions.c), used by the clauses and statements of partiql.c. Each pqp_ function
 * that fails sets the parser's first error and returns NULL or FALSE. */
#pragma once

#include "core/expr.h"
#include "core/partiql-lexer.h"

G_BEGIN_DECLS

#define MALFORMED "Statement wasn't well formed, can't be processed: %s"

typedef struct {
  const char *text;
  gsize len;
  gsize pos;
  PqlToken tok; /* the current token */
  DdbValue *const *params;
  guint n_params;
  guint next_param;
  GError *error; /* the first error; parsing stops at it */
  /* An error in a literal's contents (a tuple naming a key twice), told only when the whole
   * statement parses: DynamoDB checks the syntax first. */
  GError *deferred;
  /* Where in a literal the parser is, for those errors: "root", "root.a", "root.0". */
  GString *value_path;
} Parser;

/* ---- Tokens (partiql-parser.c) ---- */
void pqp_advance (Parser *p);
gboolean pqp_failed (Parser *p);
gboolean pqp_malformed (Parser *p);
gboolean pqp_fail (Parser *p, const char *format, ...) G_GNUC_PRINTF (2, 3);
gboolean pqp_is_word (const PqlToken *t, const char *word);
gboolean pqp_accept (Parser *p, PqlTokenKind kind);
gboolean pqp_accept_word (Parser *p, const char *word);
gboolean pqp_expect (Parser *p, PqlTokenKind kind);
gboolean pqp_expect_word (Parser *p, const char *word);
PqlTokenKind pqp_peek_next (Parser *p);
char *pqp_parse_name (Parser *p);

/* ---- Values (partiql-parser.c) ---- */
/* INSERT's tuple: each attribute's value is a literal of its own ("root" in errors). */
DdbValue *pqp_parse_item (Parser *p);
gboolean pqp_starts_literal (Parser *p);
DdbValue *pqp_parse_literal (Parser *p);

/* ---- Paths, operands and conditions (partiql-conditions.c) ---- */
gboolean pqp_parse_path (Parser *p, DdbPath *out);
DdbNode *pqp_path_node (Parser *p);
gboolean pqp_at_call (Parser *p, const char *name);
DdbNode *pqp_parse_operand (Parser *p);
DdbNode *pqp_parse_or (Parser *p);

G_END_DECLS
