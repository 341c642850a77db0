/* store-catalog.c: the store's catalog: table definitions kept as JSON in dy_tables (and
 * cached, parsed, per connection), created, updated (new indexes backfilled) and deleted with
 * their items, index entries, statistics and streams; the list of tables and their figures. */
#include <string.h>

#include "core/error.h"
#include "engine/store-private.h"
#include "engine/base-store.h"
#include "engine/stream-store.h"

/* Beyond this many tables the cache starts over: a few tables take most calls. */
#define MAX_CACHED_DEFS 64

/* ---- Definitions as JSON ---- */

static json_t *
key_to_json (const DdbKeyDef *key)
{
  json_t *o = json_object ();

  json_object_set_new (o, "hash", json_string (key->hash_name));
  json_object_set_new (o, "hash_type", json_string (ddb_type_name (key->hash_type)));
  if (key->range_name != NULL)
    {
      json_object_set_new (o, "range", json_string (key->range_name));
      json_object_set_new (o, "range_type", json_string (ddb_type_name (key->range_type)));
    }
  return o;
}

static gboolean
key_from_json (json_t *o, DdbKeyDef *key)
{
  const char *hash = json_string_value (json_object_get (o, "hash"));
  const char *range = json_string_value (json_object_get (o, "range"));

  if (hash == NULL
      || !ddb_type_from_name (json_string_value (json_object_get (o, "hash_type")) ?: "",
                              &key->hash_type))
    return FALSE;
  key->hash_name = g_strdup (hash);
  if (range != NULL)
    {
      if (!ddb_type_from_name (json_string_value (json_object_get (o, "range_type")) ?: "",
                               &key->range_type))
        return FALSE;
      key->range_name = g_strdup (range);
    }
  return TRUE;
}

static const char *const projection_names[] = {
  [DDB_PROJECTION_ALL] = "ALL",
  [DDB_PROJECTION_KEYS_ONLY] = "KEYS_ONLY",
  [DDB_PROJECTION_INCLUDE] = "INCLUDE",
};

static char *
def_to_text (const DdbTableDef *def, gint64 next_index_id)
{
  json_t *o = json_object ();
  json_t *indexes = json_array ();
  char *text;

  json_object_set_new (o, "key", key_to_json (&def->key));
  for (guint i = 0; def->indexes != NULL && i < def->indexes->len; i++)
    {
      const DdbIndexDef *index = def->indexes->pdata[i];
      json_t *io = json_object ();

      json_object_set_new (io, "name", json_string (index->name));
      json_object_set_new (io, "global", json_boolean (index->global));
      json_object_set_new (io, "key", key_to_json (&index->key));
      json_object_set_new (io, "projection", json_string (projection_names[index->projection]));
      if (index->non_key_attributes != NULL)
        {
          json_t *names = json_array ();

          for (char **p = index->non_key_attributes; *p != NULL; p++)
            json_array_append_new (names, json_string (*p));
          json_object_set_new (io, "non_key_attributes", names);
        }
      json_object_set_new (io, "id", json_integer (index->id));
      if (index->provisioned != NULL)
        json_object_set (io, "provisioned", index->provisioned);
      json_array_append_new (indexes, io);
    }
  json_object_set_new (o, "indexes", indexes);
  json_object_set_new (o, "next_index_id", json_integer (next_index_id));
  if (def->meta != NULL)
    json_object_set (o, "meta", def->meta);
  else
    json_object_set_new (o, "meta", json_object ());
  text = json_dumps (o, JSON_COMPACT | JSON_ENSURE_ASCII);
  json_decref (o);
  return text;
}

static DdbTableDef *
def_from_text (gint64 id, const char *name, const char *text, gint64 *next_index_id,
               GError **error)
{
  json_error_t jerr;
  json_t *o = json_loads (text, 0, &jerr);
  DdbTableDef *def = g_new0 (DdbTableDef, 1);
  json_t *indexes;
  gboolean ok;
  size_t i;
  json_t *io;

  def->id = id;
  def->name = g_strdup (name);
  def->indexes = g_ptr_array_new ();
  ok = o != NULL && key_from_json (json_object_get (o, "key"), &def->key);
  indexes = ok ? json_object_get (o, "indexes") : NULL;
  json_array_foreach (indexes, i, io)
    {
      DdbIndexDef *index = g_new0 (DdbIndexDef, 1);
      const char *proj = json_string_value (json_object_get (io, "projection"));
      json_t *names = json_object_get (io, "non_key_attributes");

      g_ptr_array_add (def->indexes, index);
      index->name = g_strdup (json_string_value (json_object_get (io, "name")));
      index->global = json_is_true (json_object_get (io, "global"));
      index->id = json_integer_value (json_object_get (io, "id"));
      if (index->name == NULL || !key_from_json (json_object_get (io, "key"), &index->key))
        {
          ok = FALSE;
          break;
        }
      index->projection = DDB_PROJECTION_ALL;
      for (guint p = 0; proj != NULL && p < G_N_ELEMENTS (projection_names); p++)
        if (strcmp (proj, projection_names[p]) == 0)
          index->projection = p;
      if (json_is_array (names))
        {
          size_t n = json_array_size (names);

          index->non_key_attributes = g_new0 (char *, n + 1);
          for (size_t k = 0; k < n; k++)
            index->non_key_attributes[k]
              = g_strdup (json_string_value (json_array_get (names, k)) ?: "");
        }
      if (json_object_get (io, "provisioned") != NULL)
        index->provisioned = json_incref (json_object_get (io, "provisioned"));
    }
  if (ok)
    {
      json_t *meta = json_object_get (o, "meta");

      def->meta = json_is_object (meta) ? json_incref (meta) : json_object ();
      *next_index_id = json_integer_value (json_object_get (o, "next_index_id"));
    }
  if (o != NULL)
    json_decref (o);
  if (!ok)
    {
      ddb_table_def_free (def);
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                   "Malformed stored definition of table %s", name);
      return NULL;
    }
  return def;
}

/* ---- Catalog ---- */

static gint64
max_index_id (const DdbTableDef *def)
{
  gint64 max = 0;

  for (guint i = 0; def->indexes != NULL && i < def->indexes->len; i++)
    max = MAX (max, ((DdbIndexDef *) def->indexes->pdata[i])->id);
  return max;
}

static gboolean
table_exists (DdbStore *store, const char *name, gboolean *exists, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (store, "SELECT 1 FROM dy_tables WHERE name = ?1", error);
  int rc;

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  *exists = rc == SQLITE_ROW;
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "catalog");
  return TRUE;
}

gboolean
ddb_store_table_create (DdbStore *store, DdbTableDef *def, GError **error)
{
  gboolean own, exists = FALSE, ok;
  g_autofree char *text = NULL;
  sqlite3_stmt *stmt;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  ok = table_exists (store, def->name, &exists, error);
  if (ok && exists)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_IN_USE, "Table already exists: %s",
                   def->name);
      ok = FALSE;
    }
  if (ok)
    {
      gint64 next = 1;

      for (guint i = 0; def->indexes != NULL && i < def->indexes->len; i++)
        ((DdbIndexDef *) def->indexes->pdata[i])->id = next++;
      text = def_to_text (def, next);
      stmt = store_stmt_acquire (store, "INSERT INTO dy_tables (name, def) VALUES (?1, ?2)", error);
      ok = stmt != NULL;
      if (ok)
        {
          sqlite3_bind_text (stmt, 1, def->name, -1, SQLITE_STATIC);
          sqlite3_bind_text (stmt, 2, text, -1, SQLITE_STATIC);
          ok = store_stmt_run (store, stmt, error);
        }
      if (ok)
        {
          def->id = sqlite3_last_insert_rowid (store->db);
          store_bases_forget (store, def->id);
          ok = store_stats_create (store, def->id, 0, error);
        }
      for (guint i = 0; ok && def->indexes != NULL && i < def->indexes->len; i++)
        ok = store_stats_create (store, def->id, ((DdbIndexDef *) def->indexes->pdata[i])->id, error);
      ok = ok && ddb_stream_sync_table (store, def, FALSE, error);
    }
  return store_auto_end (store, own, ok, error);
}

/* The stored definition and its next index id; *def NULL if the table does not exist. */
static gboolean
table_load (DdbStore *store, const char *name, DdbTableDef **def, gint64 *next_index_id,
            GError **error)
{
  sqlite3_stmt *stmt
      = store_stmt_acquire (store, "SELECT id, def FROM dy_tables WHERE name = ?1", error);
  int rc;

  *def = NULL;
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, name, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (stmt, 0);
      const char *text = (const char *) sqlite3_column_text (stmt, 1);
      CachedDef *cached = g_hash_table_lookup (store->defs, name);

      /* The stored text decides, so a call always sees the definition of its own snapshot. */
      if (cached != NULL && cached->id == id && text != NULL && strcmp (cached->text, text) == 0)
        {
          json_t *meta = cached->def->meta;

          /* On a reader the calls only read the definition, so its description (the largest
           * part) is shared rather than copied; the writer's calls change theirs. */
          if (store->parent != NULL)
            cached->def->meta = NULL;
          *def = ddb_table_def_copy (cached->def);
          if (store->parent != NULL)
            {
              cached->def->meta = meta;
              json_decref ((*def)->meta);
              (*def)->meta = json_incref (meta);
            }
          *next_index_id = cached->next_index_id;
        }
      else
        {
          *def = def_from_text (id, name, text, next_index_id, error);
          if (*def != NULL)
            {
              if (g_hash_table_size (store->defs) >= MAX_CACHED_DEFS)
                g_hash_table_remove_all (store->defs);
              cached = g_new0 (CachedDef, 1);
              cached->id = id;
              cached->next_index_id = *next_index_id;
              cached->text = g_strdup (text);
              cached->def = ddb_table_def_copy (*def);
              g_hash_table_replace (store->defs, g_strdup (name), cached);
            }
        }
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "catalog");
  return rc == SQLITE_DONE || *def != NULL;
}

DdbTableDef *
ddb_store_table_get (DdbStore *store, const char *name, GError **error)
{
  DdbTableDef *def = NULL;
  gint64 next;

  if (!table_load (store, name, &def, &next, error))
    return NULL;
  if (def == NULL)
    g_set_error_literal (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND,
                         "Requested resource not found");
  return def;
}

/* Fills new indexes from the table's items. */
static gboolean
backfill (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index, GError **error)
{
  sqlite3_stmt *stmt
      = store_stmt_acquire (store, "SELECT item, pk, sk FROM dy_items WHERE tid = ?1", error);
  GByteArray *tk = g_byte_array_new ();
  gboolean ok = stmt != NULL;
  int rc = SQLITE_DONE;
  KeySlots ks;

  store_key_slots (def, NULL, &ks);
  if (ok)
    {
      sqlite3_bind_int64 (stmt, 1, def->id);
      while (ok && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
        {
          g_autoptr (DdbValue) item = NULL;

          g_byte_array_set_size (tk, 0);
          g_byte_array_append (tk, sqlite3_column_blob (stmt, 1),
                               (guint) sqlite3_column_bytes (stmt, 1));
          g_byte_array_append (tk, sqlite3_column_blob (stmt, 2),
                               (guint) sqlite3_column_bytes (stmt, 2));
          item = store_row_decode (&ks, stmt, NULL, 0, error);
          ok = item != NULL && store_put_index_entries (store, def, index, item, tk, error);
        }
      if (ok && rc != SQLITE_DONE)
        ok = store_sql_error (store, error, "backfill");
      store_stmt_release (store, stmt);
    }
  g_byte_array_unref (tk);
  return ok;
}

gboolean
ddb_store_table_update (DdbStore *store, DdbTableDef *def, GError **error)
{
  g_autoptr (DdbTableDef) old = NULL;
  g_autofree char *text = NULL;
  gint64 next = 0;
  gboolean own, ok;
  sqlite3_stmt *stmt;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  ok = table_load (store, def->name, &old, &next, error);
  if (ok && (old == NULL || old->id != def->id))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND,
                           "Requested resource not found");
      ok = FALSE;
    }
  if (ok)
    {
      next = MAX (next, max_index_id (old) + 1);
      next = MAX (next, max_index_id (def) + 1);
      for (guint i = 0; def->indexes != NULL && i < def->indexes->len; i++)
        {
          DdbIndexDef *index = def->indexes->pdata[i];

          if (index->id == 0)
            index->id = next++;
        }
      /* Dropped indexes lose their entries. */
      for (guint i = 0; ok && i < old->indexes->len; i++)
        {
          const DdbIndexDef *o = old->indexes->pdata[i];
          gboolean kept = FALSE;

          for (guint j = 0; def->indexes != NULL && j < def->indexes->len; j++)
            kept = kept || ((DdbIndexDef *) def->indexes->pdata[j])->id == o->id;
          if (kept)
            continue;
          for (guint k = 0; ok && k < 2; k++)
            {
              stmt
                  = store_stmt_acquire (store,
                                        k == 0 ? "DELETE FROM dy_index WHERE tid = ?1 AND iid = ?2"
                                               : "DELETE FROM dy_stats WHERE tid = ?1 AND iid = ?2",
                                        error);
              ok = stmt != NULL;
              if (ok)
                {
                  sqlite3_bind_int64 (stmt, 1, def->id);
                  sqlite3_bind_int64 (stmt, 2, o->id);
                  ok = store_stmt_run (store, stmt, error);
                }
            }
          store_stats_forget (store, def->id, o->id);
        }
      /* New indexes are filled from the items. */
      for (guint i = 0; ok && def->indexes != NULL && i < def->indexes->len; i++)
        {
          const DdbIndexDef *index = def->indexes->pdata[i];
          gboolean existed = FALSE;

          for (guint j = 0; j < old->indexes->len; j++)
            existed = existed || ((DdbIndexDef *) old->indexes->pdata[j])->id == index->id;
          if (!existed)
            ok = store_stats_create (store, def->id, index->id, error)
                 && backfill (store, def, index, error);
        }
    }
  if (ok)
    {
      text = def_to_text (def, next);
      stmt = store_stmt_acquire (store, "UPDATE dy_tables SET def = ?2 WHERE id = ?1", error);
      ok = stmt != NULL;
      if (ok)
        {
          sqlite3_bind_int64 (stmt, 1, def->id);
          sqlite3_bind_text (stmt, 2, text, -1, SQLITE_STATIC);
          ok = store_stmt_run (store, stmt, error);
        }
      ok = ok && ddb_stream_sync_table (store, def, FALSE, error);
    }
  return store_auto_end (store, own, ok, error);
}

gboolean
ddb_store_table_delete (DdbStore *store, const DdbTableDef *def, GError **error)
{
  static const char *const sqls[] = {
    "DELETE FROM dy_index WHERE tid = ?1",
    "DELETE FROM dy_items WHERE tid = ?1",
    "DELETE FROM dy_tables WHERE id = ?1",
    "DELETE FROM dy_stats WHERE tid = ?1",
  };
  gboolean own, ok;

  if (!store_auto_begin (store, &own, error))
    return FALSE;
  ok = TRUE;
  for (guint i = 0; ok && i < G_N_ELEMENTS (sqls); i++)
    {
      sqlite3_stmt *stmt = store_stmt_acquire (store, sqls[i], error);

      ok = stmt != NULL;
      if (ok)
        {
          sqlite3_bind_int64 (stmt, 1, def->id);
          ok = store_stmt_run (store, stmt, error);
        }
    }
  if (ok)
    store_stats_forget (store, def->id, -1);
  ok = ok && ddb_stream_sync_table (store, def, TRUE, error);
  ok = ok && ddb_base_drop (store, def, error);
  return store_auto_end (store, own, ok, error);
}

GPtrArray *
ddb_store_table_names (DdbStore *store, const char *exclusive_start, guint limit,
                       GError **error)
{
  /* Names are TEXT compared with the BINARY collation: memcmp of UTF-8, DynamoDB's order. */
  sqlite3_stmt *stmt = store_stmt_acquire (store,
                                           "SELECT name FROM dy_tables WHERE name > ?1"
                                           " ORDER BY name LIMIT ?2",
                                           error);
  GPtrArray *names;
  int rc;

  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, exclusive_start != NULL ? exclusive_start : "", -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, limit > 0 ? (gint64) limit : -1);
  names = g_ptr_array_new_with_free_func (g_free);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (names, g_strdup ((const char *) sqlite3_column_text (stmt, 0)));
  store_stmt_release (store, stmt);
  if (rc != SQLITE_DONE)
    {
      store_sql_error (store, error, "catalog");
      g_ptr_array_unref (names);
      return NULL;
    }
  return names;
}

gboolean
ddb_store_table_stats (DdbStore *store, const DdbTableDef *def, const DdbIndexDef *index,
                       gint64 *item_count, gint64 *size_bytes, GError **error)
{
  sqlite3_stmt *stmt = store_stmt_acquire (
      store, "SELECT count, size FROM dy_stats WHERE tid = ?1 AND iid = ?2", error);
  gint64 iid = index != NULL ? index->id : 0;
  int rc;

  if (stmt == NULL)
    return FALSE;
  *item_count = 0;
  *size_bytes = 0;
  sqlite3_bind_int64 (stmt, 1, def->id);
  sqlite3_bind_int64 (stmt, 2, iid);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      *item_count = sqlite3_column_int64 (stmt, 0);
      *size_bytes = sqlite3_column_int64 (stmt, 1);
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "statistics");
  /* What the open transaction changed is counted too (an import checks its count). */
  for (guint i = 0; i < store->deltas->len; i++)
    {
      const StatsDelta *d = &g_array_index (store->deltas, StatsDelta, i);

      if (d->tid == def->id && d->iid == iid)
        {
          *item_count += d->count;
          *size_bytes += d->size;
        }
    }
  return TRUE;
}
