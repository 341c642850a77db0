/* eb-private.h: what the builder's files share: the placeholder allocator (eb-alias.c), the
 * reading of placeholder maps and raw parts (eb-raw.c), and the renderer of core's trees
 * (eb-render.c), which loading uses for the raw text it makes. */
#pragma once

#include "exprbuild/exprbuild.h"

G_BEGIN_DECLS

/* ---- eb-alias.c ------------------------------------------------------------------------ */

typedef struct {
  gboolean bare;
  GHashTable *name_alias; /* name -> "#alias" (both owned) */
  json_t *names;          /* "#alias" -> name, in the order given out */
  json_t *values;         /* ":alias" -> DynamoDB JSON, in the order given out */
  GHashTable *value_tab;  /* ":alias" -> DdbValue* (owned), for parsing what was rendered */
  GHashTable *value_text; /* ":alias" (borrowed) -> its DynamoDB JSON text (owned) */
  GHashTable *families;   /* base -> GPtrArray of ":alias" (borrowed from value_tab) */
  GPtrArray *guarded;     /* DdbPath* (borrowed): see "The guarded change" in exprbuild.h */
  gboolean bad_name;      /* a name was empty or not UTF-8: the render fails */
} EbAliases;

void eb_aliases_init (EbAliases *a, gboolean bare);
void eb_aliases_clear (EbAliases *a);
/* The "#alias" of NAME, or NULL when it goes bare. */
const char *eb_alias_name (EbAliases *a, const char *name);
/* The base of the values compared with PATH (its last name's alias without '#'); "v" when the
 * path has no name (never for a valid path). Newly allocated. */
char *eb_path_base (EbAliases *a, const DdbPath *path);
/* The ":alias" for VALUE under BASE (letters, digits, '_'); shared with an earlier use of BASE
 * holding the same value. */
const char *eb_alias_value (EbAliases *a, const char *base, const DdbValue *value);
/* The placeholder maps as the parser takes them ("#a" -> name borrowed from a->names). */
GHashTable *eb_aliases_name_table (EbAliases *a);

/* ---- eb-raw.c -------------------------------------------------------------------------- */

/* A request's ExpressionAttributeNames / Values (NULL: absent) as core's parser takes them,
 * checked as DynamoDB checks them ("#n" -> char*, ":v" -> DdbValue*, all owned). */
gboolean eb_read_names (json_t *names, GHashTable **out, GError **error);
gboolean eb_read_values (json_t *values, GHashTable **out, GError **error);
/* As ddb_eb_raw_new with the maps as tables (borrowed; may be NULL). */
DdbEbRaw *eb_raw_new_tables (DdbExprType type, const char *text, GHashTable *names,
                             GHashTable *values, GError **error);
/* The raw part parsed again; TYPE names the expression it now stands in. */
DdbNode *eb_raw_condition (const DdbEbRaw *raw, DdbExprType type, GError **error);
DdbUpdate *eb_raw_update (const DdbEbRaw *raw, GError **error);

/* ---- eb-render.c ----------------------------------------------------------------------- */

/* Appends a condition / SET operand / path with placeholders from A. */
void eb_render_condition (EbAliases *a, GString *out, const DdbNode *node);
void eb_render_path (EbAliases *a, GString *out, const DdbPath *path);

/* One update action as the renderer sees it, whether from a row or from a raw part. */
typedef struct {
  DdbUpdateKind kind;
  const DdbPath *path;
  const DdbNode *operand;
} EbActionView;

/* "SET a = :a, b = :b REMOVE c": clauses in the order of their first action. */
void eb_render_update (EbAliases *a, GString *out, const EbActionView *actions, guint n);

G_END_DECLS
