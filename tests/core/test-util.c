/* test-util.c: helpers shared by the core unit tests (see test-util.h). */
#include "test-util.h"

#include <jansson.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/number.h"

char *
tu_dq (const char *s)
{
  char *r = g_strdup (s);

  g_strdelimit (r, "'", '"');
  return r;
}

DdbValue *
tu_item (const char *json)
{
  g_autofree char *text = tu_dq (json);
  GError *error = NULL;
  DdbValue *item = ddb_json_parse_item (text, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (item);
  return item;
}

void
tu_assert_item (const DdbValue *got, const char *expected_json)
{
  g_autoptr (DdbValue) expected = tu_item (expected_json);

  if (!ddb_value_equal (got, expected))
    {
      g_autofree char *a = ddb_json_format_item (got);
      g_autofree char *b = ddb_json_format_item (expected);
      g_error ("got %s, expected %s", a, b);
    }
}

DdbValue *
tu_num (const char *text)
{
  DdbNumber n;
  GError *error = NULL;

  if (!ddb_number_parse (&n, text, -1, &error))
    g_error ("cannot parse %s: %s", text, error->message);
  g_assert_no_error (error);
  return ddb_value_new_n (&n);
}

DdbValue *
tu_str (const char *s)
{
  return ddb_value_new_s (s, -1);
}

void
tu_assert_error (const GError *error, DdbErrorCode code, const char *message)
{
  g_assert_error (error, DDB_ERROR, (gint) code);
  g_assert_cmpstr (error->message, ==, message);
}

void
tu_placeholders_init (TuPlaceholders *ph, const char *values_json, const char *names_json)
{
  memset (ph, 0, sizeof *ph);
  if (values_json != NULL)
    {
      ph->values_item = tu_item (values_json);
      ph->values = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < ddb_value_map_size (ph->values_item); i++)
        {
          DdbAttr *a = ddb_value_map_nth (ph->values_item, i);
          g_hash_table_insert (ph->values, a->name, a->value);
        }
    }
  if (names_json != NULL)
    {
      g_autofree char *text = tu_dq (names_json);
      json_t *obj = json_loads (text, 0, NULL);
      const char *key;
      json_t *val;

      g_assert_nonnull (obj);
      ph->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      json_object_foreach (obj, key, val)
        g_hash_table_insert (ph->names, g_strdup (key), g_strdup (json_string_value (val)));
      json_decref (obj);
    }
  ph->ctx = ddb_expr_context_new (ph->names, ph->values);
}

void
tu_placeholders_clear (TuPlaceholders *ph)
{
  ddb_expr_context_free (ph->ctx);
  if (ph->values != NULL)
    g_hash_table_unref (ph->values);
  if (ph->names != NULL)
    g_hash_table_unref (ph->names);
  ddb_value_free (ph->values_item);
}

DdbNode *
tu_condition_parse (DdbExprType type, const char *expr, DdbExprContext *ctx)
{
  g_autoptr (GError) error = NULL;
  DdbNode *n = ddb_condition_parse (type, expr, ctx, &error);

  if (error != NULL)
    g_test_message ("%s: %s", expr, error->message);
  g_assert_no_error (error);
  g_assert_nonnull (n);
  return n;
}

DdbUpdate *
tu_update_parse (const char *expr, DdbExprContext *ctx)
{
  g_autoptr (GError) error = NULL;
  DdbUpdate *u = ddb_update_parse (expr, ctx, &error);

  if (error != NULL)
    g_test_message ("%s: %s", expr, error->message);
  g_assert_no_error (error);
  g_assert_nonnull (u);
  return u;
}
