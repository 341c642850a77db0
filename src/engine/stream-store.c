/* stream-store.c: streams and their change records in the database (see stream-store.h).
 *
 * dy_streams holds one row per stream (a table's stream from enabling to disabling); records
 * are rows of dy_stream_records whose AUTOINCREMENT key is the sequence number: increasing in
 * commit order (one writer), never reused, and taken back with the record when its savepoint or
 * transaction rolls back, so no reader ever sees a gap filled later. */
#include "engine/stream-store.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/store-private.h"

static const char stream_schema_sql[]
    = "CREATE TABLE IF NOT EXISTS dy_streams ("
      " id INTEGER PRIMARY KEY AUTOINCREMENT,"
      " arn TEXT UNIQUE NOT NULL, table_name TEXT NOT NULL, label TEXT NOT NULL,"
      " view_type TEXT NOT NULL, key_schema TEXT NOT NULL, status TEXT NOT NULL,"
      " created INTEGER NOT NULL, disabled INTEGER NOT NULL DEFAULT 0,"
      " trimmed INTEGER NOT NULL DEFAULT 0);"
      "CREATE TABLE IF NOT EXISTS dy_stream_records ("
      " seq INTEGER PRIMARY KEY AUTOINCREMENT, sid INTEGER NOT NULL, created INTEGER NOT NULL,"
      " record TEXT NOT NULL);"
      "CREATE INDEX IF NOT EXISTS dy_stream_records_by_sid ON dy_stream_records (sid, seq);"
      /* The records past the retention, found without reading the ones kept (a stream keeps a
       * day of them: DescribeStream, GetShardIterator, GetRecords and the sweeper read only the
       * ends of a stream). Added to older databases on open. */
      "CREATE INDEX IF NOT EXISTS dy_stream_records_by_age ON dy_stream_records (sid, created);";

/* What one GetRecords answer holds at most (AWS: 1 MB). */
#define MAX_READ_BYTES (1024 * 1024)

/* Sequence numbers are "1" and 20 digits: 21 digits as AWS's, and in string order too. */
#define SEQ_DIGITS 20

gboolean
ddb_stream_store_init (DdbStore *store, GError **error)
{
  char *msg = NULL;

  if (sqlite3_exec (store->db, stream_schema_sql, NULL, NULL, &msg) != SQLITE_OK)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Cannot create the streams' tables: %s",
                   msg != NULL ? msg : "?");
      sqlite3_free (msg);
      return FALSE;
    }
  return TRUE;
}

void
ddb_stream_set_service_writes (DdbStore *store, gboolean on)
{
  store->service_writes = on;
}

char *
ddb_stream_seq_format (gint64 seq)
{
  return g_strdup_printf ("1%0*" G_GINT64_FORMAT, SEQ_DIGITS, seq);
}

gboolean
ddb_stream_seq_parse (const char *text, gint64 *seq)
{
  guint64 v;

  if (text == NULL || strlen (text) != SEQ_DIGITS + 1 || text[0] != '1')
    return FALSE;
  for (const char *p = text; *p != '\0'; p++)
    if (*p < '0' || *p > '9')
      return FALSE;
  if (!g_ascii_string_to_unsigned (text + 1, 10, 0, G_MAXINT64, &v, NULL))
    return FALSE;
  *seq = (gint64) v;
  return TRUE;
}

gboolean
ddb_stream_enabled (const DdbTableDef *def)
{
  json_t *spec = json_object_get (def->meta, "StreamSpecification");

  return json_is_true (json_object_get (spec, "StreamEnabled"))
         && json_is_string (json_object_get (def->meta, "LatestStreamArn"));
}

/* Runs a statement to its end; FALSE with the error set otherwise. Releases it. */
static gboolean
run (DdbStore *store, sqlite3_stmt *stmt, GError **error)
{
  int rc = sqlite3_step (stmt);

  while (rc == SQLITE_ROW)
    rc = sqlite3_step (stmt);
  store_stmt_release (store, stmt);
  if (rc != SQLITE_DONE)
    return store_sql_error (store, error, "write");
  return TRUE;
}

/* The id of the stream of that ARN, 0 if none. */
static gboolean
stream_id (DdbStore *store, const char *arn, gint64 *id, GError **error)
{
  sqlite3_stmt *stmt
      = store_stmt_acquire (store, "SELECT id FROM dy_streams WHERE arn = ?1", error);
  int rc;

  *id = 0;
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, arn, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *id = sqlite3_column_int64 (stmt, 0);
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  return TRUE;
}

static char *
event_id (void)
{
  g_autofree char *uuid = g_uuid_string_random ();
  GString *out = g_string_sized_new (32);

  for (const char *p = uuid; *p != '\0'; p++)
    if (*p != '-')
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

gboolean
ddb_stream_record (DdbStore *store, const DdbTableDef *def, const DdbValue *old_item,
                   const DdbValue *new_item, GError **error)
{
  json_t *spec = json_object_get (def->meta, "StreamSpecification");
  const char *view = json_string_value (json_object_get (spec, "StreamViewType"));
  const char *name;
  g_autoptr (DdbValue) keys = NULL;
  g_autofree char *eid = NULL;
  g_autofree char *text = NULL;
  gboolean with_new, with_old;
  gint64 now_ms = g_get_real_time () / 1000, id, size;
  json_t *record, *ddb;
  sqlite3_stmt *stmt;

  if (!ddb_stream_enabled (def) || (old_item == NULL && new_item == NULL))
    return TRUE;
  if (old_item != NULL && new_item != NULL && ddb_value_equal (old_item, new_item))
    return TRUE;
  if (!stream_id (store, json_string_value (json_object_get (def->meta, "LatestStreamArn")), &id,
                  error))
    return FALSE;
  if (id == 0)
    return TRUE; /* enabled before streams were kept: ddb_stream_sync_table starts it */
  name = old_item == NULL ? "INSERT" : new_item == NULL ? "REMOVE" : "MODIFY";
  keys = ddb_key_def_extract (&def->key, new_item != NULL ? new_item : old_item);
  if (keys == NULL)
    return TRUE;
  view = view != NULL ? view : "KEYS_ONLY";
  with_new = new_item != NULL
             && (strcmp (view, "NEW_IMAGE") == 0 || strcmp (view, "NEW_AND_OLD_IMAGES") == 0);
  with_old = old_item != NULL
             && (strcmp (view, "OLD_IMAGE") == 0 || strcmp (view, "NEW_AND_OLD_IMAGES") == 0);
  size = (gint64) ddb_item_size (keys) + (with_new ? (gint64) ddb_item_size (new_item) : 0)
         + (with_old ? (gint64) ddb_item_size (old_item) : 0);

  eid = event_id ();
  ddb = json_object ();
  json_object_set_new (ddb, "ApproximateCreationDateTime", json_integer (now_ms / 1000));
  json_object_set_new (ddb, "Keys", ddb_item_to_json (keys));
  if (with_new)
    json_object_set_new (ddb, "NewImage", ddb_item_to_json (new_item));
  if (with_old)
    json_object_set_new (ddb, "OldImage", ddb_item_to_json (old_item));
  /* Filled in when read: the number is the row's key, known only once it is inserted. */
  json_object_set_new (ddb, "SequenceNumber", json_string (""));
  json_object_set_new (ddb, "SizeBytes", json_integer (size));
  json_object_set_new (ddb, "StreamViewType", json_string (view));
  record
      = json_pack ("{ss ss ss ss ss so}", "eventID", eid, "eventName", name, "eventVersion", "1.1",
                   "eventSource", "aws:dynamodb", "awsRegion", "ddblocal", "dynamodb", ddb);
  if (store->service_writes && new_item == NULL)
    json_object_set_new (
        record, "userIdentity",
        json_pack ("{ss ss}", "Type", "Service", "PrincipalId", "dynamodb.amazonaws.com"));
  text = json_dumps (record, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref (record);

  stmt = store_stmt_acquire (store,
                             "INSERT INTO dy_stream_records (sid, created, record)"
                             " VALUES (?1, ?2, ?3)",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  sqlite3_bind_int64 (stmt, 2, now_ms);
  sqlite3_bind_text (stmt, 3, text, -1, SQLITE_STATIC);
  return run (store, stmt, error);
}

gboolean
ddb_stream_sync_table (DdbStore *store, const DdbTableDef *def, gboolean deleted, GError **error)
{
  const char *arn = json_string_value (json_object_get (def->meta, "LatestStreamArn"));
  gboolean enabled = !deleted && ddb_stream_enabled (def);
  gint64 now_ms = g_get_real_time () / 1000;
  sqlite3_stmt *stmt;

  if (enabled)
    {
      json_t *spec = json_object_get (def->meta, "StreamSpecification");
      const char *view = json_string_value (json_object_get (spec, "StreamViewType"));
      const char *label = json_string_value (json_object_get (def->meta, "LatestStreamLabel"));
      g_autofree char *keys = NULL;
      json_t *schema = ddb_key_def_to_json (&def->key);

      keys = json_dumps (schema, JSON_COMPACT | JSON_PRESERVE_ORDER);
      json_decref (schema);
      stmt = store_stmt_acquire (store,
                                 "INSERT INTO dy_streams (arn, table_name, label, view_type,"
                                 " key_schema, status, created) VALUES (?1, ?2, ?3, ?4, ?5,"
                                 " 'ENABLED', ?6) ON CONFLICT DO NOTHING",
                                 error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_text (stmt, 1, arn, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 2, def->name, -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 3, label != NULL ? label : "", -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 4, view != NULL ? view : "KEYS_ONLY", -1, SQLITE_STATIC);
      sqlite3_bind_text (stmt, 5, keys, -1, SQLITE_STATIC);
      sqlite3_bind_int64 (stmt, 6, now_ms);
      if (!run (store, stmt, error))
        return FALSE;
    }
  stmt = store_stmt_acquire (store,
                             "UPDATE dy_streams SET status = 'DISABLED', disabled = ?3"
                             " WHERE table_name = ?1 AND status = 'ENABLED'"
                             " AND (?2 IS NULL OR arn != ?2)",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, def->name, -1, SQLITE_STATIC);
  if (enabled)
    sqlite3_bind_text (stmt, 2, arn, -1, SQLITE_STATIC);
  else
    sqlite3_bind_null (stmt, 2);
  sqlite3_bind_int64 (stmt, 3, now_ms);
  return run (store, stmt, error);
}

gboolean
ddb_stream_trim (DdbStore *store, gint64 now_ms, GError **error)
{
  /* Each statement reads the records past the retention through dy_stream_records_by_age, not
   * the day of records kept: the sweeper runs under the write lock. */
  static const char *const sqls[] = {
    /* Remember how far each stream was trimmed, for TrimmedDataAccessException. */
    "UPDATE dy_streams SET trimmed = (SELECT max(seq) FROM dy_stream_records r"
    " WHERE r.sid = dy_streams.id AND r.created < ?1)"
    " WHERE EXISTS (SELECT 1 FROM dy_stream_records r WHERE r.sid = dy_streams.id"
    " AND r.created < ?1)",
    "DELETE FROM dy_stream_records WHERE sid IN (SELECT id FROM dy_streams) AND created < ?1",
    "DELETE FROM dy_streams WHERE status = 'DISABLED' AND disabled < ?1",
    /* Only after streams were removed (the one statement that reads every record). */
    "DELETE FROM dy_stream_records WHERE sid NOT IN (SELECT id FROM dy_streams)",
  };
  gboolean own = !store->in_txn, ok = TRUE;
  gboolean streams_removed = FALSE;

  if (own && !ddb_store_begin (store, error))
    return FALSE;
  for (guint i = 0; ok && i < G_N_ELEMENTS (sqls); i++)
    {
      sqlite3_stmt *stmt;

      if (i == 3 && !streams_removed)
        break;
      stmt = store_stmt_acquire (store, sqls[i], error);
      ok = stmt != NULL;
      if (ok)
        {
          sqlite3_bind_int64 (stmt, 1, now_ms - DDB_STREAM_RETENTION_SECONDS * (gint64) 1000);
          ok = run (store, stmt, error);
          if (ok && i == 2)
            streams_removed = sqlite3_changes (store->db) > 0;
        }
    }
  if (own)
    {
      if (ok)
        return ddb_store_commit (store, error);
      ddb_store_rollback (store);
    }
  return ok;
}

void
ddb_stream_info_free (DdbStreamInfo *info)
{
  if (info == NULL)
    return;
  g_free (info->arn);
  g_free (info->table_name);
  g_free (info->label);
  g_free (info->view_type);
  g_free (info->status);
  if (info->key_schema != NULL)
    json_decref (info->key_schema);
  g_free (info);
}

#define INFO_COLUMNS \
  "id, arn, table_name, label, view_type, key_schema, status, created, disabled, trimmed"

/* A stream from a row of INFO_COLUMNS; NULL if it ended longer ago than the retention. */
static DdbStreamInfo *
info_from_row (sqlite3_stmt *stmt, gint64 now_ms)
{
  DdbStreamInfo *info;
  const char *status = (const char *) sqlite3_column_text (stmt, 6);

  if (g_strcmp0 (status, "DISABLED") == 0
      && sqlite3_column_int64 (stmt, 8) < now_ms - DDB_STREAM_RETENTION_SECONDS * (gint64) 1000)
    return NULL;
  info = g_new0 (DdbStreamInfo, 1);
  info->id = sqlite3_column_int64 (stmt, 0);
  info->arn = g_strdup ((const char *) sqlite3_column_text (stmt, 1));
  info->table_name = g_strdup ((const char *) sqlite3_column_text (stmt, 2));
  info->label = g_strdup ((const char *) sqlite3_column_text (stmt, 3));
  info->view_type = g_strdup ((const char *) sqlite3_column_text (stmt, 4));
  info->key_schema = json_loads ((const char *) sqlite3_column_text (stmt, 5), 0, NULL);
  info->status = g_strdup (status);
  info->created_ms = sqlite3_column_int64 (stmt, 7);
  info->horizon_seq = sqlite3_column_int64 (stmt, 9);
  return info;
}

gboolean
ddb_stream_get (DdbStore *store, const char *arn, gint64 now_ms, DdbStreamInfo **info,
                GError **error)
{
  sqlite3_stmt *stmt;
  gint64 cutoff = now_ms - DDB_STREAM_RETENTION_SECONDS * (gint64) 1000;
  int rc;

  *info = NULL;
  stmt
      = store_stmt_acquire (store, "SELECT " INFO_COLUMNS " FROM dy_streams WHERE arn = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, arn, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *info = info_from_row (stmt, now_ms);
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  if (*info == NULL)
    return TRUE;

  /* Records not yet trimmed but past the retention count as trimmed: readers never see them,
   * whether or not a sweeper has run. */
  /* The ends of the stream only: the newest past the retention (by age), the oldest kept (in
   * sequence order from the start, past the few not yet trimmed) and the newest. */
  stmt = store_stmt_acquire (store,
                             "SELECT (SELECT max(seq) FROM dy_stream_records"
                             "  INDEXED BY dy_stream_records_by_age"
                             "  WHERE sid = ?1 AND created < ?2),"
                             " (SELECT seq FROM dy_stream_records INDEXED BY dy_stream_records_by_sid"
                             "  WHERE sid = ?1 AND created >= ?2 ORDER BY seq LIMIT 1),"
                             " (SELECT max(seq) FROM dy_stream_records"
                             "  INDEXED BY dy_stream_records_by_sid WHERE sid = ?1)",
                             error);
  if (stmt == NULL)
    {
      g_clear_pointer (info, ddb_stream_info_free);
      return FALSE;
    }
  sqlite3_bind_int64 (stmt, 1, (*info)->id);
  sqlite3_bind_int64 (stmt, 2, cutoff);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      (*info)->horizon_seq = MAX ((*info)->horizon_seq, sqlite3_column_int64 (stmt, 0));
      (*info)->first_seq = sqlite3_column_int64 (stmt, 1);
      (*info)->last_seq = MAX ((*info)->horizon_seq, sqlite3_column_int64 (stmt, 2));
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_ROW)
    {
      g_clear_pointer (info, ddb_stream_info_free);
      return store_sql_error (store, error, "read");
    }
  return TRUE;
}

GPtrArray *
ddb_stream_list (DdbStore *store, const char *table_name, const char *exclusive_start, guint limit,
                 gint64 now_ms, GError **error)
{
  g_autoptr (GPtrArray) out
      = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_stream_info_free);
  sqlite3_stmt *stmt;
  int rc;

  stmt = store_stmt_acquire (store,
                             "SELECT " INFO_COLUMNS " FROM dy_streams"
                             " WHERE (?1 IS NULL OR table_name = ?1)"
                             " AND id > coalesce((SELECT id FROM dy_streams WHERE arn = ?2), 0)"
                             " ORDER BY id",
                             error);
  if (stmt == NULL)
    return NULL;
  if (table_name != NULL)
    sqlite3_bind_text (stmt, 1, table_name, -1, SQLITE_STATIC);
  if (exclusive_start != NULL)
    sqlite3_bind_text (stmt, 2, exclusive_start, -1, SQLITE_STATIC);
  while ((limit == 0 || out->len < limit) && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      DdbStreamInfo *info = info_from_row (stmt, now_ms);

      if (info != NULL)
        g_ptr_array_add (out, info);
    }
  if (limit != 0 && out->len == limit)
    rc = SQLITE_DONE;
  store_stmt_release (store, stmt);
  if (rc != SQLITE_DONE)
    {
      store_sql_error (store, error, "read");
      return NULL;
    }
  return g_steal_pointer (&out);
}

gboolean
ddb_stream_read (DdbStore *store, gint64 id, gint64 after, guint limit, gint64 now_ms, json_t *out,
                 gint64 *last, GError **error)
{
  sqlite3_stmt *stmt;
  gsize bytes = 0;
  int rc;

  *last = after;
  stmt = store_stmt_acquire (store,
                             "SELECT seq, record FROM dy_stream_records"
                             " WHERE sid = ?1 AND seq > ?2 AND created >= ?3 ORDER BY seq"
                             " LIMIT ?4",
                             error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  sqlite3_bind_int64 (stmt, 2, after);
  sqlite3_bind_int64 (stmt, 3, now_ms - DDB_STREAM_RETENTION_SECONDS * (gint64) 1000);
  sqlite3_bind_int64 (stmt, 4, limit);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      gint64 seq = sqlite3_column_int64 (stmt, 0);
      json_t *record;
      json_t *ddb;

      /* AWS: a GetRecords answer holds at most 1 MB of records (and always one). */
      bytes += sqlite3_column_bytes (stmt, 1);
      if (bytes > MAX_READ_BYTES && json_array_size (out) > 0)
        {
          rc = SQLITE_DONE;
          break;
        }
      record = json_loads ((const char *) sqlite3_column_text (stmt, 1), 0, NULL);
      ddb = json_object_get (record, "dynamodb");
      if (!json_is_object (ddb))
        {
          if (record != NULL)
            json_decref (record);
          store_stmt_release (store, stmt);
          g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                       "Stream record %" G_GINT64_FORMAT " cannot be read", seq);
          return FALSE;
        }
      g_autofree char *text = ddb_stream_seq_format (seq);

      json_object_set_new (ddb, "SequenceNumber", json_string (text));
      json_array_append_new (out, record);
      *last = seq;
    }
  store_stmt_release (store, stmt);
  if (rc != SQLITE_DONE)
    return store_sql_error (store, error, "read");
  return TRUE;
}
