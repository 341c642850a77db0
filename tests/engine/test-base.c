/* test-base.c: a snapshot's base: an import records it, the first write of an item after the
 * import keeps the imported version (any write path), later writes keep the first, unwritten
 * items and tables without a base cost nothing, DeleteTable drops them, a reopen keeps them. */
#include <glib/gstdio.h>

#include "core/ddbjson.h"
#include "engine/base-store.h"
#include "engine/base.h"
#include "engine/engine-private.h"
#include "engine/snapshot.h"
#include "engine/store-private.h"
#include "engine-test-util.h"

typedef struct {
  char *dir;
  char *db;
  char *source;
  DdbEngine *engine;
} Fixture;

/* Four imported items p1..p4 keyed by pk (S). */
static const char source_text[]
    = "{\"Item\":{\"pk\":{\"S\":\"p1\"},\"n\":{\"N\":\"1\"},\"m\":{\"M\":{\"a\":{\"S\":\"x\"}}}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"p2\"},\"n\":{\"N\":\"2\"},\"m\":{\"M\":{\"a\":{\"S\":\"y\"}}}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"p3\"},\"n\":{\"N\":\"3\"},\"ss\":{\"SS\":[\"a\",\"b\"]}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"p4\"},\"n\":{\"N\":\"12345678901234567890123456789012345678\"}}}"
      "\n"
      "{\"Item\":{\"pk\":{\"S\":\"p5\"},\"n\":{\"N\":\"5\"}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"p6\"},\"n\":{\"N\":\"6\"}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"p7\"},\"n\":{\"N\":\"7\"}}}\n"
      "{\"Item\":{\"pk\":{\"S\":\"p8\"},\"n\":{\"N\":\"8\"}}}\n";

static DdbEngine *
open_engine (const char *path)
{
  g_autoptr (GError) error = NULL;
  DdbEngine *e = ddb_engine_open (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (e);
  return e;
}

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  (void) data;
  f->dir = etu_tmp_dir ("base-XXXXXX");
  f->db = g_build_filename (f->dir, "snap.db", NULL);
  f->source = g_build_filename (f->dir, "export.jsonl", NULL);
  g_assert_true (g_file_set_contents (f->source, source_text, -1, &error));
  g_assert_no_error (error);
  f->engine = open_engine (f->db);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  (void) data;
  g_clear_pointer (&f->engine, ddb_engine_free);
  etu_remove_tree (f->dir);
  g_free (f->dir);
  g_free (f->db);
  g_free (f->source);
}

static void
import_source (Fixture *f, const char *table)
{
  g_autoptr (GError) error = NULL;
  DdbImportOptions opts = { .table_name = table, .format = DDB_SNAPSHOT_JSONL, .key = "pk:S" };

  gboolean ok = ddb_snapshot_import (f->engine, f->source, &opts, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (ok);
}

static void
test_import_names_live_base (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  DdbImportOptions opts = { .table_name = "Live",
                            .key = "pk:S",
                            .base_source = "http://127.0.0.1:8000/Orders",
                            .base_format = "live" };
  DdbTableBase base = { 0 };
  gboolean found = FALSE;
  gboolean ok;

  (void) data;
  ok = ddb_snapshot_import (f->engine, f->source, &opts, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (ddb_engine_get_base (f->engine, "Live", &base, &found, &error));
  g_assert_no_error (error);
  g_assert_true (found);
  g_assert_cmpstr (base.source, ==, "http://127.0.0.1:8000/Orders");
  g_assert_cmpstr (base.format, ==, "live");
  g_assert_cmpint (base.item_count, ==, 8);
  ddb_table_base_clear (&base);
}

static gint64
base_count (DdbEngine *e, const char *table)
{
  g_autoptr (GError) error = NULL;
  gint64 n = -1;

  g_assert_true (ddb_engine_base_item_count (e, table, &n, &error));
  g_assert_no_error (error);
  return n;
}

/* The base version of pk: must be `expected` (DynamoDB JSON item), or absent ("ABSENT"), or not
 * kept at all (NULL). */
static void
assert_base (DdbEngine *e, const char *table, const char *pk, const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *key_text = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"}}", pk);
  g_autoptr (DdbValue) key = ddb_json_parse_item (key_text, -1, &error);
  g_autoptr (DdbValue) item = NULL;
  gboolean found = TRUE;

  g_assert_no_error (error);
  g_assert_true (ddb_engine_base_item_lookup (e, table, key, &found, &item, &error));
  g_assert_no_error (error);
  if (expected == NULL)
    {
      g_assert_false (found);
      return;
    }
  g_assert_true (found);
  if (g_strcmp0 (expected, "ABSENT") == 0)
    {
      g_assert_null (item);
      return;
    }
  g_assert_nonnull (item);
  {
    g_autoptr (DdbValue) want = ddb_json_parse_item (expected, -1, &error);

    g_assert_no_error (error);
    if (!ddb_value_equal (item, want))
      {
        g_autofree char *got = ddb_json_format_item (item);
        g_error ("base of %s: got %s, expected %s", pk, got, expected);
      }
  }
}

/* TTL expiry deletes through the same write path: the expired items keep their base. */
static void
test_ttl_expiry (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  guint deleted = 0;

  (void) data;
  import_source (f, "Tab");
  json_decref (etu_ok (f->engine, "UpdateTimeToLive",
                       "{'TableName':'Tab','TimeToLiveSpecification':{'Enabled':true,"
                       "'AttributeName':'n'}}"));
  /* n is 1..8 except p4's 38-digit number: at time 2, p1 and p2 have expired. */
  g_assert_true (ddb_engine_expire (f->engine, 2, &deleted, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (deleted, ==, 2);
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 2);
  assert_base (f->engine, "Tab", "p2",
               "{\"pk\":{\"S\":\"p2\"},\"n\":{\"N\":\"2\"},\"m\":{\"M\":{\"a\":{\"S\":\"y\"}}}}");
  assert_base (f->engine, "Tab", "p3", NULL);
}

/* A write that fails (a condition, a cancelled transaction) keeps nothing. */
static void
test_failed_write_keeps_nothing (Fixture *f, gconstpointer data)
{
  (void) data;
  import_source (f, "Tab");
  json_decref (etu_fails (f->engine, "PutItem", DDB_ERROR_CONDITIONAL_CHECK_FAILED, NULL,
                          "{'TableName':'Tab','Item':{'pk':{'S':'p1'}},"
                          "'ConditionExpression':'attribute_not_exists(pk)'}"));
  json_decref (etu_fails (f->engine, "TransactWriteItems", DDB_ERROR_TRANSACTION_CANCELED, NULL,
                          "{'TransactItems':["
                          "{'Put':{'TableName':'Tab','Item':{'pk':{'S':'p2'}}}},"
                          "{'Delete':{'TableName':'Tab','Key':{'pk':{'S':'p3'}},"
                          "'ConditionExpression':'attribute_not_exists(pk)'}}]}"));
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 0);
}

static void
partiql (DdbEngine *e, const char *statement)
{
  json_t *req = json_pack ("{ss}", "Statement", statement);

  json_decref (etu_call_ok (e, "ExecuteStatement", req));
  json_decref (req);
}

static void
test_import_records_base (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  DdbTableBase base = { 0 };
  gboolean found = FALSE;

  (void) data;
  import_source (f, "Tab");
  g_assert_true (ddb_engine_get_base (f->engine, "Tab", &base, &found, &error));
  g_assert_no_error (error);
  g_assert_true (found);
  g_assert_cmpstr (base.source, ==, f->source);
  g_assert_cmpstr (base.format, ==, "jsonl");
  g_assert_cmpint (base.item_count, ==, 8);
  g_assert_cmpint (base.created_ms, >, g_get_real_time () / 1000 - 60000);
  g_assert_cmpint (base.created_ms, <=, g_get_real_time () / 1000);
  ddb_table_base_clear (&base);
  /* Importing wrote every item, yet nothing was edited. */
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 0);
  /* A read does not count. */
  json_decref (etu_ok (f->engine, "GetItem", "{'TableName':'Tab','Key':{'pk':{'S':'p1'}}}"));
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 0);
}

static void
test_every_write_path (Fixture *f, gconstpointer data)
{
  (void) data;
  import_source (f, "Tab");
  /* PutItem overwrite */
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'},'n':{'N':'100'}}");
  /* UpdateItem of a nested path */
  json_decref (etu_ok (f->engine, "UpdateItem",
                       "{'TableName':'Tab','Key':{'pk':{'S':'p2'}},"
                       "'UpdateExpression':'SET m.a = :v',"
                       "'ExpressionAttributeValues':{':v':{'S':'z'}}}"));
  /* DeleteItem */
  json_decref (etu_ok (f->engine, "DeleteItem", "{'TableName':'Tab','Key':{'pk':{'S':'p3'}}}"));
  /* A new item */
  etu_put (f->engine, "Tab", "{'pk':{'S':'new1'},'n':{'N':'9'}}");
  /* BatchWriteItem: a put over p4 and a delete of p5 */
  json_decref (etu_ok (f->engine, "BatchWriteItem",
                       "{'RequestItems':{'Tab':["
                       "{'PutRequest':{'Item':{'pk':{'S':'p4'},'n':{'N':'0'}}}},"
                       "{'DeleteRequest':{'Key':{'pk':{'S':'p5'}}}}]}}"));
  /* TransactWriteItems: an update of p6 and a new item */
  json_decref (etu_ok (f->engine, "TransactWriteItems",
                       "{'TransactItems':["
                       "{'Update':{'TableName':'Tab','Key':{'pk':{'S':'p6'}},"
                       "'UpdateExpression':'SET n = n + :one',"
                       "'ExpressionAttributeValues':{':one':{'N':'1'}}}},"
                       "{'Put':{'TableName':'Tab','Item':{'pk':{'S':'new2'}}}}]}"));
  /* PartiQL UPDATE, INSERT, DELETE */
  partiql (f->engine, "UPDATE Tab SET n = 70 WHERE pk = 'p7'");
  partiql (f->engine, "INSERT INTO Tab VALUE {'pk': 'new3'}");
  partiql (f->engine, "DELETE FROM Tab WHERE pk = 'p8'");
  /* A delete of an item that is not there changes nothing: no base version. */
  json_decref (etu_ok (f->engine, "DeleteItem", "{'TableName':'Tab','Key':{'pk':{'S':'none'}}}"));

  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 11);
  assert_base (f->engine, "Tab", "p1",
               "{\"pk\":{\"S\":\"p1\"},\"n\":{\"N\":\"1\"},\"m\":{\"M\":{\"a\":{\"S\":\"x\"}}}}");
  assert_base (f->engine, "Tab", "p2",
               "{\"pk\":{\"S\":\"p2\"},\"n\":{\"N\":\"2\"},\"m\":{\"M\":{\"a\":{\"S\":\"y\"}}}}");
  assert_base (f->engine, "Tab", "p3",
               "{\"pk\":{\"S\":\"p3\"},\"n\":{\"N\":\"3\"},\"ss\":{\"SS\":[\"a\",\"b\"]}}");
  assert_base (f->engine, "Tab", "p4",
               "{\"pk\":{\"S\":\"p4\"},\"n\":{\"N\":\"12345678901234567890123456789012345678\"}}");
  assert_base (f->engine, "Tab", "p5", "{\"pk\":{\"S\":\"p5\"},\"n\":{\"N\":\"5\"}}");
  assert_base (f->engine, "Tab", "p6", "{\"pk\":{\"S\":\"p6\"},\"n\":{\"N\":\"6\"}}");
  assert_base (f->engine, "Tab", "p7", "{\"pk\":{\"S\":\"p7\"},\"n\":{\"N\":\"7\"}}");
  assert_base (f->engine, "Tab", "p8", "{\"pk\":{\"S\":\"p8\"},\"n\":{\"N\":\"8\"}}");
  assert_base (f->engine, "Tab", "new1", "ABSENT");
  assert_base (f->engine, "Tab", "new2", "ABSENT");
  assert_base (f->engine, "Tab", "new3", "ABSENT");
  assert_base (f->engine, "Tab", "none", NULL);

  /* A second edit keeps the first base: p1 again, new1 deleted, p3 re-created. */
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'},'n':{'N':'200'}}");
  json_decref (etu_ok (f->engine, "DeleteItem", "{'TableName':'Tab','Key':{'pk':{'S':'new1'}}}"));
  etu_put (f->engine, "Tab", "{'pk':{'S':'p3'}}");
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 11);
  assert_base (f->engine, "Tab", "p1",
               "{\"pk\":{\"S\":\"p1\"},\"n\":{\"N\":\"1\"},\"m\":{\"M\":{\"a\":{\"S\":\"x\"}}}}");
  assert_base (f->engine, "Tab", "new1", "ABSENT");
  assert_base (f->engine, "Tab", "p3",
               "{\"pk\":{\"S\":\"p3\"},\"n\":{\"N\":\"3\"},\"ss\":{\"SS\":[\"a\",\"b\"]}}");

  /* The base survives reopening the database. */
  g_clear_pointer (&f->engine, ddb_engine_free);
  f->engine = open_engine (f->db);
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 11);
  assert_base (f->engine, "Tab", "p2",
               "{\"pk\":{\"S\":\"p2\"},\"n\":{\"N\":\"2\"},\"m\":{\"M\":{\"a\":{\"S\":\"y\"}}}}");
  {
    g_autoptr (GError) error = NULL;
    DdbTableBase base = { 0 };
    gboolean found = FALSE;

    g_assert_true (ddb_engine_get_base (f->engine, "Tab", &base, &found, &error));
    g_assert_true (found);
    g_assert_cmpstr (base.source, ==, f->source);
    ddb_table_base_clear (&base);
  }
}

static gboolean
count_item (const guint8 *key, gsize len, const DdbValue *item, gpointer data)
{
  guint *counts = data;

  g_assert_cmpuint (len, >, 0);
  (void) key;
  counts[item == NULL ? 1 : 0]++;
  return TRUE;
}

static void
test_foreach_and_drop (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  guint counts[2] = { 0, 0 };
  DdbTableBase base = { 0 };
  gboolean found = TRUE;

  (void) data;
  import_source (f, "Tab");
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'}}");
  etu_put (f->engine, "Tab", "{'pk':{'S':'x'}}");
  g_assert_true (ddb_engine_base_items_foreach (f->engine, "Tab", count_item, counts, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (counts[0], ==, 1);
  g_assert_cmpuint (counts[1], ==, 1);

  json_decref (etu_ok (f->engine, "DeleteTable", "{'TableName':'Tab'}"));
  /* Imported again under the same name: a new table, a new base, no old base versions. */
  import_source (f, "Tab");
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 0);
  assert_base (f->engine, "Tab", "p1", NULL);
  json_decref (etu_ok (f->engine, "DeleteTable", "{'TableName':'Tab'}"));
  g_assert_false (ddb_engine_get_base (f->engine, "Tab", &base, &found, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  g_assert_false (found);
}

static void
test_no_base_no_records (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  DdbTableBase base = { 0 };
  gboolean found = TRUE;

  (void) data;
  etu_create_table (f->engine, "Plain", "pk", "S");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'}}");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'},'v':{'N':'1'}}");
  json_decref (etu_ok (f->engine, "DeleteItem", "{'TableName':'Plain','Key':{'pk':{'S':'a'}}}"));
  g_assert_true (ddb_engine_get_base (f->engine, "Plain", &base, &found, &error));
  g_assert_no_error (error);
  g_assert_false (found);
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 0);

  /* Naming a base explicitly starts the copy-on-write from then on. */
  etu_put (f->engine, "Plain", "{'pk':{'S':'b'}}");
  g_assert_true (ddb_engine_set_base (f->engine, "Plain", "/exports/plain", "s3", &error));
  g_assert_no_error (error);
  g_assert_true (ddb_engine_get_base (f->engine, "Plain", &base, &found, &error));
  g_assert_true (found);
  g_assert_cmpstr (base.source, ==, "/exports/plain");
  g_assert_cmpstr (base.format, ==, "s3");
  g_assert_cmpint (base.item_count, ==, 1);
  ddb_table_base_clear (&base);
  etu_put (f->engine, "Plain", "{'pk':{'S':'b'},'v':{'N':'2'}}");
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 1);
  assert_base (f->engine, "Plain", "b", "{\"pk\":{\"S\":\"b\"}}");
}

/* ---- The writer's cache of "has a base" (base-store.c) ---- */

static gboolean
has_base (DdbEngine *e, const char *table)
{
  g_autoptr (GError) error = NULL;
  DdbTableBase base = { 0 };
  gboolean found = FALSE;

  g_assert_true (ddb_engine_get_base (e, table, &base, &found, &error));
  g_assert_no_error (error);
  ddb_table_base_clear (&base);
  return found;
}

static DdbValue *
item_of (const char *pk)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("{\"pk\":{\"S\":\"%s\"}}", pk);
  DdbValue *item = ddb_json_parse_item (text, -1, &error);

  g_assert_no_error (error);
  return item;
}

/* A base set (or dropped) in a transaction that is rolled back leaves no stale answer behind:
 * the writes after it capture exactly as the stored bases say. */
static void
test_cache_rolled_back_set (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbTableDef) def = NULL;
  DdbStore *store = f->engine->store;
  gboolean enabled = FALSE;

  (void) data;
  etu_create_table (f->engine, "Plain", "pk", "S");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'}}"); /* caches "no base" */
  def = ddb_store_table_get (store, "Plain", &error);
  g_assert_no_error (error);

  /* A set rolled back (as a failed import's): still no base, and writes keep nothing. */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_base_set (store, def, "/x", "s3", NULL, 1, 1, &error));
  g_assert_no_error (error);
  g_assert_true (ddb_base_enabled (store, def, &enabled, &error));
  g_assert_true (enabled);
  ddb_store_rollback (store);
  g_assert_false (has_base (f->engine, "Plain"));
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'},'v':{'N':'1'}}");
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 0);

  /* A set that commits is seen by the next write at once. */
  g_assert_true (ddb_engine_set_base (f->engine, "Plain", "/x", "s3", &error));
  g_assert_no_error (error);
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'},'v':{'N':'2'}}");
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 1);
  assert_base (f->engine, "Plain", "a", "{\"pk\":{\"S\":\"a\"},\"v\":{\"N\":\"1\"}}");

  /* A drop rolled back: the base stays and writes go on capturing. */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_base_drop (store, def, &error));
  g_assert_true (ddb_base_enabled (store, def, &enabled, &error));
  g_assert_false (enabled);
  ddb_store_rollback (store);
  g_assert_true (has_base (f->engine, "Plain"));
  etu_put (f->engine, "Plain", "{'pk':{'S':'b'}}");
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 2);
  assert_base (f->engine, "Plain", "b", "ABSENT");
}

/* In a group (calls in savepoints of one transaction): a call rolled back takes its set with it;
 * a set by an earlier call that was kept holds for the later calls. */
static void
test_cache_group (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbTableDef) def = NULL;
  DdbStore *store = f->engine->store;
  g_autoptr (DdbValue) a = item_of ("a");
  g_autoptr (DdbValue) b = item_of ("b");

  (void) data;
  etu_create_table (f->engine, "Plain", "pk", "S");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'}}");
  def = ddb_store_table_get (store, "Plain", &error);
  g_assert_no_error (error);

  g_assert_true (ddb_store_group_begin (store, &error));
  /* call 1: sets a base, rolled back */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_base_set (store, def, "/x", "s3", NULL, 1, 1, &error));
  ddb_store_rollback (store);
  /* call 2: a write, which must keep nothing */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_store_item_put (store, def, a, &error));
  g_assert_true (ddb_store_commit (store, &error));
  g_assert_true (ddb_store_group_end (store, &error));
  g_assert_no_error (error);
  g_assert_false (has_base (f->engine, "Plain"));
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 0);

  g_assert_true (ddb_store_group_begin (store, &error));
  /* call 1: sets a base, kept */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_base_set (store, def, "/y", "s3", NULL, 1, 1, &error));
  g_assert_true (ddb_store_commit (store, &error));
  /* call 2: fails (rolled back), which empties the cache */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_store_item_put (store, def, b, &error));
  ddb_store_rollback (store);
  /* call 3: a write, captured under call 1's base */
  g_assert_true (ddb_store_begin (store, &error));
  g_assert_true (ddb_store_item_put (store, def, a, &error));
  g_assert_true (ddb_store_commit (store, &error));
  g_assert_true (ddb_store_group_end (store, &error));
  g_assert_no_error (error);
  g_assert_true (has_base (f->engine, "Plain"));
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 1);
  assert_base (f->engine, "Plain", "a", "{\"pk\":{\"S\":\"a\"}}");
  assert_base (f->engine, "Plain", "b", NULL);
}

/* A table dropped and created again under the same name is a new table: the old one's base does
 * not follow it, in this connection or after a reopen. */
static void
test_cache_drop_recreate_reopen (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  (void) data;
  import_source (f, "Tab");
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'},'n':{'N':'10'}}"); /* caches "has a base" */
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 1);
  json_decref (etu_ok (f->engine, "DeleteTable", "{'TableName':'Tab'}"));
  etu_create_table (f->engine, "Tab", "pk", "S");
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'}}");
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'},'n':{'N':'11'}}");
  g_assert_false (has_base (f->engine, "Tab"));
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 0);

  /* A base set now survives a reopen, and the reopened engine's first write captures. */
  g_assert_true (ddb_engine_set_base (f->engine, "Tab", "/z", "jsonl", &error));
  g_assert_no_error (error);
  g_clear_pointer (&f->engine, ddb_engine_free);
  f->engine = open_engine (f->db);
  etu_put (f->engine, "Tab", "{'pk':{'S':'p1'},'n':{'N':'12'}}");
  g_assert_cmpint (base_count (f->engine, "Tab"), ==, 1);
  assert_base (f->engine, "Tab", "p1", "{\"pk\":{\"S\":\"p1\"},\"n\":{\"N\":\"11\"}}");
}

/* Another connection (another engine on the file, as another process would be) sets and drops
 * bases: this connection's cached answers follow at its next write. */
static void
test_cache_other_connection (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  DdbEngine *other = NULL;

  (void) data;
  etu_create_table (f->engine, "Plain", "pk", "S");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'}}"); /* caches "no base" */
  other = open_engine (f->db);
  g_assert_true (ddb_engine_set_base (other, "Plain", "/o", "s3", &error));
  g_assert_no_error (error);
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'},'v':{'N':'1'}}");
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 1);
  assert_base (f->engine, "Plain", "a", "{\"pk\":{\"S\":\"a\"}}");

  /* The other connection drops the table and creates it again: no base any more. */
  json_decref (etu_ok (other, "DeleteTable", "{'TableName':'Plain'}"));
  etu_create_table (other, "Plain", "pk", "S");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'}}");
  etu_put (f->engine, "Plain", "{'pk':{'S':'a'},'v':{'N':'2'}}");
  g_assert_cmpint (base_count (f->engine, "Plain"), ==, 0);
  ddb_engine_free (other);
}

/* A database whose dy_bases predates the export ARN gains the column on open; its bases stay,
 * with no ARN, and a new base keeps one. */
static void
test_arn_column_added (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbTableDef) def = NULL;
  DdbTableBase base = { 0 };
  gboolean found = FALSE;

  (void) data;
  import_source (f, "Tab");
  g_assert_true (store_exec_sql (f->engine->store, "ALTER TABLE dy_bases DROP COLUMN arn", &error));
  g_assert_no_error (error);
  g_clear_pointer (&f->engine, ddb_engine_free);

  f->engine = open_engine (f->db);
  g_assert_true (ddb_engine_get_base (f->engine, "Tab", &base, &found, &error));
  g_assert_true (found);
  g_assert_cmpstr (base.source, ==, f->source);
  g_assert_null (base.export_arn);
  ddb_table_base_clear (&base);

  def = ddb_store_table_get (f->engine->store, "Tab", &error);
  g_assert_nonnull (def);
  g_assert_true (ddb_base_set (f->engine->store, def, "s3://b/p/AWSDynamoDB/01-ab", "s3",
                               "arn:aws:dynamodb:us-east-1:1:table/Tab/export/01-ab", 1, 8,
                               &error));
  g_assert_no_error (error);
  g_clear_pointer (&f->engine, ddb_engine_free);
  f->engine = open_engine (f->db);
  g_assert_true (ddb_engine_get_base (f->engine, "Tab", &base, &found, &error));
  g_assert_cmpstr (base.export_arn, ==, "arn:aws:dynamodb:us-east-1:1:table/Tab/export/01-ab");
  g_assert_cmpint (base.created_ms, ==, 1);
  ddb_table_base_clear (&base);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/base/import-records-base", Fixture, NULL, fixture_setup, test_import_records_base,
              fixture_teardown);
  g_test_add ("/base/every-write-path", Fixture, NULL, fixture_setup, test_every_write_path,
              fixture_teardown);
  g_test_add ("/base/foreach-and-drop", Fixture, NULL, fixture_setup, test_foreach_and_drop,
              fixture_teardown);
  g_test_add ("/base/no-base-no-records", Fixture, NULL, fixture_setup, test_no_base_no_records,
              fixture_teardown);
  g_test_add ("/base/import-names-live-base", Fixture, NULL, fixture_setup,
              test_import_names_live_base, fixture_teardown);
  g_test_add ("/base/ttl-expiry", Fixture, NULL, fixture_setup, test_ttl_expiry, fixture_teardown);
  g_test_add ("/base/failed-write-keeps-nothing", Fixture, NULL, fixture_setup,
              test_failed_write_keeps_nothing, fixture_teardown);
  g_test_add ("/base/cache-rolled-back-set", Fixture, NULL, fixture_setup,
              test_cache_rolled_back_set, fixture_teardown);
  g_test_add ("/base/cache-group", Fixture, NULL, fixture_setup, test_cache_group,
              fixture_teardown);
  g_test_add ("/base/cache-drop-recreate-reopen", Fixture, NULL, fixture_setup,
              test_cache_drop_recreate_reopen, fixture_teardown);
  g_test_add ("/base/arn-column-added", Fixture, NULL, fixture_setup, test_arn_column_added,
              fixture_teardown);
  g_test_add ("/base/cache-other-connection", Fixture, NULL, fixture_setup,
              test_cache_other_connection, fixture_teardown);
  return g_test_run ();
}
