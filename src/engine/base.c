/* base.c: the engine's face of a snapshot's base (base.h), over base-store.c, under the
 * engine's lock on the writer connection. */
#include "engine/base.h"

#include <string.h>

#include "engine/base-store.h"
#include "engine/engine-private.h"

gboolean
ddb_engine_get_base (DdbEngine *engine, const char *table, DdbTableBase *out, gboolean *found,
                     GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  gboolean ok = FALSE;

  *found = FALSE;
  memset (out, 0, sizeof *out);
  g_mutex_lock (&engine->lock);
  def = ddb_store_table_get (engine->store, table, error);
  if (def != NULL)
    ok = ddb_base_get (engine->store, def, out, found, error);
  g_mutex_unlock (&engine->lock);
  return ok;
}

gboolean
ddb_engine_set_base (DdbEngine *engine, const char *table, const char *source, const char *format,
                     GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  gint64 count = 0, size = 0;
  gboolean ok = FALSE;

  g_mutex_lock (&engine->lock);
  def = ddb_store_table_get (engine->store, table, error);
  if (def != NULL && ddb_store_table_stats (engine->store, def, NULL, &count, &size, error))
    ok = ddb_base_set (engine->store, def, source, format, NULL, g_get_real_time () / 1000, count,
                       error);
  g_mutex_unlock (&engine->lock);
  return ok;
}

gboolean
ddb_engine_base_item_count (DdbEngine *engine, const char *table, gint64 *count, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  gboolean ok = FALSE;

  *count = 0;
  g_mutex_lock (&engine->lock);
  def = ddb_store_table_get (engine->store, table, error);
  if (def != NULL)
    ok = ddb_base_item_count (engine->store, def, count, error);
  g_mutex_unlock (&engine->lock);
  return ok;
}

gboolean
ddb_engine_base_item_lookup (DdbEngine *engine, const char *table, const DdbValue *key,
                             gboolean *found, DdbValue **item, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  gboolean ok = FALSE;

  *found = FALSE;
  *item = NULL;
  g_mutex_lock (&engine->lock);
  def = ddb_store_table_get (engine->store, table, error);
  if (def != NULL)
    ok = ddb_base_item_lookup (engine->store, def, key, found, item, error);
  g_mutex_unlock (&engine->lock);
  return ok;
}

gboolean
ddb_engine_base_items_foreach (DdbEngine *engine, const char *table, DdbBaseItemFunc func,
                               gpointer user_data, GError **error)
{
  g_autoptr (DdbTableDef) def = NULL;
  gboolean ok = FALSE;

  g_mutex_lock (&engine->lock);
  def = ddb_store_table_get (engine->store, table, error);
  if (def != NULL)
    ok = ddb_base_items_foreach (engine->store, def, func, user_data, error);
  g_mutex_unlock (&engine->lock);
  return ok;
}
