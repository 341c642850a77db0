/* itemcheck.h: items checked as PutItem checks them (DynamoDB's value rules, 400 KB, the key
 * attributes with their types and sizes, the index key attributes' types) against a table
 * known only by its DescribeTable description: for what puts items into a table that the
 * engine does not hold, such as the staging area's copies (staging/copystage.h). The checks
 * are the engine's own (engine/item-ops.h), with PutItem's messages. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/value.h"

G_BEGIN_DECLS

typedef struct _DdbItemCheck DdbItemCheck;

/* From DESCRIPTION, DescribeTable's "Table" object (KeySchema, AttributeDefinitions,
 * GlobalSecondaryIndexes, LocalSecondaryIndexes). DDB_ERROR_VALIDATION when it lacks a key
 * schema or a key attribute's definition. */
DdbItemCheck *ddb_item_check_new (json_t *description, GError **error);
void ddb_item_check_free (DdbItemCheck *check);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbItemCheck, ddb_item_check_free)

/* The table's partition key attribute, and its sort key attribute (NULL when it has none). */
const char *ddb_item_check_hash_name (DdbItemCheck *check);
const char *ddb_item_check_range_name (DdbItemCheck *check);
/* The type (S, N or B) of the table's key attribute NAME; FALSE when NAME is not one. */
gboolean ddb_item_check_key_type (DdbItemCheck *check, const char *name, DdbType *type);

/* The key schema as an import's --key takes it ("pk:S" or "pk:S,sk:N"), and the global
 * secondary indexes as its --gsi takes them ("NAME:pk:S[,sk:N]", NULL-terminated). New. */
char *ddb_item_check_key_spec (DdbItemCheck *check);
GStrv ddb_item_check_gsi_specs (DdbItemCheck *check);

/* Whether ITEM (a map) can be put into the table: DDB_ERROR_VALIDATION with PutItem's message
 * otherwise. */
gboolean ddb_item_check_item (DdbItemCheck *check, const DdbValue *item, GError **error);

/* ITEM's key attributes (partition key first) as a new map; NULL when one is missing. */
DdbValue *ddb_item_check_key (DdbItemCheck *check, const DdbValue *item);
/* ITEM's key encoded so that two items with the same key (1 and 1.0 alike) give equal bytes;
 * NULL when a key attribute is missing or not of a key type. */
GBytes *ddb_item_check_key_code (DdbItemCheck *check, const DdbValue *item);

G_END_DECLS
