/* staging-private.h: the store shared by the staging files (changeset.c, journal.c), and the
 * helpers shared by the stagers of a result. */
#pragma once

#include <sqlite3.h>

#include "staging/changeset.h"
#include "staging/journal.h"

G_BEGIN_DECLS

struct _DdbStaging {
  sqlite3 *db;
  GRecMutex lock; /* one SQLite transaction at a time on the one connection */
  DdbJournalHook hook;
  gpointer hook_data;
  guint n_writes;
  guint batch_depth; /* inside ddb_staging_batch_begin */
};

/* A G_IO_ERROR_FAILED naming SQLite's error, returning FALSE. */
gboolean ddb_staging_sql_error (DdbStaging *staging, GError **error);
/* Runs SQL without results (fixed text only). */
gboolean ddb_staging_exec (DdbStaging *staging, const char *sql, GError **error);
/* Binds an item (NULL: SQL NULL) as its DynamoDB JSON text. */
void ddb_staging_bind_item (sqlite3_stmt *stmt, int index, const DdbValue *item);
void ddb_staging_bind_text (sqlite3_stmt *stmt, int index, const char *text);

/* Appends a journal row (inside the caller's transaction). */
gboolean ddb_staging_journal_append (DdbStaging *staging, gint64 id, DdbChangeState state,
                                     const char *detail, GError **error);

/* Shared by the stagers of a result (exprstage.c, sqlstage.c). */

/* Frees a DdbExprStageFailure (a GDestroyNotify for the reports' failures). */
void ddb_expr_stage_failure_free (gpointer failure);
/* TRUE for a refusal of ddb_staging_stage_* that concerns one item and leaves the store as it
 * was (G_IO_ERROR_EXISTS: a merge that cannot be, G_IO_ERROR_BUSY: a change being sent): the
 * stager reports it for that item and goes on. */
gboolean ddb_staging_is_item_refusal (const GError *error);

G_END_DECLS
