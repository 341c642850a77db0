/* sqlstage.h: the SQL workbench's "Stage update…" action: a result that carries the full key of
 * one table sets one top-level attribute to a column's value on each of its rows, as guarded
 * per-item changes in the staging area, never written directly. Each row is checked against
 * the item as it is now (BatchGetItem, strongly consistent): an item that no longer holds the
 * value the row showed is a conflict and is not staged, as fan-out plans only the copies still
 * holding the old value; the commit then guards each change the same way (writes.h). */
#pragma once

#include "backend/backend.h"
#include "staging/changeset.h"
#include "staging/exprstage.h"

G_BEGIN_DECLS

typedef struct {
  const char *connection;
  const char *table;            /* a table (not an index) */
  const char *const *key_names; /* NULL-terminated: partition key, then sort key */
  const char *attribute;        /* the top-level attribute to set */
} DdbSqlStageSpec;

typedef struct {
  DdbValue *key;   /* the row's full key (an M of the key attributes) */
  DdbValue *shown; /* the attribute's value as the row showed it; NULL: the row showed it absent */
  DdbValue *value; /* the new value; NULL: remove the attribute */
} DdbSqlStageRow;

void ddb_sql_stage_row_free (DdbSqlStageRow *row);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbSqlStageRow, ddb_sql_stage_row_free)

typedef struct {
  guint n_staged;
  guint n_unchanged; /* the new value is the shown one */
  guint n_conflicts; /* the item no longer holds the shown value (or is gone): not staged */
  guint n_failed;
  GPtrArray *failures; /* DdbExprStageFailure* (exprstage.h: key + message): the conflicts and
                        * the failures, in the rows' order */
} DdbSqlStageReport;

void ddb_sql_stage_report_clear (DdbSqlStageReport *report);

/* Stages, for each of ROWS (DdbSqlStageRow*), an update of SPEC's attribute on the row's item:
 * original = the item as read now, target = the same with the attribute set to the row's
 * value (or removed), merging with what is already staged on the item as
 * ddb_staging_stage_update does.
 *
 * The spec is checked first: the table is described through BACKEND, its key must be
 * KEY_NAMES and the attribute must not be one of them; a spec that does not fit is a
 * G_IO_ERROR_INVALID_ARGUMENT before anything is read. Then per row, in REPORT in the rows'
 * order (failures and conflicts both in FAILURES):
 *   - failed: the key does not hold exactly the key attributes with the table's key types
 *     (non-empty, within the key size limits), the same item came earlier in ROWS, the value
 *     is not a valid DynamoDB value, the item would grow past 400 KB, or the store refuses the
 *     change (a staged delete, a change being sent);
 *   - conflict: the item no longer exists, or its attribute no longer equals SHOWN (absent
 *     when SHOWN is NULL); the message says what it holds now;
 *   - unchanged: VALUE equals SHOWN;
 *   - staged otherwise, all in one durable transaction.
 * The items are read with BatchGetItem (ConsistentRead, at most 100 keys a request), sending
 * UnprocessedKeys again after a short backoff; CANCELLABLE (may be NULL) stops it with
 * G_IO_ERROR_CANCELLED. Returns FALSE only when the spec, the backend or the store fails as a
 * whole: nothing is staged then and REPORT counts nothing. */
gboolean ddb_sql_stage (DdbStaging *staging, DdbBackend *backend, const DdbSqlStageSpec *spec,
                        GPtrArray *rows, GCancellable *cancellable, DdbSqlStageReport *report,
                        GError **error);

G_END_DECLS
