/* fuzz-expr.c: libFuzzer target for the expression parser. The last byte of the input selects
 * the expression kind, the rest is the expression text; a fixed set of placeholders of every
 * shape is defined. Only crashes, leaks and undefined behaviour count as findings. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "core/expr.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static DdbValue *
number (const char *text)
{
  DdbNumber n;

  if (!ddb_number_parse (&n, text, -1, NULL))
    ddb_number_set_zero (&n);
  return ddb_value_new_n (&n);
}

static GHashTable *
make_values (void)
{
  GHashTable *values
      = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) ddb_value_free);
  DdbValue *l = ddb_value_new_l ();
  DdbValue *m = ddb_value_new_m ();
  DdbValue *ss = ddb_value_new_set (DDB_TYPE_SS);
  DdbValue *ns = ddb_value_new_set (DDB_TYPE_NS);

  ddb_value_list_append (l, number ("1"));
  ddb_value_map_set (m, "k", ddb_value_new_s ("v", -1));
  ddb_value_set_add (ss, ddb_value_new_s ("x", -1));
  ddb_value_set_add (ns, number ("3"));
  g_hash_table_insert (values, ":a", ddb_value_new_s ("a", -1));
  g_hash_table_insert (values, ":b", ddb_value_new_s ("b", -1));
  g_hash_table_insert (values, ":n", number ("2"));
  g_hash_table_insert (values, ":s", ddb_value_new_s ("S", -1));
  g_hash_table_insert (values, ":l", l);
  g_hash_table_insert (values, ":m", m);
  g_hash_table_insert (values, ":ss", ss);
  g_hash_table_insert (values, ":ns", ns);
  g_hash_table_insert (values, ":bin", ddb_value_new_b ("\x00\xff", 2));
  g_hash_table_insert (values, ":e", ddb_value_new_s ("", 0));
  g_hash_table_insert (values, ":t", ddb_value_new_bool (TRUE));
  g_hash_table_insert (values, ":z", ddb_value_new_null ());
  return values;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static GHashTable *names, *values;
  static const DdbKeySchema schema = { "a", DDB_TYPE_S, "b", DDB_TYPE_S };
  DdbExprContext *ctx;
  GError *error = NULL;
  char *text;
  uint8_t selector;

  if (size == 0)
    return 0;
  if (names == NULL)
    {
      names = g_hash_table_new (g_str_hash, g_str_equal);
      g_hash_table_insert (names, "#a", "a");
      g_hash_table_insert (names, "#b", "b");
      g_hash_table_insert (names, "#n", "name.with.dots");
      values = make_values ();
    }

  selector = data[size - 1];
  text = g_strndup ((const char *) data, size - 1);
  ctx = ddb_expr_context_new (names, values);

  switch (selector % 6)
    {
    case 0:
    case 1:
      case 2: {
        DdbExprType type = selector % 3 == 0   ? DDB_EXPR_CONDITION
                           : selector % 3 == 1 ? DDB_EXPR_FILTER
                                               : DDB_EXPR_KEY_CONDITION;
        DdbNode *n = ddb_condition_parse (type, text, ctx, &error);

        if (n != NULL && type == DDB_EXPR_KEY_CONDITION)
          {
            DdbKeyCondition kc;

            if (ddb_key_condition_analyze (n, &schema, &kc, &error))
              ddb_key_condition_clear (&kc);
          }
        ddb_node_free (n);
        break;
      }
    case 3:
    case 4:
      ddb_update_free (ddb_update_parse (text, ctx, &error));
      break;
    default:
      ddb_projection_free (ddb_projection_parse (text, ctx, &error));
      break;
    }
  g_clear_error (&error);
  if (!ddb_expr_context_check_unused (ctx, &error))
    g_clear_error (&error);
  ddb_expr_context_free (ctx);
  g_free (text);
  return 0;
}
