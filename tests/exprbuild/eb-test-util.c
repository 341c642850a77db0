/* eb-test-util.c: helpers shared by the expression builder's tests (see eb-test-util.h). */
#include "eb-test-util.h"

#include <string.h>

#include "core/ddbjson.h"
#include "../core/test-util.h"

json_t *
ebt_json (const char *single_quoted)
{
  g_autofree char *text = tu_dq (single_quoted);
  json_error_t err;
  json_t *j = json_loads (text, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);

  if (j == NULL)
    g_error ("bad test JSON %s: %s", text, err.text);
  return j;
}

void
ebt_assert_json (json_t *got, const char *expected)
{
  json_t *want = ebt_json (expected);

  if (!json_equal (got, want))
    {
      g_autofree char *a = json_dumps (got, JSON_ENCODE_ANY | JSON_COMPACT);
      g_autofree char *b = json_dumps (want, JSON_ENCODE_ANY | JSON_COMPACT);

      g_error ("got %s, expected %s", a, b);
    }
  json_decref (want);
}

DdbPath
ebt_path (const char *text)
{
  DdbPath p;
  GError *error = NULL;

  g_assert_true (ddb_eb_path_parse (text, &p, &error));
  g_assert_no_error (error);
  return p;
}

DdbNode *
ebt_p (const char *path)
{
  DdbPath p = ebt_path (path);
  DdbNode *n = ddb_eb_node_path (&p);

  ddb_path_clear (&p);
  return n;
}

DdbNode *
ebt_s (const char *s)
{
  return ddb_eb_node_value (tu_str (s));
}

DdbNode *
ebt_n (const char *number)
{
  return ddb_eb_node_value (tu_num (number));
}

DdbNode *
ebt_v (const char *ddb_json)
{
  g_autofree char *text = tu_dq (ddb_json);
  GError *error = NULL;
  DdbValue *v = ddb_json_parse_value (text, -1, &error);

  g_assert_no_error (error);
  return ddb_eb_node_value (v);
}

json_t *
ebt_render (const DdbEbModel *model)
{
  json_t *req = json_pack ("{ss}", "TableName", "T");
  GError *error = NULL;

  if (!ddb_eb_render (model, req, &error))
    g_error ("render refused: %s", error->message);
  return req;
}

static GHashTable *
read_names (json_t *names)
{
  GHashTable *tab = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const char *key;
  json_t *v;

  json_object_foreach (names, key, v)
    {
      g_assert_true (json_is_string (v));
      g_hash_table_insert (tab, g_strdup (key), g_strdup (json_string_value (v)));
    }
  return tab;
}

static GHashTable *
read_values (json_t *values)
{
  GHashTable *tab
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ddb_value_free);
  const char *key;
  json_t *v;

  json_object_foreach (values, key, v)
    {
      GError *error = NULL;
      DdbValue *value = ddb_json_to_value (v, &error);

      g_assert_no_error (error);
      g_hash_table_insert (tab, g_strdup (key), value);
    }
  return tab;
}

void
ebt_parse (json_t *request, EbtParsed *out)
{
  json_t *names = json_object_get (request, "ExpressionAttributeNames");
  json_t *values = json_object_get (request, "ExpressionAttributeValues");
  const char *text;
  g_autoptr (DdbExprContext) ctx = NULL;
  GError *error = NULL;

  memset (out, 0, sizeof *out);
  /* DynamoDB refuses empty maps: the builder must leave them out instead. */
  if (names != NULL)
    g_assert_cmpuint (json_object_size (names), >, 0);
  if (values != NULL)
    g_assert_cmpuint (json_object_size (values), >, 0);
  out->names = names != NULL ? read_names (names) : NULL;
  out->values = values != NULL ? read_values (values) : NULL;
  ctx = ddb_expr_context_new (out->names, out->values);
  if ((text = json_string_value (json_object_get (request, "KeyConditionExpression"))) != NULL)
    out->key = ddb_condition_parse (DDB_EXPR_KEY_CONDITION, text, ctx, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get (request, "FilterExpression") == NULL
                 || json_object_get (request, "ConditionExpression") == NULL);
  if ((text = json_string_value (json_object_get (request, "FilterExpression"))) != NULL)
    out->condition = ddb_condition_parse (DDB_EXPR_FILTER, text, ctx, &error);
  g_assert_no_error (error);
  if ((text = json_string_value (json_object_get (request, "ConditionExpression"))) != NULL)
    out->condition = ddb_condition_parse (DDB_EXPR_CONDITION, text, ctx, &error);
  g_assert_no_error (error);
  if ((text = json_string_value (json_object_get (request, "ProjectionExpression"))) != NULL)
    out->projection = ddb_projection_parse (text, ctx, &error);
  g_assert_no_error (error);
  if ((text = json_string_value (json_object_get (request, "UpdateExpression"))) != NULL)
    out->update = ddb_update_parse (text, ctx, &error);
  g_assert_no_error (error);
  ddb_expr_context_check_unused (ctx, &error);
  g_assert_no_error (error);
}

void
ebt_parsed_clear (EbtParsed *p)
{
  g_clear_pointer (&p->key, ddb_node_free);
  g_clear_pointer (&p->condition, ddb_node_free);
  g_clear_pointer (&p->projection, ddb_projection_free);
  g_clear_pointer (&p->update, ddb_update_free);
  g_clear_pointer (&p->names, g_hash_table_unref);
  g_clear_pointer (&p->values, g_hash_table_unref);
}

static gboolean
eval (const DdbNode *cond, const DdbValue *item)
{
  gboolean result = FALSE;
  GError *error = NULL;

  g_assert_true (ddb_condition_eval (cond, item, &result, &error));
  g_assert_no_error (error);
  return result;
}

static DdbValue *
apply (const DdbUpdate *u, const DdbValue *item, char **message)
{
  DdbValue *copy = ddb_value_copy (item);
  GError *error = NULL;

  *message = NULL;
  if (!ddb_update_apply (u, copy, &error))
    {
      *message = g_strdup (error->message);
      g_error_free (error);
    }
  return copy;
}

void
ebt_assert_same_behaviour (const EbtParsed *a, const EbtParsed *b, const char *const *items)
{
  g_assert_true ((a->key == NULL) == (b->key == NULL));
  g_assert_true ((a->condition == NULL) == (b->condition == NULL));
  g_assert_true ((a->projection == NULL) == (b->projection == NULL));
  g_assert_true ((a->update == NULL) == (b->update == NULL));
  for (guint i = 0; items[i] != NULL; i++)
    {
      g_autoptr (DdbValue) item = tu_item (items[i]);

      if (a->key != NULL)
        g_assert_cmpint (eval (a->key, item), ==, eval (b->key, item));
      if (a->condition != NULL)
        g_assert_cmpint (eval (a->condition, item), ==, eval (b->condition, item));
      if (a->projection != NULL)
        {
          g_autoptr (DdbValue) x = ddb_projection_apply (a->projection, item);
          g_autoptr (DdbValue) y = ddb_projection_apply (b->projection, item);

          g_assert_true (ddb_value_equal (x, y));
        }
      if (a->update != NULL)
        {
          g_autofree char *ea = NULL;
          g_autofree char *eb = NULL;
          g_autoptr (DdbValue) x = apply (a->update, item, &ea);
          g_autoptr (DdbValue) y = apply (b->update, item, &eb);

          g_assert_cmpstr (ea, ==, eb);
          g_assert_true (ddb_value_equal (x, y));
        }
    }
}
