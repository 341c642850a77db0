/* table-private.h: what the table operation files share: request checks with DynamoDB's
 * messages (table-validate.c), the TableDescription (table-describe.c), and table lookups and
 * definition helpers (table-ops.c). Private to the table-*.c files. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/error.h"
#include "engine/engine-private.h"
#include "engine/request.h"
#include "engine/table.h"

G_BEGIN_DECLS

#define ARN_PREFIX "arn:aws:dynamodb:ddblocal:000000000000:table/"
#define INVALID "One or more parameter values were invalid: "
#define PPR_WITH_THROUGHPUT                                                                      \
  INVALID "Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode " \
          "is PAY_PER_REQUEST"
#define MAX_LSI 5
#define MAX_GSI 20
#define MAX_CAPACITY G_GINT64_CONSTANT (1000000000000)
#define MAX_TAGS 50

/* ---- Validation helpers (table-validate.c) ---- */

/* The "N validation errors detected" collector (DdbViolations) and ddb_req_fail() are
 * request.h's. ddb_table_fail() is ddb_req_fail() for a gboolean function: FALSE. */
#define ddb_table_fail(...) \
  ({ \
    ddb_req_fail (__VA_ARGS__); \
    FALSE; \
  })

/* A member of an object; JSON null counts as absent, as DynamoDB reads it. */
json_t *ddb_table_member (json_t *obj, const char *name);

/* What DynamoDB's deserializer says of a member of the wrong JSON type (NULL is fine). `want` is
 * the JSON type expected (JSON_TRUE for a boolean, JSON_INTEGER for a number) and `java` the
 * Java type named in scalar messages. */
gboolean ddb_table_check_type (json_t *j, json_type want, const char *java, GError **error);

/* Tags of CreateTable/TagResource: types and constraints (`path` names the list). */
gboolean ddb_table_check_tags (json_t *tags, const char *path, gboolean required, GError **error);
/* Adds to `v` what is wrong with one tag key (a JSON string or NULL: length, characters) at
 * `path`; TRUE when it has the prefix AWS keeps for itself (the caller refuses it with
 * TAG_RESERVED once `v` holds nothing). */
gboolean ddb_table_check_tag_key (DdbViolations *v, const char *path, json_t *key);
#define TAG_PATTERN \
  "Member must satisfy regular expression pattern: [\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*"
#define TAG_RESERVED \
  INVALID "Tag keys and values may not begin with the prefix aws:, which AWS reserves for the " \
          "tags it assigns"

/* A throughput member's value (ReadCapacityUnits, WriteCapacityUnits). */
gint64 ddb_table_throughput_value (json_t *pt, const char *name);
/* The upper bounds of a ProvisionedThroughput's values. */
gboolean ddb_table_check_capacity (json_t *pt, GError **error);

void ddb_table_string_list_join (GString *out, GPtrArray *names);
/* The type AttributeDefinitions gives `name`, or FALSE. */
gboolean ddb_table_attr_def_type (json_t *defs, const char *name, DdbType *type);
/* The AttributeName of each element of a list (borrowed strings). */
GPtrArray *ddb_table_attr_def_names (json_t *defs);

/* Everything CreateTable checks before it builds the definition: member types, constraints,
 * billing mode and throughput, attribute definitions and the table's key schema. */
gboolean ddb_table_check_create_request (json_t *req, gboolean *pay_per_request,
                                         gboolean *stream_enabled, const char **view_type,
                                         GError **error);
/* The checks of one secondary index of CreateTable (or of an UpdateTable Create); `seen` holds
 * the index names so far. */
gboolean ddb_table_check_index (json_t *ix, json_t *defs, const DdbKeyDef *table_key,
                                gboolean gsi, gboolean pay_per_request, GHashTable *seen,
                                GError **error);

/* The members of an UpdateTable request (borrowed; JSON null counts as absent) and what its
 * checks found: read once, by ddb_table_check_update_request. */
typedef struct {
  const char *name;    /* TableName */
  json_t *defs;        /* AttributeDefinitions */
  json_t *billing;     /* BillingMode */
  json_t *pt;          /* ProvisionedThroughput */
  json_t *updates;     /* GlobalSecondaryIndexUpdates */
  json_t *stream;      /* StreamSpecification */
  json_t *protection;  /* DeletionProtectionEnabled */
  json_t *sse;         /* SSESpecification */
  json_t *table_class; /* TableClass */
  json_t *replicas;    /* ReplicaUpdates */
  gboolean stream_enabled;
  const char *view_type;
} DdbTableUpdateRequest;

/* Everything UpdateTable checks before it reads the table; fills `out`. */
gboolean ddb_table_check_update_request (json_t *req, DdbTableUpdateRequest *out,
                                         GError **error);
/* One GlobalSecondaryIndexUpdates element: its action name and body. */
gboolean ddb_table_gsi_update_action (json_t *u, const char **action, json_t **body,
                                      GError **error);

/* ---- Descriptions (table-describe.c) ---- */

json_t *ddb_table_throughput_json (gint64 read, gint64 write);
/* The TableDescription of `def`, with its statistics when `store` is given. */
json_t *ddb_table_describe (DdbStore *store, const DdbTableDef *def, const char *status,
                            GError **error);
/* {"TableDescription": description}, or NULL when description is NULL. */
json_t *ddb_table_wrap_description (json_t *description);

/* ---- Lookups (table-ops.c) ---- */

gint64 ddb_table_now_seconds (void);
/* The table named `name`; ResourceNotFoundException with `not_found` as its message. */
DdbTableDef *ddb_table_get (DdbEngine *e, const char *name, const char *not_found,
                            GError **error);
/* The table for DescribeTable/DeleteTable/UpdateTable/TTL, whose not-found message names it. */
DdbTableDef *ddb_table_get_named (DdbEngine *e, const char *name, GError **error);
/* The table the request's TableName names (checked as ddb_req_table_name checks it). */
DdbTableDef *ddb_table_from_request (DdbEngine *e, json_t *req, GError **error);

/* ---- Tags (table-tags.c) ---- */

/* Merges `tags` into the list `current` (a tag with an existing key replaces its value). */
void ddb_table_merge_tags (json_t *current, json_t *tags);

G_END_DECLS
