/* copystage.h: items put into a table through the staging area, never written directly: a
 * grid selection copied to another table or connection (the key attributes renamed when the
 * two tables name their keys differently), and the items of a file (DynamoDB JSON lines, plain
 * JSON, CSV with a header). Each item becomes a create, which the commit guards with
 * attribute_not_exists (writes.h): an item already there is a conflict, left staged. When the
 * user asks to overwrite, each item is read first (BatchGetItem, strongly consistent) and an
 * item found becomes an update from the item as read to the item given, guarded by every
 * value it changes: nothing is written unguarded, and an item changed between the read and
 * the commit is a conflict too.
 *
 * All or nothing: every item is checked (and, with overwrite, read) before anything is staged;
 * when any item is refused, nothing is staged and the report names every refusal. */
#pragma once

#include "backend/backend.h"
#include "engine/snapshot.h"
#include "staging/changeset.h"
#include "staging/exprstage.h"

G_BEGIN_DECLS

typedef struct {
  const char *connection; /* the target's staging id (whose changes they become) */
  const char *table;      /* the target table (described through the target backend) */
  /* The source table's key attribute names (partition key, then sort key; NULL-terminated):
   * each item's source partition key becomes the target's partition key and its source sort
   * key the target's sort key, when their names differ. NULL: items are taken as they are. */
  const char *const *source_key_names;
  /* FALSE: creates (an existing item is a conflict at commit). TRUE: an item that exists is
   * overwritten by an update from the item as read; one already equal is left alone. */
  gboolean overwrite;
} DdbCopyStageSpec;

typedef struct {
  guint n_items;       /* items checked */
  guint n_created;     /* staged as creates */
  guint n_overwritten; /* staged as updates of an existing item (overwrite) */
  guint n_unchanged;   /* overwrite: the item exists exactly as given; nothing staged */
  guint n_failed;      /* refused: then nothing at all is staged */
  /* DdbExprStageFailure* (key: the item's key as given, or NULL when it has none; message:
   * why, "FILE:LINE: ..." for an item of a file), in the items' order */
  GPtrArray *failures;
} DdbCopyStageReport;

void ddb_copy_stage_report_clear (DdbCopyStageReport *report);

/* Stages ITEMS (DdbValue maps) into SPEC's table through TARGET, all in one durable
 * transaction. An item is refused when: after the key mapping it lacks a target key
 * attribute or holds it with another type than the table's (or empty, or over the key size
 * limits), renaming a key would replace another attribute of the item (a source item holding
 * both "PK" and "pk" copied to a table keyed on "pk"), it is not a valid item (400 KB, empty
 * sets, numbers out of range), an index key attribute has the wrong type, the same target key
 * came earlier in ITEMS, or the store refuses the change (an open change on the same item that
 * cannot merge, a change being sent). Returns FALSE only when the table cannot be described,
 * the read fails as a whole, CANCELLABLE is cancelled (G_IO_ERROR_CANCELLED) or the store
 * fails: nothing is staged then. A report with failures is a TRUE return with nothing staged. */
gboolean ddb_copy_stage (DdbStaging *staging, DdbBackend *target, const DdbCopyStageSpec *spec,
                         GPtrArray *items, GCancellable *cancellable, DdbCopyStageReport *report,
                         GError **error);

/* The items of the file PATH in FORMAT (DDB_SNAPSHOT_AUTO: from its name; jsonl, json or csv,
 * not s3), read as an import reads them but against the target table's key schema (CSV's
 * untyped key columns take the table's key types), then staged as ddb_copy_stage stages them
 * (SPEC's source_key_names is ignored: a file's items are taken as they are). Every item is
 * read and checked before anything is staged: the report names each refused item by its file
 * and line, and a syntax error that stops the reading is a refusal at its line too. PROGRESS
 * (may be NULL) is called as engine/snapshot.h calls it. */
gboolean ddb_copy_stage_file (DdbStaging *staging, DdbBackend *target, const DdbCopyStageSpec *spec,
                              const char *path, DdbSnapshotFormat format,
                              DdbSnapshotProgressFunc progress, gpointer progress_data,
                              GCancellable *cancellable, DdbCopyStageReport *report,
                              GError **error);

G_END_DECLS
