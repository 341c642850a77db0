/* dy-partiql.h: the GTK-free parts of the SQL tab's PartiQL mode: what a statement is (a read
 * or a write, and on which table), the values typed for its `?` placeholders, and which grid
 * columns a page of ExecuteStatement items adds. */
#pragma once

#include <glib.h>
#include <jansson.h>

G_BEGIN_DECLS

typedef enum {
  DY_PARTIQL_READ, /* SELECT (or anything not a write: DynamoDB judges it) */
  DY_PARTIQL_INSERT,
  DY_PARTIQL_UPDATE,
  DY_PARTIQL_DELETE,
} DyPartiqlKind;

/* The kind of STATEMENT from its first word, and in *TABLE (when not NULL) the table it names
 * after FROM, INTO or UPDATE, unquoted (NULL when none is found). */
DyPartiqlKind dy_partiql_kind (const char *statement, char **table);
/* "INSERT", "UPDATE", "DELETE" or "SELECT". */
const char *dy_partiql_kind_name (DyPartiqlKind kind);

/* The values of TEXT for the statement's `?` placeholders, in order, as a JSON array of
 * DynamoDB JSON values (new reference; empty for blank TEXT). TEXT is either a JSON array of
 * DynamoDB JSON values, or values separated by commas or new lines, each DynamoDB JSON
 * ({"S": "a"}) or a PartiQL literal: 'text' (a quote doubled inside), a number (kept to the
 * digit), TRUE, FALSE or NULL. NULL with an error naming the parameter otherwise. */
json_t *dy_partiql_parse_parameters (const char *text, GError **error);

/* The names of PAGE_NAMES (a page's attribute names, first-seen order) not among SHOWN (the
 * grid's columns, NULL-terminated), in the order to append them: when nothing is shown yet,
 * the key attributes KEYS (may be NULL) that the page holds come first. */
GPtrArray *dy_partiql_new_columns (const char *const *shown, GPtrArray *page_names,
                                   const char *const *keys);

G_END_DECLS
