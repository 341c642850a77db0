/* journal.h: durable state transitions of staged changes. Every move of a change (staged ->
 * sending -> committed | conflict | failed, and back to staged) is written with its journal row
 * in one SQLite transaction with synchronous=FULL before anyone is told about it, so that after
 * a crash the store says exactly which changes may have reached the table (those in 'sending'). */
#pragma once

#include "staging/changeset.h"

G_BEGIN_DECLS

typedef struct {
  gint64 id;
  DdbChangeState state;
  gboolean set_current;     /* store CURRENT (the item as found, NULL: absent) */
  const DdbValue *current;
  const char *message;      /* stored as is (NULL clears it) */
  const char *batch;        /* stored when non-NULL */
} DdbTransition;

/* Applies N transitions in one durable transaction. */
gboolean ddb_journal_record (DdbStaging *staging, const DdbTransition *transitions, guint n,
                             GError **error);

/* For crash tests: HOOK runs after each durable journal transaction with the number written so
 * far by this store (a test process may SIGKILL itself there). */
typedef void (*DdbJournalHook) (guint n_writes, gpointer user_data);
void ddb_staging_set_journal_hook (DdbStaging *staging, DdbJournalHook hook, gpointer user_data);

G_END_DECLS
