/* batch-ops.c: BatchGetItem, BatchWriteItem, TransactWriteItems and TransactGetItems, built on
 * the prepared reads and writes of item-ops.h: every request is checked in full before any item
 * is read or written, and the writes of one call go into one store transaction. */
#include "engine/engine-private.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"
#include "engine/batch-ops.h"
#include "engine/item-ops.h"
#include "engine/legacy.h"
#include "engine/request.h"

#define BATCH_GET_MAX_KEYS 100
#define BATCH_GET_MAX_RESPONSE_BYTES (16 * 1024 * 1024)
#define BATCH_WRITE_MAX_REQUESTS 25
#define TRANSACT_MAX_ACTIONS 100
#define TRANSACT_MAX_BYTES (4 * 1024 * 1024)
#define TOKEN_MAX_CHARS 36

#define MSG_DUPLICATE_KEYS "Provided list of item keys contains duplicates"
#define MSG_TRANSACT_SAME_ITEM "Transaction request cannot include multiple operations on one item"
#define MSG_CONDITION_FAILED "The conditional request failed"
/* A ConditionCheck's reason ends with a period, a Put's, Update's or Delete's does not: so
 * DynamoDB Local answers, and captures of the service's answers for the latter (boto3#2657,
 * PynamoDB#1225, erlcloud#607) have no period. */
#define MSG_CONDITION_CHECK_FAILED "The conditional request failed."

/* What the deserializer says of a list element that is not a structure. */
static gpointer
not_a_structure (json_t *j, GError **error)
{
  return ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                       json_is_array (j) ? "Start of list found where not expected"
                                         : "Expected null");
}

/* What the deserializer says of a member that should be a list. */
static gpointer
not_a_list (json_t *j, GError **error)
{
  return ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                       json_is_object (j) ? "Start of structure or map found where not expected."
                                          : "Expected list or null");
}

/* DynamoDB echoes an over-long list in its validation message the way Java prints it: each
 * element as ClassName@identity-hash. The hash is ours, stable for a given position. */
static void
append_java_list (GString *s, const char *class_name, const char *salt, guint n)
{
  g_string_append_c (s, '[');
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *seed = g_strdup_printf ("%s/%u", salt, i);

      g_string_append_printf (s, "%scom.amazonaws.dynamodb.v20120810.%s@%x", i ? ", " : "",
                              class_name, g_str_hash (seed));
    }
  g_string_append_c (s, ']');
}

/* RequestItems' map keys are table names, checked with the "Map keys" wording. */
static gboolean
check_map_table_name (const char *name, GError **error)
{
  gsize len = strlen (name);
  glong chars = g_utf8_validate (name, -1, NULL) ? g_utf8_strlen (name, -1) : (glong) len;
  gboolean ok = len > 0;

  for (gsize i = 0; ok && i < len; i++)
    ok = g_ascii_isalnum (name[i]) || name[i] == '_' || name[i] == '.' || name[i] == '-';
  if (ok && chars >= 3 && chars <= 255)
    return TRUE;
  ddb_req_fail (
      error, DDB_ERROR_VALIDATION,
      "1 validation error detected: Value '%s' at 'requestItems' failed to satisfy constraint: "
      "Map keys must satisfy constraint: [Member must have length less than or equal to 255, "
      "Member must have length greater than or equal to 3, Member must satisfy regular "
      "expression pattern: [a-zA-Z0-9_.-]+]",
      name);
  return FALSE;
}

/* The RequestItems member: a non-empty map. */
static json_t *
request_items (json_t *req, const char *operation, GError **error)
{
  json_t *items = json_object_get (req, "RequestItems");

  if (items == NULL || json_is_null (items) || (json_is_object (items) && json_object_size (items) == 0))
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "The requestItems parameter is required for %s", operation);
  if (!json_is_object (items))
    return ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                         json_is_array (items) ? "Start of list found where not expected"
                                               : "Expected map or null");
  return items;
}

/* Propagates `local`, the error of one request of a list or map checked on its own, with the
 * path of that request (printf `format`, e.g. "transactItems.2.member.put.") before the member
 * names DynamoDB's message gives. Returns NULL. */
G_GNUC_PRINTF (3, 4)
static gpointer
fail_in_member (GError **error, GError *local, const char *format, ...)
{
  va_list args;
  char *prefix;

  va_start (args, format);
  prefix = g_strdup_vprintf (format, args);
  va_end (args);
  ddb_req_error_prefix_members (local, prefix);
  g_free (prefix);
  g_propagate_error (error, local);
  return NULL;
}

/* Whether the request named the item before: `seen` holds the (table, key) pairs named so far,
 * borrowed from the prepared reads or writes that own them; a new item is added. */
static gboolean
seen_before (GPtrArray *seen, const DdbTableDef *def, const DdbValue *key)
{
  for (guint i = 0; i < seen->len; i += 2)
    {
      const DdbTableDef *d = g_ptr_array_index (seen, i);

      if (strcmp (d->name, def->name) == 0
          && ddb_value_equal (g_ptr_array_index (seen, i + 1), key))
        return TRUE;
    }
  g_ptr_array_add (seen, (gpointer) def);
  g_ptr_array_add (seen, (gpointer) key);
  return FALSE;
}

/* ---- Consumed capacity, one entry per table in order of first use ---------------------- */

typedef struct {
  GPtrArray *caps; /* DdbCapacity* */
} CapacityList;

static void
capacity_free (gpointer p)
{
  ddb_capacity_clear (p);
  g_free (p);
}

static void
capacity_list_init (CapacityList *cl)
{
  cl->caps = g_ptr_array_new_with_free_func (capacity_free);
}

static void
capacity_list_clear (CapacityList *cl)
{
  g_clear_pointer (&cl->caps, g_ptr_array_unref);
}

static DdbCapacity *
capacity_for (CapacityList *cl, const char *table)
{
  DdbCapacity *cap;

  for (guint i = 0; i < cl->caps->len; i++)
    {
      cap = g_ptr_array_index (cl->caps, i);
      if (strcmp (cap->table_name, table) == 0)
        return cap;
    }
  cap = g_new0 (DdbCapacity, 1);
  ddb_capacity_init (cap, table);
  g_ptr_array_add (cl->caps, cap);
  return cap;
}

/* Puts the list in the response as ConsumedCapacity (`split`: the transactions' form, with
 * ReadCapacityUnits / WriteCapacityUnits), and clears it. */
static void
capacity_list_finish (CapacityList *cl, DdbReturnCapacity mode, gboolean split, json_t *response)
{
  json_t *list;

  if (mode == DDB_RCC_NONE)
    {
      capacity_list_clear (cl);
      return;
    }
  list = json_array ();
  for (guint i = 0; i < cl->caps->len; i++)
    {
      DdbCapacity *cap = g_ptr_array_index (cl->caps, i);

      json_array_append_new (list, split ? ddb_capacity_to_json_split (cap, mode)
                                         : ddb_capacity_to_json (cap, mode));
    }
  json_object_set_new (response, "ConsumedCapacity", list);
  capacity_list_clear (cl);
}

static gboolean
return_metrics (json_t *req, gboolean *out, GError **error)
{
  static const char *const allowed[] = { "SIZE", "NONE", NULL };
  int i = ddb_req_enum (req, "ReturnItemCollectionMetrics", allowed, 1, error);

  if (i < 0)
    return FALSE;
  *out = i == 0;
  return TRUE;
}

/* ItemCollectionMetrics of a batch: {table: [metrics of each written item collection]}, for
 * the tables with local secondary indexes. */
static gboolean
add_collection_metrics (DdbStore *store, GPtrArray *writes, json_t *response, GError **error)
{
  json_t *all = json_object ();

  for (guint i = 0; i < writes->len; i++)
    {
      DdbPreparedWrite *w = g_ptr_array_index (writes, i);
      json_t *list, *m;

      if (w->kind == DDB_WRITE_CONDITION_CHECK || !ddb_table_def_has_lsi (w->def))
        continue;
      m = ddb_item_collection_metrics (store, w->def, w->key, error);
      if (m == NULL)
        {
          json_decref (all);
          return FALSE;
        }
      list = json_object_get (all, w->def->name);
      if (list == NULL)
        {
          list = json_array ();
          json_object_set_new (all, w->def->name, list);
        }
      json_array_append_new (list, m);
    }
  /* Only tables with local secondary indexes have item collections: none, no member. */
  if (json_object_size (all) > 0)
    json_object_set_new (response, "ItemCollectionMetrics", all);
  else
    json_decref (all);
  return TRUE;
}

static gboolean token_remember (DdbStore *store, const char *token, GBytes *digest,
                                GError **error);

/* Ends the store transaction of applied writes: the response, with ItemCollectionMetrics when
 * `metrics`, after remembering the transaction's `token` (if any); NULL when that or the commit
 * fails (the transaction is then still open). */
static json_t *
commit_writes (DdbStore *store, GPtrArray *writes, gboolean metrics, const char *token,
               GBytes *digest, GError **error)
{
  json_t *response = json_object ();

  if ((metrics && !add_collection_metrics (store, writes, response, error))
      || (token != NULL && !token_remember (store, token, digest, error))
      || !ddb_store_commit (store, error))
    {
      json_decref (response);
      return NULL;
    }
  return response;
}

/* ---- BatchGetItem --------------------------------------------------------------------- */

typedef struct {
  const char *table;
  json_t *block;     /* the KeysAndAttributes (borrowed) */
  GPtrArray *gets;   /* DdbPreparedGet*, one per key */
} GetTable;

static void
get_table_clear (gpointer p)
{
  GetTable *t = p;

  g_clear_pointer (&t->gets, g_ptr_array_unref);
}

/* The request ddb_get_prepare reads for one key: the block's members with Key in place of
 * Keys. */
static json_t *
single_get_request (json_t *block, json_t *key)
{
  static const char *const members[] = { "ProjectionExpression", "ExpressionAttributeNames",
                                         "AttributesToGet", "ConsistentRead", NULL };
  json_t *r = json_object ();

  json_object_set (r, "Key", key);
  for (guint i = 0; members[i] != NULL; i++)
    {
      json_t *m = json_object_get (block, members[i]);

      if (m != NULL)
        json_object_set (r, members[i], m);
    }
  return r;
}

/* The block as UnprocessedKeys returns it: the same parameters with the keys not read. */
static json_t *
unprocessed_block (json_t *block, json_t *keys)
{
  json_t *u = json_object ();
  const char *member;
  json_t *value;

  json_object_foreach (block, member, value)
    {
      if (strcmp (member, "Keys") != 0)
        json_object_set (u, member, value);
    }
  json_object_set_new (u, "Keys", keys);
  return u;
}

json_t *
ddb_op_batch_get_item (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (GArray) tables = g_array_new (FALSE, TRUE, sizeof (GetTable));
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  CapacityList caps;
  DdbReturnCapacity rcc;
  json_t *items, *block, *response, *responses, *unprocessed;
  const char *table, *projection_table = NULL, *legacy_table = NULL;
  guint total = 0;
  gsize bytes = 0;
  gboolean full = FALSE;

  g_array_set_clear_func (tables, get_table_clear);
  items = request_items (req, "BatchGetItem", error);
  if (items == NULL)
    return NULL;
  if (!ddb_req_return_capacity (req, &rcc, error))
    return NULL;

  /* The shape of every block first, then their total, then the keys themselves. */
  json_object_foreach (items, table, block)
    {
      json_t *keys;
      gsize n;

      if (!check_map_table_name (table, error))
        return NULL;
      if (!json_is_object (block))
        return not_a_structure (block, error);
      keys = json_object_get (block, "Keys");
      if (keys == NULL || json_is_null (keys))
        return ddb_req_fail (
            error, DDB_ERROR_VALIDATION,
            "1 validation error detected: Value null at 'requestItems.%s.member.keys' "
            "failed to satisfy constraint: Member must not be null",
            table);
      if (!json_is_array (keys))
        return not_a_list (keys, error);
      n = json_array_size (keys);
      if (n < 1 || n > BATCH_GET_MAX_KEYS)
        return ddb_req_fail (
            error, DDB_ERROR_VALIDATION,
            "1 validation error detected: Value at 'RequestItems.%s.member.Keys' failed "
            "to satisfy constraint: Member must have length %s",
            table, n < 1 ? "greater than or equal to 1" : "less than or equal to 100");
      if (!ddb_legacy_check_not_mixed (block, error))
        return NULL;
      if (json_object_get (block, "ProjectionExpression") != NULL)
        projection_table = table;
      if (json_object_get (block, "AttributesToGet") != NULL)
        legacy_table = table;
      total += n;
    }
  /* One request uses one style, even across tables. */
  if (projection_table != NULL && legacy_table != NULL)
    return ddb_req_fail (
        error, DDB_ERROR_VALIDATION,
        "Can not use both expression and non-expression parameters in the same "
        "request: Non-expression parameters: {AttributesToGet} Expression parameters: "
        "{ProjectionExpression}");
  if (total > BATCH_GET_MAX_KEYS)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "Too many items requested for the BatchGetItem call");

  json_object_foreach (items, table, block)
    {
      GetTable t = { table, block, g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_get_free) };
      json_t *keys = json_object_get (block, "Keys"), *key;
      gsize i;

      g_array_append_val (tables, t);
      json_array_foreach (keys, i, key)
        {
          json_t *single = single_get_request (block, key);
          GError *local = NULL;
          DdbPreparedGet *g = ddb_get_prepare (e->store, single, table, &local);

          json_decref (single);
          if (g == NULL)
            return fail_in_member (error, local, "requestItems.%s.member.", table);
          g_ptr_array_add (t.gets, g);
          if (seen_before (seen, g->def, g->key))
            return ddb_req_fail (error, DDB_ERROR_VALIDATION, MSG_DUPLICATE_KEYS);
        }
    }

  capacity_list_init (&caps);
  response = json_object ();
  responses = json_object ();
  unprocessed = json_object ();
  json_object_set_new (response, "Responses", responses);
  json_object_set_new (response, "UnprocessedKeys", unprocessed);
  for (guint ti = 0; ti < tables->len; ti++)
    {
      GetTable *t = &g_array_index (tables, GetTable, ti);
      json_t *found = json_array ();
      json_t *left = NULL;

      json_object_set_new (responses, t->table, found);
      for (guint i = 0; i < t->gets->len; i++)
        {
          DdbPreparedGet *g = g_ptr_array_index (t->gets, i);
          g_autoptr (DdbValue) item = NULL;
          gsize size = 0, out_size;

          /* Once the response is full, every key left is returned for a later call. */
          if (!full)
            {
              if (!ddb_get_run (e->store, g, &item, &size, error))
                goto failed;
              out_size = item != NULL ? ddb_item_size (item) : 0;
              if (bytes + out_size > BATCH_GET_MAX_RESPONSE_BYTES)
                full = TRUE;
            }
          if (full)
            {
              if (left == NULL)
                left = json_array ();
              json_array_append (left, json_array_get (json_object_get (t->block, "Keys"), i));
              continue;
            }
          bytes += out_size;
          /* "DynamoDB first rounds up the size of each item to the next 4 KB boundary, and
           * then calculates the total size" (Capacity unit consumption for read operations):
           * a key with no item adds nothing, unlike a GetItem of it. */
          capacity_for (&caps, t->table)->table_read
            += item != NULL ? ddb_capacity_read_units (size, g->consistent) : 0;
          if (item != NULL)
            json_array_append_new (found, ddb_item_to_json (item));
        }
      if (left != NULL)
        json_object_set_new (unprocessed, t->table, unprocessed_block (t->block, left));
    }
  capacity_list_finish (&caps, rcc, FALSE, response);
  return response;

failed:
  capacity_list_clear (&caps);
  json_decref (response);
  return NULL;
}

/* ---- BatchWriteItem ------------------------------------------------------------------- */

json_t *
ddb_op_batch_write_item (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (GPtrArray) writes = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_write_free);
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  CapacityList caps;
  DdbReturnCapacity rcc;
  gboolean metrics;
  json_t *items, *list, *response;
  const char *table;
  guint total = 0;

  items = request_items (req, "BatchWriteItem", error);
  if (items == NULL)
    return NULL;
  if (!ddb_req_return_capacity (req, &rcc, error) || !return_metrics (req, &metrics, error))
    return NULL;

  json_object_foreach (items, table, list)
    {
      gsize n;

      if (!check_map_table_name (table, error))
        return NULL;
      if (!json_is_array (list))
        return not_a_list (list, error);
      n = json_array_size (list);
      if (n < 1 || n > BATCH_WRITE_MAX_REQUESTS)
        {
          g_autoptr (GString) s = g_string_new (NULL);

          g_string_append_printf (s, "1 validation error detected: Value '{%s=", table);
          append_java_list (s, "WriteRequest", table, n);
          g_string_append (s, "}' at 'requestItems' failed to satisfy constraint: Map value "
                              "must satisfy constraint: [Member must have length less than or "
                              "equal to 25, Member must have length greater than or equal to 1]");
          return ddb_req_fail (error, DDB_ERROR_VALIDATION, "%s", s->str);
        }
      total += n;
    }
  if (total > BATCH_WRITE_MAX_REQUESTS)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "Too many items requested for the BatchWriteItem call");

  json_object_foreach (items, table, list)
    {
      json_t *wr;
      gsize i;

      json_array_foreach (list, i, wr)
        {
          json_t *put, *del;
          DdbPreparedWrite *w;
          GError *local = NULL;

          if (!json_is_object (wr))
            return not_a_structure (wr, error);
          put = json_object_get (wr, "PutRequest");
          del = json_object_get (wr, "DeleteRequest");
          if (put != NULL && json_is_null (put))
            put = NULL;
          if (del != NULL && json_is_null (del))
            del = NULL;
          /* A WriteRequest is a union: exactly one of its members. */
          if ((put == NULL) == (del == NULL))
            return ddb_req_fail (
                error, DDB_ERROR_VALIDATION,
                "Supplied AttributeValue has more than one datatypes set, must contain "
                "exactly one of the supported datatypes");
          w = ddb_write_prepare (e->store, put != NULL ? DDB_WRITE_PUT : DDB_WRITE_DELETE,
                                 put != NULL ? put : del, table, DDB_WRITE_IN_BATCH, &local);
          if (w == NULL)
            return fail_in_member (error, local,
                                   "requestItems.%s.member.%" G_GSIZE_FORMAT ".member.%s.", table,
                                   i + 1, put != NULL ? "putRequest" : "deleteRequest");
          g_ptr_array_add (writes, w);
          if (seen_before (seen, w->def, w->key))
            return ddb_req_fail (error, DDB_ERROR_VALIDATION, MSG_DUPLICATE_KEYS);
        }
    }

  if (!ddb_store_begin (e->store, error))
    return NULL;
  capacity_list_init (&caps);
  for (guint i = 0; i < writes->len; i++)
    {
      DdbPreparedWrite *w = g_ptr_array_index (writes, i);

      if (!ddb_write_check (e->store, w, NULL, error) || !ddb_write_apply (e->store, w, error))
        goto failed;
      ddb_write_add_capacity (w, capacity_for (&caps, w->def->name), 1.0);
    }
  response = commit_writes (e->store, writes, metrics, NULL, NULL, error);
  if (response == NULL)
    goto failed;
  /* Everything is written at once here, so nothing is ever left unprocessed. */
  json_object_set_new (response, "UnprocessedItems", json_object ());
  capacity_list_finish (&caps, rcc, FALSE, response);
  return response;

failed:
  ddb_store_rollback (e->store);
  capacity_list_clear (&caps);
  return NULL;
}

/* ---- Transactions: shared checks -------------------------------------------------------- */

/* TransactItems: present, a list of 1..100. */
static json_t *
transact_items (json_t *req, const char *class_name, GError **error)
{
  json_t *items = json_object_get (req, "TransactItems");
  gsize n;

  if (items == NULL || json_is_null (items))
    return ddb_req_fail (
        error, DDB_ERROR_VALIDATION,
        "1 validation error detected: Value null at 'transactItems' failed to satisfy "
        "constraint: Member must not be null");
  if (!json_is_array (items))
    return not_a_list (items, error);
  n = json_array_size (items);
  if (n < 1 || n > TRANSACT_MAX_ACTIONS)
    {
      g_autoptr (GString) s = g_string_new ("1 validation error detected: Value '");

      append_java_list (s, class_name, "transactItems", n);
      g_string_append_printf (s, "' at 'transactItems' failed to satisfy constraint: Member "
                                 "must have length %s",
                              n < 1 ? "greater than or equal to 1"
                                    : "less than or equal to 100");
      return ddb_req_fail (error, DDB_ERROR_VALIDATION, "%s", s->str);
    }
  return items;
}

/* ---- ClientRequestToken ------------------------------------------------------------------ */

/* A token makes TransactWriteItems idempotent: within the window after the call that used it
 * completed, the same request with the same token succeeds without writing again, and another
 * request with it is refused (API reference, TransactWriteItems, ClientRequestToken). A call
 * that fails leaves no token behind (DynamoDB Local agrees: a cancelled transaction's token can
 * carry another request next).
 *
 * The tokens are kept by the store (ddb_store_token_*), written in the transaction's own store
 * transaction, so a token is remembered exactly when its writes are, and survives a restart. */

/* DynamoDB gives no message of its own for this exception (DynamoDB Local sends an empty one):
 * this is the API reference's description of it. */
#define MSG_IDEMPOTENT_MISMATCH \
  "DynamoDB rejected the request because you retried a request with a different payload but " \
  "with an idempotent token that was already used."

static gint token_window_seconds = DDB_TRANSACT_TOKEN_WINDOW_SECONDS;

void
ddb_transact_set_token_window (gint seconds)
{
  g_atomic_int_set (&token_window_seconds,
                    seconds < 0 ? DDB_TRANSACT_TOKEN_WINDOW_SECONDS : seconds);
}

/* The one clock of the token rules (microseconds). */
static gint64
token_clock (void)
{
  return g_get_real_time ();
}

/* The tokens created before this time (microseconds) have passed their window at `now`. */
static gint64
token_cutoff (gint64 now)
{
  return now - (gint64) g_atomic_int_get (&token_window_seconds) * G_USEC_PER_SEC + 1;
}

/* What makes two calls "the same request": the SHA-256 of TransactItems in a canonical form
 * (members sorted: the order of a JSON object's members means nothing, and SDKs do not keep
 * it). ReturnConsumedCapacity and ReturnItemCollectionMetrics only shape the response, and
 * DynamoDB Local accepts a repeat that changes them. */
static GBytes *
transact_digest (json_t *items)
{
  char *text = json_dumps (items, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  guint8 digest[32];
  gsize len = sizeof digest;

  g_checksum_update (sum, (const guchar *) text, (gssize) strlen (text));
  free (text);
  g_checksum_get_digest (sum, digest, &len);
  return g_bytes_new (digest, len);
}

/* Inside the store transaction: *repeat is TRUE when the token carried the same request within
 * the window; a different request is IdempotentParameterMismatchException. */
static gboolean
token_check (DdbStore *store, const char *token, GBytes *digest, gboolean *repeat,
             GError **error)
{
  g_autoptr (GBytes) stored = NULL;
  gint64 created;

  *repeat = FALSE;
  if (!ddb_store_token_get (store, token, &stored, &created, error))
    return FALSE;
  if (stored == NULL || created < token_cutoff (token_clock ()))
    return TRUE;
  if (!g_bytes_equal (stored, digest))
    {
      ddb_req_fail (error, DDB_ERROR_IDEMPOTENT_PARAMETER_MISMATCH, MSG_IDEMPOTENT_MISMATCH);
      return FALSE;
    }
  *repeat = TRUE;
  return TRUE;
}

/* Inside the store transaction, with the writes: remembers the token from now on, and forgets
 * the tokens whose window has passed. */
static gboolean
token_remember (DdbStore *store, const char *token, GBytes *digest, GError **error)
{
  gint64 now = token_clock ();
  gsize len;
  const void *data = g_bytes_get_data (digest, &len);

  return ddb_store_token_purge (store, token_cutoff (now), error)
         && ddb_store_token_put (store, token, data, len, now, error);
}

/* The answer to a repeat: nothing written, the items only read ("Subsequent TransactWriteItems
 * calls with the same client token return the number of read capacity units consumed in
 * reading the item"), at the transactional rate; no item collection was modified. */
static json_t *
token_repeat_response (DdbStore *store, GPtrArray *writes, DdbReturnCapacity rcc, GError **error)
{
  CapacityList caps;
  json_t *response;

  capacity_list_init (&caps);
  for (guint a = 0; rcc != DDB_RCC_NONE && a < writes->len; a++)
    {
      DdbPreparedWrite *w = g_ptr_array_index (writes, a);
      g_autoptr (DdbValue) item = NULL;

      if (!ddb_store_item_get (store, w->def, w->key, &item, error))
        {
          capacity_list_clear (&caps);
          return NULL;
        }
      capacity_for (&caps, w->def->name)->table_read
          += 2.0 * ddb_capacity_read_units (item != NULL ? ddb_item_size (item) : 0, TRUE);
    }
  response = json_object ();
  capacity_list_finish (&caps, rcc, TRUE, response);
  return response;
}

/* ---- TransactWriteItems ------------------------------------------------------------------ */

static const struct {
  const char *member;
  DdbWriteKind kind;
} transact_kinds[] = {
  { "ConditionCheck", DDB_WRITE_CONDITION_CHECK },
  { "Put", DDB_WRITE_PUT },
  { "Delete", DDB_WRITE_DELETE },
  { "Update", DDB_WRITE_UPDATE },
};

static DdbPreparedWrite *
transact_prepare (DdbStore *store, json_t *action, gsize index, GError **error)
{
  json_t *body = NULL;
  DdbWriteKind kind = DDB_WRITE_PUT;
  const char *member = NULL;
  guint found = 0;
  GError *local = NULL;
  DdbPreparedWrite *w;

  if (!json_is_object (action))
    return not_a_structure (action, error);
  for (guint i = 0; i < G_N_ELEMENTS (transact_kinds); i++)
    {
      json_t *m = json_object_get (action, transact_kinds[i].member);

      if (m != NULL && !json_is_null (m))
        {
          body = m;
          kind = transact_kinds[i].kind;
          member = transact_kinds[i].member;
          found++;
        }
    }
  if (found == 0)
    return ddb_req_fail (
        error, DDB_ERROR_VALIDATION,
        "The action or operation requested is invalid. Verify that the action is typed "
        "correctly.");
  if (found > 1)
    return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                         "TransactItems can only contain one of Check, Put, Update or Delete");
  w = ddb_write_prepare (store, kind, body, NULL, DDB_WRITE_IN_TRANSACTION, &local);
  if (w == NULL)
    /* DynamoDB numbers the actions from 1 in member paths. */
    return fail_in_member (error, local, "transactItems.%" G_GSIZE_FORMAT ".member.%c%s.",
                           index + 1, g_ascii_tolower (member[0]), member + 1);
  return w;
}

/* The size the 4 MB limit counts: the items written. */
static gsize
transact_write_bytes (const DdbPreparedWrite *w)
{
  if (w->new_item != NULL)
    return ddb_item_size (w->new_item);
  return w->key != NULL ? ddb_item_size (w->key) : 0;
}

static json_t *
cancellation_reason (const GError *err, DdbWriteKind kind, json_t *extra)
{
  json_t *reason = json_object ();

  if (err == NULL)
    {
      json_object_set_new (reason, "Code", json_string ("None"));
      return reason;
    }
  if (g_error_matches (err, DDB_ERROR, DDB_ERROR_CONDITIONAL_CHECK_FAILED))
    {
      json_t *item = extra != NULL ? json_object_get (extra, "Item") : NULL;

      if (item != NULL)
        json_object_set (reason, "Item", item);
      json_object_set_new (reason, "Code", json_string ("ConditionalCheckFailed"));
      json_object_set_new (reason, "Message",
                           json_string (kind == DDB_WRITE_CONDITION_CHECK
                                            ? MSG_CONDITION_CHECK_FAILED
                                            : MSG_CONDITION_FAILED));
      return reason;
    }
  if (g_error_matches (err, DDB_ERROR, DDB_ERROR_ITEM_COLLECTION_SIZE_LIMIT))
    json_object_set_new (reason, "Code", json_string ("ItemCollectionSizeLimitExceeded"));
  else
    json_object_set_new (reason, "Code", json_string ("ValidationError"));
  json_object_set_new (reason, "Message", json_string (err->message));
  return reason;
}

json_t *
ddb_op_transact_write_items (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (GPtrArray) writes = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_write_free);
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  g_autoptr (GString) codes = NULL;
  g_autoptr (GBytes) digest = NULL;
  CapacityList caps;
  DdbReturnCapacity rcc;
  gboolean metrics, cancelled = FALSE, repeat = FALSE;
  json_t *items, *action, *reasons, *response;
  const char *token;
  glong token_chars;
  gsize i, bytes = 0;

  items = transact_items (req, "TransactWriteItem", error);
  if (items == NULL)
    return NULL;
  if (!ddb_req_return_capacity (req, &rcc, error) || !return_metrics (req, &metrics, error))
    return NULL;
  {
    GError *local = NULL;

    token = ddb_req_string (req, "ClientRequestToken", FALSE, &local);
    if (local != NULL)
      {
        g_propagate_error (error, local);
        return NULL;
      }
  }
  token_chars = token != NULL ? g_utf8_strlen (token, -1) : 1;
  if (token_chars < 1 || token_chars > TOKEN_MAX_CHARS)
    return ddb_req_fail (
        error, DDB_ERROR_VALIDATION,
        "1 validation error detected: Value '%s' at 'clientRequestToken' failed "
        "to satisfy constraint: Member must have length %s",
        token, token_chars < 1 ? "greater than or equal to 1" : "less than or equal to 36");

  json_array_foreach (items, i, action)
    {
      DdbPreparedWrite *w = transact_prepare (e->store, action, i, error);

      if (w == NULL)
        return NULL;
      g_ptr_array_add (writes, w);
    }
  /* Only once every action is valid. */
  for (guint a = 0; a < writes->len; a++)
    {
      DdbPreparedWrite *w = g_ptr_array_index (writes, a);

      if (seen_before (seen, w->def, w->key))
        return ddb_req_fail (error, DDB_ERROR_VALIDATION, MSG_TRANSACT_SAME_ITEM);
    }

  /* Every condition is checked before anything is written, in one store transaction so that
   * nothing changes in between. */
  if (!ddb_store_begin (e->store, error))
    return NULL;
  if (token != NULL)
    {
      digest = transact_digest (items);
      if (!token_check (e->store, token, digest, &repeat, error))
        {
          ddb_store_rollback (e->store);
          return NULL;
        }
      if (repeat)
        {
          response = token_repeat_response (e->store, writes, rcc, error);
          ddb_store_rollback (e->store);
          return response;
        }
    }
  reasons = json_array ();
  codes = g_string_new (NULL);
  for (guint a = 0; a < writes->len; a++)
    {
      DdbPreparedWrite *w = g_ptr_array_index (writes, a);
      GError *local = NULL;
      json_t *x = NULL;

      if (!ddb_write_check (e->store, w, &x, &local)
          && !g_error_matches (local, DDB_ERROR, DDB_ERROR_CONDITIONAL_CHECK_FAILED)
          && !g_error_matches (local, DDB_ERROR, DDB_ERROR_VALIDATION)
          && !g_error_matches (local, DDB_ERROR, DDB_ERROR_ITEM_COLLECTION_SIZE_LIMIT))
        {
          /* Not the request's fault (storage): no cancellation reasons for that. */
          g_propagate_error (error, local);
          if (x != NULL)
            json_decref (x);
          json_decref (reasons);
          ddb_store_rollback (e->store);
          return NULL;
        }
      if (local != NULL)
        cancelled = TRUE;
      else
        bytes += transact_write_bytes (w);
      json_array_append_new (reasons, cancellation_reason (local, w->kind, x));
      g_string_append_printf (codes, "%s%s", a ? ", " : "",
                              json_string_value (json_object_get (
                                json_array_get (reasons, a), "Code")));
      g_clear_error (&local);
      if (x != NULL)
        json_decref (x);
    }
  if (cancelled)
    {
      ddb_store_rollback (e->store);
      if (extra != NULL)
        *extra = json_pack ("{s:o}", "CancellationReasons", reasons);
      else
        json_decref (reasons);
      return ddb_req_fail (error, DDB_ERROR_TRANSACTION_CANCELED,
                           "Transaction cancelled, please refer cancellation reasons for specific "
                           "reasons [%s]",
                           codes->str);
    }
  json_decref (reasons);
  if (bytes > TRANSACT_MAX_BYTES)
    {
      ddb_store_rollback (e->store);
      /* Our wording: DynamoDB documents the 4 MB aggregate limit but its message is not known. */
      return ddb_req_fail (
          error, DDB_ERROR_VALIDATION,
          "Transaction request size has exceeded the maximum allowed size of 4 MB");
    }

  capacity_list_init (&caps);
  for (guint a = 0; a < writes->len; a++)
    {
      DdbPreparedWrite *w = g_ptr_array_index (writes, a);

      if (!ddb_write_apply (e->store, w, error))
        goto failed;
      /* Transactions cost twice the units of the same writes. */
      ddb_write_add_capacity (w, capacity_for (&caps, w->def->name), 2.0);
    }
  response = commit_writes (e->store, writes, metrics, token, digest, error);
  if (response == NULL)
    goto failed;
  capacity_list_finish (&caps, rcc, TRUE, response);
  return response;

failed:
  ddb_store_rollback (e->store);
  capacity_list_clear (&caps);
  return NULL;
}

/* ---- TransactGetItems -------------------------------------------------------------------- */

json_t *
ddb_op_transact_get_items (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  g_autoptr (GPtrArray) gets = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_get_free);
  g_autoptr (GPtrArray) seen = g_ptr_array_new ();
  CapacityList caps;
  DdbReturnCapacity rcc;
  json_t *items, *action, *response, *responses;
  gsize i;

  items = transact_items (req, "TransactGetItem", error);
  if (items == NULL)
    return NULL;
  if (!ddb_req_return_capacity (req, &rcc, error))
    return NULL;

  json_array_foreach (items, i, action)
    {
      json_t *get;
      DdbPreparedGet *g;
      GError *local = NULL;

      if (!json_is_object (action))
        return not_a_structure (action, error);
      get = json_object_get (action, "Get");
      if (get == NULL || json_is_null (get))
        return ddb_req_fail (
            error, DDB_ERROR_VALIDATION,
            "1 validation error detected: Value null at 'transactItems.%zu.member.get' "
            "failed to satisfy constraint: Member must not be null",
            i + 1);
      g = ddb_get_prepare (e->store, get, NULL, &local);
      if (g == NULL)
        return fail_in_member (error, local, "transactItems.%" G_GSIZE_FORMAT ".member.get.",
                               i + 1);
      g_ptr_array_add (gets, g);
      if (seen_before (seen, g->def, g->key))
        return ddb_req_fail (error, DDB_ERROR_VALIDATION, MSG_TRANSACT_SAME_ITEM);
    }

  capacity_list_init (&caps);
  response = json_object ();
  responses = json_array ();
  json_object_set_new (response, "Responses", responses);
  for (guint j = 0; j < gets->len; j++)
    {
      DdbPreparedGet *g = g_ptr_array_index (gets, j);
      g_autoptr (DdbValue) item = NULL;
      gsize size = 0;
      json_t *entry = json_object ();

      if (!ddb_get_run (e->store, g, &item, &size, error))
        {
          json_decref (entry);
          json_decref (response);
          capacity_list_clear (&caps);
          return NULL;
        }
      if (item != NULL)
        json_object_set_new (entry, "Item", ddb_item_to_json (item));
      json_array_append_new (responses, entry);
      /* Transactional reads are strongly consistent and cost double. */
      capacity_for (&caps, g->def->name)->table_read += 2.0 * ddb_capacity_read_units (size, TRUE);
    }
  capacity_list_finish (&caps, rcc, TRUE, response);
  return response;
}
