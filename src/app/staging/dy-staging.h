/* dy-staging.h: the app's staging area: one DdbStaging store (the one dynoscope-cli uses, so
 * both see the same staged changes), staging from the inspector, commits and fan-out plans on
 * worker threads, and a cheap lookup of what is pending on an item for tinting grid rows. */
#pragma once

#include <gio/gio.h>

#include "app/connections/dy-connection.h"
#include "app/inspector/dy-inspector.h"
#include "compare/push.h"
#include "staging/changeset.h"
#include "staging/commit.h"
#include "staging/copystage.h"
#include "staging/exprstage.h"
#include "staging/fanout.h"

G_BEGIN_DECLS

#define DY_TYPE_STAGING (dy_staging_get_type ())
G_DECLARE_FINAL_TYPE (DyStaging, dy_staging, DY, STAGING, GObject)

/* Signal "changed" (void handler (DyStaging *)): something was staged, rejected, discarded or
 * committed, and the snapshots that lookups and dy_staging_peek read have been read again (or,
 * when none was in use, are read on next use). Lookups and lists made before it are stale. */

/* Signal "committed" (void handler (DyStaging *, DyConnection *connection, const char *table,
 * guint n_committed)): a commit through this staging area wrote N_COMMITTED changes of
 * CONNECTION (in TABLE, or in any of its tables when TABLE is NULL), so results read before it
 * may be out of date. Emitted by dy_staging_commit_finish. */

/* The application's staging area, opened at ddb_staging_default_path() on first use (and kept
 * to the end of the process). If the store cannot be opened, every call fails with that
 * error (see dy_staging_get_open_error). */
DyStaging *dy_staging_get_default (void);
/* A staging area on the store at PATH (":memory:" for a private one), for tests. */
DyStaging *dy_staging_new (const char *path);
/* Why the store could not be opened, or NULL. */
const GError *dy_staging_get_open_error (DyStaging *self);

/* The id CONNECTION's changes are kept under, as dynoscope-cli forms it: the absolute path of
 * a database file, the URL of a local endpoint, the endpoint a profile resolves to. A
 * profile's is known only once dy_staging_prepare has finished (NULL before). */
const char *dy_staging_connection_id (DyConnection *connection);
/* Resolves CONNECTION's id (and opens the backend commits go through) on a thread; emits
 * "changed" when the id became known. Cheap when done already. */
void dy_staging_prepare (DyStaging *self, DyConnection *connection);

/* Stages one change (see ddb_staging_stage_create/update/delete: KEY the item's key
 * attributes; ORIGINAL the item as first seen for an update or a delete; TARGET the item as
 * wanted for a create or an update). */
gboolean dy_staging_stage (DyStaging *self, DyConnection *connection, const char *table,
                           DdbChangeKind kind, const DdbValue *key, const DdbValue *original,
                           const DdbValue *target, GError **error);

/* Stages UPDATE (taken; NULL: a delete) on each of ITEMS (DdbValue maps, taken: the array
 * frees them) that CONDITION
 * (taken; NULL: every item) holds for, in one transaction on a thread (see ddb_expr_stage); KEY_NAMES
 * (NULL-terminated) name TABLE's key attributes. */
void dy_staging_stage_expression_async (DyStaging *self, DyConnection *connection,
                                        const char *table, const char *const *key_names,
                                        DdbUpdate *update, DdbNode *condition, GPtrArray *items,
                                        GAsyncReadyCallback callback, gpointer user_data);
/* REPORT (clear it with ddb_expr_stage_report_clear) says what became of each item; FALSE only
 * when the store failed, and then nothing was staged. */
gboolean dy_staging_stage_expression_finish (DyStaging *self, GAsyncResult *result,
                                             DdbExprStageReport *report, GError **error);

/* Bulk puts (dy-staging-bulk.c; see ddb_copy_stage): ITEMS (DdbValue maps, taken) staged into
 * TABLE of CONNECTION on a thread, as creates or, with OVERWRITE, as updates of the items that
 * exist, read first. SOURCE_KEY_NAMES (NULL-terminated, may be NULL) are the key names the
 * items come with, renamed to TABLE's. All or nothing: REPORT names every refused item. */
void dy_staging_copy_async (DyStaging *self, DyConnection *connection, const char *table,
                            const char *const *source_key_names, gboolean overwrite,
                            GPtrArray *items, GCancellable *cancellable,
                            GAsyncReadyCallback callback, gpointer user_data);
/* The same for the items of the file PATH in FORMAT (ddb_copy_stage_file). */
void dy_staging_copy_file_async (DyStaging *self, DyConnection *connection, const char *table,
                                 const char *path, DdbSnapshotFormat format, gboolean overwrite,
                                 GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data);
/* REPORT (clear it with ddb_copy_stage_report_clear) says what was staged or refused; FALSE
 * when the copy failed as a whole (nothing staged). */
gboolean dy_staging_copy_finish (DyStaging *self, GAsyncResult *result, DdbCopyStageReport *report,
                                 GError **error);

/* Connects INSPECTOR (of a view on TABLE of CONNECTION) to the staging area: describes the
 * table to give it the key schema, stages what its "stage" signal asks for, and shows it
 * what is already staged for the item it shows. */
void dy_staging_attach_inspector (DyStaging *self, DyInspector *inspector, DyConnection *connection,
                                  const char *table);

/* Drafts: edits typed in an attached inspector and not staged, kept per connection, table and
 * item key while the app runs (not in the store: a draft is not a change yet), and put back
 * into the editor when the item is shown again. */
const DyInspectorDraft *dy_staging_get_draft (DyStaging *self, DyConnection *connection,
                                              const char *table, const DdbValue *key);
/* Takes the drafts of the attached inspectors' shown items too. */
void dy_staging_save_drafts (DyStaging *self);
/* How many drafts are kept; *N_VALID (may be NULL) how many of them are valid items. */
guint dy_staging_get_n_drafts (DyStaging *self, guint *n_valid);
/* Stages each valid draft (dropping it); invalid ones stay. FALSE with the store's error. */
gboolean dy_staging_stage_drafts (DyStaging *self, guint *n_staged, GError **error);
void dy_staging_discard_drafts (DyStaging *self);
/* For WINDOW's close-request: takes the drafts of its inspectors and, when drafts are kept and
 * the app would end with WINDOW, asks what to do with them (Stage All Valid Drafts, Discard,
 * Cancel; the answer destroys WINDOW unless cancelled) and returns TRUE (keep WINDOW for now).
 * FALSE: WINDOW may close. */
gboolean dy_staging_confirm_close (DyStaging *self, GtkWindow *window);

/* The open changes as last read on a worker thread (borrowed until the next "changed"), for
 * the main thread: NULL while the first read is under way (it is started; "changed" follows)
 * or when it failed (*ERROR, borrowed). *N_TABLES receives how many tables they touch. */
GPtrArray *dy_staging_peek (DyStaging *self, DyConnection *connection, guint *n_tables,
                            const GError **error);
/* TRUE while CONNECTION's changes are being read again. */
gboolean dy_staging_get_loading (DyStaging *self, DyConnection *connection);

/* The open changes (GPtrArray of DdbChange, oldest first) of CONNECTION in TABLE (NULL: all
 * tables); NULL with an error when the store fails or the id is not known yet. It reads the
 * store where it is called: tests and tools; the app's main thread uses dy_staging_peek. */
GPtrArray *dy_staging_list (DyStaging *self, DyConnection *connection, const char *table,
                            GError **error);
gboolean dy_staging_reject_path (DyStaging *self, gint64 id, const char *path, GError **error);
gboolean dy_staging_discard (DyStaging *self, gint64 id, GError **error);
gboolean dy_staging_discard_all (DyStaging *self, DyConnection *connection, const char *table,
                                 GError **error);
/* A conflicted or failed change back to staged (the next commit overwrites). */
gboolean dy_staging_requeue (DyStaging *self, gint64 id, GError **error);
DdbChange *dy_staging_get (DyStaging *self, gint64 id, GError **error);

/* Tinting grid rows.
 *
 * What is pending on the item ITEM (a row's item: the whole item or at least its key
 * attributes) of TABLE in CONNECTION: DY_STAGED_NONE, or the kind of its open change (a
 * conflicted or failed change still counts: it is still staged). For an update, *CHANGED (may
 * be NULL) receives the top-level attribute names its diff touches (NULL-terminated, borrowed:
 * valid until the next "changed" signal); for a create or a delete every attribute counts and
 * *CHANGED is NULL.
 *
 * Cost: a hash lookup on the item's key in the connection's last snapshot (read on a worker
 * thread, never on the calling one): DY_STAGED_NONE until the first snapshot is in, and a
 * change just made shows once the snapshot it is in has arrived, announced by "changed". So a
 * grid calls it from its cell bind functions and re-binds (or re-tints its visible rows) on
 * "changed".
 *
 * The CSS classes to add to a row's widgets: dy_staging_kind_css_class (kind) gives
 * "staged-create", "staged-update" or "staged-delete" (ui/style.css tints them), and a cell of
 * an attribute in *CHANGED gets "staged-cell". */
typedef enum {
  DY_STAGED_NONE,
  DY_STAGED_CREATE,
  DY_STAGED_UPDATE,
  DY_STAGED_DELETE,
} DyStagedKind;

DyStagedKind dy_staging_lookup (DyStaging *self, DyConnection *connection, const char *table,
                                const DdbValue *item, const char *const **changed);
const char *dy_staging_kind_css_class (DyStagedKind kind);
/* The open change on ITEM's key, or NULL (borrowed like *CHANGED above). */
const DdbChange *dy_staging_lookup_change (DyStaging *self, DyConnection *connection,
                                           const char *table, const DdbValue *item);

/* Commits. */

/* Called on the main thread while a commit runs. */
typedef void (*DyStagingProgressFunc) (const DdbCommitProgress *progress, gpointer user_data);

/* Commits the open changes of CONNECTION in TABLE (NULL: all), or only CHANGE_ID (0: all), on a
 * thread. CANCELLABLE stops it between writes (the journal keeps the store consistent). */
void dy_staging_commit_async (DyStaging *self, DyConnection *connection, const char *table,
                              gint64 change_id, DdbCommitMode mode, GCancellable *cancellable,
                              DyStagingProgressFunc progress, gpointer progress_data,
                              GAsyncReadyCallback callback, gpointer user_data);
/* REPORT (cleared by the caller with ddb_commit_report_clear) holds what was done even when
 * it returns FALSE (cancelled, or stopped by an error). */
gboolean dy_staging_commit_finish (DyStaging *self, GAsyncResult *result, DdbCommitReport *report,
                                   GError **error);

/* A compare's push (see ddb_push_stage): stages RESULT's pushable differences that SELECT
 * (may be NULL: all) chooses on CONNECTION, there's connection, on a thread. RESULT and
 * SELECT_DATA are the caller's and stay in use until CALLBACK; LOCK (may be NULL) is held
 * around the use of RESULT, for a caller that reads it on other threads too. */
void dy_staging_push_async (DyStaging *self, DyConnection *connection, DdbCompareResult *result,
                            GMutex *lock, DdbPushSelectFunc select, gpointer select_data,
                            GAsyncReadyCallback callback, gpointer user_data);
/* COUNTS gets what was staged (also when it fails part way); FALSE with ddb_push_stage's
 * error (G_IO_ERROR_EXISTS: CONNECTION has open changes on the table). */
gboolean dy_staging_push_finish (DyStaging *self, GAsyncResult *result, DdbPushCounts *counts,
                                 GError **error);

/* Fan-out: finds the copies on a thread (SPEC is copied). */
void dy_staging_fanout_plan_async (DyStaging *self, DyConnection *connection,
                                   const DdbFanoutSpec *spec, GCancellable *cancellable,
                                   GAsyncReadyCallback callback, gpointer user_data);
DdbFanoutPlan *dy_staging_fanout_plan_finish (DyStaging *self, GAsyncResult *result,
                                              GError **error);
/* Stages PLAN (taken) for SPEC (copied) in one transaction on a thread: thousands of copies
 * are thousands of rows written. */
void dy_staging_fanout_stage_async (DyStaging *self, DyConnection *connection,
                                    const DdbFanoutSpec *spec, DdbFanoutPlan *plan,
                                    GAsyncReadyCallback callback, gpointer user_data);
gboolean dy_staging_fanout_stage_finish (DyStaging *self, GAsyncResult *result, GError **error);

G_END_DECLS
