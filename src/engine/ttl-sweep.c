/* ttl-sweep.c: Time to Live expiry: deleting the items whose TTL attribute holds a time past,
 * as DynamoDB's background process does (each deletion a REMOVE stream record of the service),
 * and the sweeper thread that does it, and trims stream records, every few seconds. */
#include <string.h>

#include "core/error.h"
#include "engine/engine-private.h"
#include "engine/stream-store.h"

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

/* The expired items of one table: deleted, a REMOVE record each (under the engine's lock). */
static gboolean
expire_table (DdbEngine *engine, DdbTableDef *def, const char *attr, gint64 now, guint *deleted,
              GError **error)
{
  DdbStoreRange range = { 0 };
  g_autoptr (DdbStoreCursor) cursor = NULL;
  g_autoptr (GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  DdbValue *item;
  gboolean skipped, ok = TRUE;
  GError *local = NULL;

  range.forward = TRUE;
  range.total_segments = 1;
  cursor = ddb_store_cursor_open (engine->store, def, &range, error);
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
  g_clear_pointer (&cursor, ddb_store_cursor_free);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (keys->len == 0)
    return TRUE;
  if (!ddb_store_begin (engine->store, error))
    return FALSE;
  ddb_stream_set_service_writes (engine->store, TRUE);
  for (guint i = 0; ok && i < keys->len; i++)
    {
      g_autoptr (DdbValue) cur = NULL;

      /* Deleted only if still expired: the condition DynamoDB's own deletion carries. */
      ok = ddb_store_item_get (engine->store, def, keys->pdata[i], &cur, error);
      if (ok && cur != NULL && is_expired (ddb_value_map_get (cur, attr), now))
        {
          ok = ddb_store_item_delete (engine->store, def, keys->pdata[i], error);
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
  guint count = 0;
  gboolean ok = TRUE;

  g_mutex_lock (&engine->lock);
  names = ddb_store_table_names (engine->store, NULL, 0, error);
  ok = names != NULL;
  for (guint i = 0; ok && i < names->len; i++)
    {
      g_autoptr (DdbTableDef) def = NULL;
      json_t *ttl;
      GError *local = NULL;

      def = ddb_store_table_get (engine->store, names->pdata[i], &local);
      if (def == NULL)
        {
          g_clear_error (&local); /* dropped meanwhile */
          continue;
        }
      ttl = json_object_get (def->meta, "TimeToLiveDescription");
      if (g_strcmp0 (json_string_value (json_object_get (ttl, "TimeToLiveStatus")), "ENABLED")
              != 0
          || !json_is_string (json_object_get (ttl, "AttributeName")))
        continue;
      ok = expire_table (engine, def, json_string_value (json_object_get (ttl, "AttributeName")),
                         now, &count, error);
    }
  /* Retention runs on the clock, whatever time the expiry is asked for. */
  ok = ok && ddb_stream_trim (engine->store, g_get_real_time () / 1000, error);
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

        if (!ddb_engine_expire (sweeper->engine, g_get_real_time () / G_USEC_PER_SEC, NULL,
                                &error))
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
