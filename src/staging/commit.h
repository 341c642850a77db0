/* commit.h: sending staged changes to DynamoDB, each under its optimistic lock, journaled so
 * that an interrupted commit resumes without applying any change twice.
 *
 * Resuming. A change found in 'sending' when a commit starts may or may not have reached the
 * table (the process died between the journal row and the answer, or the answer was lost).
 * Sending it again blindly is wrong either way: its condition would fail against its own write
 * and report a false conflict. So the commit first reads the item (GetItem, ConsistentRead) and
 * judges it (ddb_write_judge): holding the wanted values -> committed without writing; holding
 * the values the change started from -> back to staged and sent with the rest; anything else ->
 * a conflict. This holds for a transaction batch too: TransactWriteItems is all or nothing, so
 * each item of the batch is judged on its own and the verdicts agree unless someone else wrote
 * in between (then that item is a conflict, as it should be). */
#pragma once

#include "backend/backend.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

typedef enum {
  DDB_COMMIT_TRANSACTIONS, /* TransactWriteItems batches: <= 100 actions, <= 4 MB, one per item */
  /* one conditional UpdateItem / PutItem / DeleteItem per change; a group of changes (up to
   * 100, fewer when their writes overrun a time slice) is marked 'sending' in one journal
   * transaction and its outcomes recorded in another, so what a crash leaves in 'sending' is a
   * whole group, judged as above */
  DDB_COMMIT_SINGLE,
} DdbCommitMode;

typedef struct {
  guint total; /* changes this commit handles */
  guint committed;
  guint conflicts;
  guint failed;
} DdbCommitProgress;

typedef void (*DdbCommitProgressFunc) (const DdbCommitProgress *progress, gpointer user_data);

/* Replaces ddb_backend_call (tests inject throttling and faults with it). */
typedef gboolean (*DdbCommitCallFunc) (DdbBackend *backend, const char *operation,
                                       json_t *request, GCancellable *cancellable,
                                       json_t **response, GError **error, gpointer user_data);

typedef struct {
  const char *connection; /* required: whose changes */
  const char *table;      /* NULL: every table */
  gint64 change_id;       /* 0: every change; else only this one */
  DdbCommitMode mode;
  /* See ddb_write_build: counts writes (ADD 1) and guards big deletes. NULL: none. */
  const char *version_attribute;
  guint max_attempts;     /* tries of a throttled call; 0: 10 */
  guint backoff_ms;       /* first wait after throttling, doubled each time up to 5 s; 0: 50 */
  DdbCommitProgressFunc progress;
  gpointer progress_data;
  DdbCommitCallFunc call;
  gpointer call_data;
} DdbCommitOptions;

typedef struct {
  guint committed;
  guint conflicts;
  guint failed;
  guint resumed;       /* changes found in 'sending' and judged */
  GArray *conflict_ids; /* gint64 */
} DdbCommitReport;

void ddb_commit_report_clear (DdbCommitReport *report);

/* Commits the open staged changes OPTIONS selects through BACKEND. Conflicts and failures are
 * outcomes, not errors: they are in REPORT (and in the store, with the item as found beside a
 * conflict) and the function returns TRUE. It returns FALSE when the commit had to stop —
 * cancelled (G_IO_ERROR_CANCELLED), throttled past max_attempts, the network or the store
 * failing — with REPORT holding what was done; a change whose write may have gone out stays in
 * 'sending' and the next commit judges it (see above). Conflicted and failed changes are not
 * sent again until ddb_staging_requeue. */
gboolean ddb_staging_commit (DdbStaging *staging, DdbBackend *backend,
                             const DdbCommitOptions *options, GCancellable *cancellable,
                             DdbCommitReport *report, GError **error);

G_END_DECLS
