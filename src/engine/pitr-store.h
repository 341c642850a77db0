/* pitr-store.h: point-in-time recovery in the store: whether a table has it (a member of its
 * definition, so every write knows without a query), and its history: every change of an item
 * while it is on (the write's time in microseconds, the item's key, old and new image), written
 * in the change's own transaction or savepoint beside the stream record, kept for the table's
 * recovery period. What a table held at any time of its window is its items now with the
 * changes made after that time taken back. Private to src/engine. */
#pragma once

#include <jansson.h>

#include "engine/store.h"

G_BEGIN_DECLS

/* The member of DdbTableDef.meta: {"SinceMicros": when it was enabled, "RecoveryPeriodInDays"}.
 * Absent: disabled. Never part of a TableDescription. */
#define DDB_PITR_META "dynoscopePointInTimeRecovery"
#define DDB_PITR_DEFAULT_DAYS 35

/* Creates the history table if absent (every open). */
gboolean ddb_pitr_store_init (DdbStore *store, GError **error);

/* TRUE if changes of the table's items are recorded; *since_us and *days (may be NULL) are
 * when that began and the recovery period. */
gboolean ddb_pitr_enabled (const DdbTableDef *def, gint64 *since_us, gint64 *days);

/* The restorable window now: [*earliest_us, *latest_us]. */
void ddb_pitr_window (const DdbTableDef *def, gint64 now_us, gint64 *earliest_us,
                      gint64 *latest_us);

/* Records a change of one item of `def` (old_item NULL: inserted; new_item NULL: removed).
 * Nothing when PITR is off or nothing changed. Inside the write transaction. */
gboolean ddb_pitr_record (DdbStore *store, const DdbTableDef *def, const DdbValue *old_item,
                          const DdbValue *new_item, GError **error);

/* Forgets the history of table `tid` (disabling PITR restarts the window, as on AWS). Inside
 * the write transaction. */
gboolean ddb_pitr_forget (DdbStore *store, gint64 tid, GError **error);

/* Forgets the changes older than each table's recovery period, and the history of tables that
 * are gone or have PITR off. Inside a transaction (one of its own if none). */
gboolean ddb_pitr_trim (DdbStore *store, gint64 now_us, GError **error);

/* One recorded change, as handed to a DdbPitrFunc (everything borrowed). */
typedef struct {
  gint64 seq;          /* increasing in commit order */
  gint64 at_us;        /* the write's time */
  GBytes *key;         /* the item's encoded key (ddb_pitr_item_key) */
  DdbValue *old_item;  /* NULL: the change inserted the item */
  DdbValue *new_item;  /* NULL: the change removed it */
} DdbPitrChange;

typedef gboolean (*DdbPitrFunc) (const DdbPitrChange *change, gpointer data, GError **error);

/* Hands the changes of table `tid` made at from_us (inclusive) to to_us (exclusive) to `each`,
 * in the order they were made; stops at the first FALSE. */
gboolean ddb_pitr_changes (DdbStore *store, gint64 tid, gint64 from_us, gint64 to_us,
                           DdbPitrFunc each, gpointer data, GError **error);

/* The encoding of the item's key under `def` that the history keeps (NULL if the item lacks a
 * key attribute). */
GBytes *ddb_pitr_item_key (const DdbTableDef *def, const DdbValue *item, GError **error);

G_END_DECLS
