/* table-requests-private.h: the JSON pieces table-requests.c builds and table-update.c reuses. */
#pragma once

#include "backend/table-requests.h"

G_BEGIN_DECLS

/* Sets G_IO_ERROR_INVALID_ARGUMENT with the formatted message; FALSE. */
gboolean tr_fail (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

json_t *tr_key_schema (const char *pk, const char *sk);
/* Appends NAME's AttributeDefinition to DEFS unless it is there (NAME NULL: nothing). */
void tr_add_definition (json_t *defs, const char *name, const char *type);
json_t *tr_throughput (gint64 rcu, gint64 wcu);
/* A GlobalSecondaryIndex (GLOBAL) or LocalSecondaryIndex of SPEC. */
json_t *tr_index_json (const DdbTableSpec *spec, const DdbIndexSpec *index, gboolean global);
json_t *tr_ttl_request (const char *table, const char *attribute, gboolean enabled);
json_t *tr_stream_spec (DdbStreamView view);
/* Takes REQUEST. */
DdbTableStep *tr_step_new (const char *operation, json_t *request, DdbTableWait wait,
                           const char *index);
GPtrArray *tr_steps_new (void);

G_END_DECLS
