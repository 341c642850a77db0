/* ttl-sweep.c: Time to Live expiry: deleting the items whose TTL attribute holds a time past,
 * as DynamoDB's background process does (each deletion a REMOVE stream record of the service),
 * and the sweeper thread that does it, and trims stream records, every few seconds. */
#include <string.h>

#include "core/error.h"
#include "engine/engine-private.h"
#include "engine/stream-store.h"
#include "engine/pitr-store.h"

/* AWS: a TTL value more than five years in the past is not expired (it is taken for a mistake,
 * e.g. milliseconds). */
#define FIVE_YEARS_SECONDS ((gint64) 5 * 365 * 24 * 60 * 60)
/* At most this many deletions per table and pass, so that writers wait little for the lock. */
#define MAX_PER_PASS 1000

/* TRUE if VALUE (an item's TTL attribute) is a Number of epoch seconds in (now - 5 y, now]. */
static gboolean
is_expired (const DdbValue *value, gint64 now)
{
  DdbNumber n, lo, hi;

  if (value == NULL || value->type != DDB_TYPE_N)
    return FALSE;
  ddb_number_set_int (&hi, now);
  ddb_number_set_int (&lo, now - FIVE_YEARS_SECONDS);
  n = value->number;
  return ddb_number_compare (&n, &hi) <= 0 && ddb_number_compare (&n, &lo) >= 0;
}

/* The TTL attribute of a table with TTL enabled, or NULL. */
static const char *
ttl_attribute (const DdbTableDef *def)
{
  json_t *ttl = json_object_get (def->meta, "TimeToLiveDescription");

  if (g_strcmp0 (json_string_value (json_object_get (ttl, "TimeToLiveStatus")), "ENABLED") != 0)
    return NULL;
  return json_string_value (json_object_get (ttl, "AttributeName"));
}

/* A table's expired items found by the scan, to delete under the lock. */
typedef struct {
  char *name;
  gint64 id;
  char *attr;
  GPtrArray *keys; /* DdbValue*: key attributes */
} Pending;

static void
pending_free (gpointer data)
{
  Pending *p = data;

  g_free (p->name);
  g_free (p->attr);
  g_ptr_array_unref (p->keys);
  g_free (p);
}

/* The keys of up to MAX_PER_PASS expired items of `def`, read from `store`. */
static gboolean
collect_expired (DdbStore *store, const DdbTableDef *def, const char *attr, gint64 now,
                 GPtrArray *keys, GError **error)
{
  DdbStoreRange range = { 0 };
  g_autoptr (DdbStoreCursor) cursor = NULL;
  DdbValue *item;
  gboolean skipped;
  GError *local = NULL;

  range.forward = TRUE;
  range.total_segments = 1;
  cursor = ddb_store_cursor_open (store, def, &range, error);
  if (cursor == NULL)
    return FALSE;
  while (keys->len < MAX_PER_PASS
         && ((item = ddb_store_cursor_next (cursor, &skipped, &local)) != NULL || skipped))
    {
      if (item == NULL)
        continue;
      if (is_expired (ddb_value_map_get (item, attr), now))
        g_ptr_array_add (keys, ddb_key_def_extract (&def->key, item));
      ddb_value_free (item);
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/* Under the engine's lock: deletes the items of `p` that are still expired, a REMOVE record of
 * the service each, in one transaction. A table dropped, created again or given another TTL
 * attribute since the scan is left alone. */
static gboolean
delete_expired (DdbEngine *engine, const Pending *p, gint64 now, guint *deleted, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  GError *local = NULL;
  gboolean ok = TRUE;

  def = ddb_store_table_get (engine->store, p->name, &local);
  if (def == NULL)
    {
      g_clear_error (&local);
      return TRUE;
    }
  if (def->id != p->id || g_strcmp0 (ttl_attribute (def), p->attr) != 0)
    return TRUE;
  if (!ddb_store_begin (engine->store, error))
    return FALSE;
  ddb_stream_set_service_writes (engine->store, TRUE);
  for (guint i = 0; ok && i < p->keys->len; i++)
    {
      g_autoptr (DdbValue) cur = NULL;

      /* Deleted only if still expired: writes since the scan may have renewed it (the
       * condition DynamoDB's own deletion carries). */
      ok = ddb_store_item_get (engine->store, def, p->keys->pdata[i], &cur, error);
      if (ok && cur != NULL && is_expired (ddb_value_map_get (cur, p->attr), now))
        {
          ok = ddb_store_item_delete (engine->store, def, p->keys->pdata[i], error);
          *deleted += ok ? 1 : 0;
        }
    }
  ddb_stream_set_service_writes (engine->store, FALSE);
  if (!ok)
    {
      ddb_store_rollback (engine->store);
      return FALSE;
    }
  return ddb_store_commit (engine->store, error);
}

gboolean
ddb_engine_expire (DdbEngine *engine, gint64 now, guint *deleted, GError **error)
{
  g_autoptr (GPtrArray) names = NULL;
  g_autoptr (GPtrArray) pending = g_ptr_array_new_with_free_func (pending_free);
  GError *local = NULL;
  DdbStore *reader, *scan;
  guint count = 0;
  gboolean ok;

  /* The scan runs on a reader of its own (a file database), so writers do not wait for it;
   * only the deletions take the writer. */
  reader = ddb_store_reader_acquire (engine->store, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (reader == NULL)
    g_mutex_lock (&engine->lock);
  scan = reader != NULL ? reader : engine->store;
  names = ddb_store_table_names (scan, NULL, 0, error);
  ok = names != NULL;
  for (guint i = 0; ok && i < names->len; i++)
    {
      g_autoptr (DdbTableDef) def = ddb_store_table_get (scan, names->pdata[i], &local);
      const char *attr;
      Pending *p;

      g_clear_error (&local);
      attr = def != NULL ? ttl_attribute (def) : NULL;
      if (attr == NULL)
        continue;
      p = g_new0 (Pending, 1);
      p->name = g_strdup (def->name);
      p->id = def->id;
      p->attr = g_strdup (attr);
      p->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
      g_ptr_array_add (pending, p);
      ok = collect_expired (scan, def, attr, now, p->keys, error);
    }
  if (reader != NULL)
    {
      ddb_store_reader_release (engine->store, reader);
      g_mutex_lock (&engine->lock);
    }
  for (guint i = 0; ok && i < pending->len; i++)
    if (((Pending *) pending->pdata[i])->keys->len > 0)
      ok = delete_expired (engine, pending->pdata[i], now, &count, error);
  /* Retention runs on the clock, whatever time the expiry is asked for. */
  ok = ok && ddb_stream_trim (engine->store, g_get_real_time () / 1000, error);
  ok = ok && ddb_pitr_trim (engine->store, g_get_real_time (), error);
  g_mutex_unlock (&engine->lock);
  if (deleted != NULL)
    *deleted = count;
  return ok;
}

struct _DdbTtlSweeper {
  DdbEngine *engine;
  guint interval;
  GThread *thread;
  GMutex lock;
  GCond wake;
  gboolean stop;
};

static gpointer
sweep_thread (gpointer data)
{
  DdbTtlSweeper *sweeper = data;

  g_mutex_lock (&sweeper->lock);
  while (!sweeper->stop)
    {
      gint64 until = g_get_monotonic_time () + (gint64) sweeper->interval * G_USEC_PER_SEC;

      while (!sweeper->stop && g_cond_wait_until (&sweeper->wake, &sweeper->lock, until))
        ;
      if (sweeper->stop)
        break;
      g_mutex_unlock (&sweeper->lock);
      {
        GError *error = NULL;

        if (!ddb_engine_expire (sweeper->engine, g_get_real_time () / G_USEC_PER_SEC, NULL, &error))
          {
            g_warning ("TTL expiry: %s", error->message);
            g_clear_error (&error);
          }
      }
      g_mutex_lock (&sweeper->lock);
    }
  g_mutex_unlock (&sweeper->lock);
  return NULL;
}

DdbTtlSweeper *
ddb_ttl_sweeper_start (DdbEngine *engine, guint interval_seconds)
{
  DdbTtlSweeper *sweeper = g_new0 (DdbTtlSweeper, 1);

  sweeper->engine = engine;
  sweeper->interval = MAX (interval_seconds, 1);
  g_mutex_init (&sweeper->lock);
  g_cond_init (&sweeper->wake);
  sweeper->thread = g_thread_new ("ttl-sweeper", sweep_thread, sweeper);
  return sweeper;
}

void
ddb_ttl_sweeper_stop (DdbTtlSweeper *sweeper)
{
  if (sweeper == NULL)
    return;
  g_mutex_lock (&sweeper->lock);
  sweeper->stop = TRUE;
  g_cond_signal (&sweeper->wake);
  g_mutex_unlock (&sweeper->lock);
  g_thread_join (sweeper->thread);
  g_mutex_clear (&sweeper->lock);
  g_cond_clear (&sweeper->wake);
  g_free (sweeper);
}
