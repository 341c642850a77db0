/* test-infer.c: models proposed from tables: the rules of infer.h one by one on items given
 * directly (field names from attributes, key words, forms and composite key names; padding;
 * separators; entity names and their clashes; numeric and binary keys), a proposal that does
 * not depend on the items' order, and dy_model_infer on the engine (indexes, provisioned
 * billing, a sample, errors and cancelling). */
#include <string.h>

#include "../engine/engine-test-util.h"
#include "core/error.h"
#include "model/check.h"
#include "model/infer.h"
#include "model/workbench.h"

/* A description of table T keyed by PK (S) and, unless SK is NULL, SK of SK_TYPE. */
static json_t *
description (const char *pk, const char *pk_type, const char *sk, const char *sk_type)
{
  if (sk == NULL)
    return etu_json ("{'TableName': 'T', 'AttributeDefinitions': [{'AttributeName': '%s', "
                     "'AttributeType': '%s'}], 'KeySchema': [{'AttributeName': '%s', "
                     "'KeyType': 'HASH'}]}",
                     pk, pk_type, pk);
  return etu_json ("{'TableName': 'T', 'AttributeDefinitions': [{'AttributeName': '%s', "
                   "'AttributeType': '%s'}, {'AttributeName': '%s', 'AttributeType': '%s'}], "
                   "'KeySchema': [{'AttributeName': '%s', 'KeyType': 'HASH'}, "
                   "{'AttributeName': '%s', 'KeyType': 'RANGE'}]}",
                   pk, pk_type, sk, sk_type, pk, sk);
}

static DyModel *
infer (json_t *desc, json_t *items)
{
  g_autoptr (GError) error = NULL;
  DyModel *model = dy_model_infer_from_items (desc, items, &error);
  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static const char *
key_of (const DyModel *model, const char *entity, const char *attr)
{
  const DyModelEntity *e = dy_model_find_entity (model, entity);
  if (e == NULL)
    g_error ("no entity %s", entity);
  const DyModelKey *key = dy_model_entity_find_key (e, attr);
  return key ? key->tpl->source : NULL;
}

static void
test_names_and_widths (void)
{
  json_auto_t *desc = description ("PK", "S", "SK", "S");
  json_auto_t *items = json_array ();
  for (guint i = 0; i < 12; i++)
    {
      /* Orders whose number is also an attribute; lines numbered 001…012; one version 7 or
       * 12 (no padding: differing lengths). */
      json_array_append_new (
          items,
          etu_json (
              "{'PK': {'S': 'ORDER#%u'}, 'SK': {'S': 'ORDER#%u'}, 'orderNumber': {'N': '%u'}}",
              1000 + i, 1000 + i, 1000 + i));
      json_array_append_new (
          items, etu_json ("{'PK': {'S': 'ORDER#%u'}, 'SK': {'S': 'LINE#%03u'}, 'qty': {'N': '1'}}",
                           1000 + i, i + 1));
      json_array_append_new (items, etu_json ("{'PK': {'S': 'ORDER#%u'}, 'SK': {'S': 'V#%u'}, "
                                              "'at': {'S': '2026-01-0%uT10:00:00Z'}}",
                                              1000 + i, i % 2 ? 7 : 12, i % 9 + 1));
    }
  g_autoptr (DyModel) m = infer (desc, items);

  g_assert_cmpuint (m->entities->len, ==, 3);
  /* The sort key is the partition key: the entity is the order itself. */
  g_assert_cmpstr (key_of (m, "Order", "PK"), ==, "ORDER#{orderNumber}");
  g_assert_cmpstr (key_of (m, "Order", "SK"), ==, "ORDER#{orderNumber}");
  g_assert_cmpstr (key_of (m, "Line", "PK"), ==, "ORDER#{orderId}");
  g_assert_cmpstr (key_of (m, "Line", "SK"), ==, "LINE#{lineId:03}");
  g_assert_cmpstr (key_of (m, "V", "SK"), ==, "V#{vId}");
  const DyModelEntity *line = dy_model_find_entity (m, "Line");
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (line->max_lengths, "lineId")), ==, 3);
  const DyModelAttr *qty = line->attrs->pdata[0];
  g_assert_cmpstr (qty->name, ==, "qty");
  g_assert_cmpstr (qty->type, ==, "N");
  g_assert_cmpuint (line->attrs->len, ==, 1);
  /* Five sample items an entity, kept whole. */
  DyModelTable *t = m->tables->pdata[0];
  g_assert_cmpuint (json_array_size (t->items), ==, 3 * DY_INFER_ITEMS_PER_ENTITY);
}

static void
test_forms_and_separators (void)
{
  json_auto_t *desc = description ("key", "S", NULL, NULL);
  json_auto_t *items = json_array ();
  for (guint i = 0; i < 4; i++)
    {
      json_array_append_new (
          items, etu_json ("{'key': {'S': 'tenant|t%u|2026-03-0%u|%u'}}", i, i + 1, i * 1000 + 5));
      json_array_append_new (items,
                             etu_json ("{'key': {'S': 'EVT|2026-03-0%uT12:00:00Z'}}", i + 1));
    }
  g_autoptr (DyModel) m = infer (desc, items);
  /* A word in lower case still names its entity; a date, a timestamp and a number by form. */
  g_assert_cmpstr (key_of (m, "Tenant", "key"), ==, "tenant|{tenantId}|{date}|{n}");
  g_assert_cmpstr (key_of (m, "Event", "key"), ==, "EVT|{timestamp}");
}

static void
test_entity_names (void)
{
  json_auto_t *desc = description ("PK", "S", "SK", "S");
  json_auto_t *items = json_array ();
  for (guint i = 0; i < 3; i++)
    {
      json_array_append_new (
          items,
          etu_json ("{'PK': {'S': 'POST#p%u'}, 'SK': {'S': 'COMMENT#%u'}, 'flag': {'BOOL': true}}",
                    i, i));
      json_array_append_new (
          items,
          etu_json ("{'PK': {'S': 'PHOTO#f%u'}, 'SK': {'S': 'COMMENT#%u'}, 'flag': {'S': 'x'}}", i,
                    i));
    }
  json_array_append_new (
      items, etu_json ("{'PK': {'S': 'PHOTO#f9'}, 'SK': {'S': 'COMMENT#9'}, 'flag': {'S': 'y'}}"));
  /* One organization, its id in capitals: a field still; ITEM between numbers: a word. */
  json_array_append_new (items, etu_json ("{'PK': {'S': 'ORG#ACME'}, 'SK': {'S': 'ORG#ACME'}}"));
  json_array_append_new (items,
                         etu_json ("{'PK': {'S': 'ORG#ACME'}, 'SK': {'S': 'ORDER#12#ITEM#3'}}"));
  /* Keys without a word: the entity takes the table's name. */
  json_array_append_new (items, etu_json ("{'PK': {'S': '1f3a'}, 'SK': {'S': '2026'}}"));
  g_autoptr (DyModel) m = infer (desc, items);

  g_assert_cmpuint (m->entities->len, ==, 5);
  g_assert_cmpstr (key_of (m, "Organization", "PK"), ==, "ORG#{organizationId}");
  g_assert_cmpstr (key_of (m, "Organization", "SK"), ==, "ORG#{organizationId}");
  g_assert_cmpstr (key_of (m, "Order", "SK"), ==, "ORDER#{orderId}#ITEM#{itemId}");
  /* Items sort PHOTO before POST: the photos' comments are "Comment", the posts' "PostComment". */
  g_assert_cmpstr (key_of (m, "Comment", "PK"), ==, "PHOTO#{photoId}");
  g_assert_cmpstr (key_of (m, "PostComment", "PK"), ==, "POST#{postId}");
  g_assert_cmpstr (key_of (m, "T", "PK"), ==, "{pk}");
  g_assert_cmpstr (key_of (m, "T", "SK"), ==, "{sk}");
  /* The type most of an entity's items have. */
  const DyModelEntity *photo = dy_model_find_entity (m, "Comment");
  g_assert_cmpstr (((DyModelAttr *) photo->attrs->pdata[0])->type, ==, "S");
  const DyModelEntity *post = dy_model_find_entity (m, "PostComment");
  g_assert_cmpstr (((DyModelAttr *) post->attrs->pdata[0])->type, ==, "BOOL");
}

static void
test_number_and_binary_keys (void)
{
  json_auto_t *desc = description ("id", "N", "blob", "B");
  json_auto_t *items = json_array ();
  for (guint i = 0; i < 3; i++)
    json_array_append_new (items, etu_json ("{'id': {'N': '7'}, 'blob': {'B': 'AA%c='}}", 'A' + i));
  g_autoptr (DyModel) m = infer (desc, items);
  /* A number is one field even when it is the same in every item; bytes get no template. */
  g_assert_cmpstr (key_of (m, "T", "id"), ==, "{id}");
  g_assert_null (key_of (m, "T", "blob"));
}

/* The same items in another order: the same model, written out byte for byte. */
static void
test_order_independent (void)
{
  json_auto_t *desc = description ("PK", "S", "SK", "S");
  json_auto_t *items = json_array ();
  json_auto_t *reversed = json_array ();
  for (guint i = 0; i < 30; i++)
    json_array_append_new (items, etu_json ("{'PK': {'S': 'WS#w%u'}, 'SK': {'S': '%s'}, 'name': "
                                            "{'S': 'n%u'}, 'seats': {'N': '%u'}}",
                                            i % 4, i % 3 ? "META" : "PROJ#x", i, i));
  for (size_t i = json_array_size (items); i > 0; i--)
    json_array_append (reversed, json_array_get (items, i - 1));
  g_autoptr (DyModel) a = infer (desc, items);
  g_autoptr (DyModel) b = infer (desc, reversed);
  json_auto_t *ja = dy_workbench_write (a);
  json_auto_t *jb = dy_workbench_write (b);
  g_autofree char *ta = json_dumps (ja, JSON_SORT_KEYS);
  g_autofree char *tb = json_dumps (jb, JSON_SORT_KEYS);
  g_assert_cmpstr (ta, ==, tb);
}

static void
test_bad_description (void)
{
  g_autoptr (GError) error = NULL;
  json_auto_t *desc = etu_json ("{'TableName': 'T'}");
  json_auto_t *items = json_array ();
  g_assert_null (dy_model_infer_from_items (desc, items, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_VALIDATION);
  g_assert_nonnull (strstr (error->message, "no key schema for T"));
}

typedef struct {
  DdbBackend *backend;
  DdbEngine *engine; /* owned by the backend */
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  (void) data;
  f->engine = etu_engine_new ();
  f->backend = ddb_backend_new_for_engine (f->engine, ":memory:");
  json_decref (etu_ok (
      f->engine, "CreateTable",
      "{'TableName': 'Docs', 'BillingMode': 'PROVISIONED',"
      " 'ProvisionedThroughput': {'ReadCapacityUnits': 7, 'WriteCapacityUnits': 3},"
      " 'AttributeDefinitions': [{'AttributeName': 'PK', 'AttributeType': 'S'},"
      "  {'AttributeName': 'SK', 'AttributeType': 'S'}, {'AttributeName': 'GSI1PK', "
      "  'AttributeType': 'S'}, {'AttributeName': 'updated', 'AttributeType': 'S'}],"
      " 'KeySchema': [{'AttributeName': 'PK', 'KeyType': 'HASH'},"
      "  {'AttributeName': 'SK', 'KeyType': 'RANGE'}],"
      " 'GlobalSecondaryIndexes': [{'IndexName': 'GSI1', 'KeySchema': [{'AttributeName': "
      "  'GSI1PK', 'KeyType': 'HASH'}], 'Projection': {'ProjectionType': 'INCLUDE', "
      "  'NonKeyAttributes': ['title']}, 'ProvisionedThroughput': {'ReadCapacityUnits': 1, "
      "  'WriteCapacityUnits': 1}}],"
      " 'LocalSecondaryIndexes': [{'IndexName': 'ByUpdated', 'KeySchema': [{'AttributeName': "
      "  'PK', 'KeyType': 'HASH'}, {'AttributeName': 'updated', 'KeyType': 'RANGE'}], "
      "  'Projection': {'ProjectionType': 'KEYS_ONLY'}}]}"));
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *item = g_strdup_printf (
          "{'PK': {'S': 'FOLDER#f%u'}, 'SK': {'S': 'DOC#%04u'}, 'GSI1PK': {'S': 'OWNER#u%u'}, "
          "'owner': {'S': 'u%u'}, 'title': {'S': 'Doc %u'}, 'updated': {'S': "
          "'2026-02-%02uT09:00:00Z'}}",
          i % 5, i, i % 7, i % 7, i, i % 28 + 1);
      etu_put (f->engine, "Docs", item);
    }
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  (void) data;
  ddb_backend_free (f->backend);
}

static void
test_engine (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) m = dy_model_infer (f->backend, "Docs", 0, NULL, &error);
  (void) data;
  g_assert_no_error (error);
  g_assert_cmpuint (m->entities->len, ==, 1);
  DyModelTable *t = m->tables->pdata[0];
  g_assert_cmpstr (t->billing_mode, ==, "PROVISIONED");
  g_assert_cmpint (t->rcu, ==, 7);
  g_assert_cmpint (t->wcu, ==, 3);
  g_assert_cmpuint (t->indexes->len, ==, 2);
  const DyModelIndex *gsi = dy_model_table_find_index (t, "GSI1");
  g_assert_false (gsi->local);
  g_assert_cmpstr (gsi->partition.name, ==, "GSI1PK");
  g_assert_null (gsi->sort.name);
  g_assert_cmpstr (gsi->projection, ==, "INCLUDE");
  g_assert_cmpstr (gsi->non_key->pdata[0], ==, "title");
  const DyModelIndex *lsi = dy_model_table_find_index (t, "ByUpdated");
  g_assert_true (lsi->local);
  g_assert_cmpstr (lsi->sort.name, ==, "updated");
  g_assert_cmpstr (lsi->sort.type, ==, "S");
  /* The index keys' templates; the GSI's field named after the attribute holding its value. */
  g_assert_cmpstr (key_of (m, "Doc", "PK"), ==, "FOLDER#{folderId}");
  g_assert_cmpstr (key_of (m, "Doc", "SK"), ==, "DOC#{docId:04}");
  g_assert_cmpstr (key_of (m, "Doc", "GSI1PK"), ==, "OWNER#{owner}");
  g_assert_cmpstr (key_of (m, "Doc", "updated"), ==, "{updated}");
  g_assert_cmpuint (json_array_size (t->items), ==, DY_INFER_ITEMS_PER_ENTITY);
  g_assert_nonnull (strstr (m->description, "from 40 items"));
  /* Nothing in it is flagged; the model writes and reads back. */
  g_autoptr (DyCheckReport) report = dy_model_check (m);
  g_assert_cmpuint (report->flags->len, ==, 0);
  json_auto_t *json = dy_workbench_write (m);
  g_autoptr (DyModel) back = dy_workbench_read (json, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (key_of (back, "Doc", "SK"), ==, "DOC#{docId:04}");

  g_autoptr (DyModel) sampled = dy_model_infer (f->backend, "Docs", 9, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (sampled->description, "from 9 items"));
}

static void
test_engine_errors (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  (void) data;
  g_assert_null (dy_model_infer (f->backend, "Missing", 0, NULL, &error));
  g_assert_error (error, DDB_ERROR, DDB_ERROR_RESOURCE_NOT_FOUND);
  g_clear_error (&error);
  g_cancellable_cancel (cancellable);
  g_assert_null (dy_model_infer (f->backend, "Docs", 0, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A field's name made up from a key word is never that of an attribute holding other values;
 * a field of one value under two keys (the table's and an index's) has one name. */
static void
test_name_clashes (void)
{
  json_auto_t *desc = description ("PK", "S", "SK", "S");
  json_object_set_new (desc, "GlobalSecondaryIndexes",
                       etu_json ("[{'IndexName': 'G', 'KeySchema': [{'AttributeName': 'GPK', "
                                 "'KeyType': 'HASH'}], 'Projection': {'ProjectionType': "
                                 "'ALL'}}]"));
  json_auto_t *items = json_array ();
  for (guint i = 0; i < 4; i++)
    json_array_append_new (
        items, etu_json ("{'PK': {'S': 'USER#%u'}, 'SK': {'S': 'POST#p%u'}, 'GPK': {'S': "
                         "'POST#p%u'}, 'userId': {'S': 'U#9%u'}}",
                         i + 10, i, i, i));
  g_autoptr (DyModel) m = infer (desc, items);
  g_assert_cmpstr (key_of (m, "Post", "PK"), ==, "USER#{userId2}");
  g_assert_cmpstr (key_of (m, "Post", "SK"), ==, "POST#{postId}");
  g_assert_cmpstr (key_of (m, "Post", "GPK"), ==, "POST#{postId}");
}

/* Names and widths a template cannot hold: an attribute name's other characters become '_', a
 * padding past 64 digits is left out. */
static void
test_template_limits (void)
{
  json_auto_t *desc = description ("the key", "S", "sort", "S");
  json_auto_t *items = json_array ();
  g_autofree char *zeros = g_strnfill (70, '0');
  for (guint i = 0; i < 3; i++)
    json_array_append_new (
        items, etu_json ("{'the key': {'S': 'k%u'}, 'sort': {'S': 'X#%s%u'}}", i, zeros, i));
  g_autoptr (DyModel) m = infer (desc, items);
  g_assert_cmpstr (key_of (m, "X", "the key"), ==, "{the_key}");
  g_assert_cmpstr (key_of (m, "X", "sort"), ==, "X#{xId}");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/infer/names-and-widths", test_names_and_widths);
  g_test_add_func ("/infer/forms-and-separators", test_forms_and_separators);
  g_test_add_func ("/infer/entity-names", test_entity_names);
  g_test_add_func ("/infer/number-and-binary-keys", test_number_and_binary_keys);
  g_test_add_func ("/infer/name-clashes", test_name_clashes);
  g_test_add_func ("/infer/template-limits", test_template_limits);
  g_test_add_func ("/infer/order-independent", test_order_independent);
  g_test_add_func ("/infer/bad-description", test_bad_description);
  g_test_add ("/infer/engine", Fixture, NULL, fixture_set_up, test_engine, fixture_tear_down);
  g_test_add ("/infer/engine-errors", Fixture, NULL, fixture_set_up, test_engine_errors,
              fixture_tear_down);
  return g_test_run ();
}
