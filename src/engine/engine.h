/* engine.h: the embedded storage engine: one SQLite file holds a database of DynamoDB tables,
 * and its only face is DynamoDB's JSON API (operation name + request -> response or error). */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/value.h"

G_BEGIN_DECLS

typedef struct _DdbEngine DdbEngine;

/* Opens (creating if needed) the database at `path`; ":memory:" gives a private in-memory one. */
DdbEngine *ddb_engine_open (const char *path, GError **error);
void ddb_engine_free (DdbEngine *engine);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbEngine, ddb_engine_free)
/* Deletes the database file at `path` and the journal files SQLite keeps beside it (-wal,
 * -shm); missing ones are no error. Nothing may have it open. */
void ddb_engine_remove_files (const char *path);

/* Runs one operation ("PutItem", "Query", ...) with `request` (a JSON object, borrowed), as the
 * DynamoDB JSON 1.0 API does. On success returns TRUE and sets *response to a new reference.
 * On failure returns FALSE with a DDB_ERROR (code = DynamoDB exception, message = DynamoDB's);
 * *response is then NULL or, for errors that carry more than a message (CancellationReasons of
 * TransactionCanceledException, Item of ConditionalCheckFailedException with
 * ReturnValuesOnConditionCheckFailure), a JSON object of those extra members.
 * Safe to call from several threads: writes are serialized on the engine's one writer
 * connection; on a file database reads run concurrently with them, each on a snapshot of its own
 * (a ":memory:" database serializes everything), and concurrent writes share transactions (group
 * commit, one fsync for many calls) yet each returns only once its writes are durable. */
gboolean ddb_engine_call (DdbEngine *engine, const char *operation, json_t *request,
                          json_t **response, GError **error);

/* Takes ownership of ITEM. */
typedef void (*DdbItemFunc) (DdbValue *item, gpointer user_data);

/* ddb_engine_call for "Query" or "Scan", except that each item of the page (filtered and
 * projected as the request says) is handed to EACH, in order, instead of being written into the
 * response, which then has no Items: for readers that want values, not JSON (the SQL layer).
 * Another operation fails as ddb_engine_call would not: DDB_ERROR_VALIDATION. */
gboolean ddb_engine_read (DdbEngine *engine, const char *operation, json_t *request,
                          DdbItemFunc each, gpointer user_data, json_t **response,
                          GError **error);

/* Time to Live: deletes the items of every table with TTL enabled whose TTL attribute is a
 * Number of epoch seconds at or before `now` (and not more than five years before: AWS takes
 * those for mistakes), each deletion a REMOVE stream record of the service; and drops stream
 * records older than 24 hours. *deleted (may be NULL) counts the items deleted. */
gboolean ddb_engine_expire (DdbEngine *engine, gint64 now, guint *deleted, GError **error);

/* A thread that runs ddb_engine_expire every `interval_seconds` (at least 1) until stopped;
 * stop it before freeing the engine. */
typedef struct _DdbTtlSweeper DdbTtlSweeper;
DdbTtlSweeper *ddb_ttl_sweeper_start (DdbEngine *engine, guint interval_seconds);
void ddb_ttl_sweeper_stop (DdbTtlSweeper *sweeper);

/* The error body DynamoDB would send for `error` (+ extra members): {"__type": ..., "message": ...}. */
json_t *ddb_engine_error_body (const GError *error, json_t *extra);

G_END_DECLS
