/* table.h: a table's definition as the engine uses it: key schema, secondary indexes and the
 * rest of its description. Private to src/engine. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/expr.h"
#include "core/value.h"

G_BEGIN_DECLS

typedef struct {
  char *hash_name;  /* partition key attribute */
  DdbType hash_type; /* S, N or B */
  char *range_name; /* sort key attribute, or NULL */
  DdbType range_type;
} DdbKeyDef;

typedef enum {
  DDB_PROJECTION_ALL,
  DDB_PROJECTION_KEYS_ONLY,
  DDB_PROJECTION_INCLUDE,
} DdbProjectionType;

typedef struct {
  char *name;
  gboolean global;       /* GSI; FALSE for an LSI (same hash key as the table) */
  DdbKeyDef key;
  DdbProjectionType projection;
  char **non_key_attributes; /* INCLUDE only; NULL-terminated */
  gint64 id;             /* storage id, unique within the table, never reused */
  json_t *provisioned;   /* ProvisionedThroughput object as described, or NULL */
} DdbIndexDef;

typedef struct {
  gint64 id;             /* storage id, never reused in a database */
  char *name;
  DdbKeyDef key;
  GPtrArray *indexes;    /* DdbIndexDef*, LSIs and GSIs in creation order */
  /* Everything else of the TableDescription that the engine stores and returns as is:
   * AttributeDefinitions, BillingModeSummary, ProvisionedThroughput, StreamSpecification,
   * SSEDescription, TableClassSummary, DeletionProtectionEnabled, CreationDateTime,
   * Tags (as a list of {Key, Value}), TimeToLiveDescription. */
  json_t *meta;
} DdbTableDef;

DdbTableDef *ddb_table_def_copy (const DdbTableDef *def);
/* Frees the names and resets them to NULL. */
void ddb_key_def_clear (DdbKeyDef *key);
/* Frees a DdbIndexDef (a GDestroyNotify; NULL is allowed). */
void ddb_index_def_free (gpointer index);
void ddb_table_def_free (DdbTableDef *def);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbTableDef, ddb_table_def_free)

/* TRUE if the table has a local secondary index (so item collections have metrics and a
 * 10 GB limit). */
gboolean ddb_table_def_has_lsi (const DdbTableDef *def);

/* The index named `name`, or NULL. */
DdbIndexDef *ddb_table_def_index (const DdbTableDef *def, const char *name);

/* The key schema as the API writes it: [{"AttributeName": …, "KeyType": "HASH"}, (RANGE)].
 * New reference. */
json_t *ddb_key_def_to_json (const DdbKeyDef *key);

/* The key schema as the core's key-condition analysis wants it. */
void ddb_key_def_schema (const DdbKeyDef *key, DdbKeySchema *out);

/* A new map holding only the key attributes of `item` under `key` (copies), or NULL if one is
 * missing. */
DdbValue *ddb_key_def_extract (const DdbKeyDef *key, const DdbValue *item);

/* The item as it is stored in `index`: NULL when the item lacks the index's key attributes
 * (indexes are sparse) or they are not of the declared types; otherwise a new map with the
 * projected attributes (always the table's and the index's key attributes). */
DdbValue *ddb_index_project (const DdbTableDef *table, const DdbIndexDef *index,
                             const DdbValue *item);

G_END_DECLS
