/* batchread.c: reading many items by key through BatchGetItem (see batchread.h): strongly
 * consistent, at most 100 keys a request, the UnprocessedKeys of a throttled request sent
 * again after a growing backoff. */
#include "staging/batchread.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/keycodec.h"

#define MAX_BATCH_GET_KEYS 100
#define BACKOFF_MS 50
#define MAX_BACKOFF_MS 1000
/* DynamoDB reads at least one key of a request unless it is throttled: this many resends in a
 * row that read nothing and the table is too busy to go on. */
#define MAX_IDLE_RESENDS 10

typedef struct {
  DdbBackend *backend;
  const char *table;
  GPtrArray *keys;     /* the caller's */
  GPtrArray *result;   /* as long as keys */
  GHashTable *by_code; /* key code -> GArray of indexes into keys (keys may repeat) */
  GCancellable *cancellable;
} BatchRead;

/* ITEM's values of KEY's attributes (ITEM may be KEY itself), in name order, comparable as
 * bytes so that 1 and 1.0 are one key. NULL when ITEM lacks one or it is not of a key type. */
static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static GBytes *
key_code (const DdbValue *key, const DdbValue *item)
{
  g_autoptr (GByteArray) out = g_byte_array_new ();
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  for (guint i = 0; i < ddb_value_map_size (key); i++)
    g_ptr_array_add (names, ddb_value_map_nth (key, i)->name);
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      const DdbValue *v = ddb_value_map_get (item, g_ptr_array_index (names, i));

      if (v == NULL || !ddb_key_encode (v, out, NULL))
        return NULL;
      /* Self-delimiting values; the names keep two schemas' keys apart. */
      g_byte_array_append (out, (const guint8 *) g_ptr_array_index (names, i),
                           (guint) strlen (g_ptr_array_index (names, i)) + 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

static gboolean
wait_backoff (guint attempt, GCancellable *cancellable, GError **error)
{
  gint64 ms = MIN ((gint64) BACKOFF_MS << MIN (attempt, 8u), (gint64) MAX_BACKOFF_MS);
  gint64 deadline = g_get_monotonic_time () + ms * 1000;

  for (;;)
    {
      gint64 left = deadline - g_get_monotonic_time ();

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (left <= 0)
        return TRUE;
      g_usleep (MIN (left, 5000));
    }
}

/* Puts each item of RESPONSE's Responses at the indexes of the keys it has. */
static gboolean
take_items (BatchRead *br, json_t *response, GError **error)
{
  json_t *items = json_object_get (json_object_get (response, "Responses"), br->table);
  json_t *elem;
  gsize i;

  json_array_foreach (items, i, elem)
    {
      g_autoptr (DdbValue) item = ddb_json_to_item (elem, error);
      g_autoptr (GBytes) code = NULL;
      GArray *found;

      if (item == NULL)
        return FALSE;
      /* Every key of a table has the same attributes: the first key names them. */
      code = key_code (g_ptr_array_index (br->keys, 0), item);
      found = code != NULL ? g_hash_table_lookup (br->by_code, code) : NULL;
      for (guint k = 0; found != NULL && k < found->len; k++)
        {
          guint index = g_array_index (found, guint, k);

          if (g_ptr_array_index (br->result, index) == NULL)
            g_ptr_array_index (br->result, index) = ddb_value_copy (item);
        }
    }
  return TRUE;
}

/* Reads KEYS (a JSON array, taken) until none is left unprocessed. */
static gboolean
read_keys (BatchRead *br, json_t *keys, GError **error)
{
  gboolean ok = TRUE;
  guint idle = 0;

  for (guint attempt = 0; ok; attempt++)
    {
      json_t *req = json_pack ("{s{s{sosb}}}", "RequestItems", br->table, "Keys", keys,
                               "ConsistentRead", TRUE);
      json_t *response = NULL;
      json_t *left = NULL;
      gsize n_sent = json_array_size (keys);

      ok = !g_cancellable_set_error_if_cancelled (br->cancellable, error)
           && ddb_backend_call (br->backend, "BatchGetItem", req, br->cancellable, &response, error)
           && take_items (br, response, error);
      if (ok)
        left = json_object_get (
            json_object_get (json_object_get (response, "UnprocessedKeys"), br->table), "Keys");
      keys = json_array_size (left) > 0 ? json_incref (left) : NULL;
      g_clear_pointer (&response, json_decref);
      json_decref (req);
      if (!ok || keys == NULL)
        break;
      idle = json_array_size (keys) < n_sent ? 0 : idle + 1;
      if (idle >= MAX_IDLE_RESENDS)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                       "DynamoDB read none of the items %u times in a row; try again later", idle);
          ok = FALSE;
        }
      else
        ok = wait_backoff (attempt, br->cancellable, error);
    }
  g_clear_pointer (&keys, json_decref);
  return ok;
}

static void
indexes_free (gpointer data)
{
  g_array_unref (data);
}

GPtrArray *
ddb_batch_read_items (DdbBackend *backend, const char *table, GPtrArray *keys,
                      GCancellable *cancellable, GError **error)
{
  g_autoptr (GPtrArray) result = NULL;
  g_autoptr (GHashTable) by_code = NULL;
  BatchRead br = { backend, table, keys, NULL, NULL, cancellable };
  json_t *batch = NULL;

  g_return_val_if_fail (backend != NULL && table != NULL && keys != NULL, NULL);
  result = g_ptr_array_new_full (keys->len, (GDestroyNotify) ddb_value_free);
  g_ptr_array_set_size (result, keys->len);
  by_code = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                   indexes_free);
  br.result = result;
  br.by_code = by_code;
  for (guint i = 0; i < keys->len; i++)
    {
      const DdbValue *key = g_ptr_array_index (keys, i);
      g_autoptr (GBytes) code = key_code (key, key);
      GArray *at;

      if (code == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "Key %u is not a key: its attributes must be strings, numbers or binary",
                       i + 1);
          g_clear_pointer (&batch, json_decref);
          return NULL;
        }
      at = g_hash_table_lookup (by_code, code);
      if (at != NULL)
        {
          /* The same key again: read once (BatchGetItem refuses duplicate keys). */
          g_array_append_val (at, i);
          continue;
        }
      at = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (at, i);
      g_hash_table_insert (by_code, g_steal_pointer (&code), at);
      if (batch == NULL)
        batch = json_array ();
      json_array_append_new (batch, ddb_item_to_json (key));
      if (json_array_size (batch) == MAX_BATCH_GET_KEYS
          && !read_keys (&br, g_steal_pointer (&batch), error))
        return NULL;
    }
  if (batch != NULL && !read_keys (&br, batch, error))
    return NULL;
  return g_steal_pointer (&result);
}
