/* journal.c: durable state transitions of staged changes and the journal rows beside them. */
#include "staging/staging-private.h"

gboolean
ddb_staging_journal_append (DdbStaging *staging, gint64 id, DdbChangeState state,
                            const char *detail, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (staging->db,
                          "INSERT INTO journal (change_id, state, at, detail)"
                          " VALUES (?1, ?2, ?3, ?4)",
                          -1, &stmt, NULL)
      != SQLITE_OK)
    return ddb_staging_sql_error (staging, error);
  sqlite3_bind_int64 (stmt, 1, id);
  sqlite3_bind_int (stmt, 2, state);
  sqlite3_bind_int64 (stmt, 3, g_get_real_time () / 1000);
  ddb_staging_bind_text (stmt, 4, detail);
  rc = sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  if (rc != SQLITE_DONE)
    return ddb_staging_sql_error (staging, error);
  return TRUE;
}

static gboolean
record_one (DdbStaging *staging, sqlite3_stmt *stmt, const DdbTransition *t, GError **error)
{
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  sqlite3_bind_int64 (stmt, 1, t->id);
  sqlite3_bind_int (stmt, 2, t->state);
  sqlite3_bind_int (stmt, 3, t->set_current);
  ddb_staging_bind_item (stmt, 4, t->current);
  ddb_staging_bind_text (stmt, 5, t->message);
  ddb_staging_bind_text (stmt, 6, t->batch);
  if (sqlite3_step (stmt) != SQLITE_DONE)
    return ddb_staging_sql_error (staging, error);
  if (sqlite3_changes (staging->db) != 1)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "The staged change %" G_GINT64_FORMAT " was discarded during the commit",
                   t->id);
      return FALSE;
    }
  return ddb_staging_journal_append (staging, t->id, t->state, t->message, error);
}

gboolean
ddb_journal_record (DdbStaging *staging, const DdbTransition *transitions, guint n,
                    GError **error)
{
  sqlite3_stmt *stmt = NULL;
  gboolean ok;

  if (n == 0)
    return TRUE;
  g_rec_mutex_lock (&staging->lock);
  ok = ddb_staging_exec (staging, "BEGIN IMMEDIATE", error);
  if (ok
      && sqlite3_prepare_v2 (staging->db,
                             "UPDATE changes SET state = ?2,"
                             " current = CASE WHEN ?3 THEN ?4 ELSE current END,"
                             " message = ?5, batch = coalesce (?6, batch) WHERE id = ?1",
                             -1, &stmt, NULL)
           != SQLITE_OK)
    ok = ddb_staging_sql_error (staging, error);
  for (guint i = 0; ok && i < n; i++)
    ok = record_one (staging, stmt, &transitions[i], error);
  sqlite3_finalize (stmt);
  if (ok)
    ok = ddb_staging_exec (staging, "COMMIT", error);
  if (!ok)
    sqlite3_exec (staging->db, "ROLLBACK", NULL, NULL, NULL);
  staging->n_writes += ok;
  g_rec_mutex_unlock (&staging->lock);
  if (ok && staging->hook != NULL)
    staging->hook (staging->n_writes, staging->hook_data);
  return ok;
}

void
ddb_staging_set_journal_hook (DdbStaging *staging, DdbJournalHook hook, gpointer user_data)
{
  staging->hook = hook;
  staging->hook_data = user_data;
}
