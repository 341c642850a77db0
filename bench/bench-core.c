/* bench-core.c: figures for the core's hot paths, so regressions show: DynamoDB JSON parse and
 * format throughput, plain JSON parse throughput, expression parse cost, condition evaluation and
 * update application cost per item. Prints one line per figure. Usage: bench-core [N_ITEMS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/expr.h"
#include "core/keycodec.h"
#include "core/plainjson.h"

/* Deterministic, realistic items in the shape of the demo's workspace collections: keys,
 * strings, a 38-digit number, a set, a nested map and a list. */
static GPtrArray *
make_lines (guint n, gsize *total_bytes)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GRand *rand = g_rand_new_with_seed (42);

  *total_bytes = 0;
  for (guint i = 0; i < n; i++)
    {
      char *line = g_strdup_printf (
          "{\"EntityRef\":{\"S\":\"WS#tenant%04u\"},\"Detail\":{\"S\":\"PROJ#2026-%06u\"},"
          "\"name\":{\"S\":\"Project number %u of the benchmark\"},"
          "\"status\":{\"S\":\"%s\"},\"budget\":{\"N\":\"%u.%02u\"},"
          "\"exact\":{\"N\":\"1234567890123456789012345678901234567%u\"},"
          "\"tags\":{\"SS\":[\"alpha\",\"beta%u\",\"gamma\"]},"
          "\"owner\":{\"M\":{\"id\":{\"S\":\"U#%u\"},\"name\":{\"S\":\"Mara Vance\"},"
          "\"active\":{\"BOOL\":true}}},"
          "\"history\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},{\"S\":\"three\"},{\"NULL\":true}]}}",
          i / 100, i, i, (i % 3) ? "active" : "done", g_rand_int_range (rand, 0, 1000000), i % 100,
          i % 10, i % 7, i % 50);
      *total_bytes += strlen (line);
      g_ptr_array_add (lines, line);
    }
  g_rand_free (rand);
  return lines;
}

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int argc, char **argv)
{
  guint n = argc > 1 ? (guint) atoi (argv[1]) : 100000;
  gsize total = 0, plain_total = 0;
  g_autoptr (GPtrArray) lines = make_lines (n, &total);
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  g_autoptr (GPtrArray) plain = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbValue) v_er = ddb_value_new_s ("WS#tenant0005", -1);
  g_autoptr (DdbValue) v_p = ddb_value_new_s ("PROJ#", -1);
  g_autoptr (DdbValue) v_st = ddb_value_new_s ("active", -1);
  g_autoptr (DdbValue) v_one = NULL;
  DdbNumber one;
  const char *cond_text = "#er = :er AND begins_with(#d, :p) AND #s = :st AND size(tags) > :one";
  const char *filter_text = "#s = :st AND exact > :one";
  const char *update_text = "SET budget = budget + :one, #s = :st REMOVE history[0]";
  gint64 start;
  double t;
  guint matched = 0;

  ddb_number_set_int (&one, 1);
  v_one = ddb_value_new_n (&one);
  g_hash_table_insert (names, "#er", "EntityRef");
  g_hash_table_insert (names, "#d", "Detail");
  g_hash_table_insert (names, "#s", "status");
  g_hash_table_insert (values, ":er", v_er);
  g_hash_table_insert (values, ":p", v_p);
  g_hash_table_insert (values, ":st", v_st);
  g_hash_table_insert (values, ":one", v_one);

  printf ("items: %u, DynamoDB JSON: %.1f MB\n", n, total / 1e6);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      DdbValue *item = ddb_json_parse_item (g_ptr_array_index (lines, i), -1, &error);
      if (item == NULL)
        g_error ("bench item %u: %s", i, error->message);
      g_ptr_array_add (items, item);
    }
  t = seconds_since (start);
  printf ("ddbjson parse: %.1f MB/s (%.0f ns/item)\n", total / 1e6 / t, t * 1e9 / n);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    g_free (ddb_json_format_item (g_ptr_array_index (items, i)));
  t = seconds_since (start);
  printf ("ddbjson format: %.1f MB/s (%.0f ns/item)\n", total / 1e6 / t, t * 1e9 / n);

  for (guint i = 0; i < n; i++)
    {
      char *text = ddb_plain_format_value (g_ptr_array_index (items, i), DDB_PLAIN_TAGGED, &error);
      if (text == NULL)
        g_error ("plain format: %s", error->message);
      plain_total += strlen (text);
      g_ptr_array_add (plain, text);
    }
  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++)
    {
      DdbValue *v
          = ddb_plain_parse_value (g_ptr_array_index (plain, i), -1, DDB_PLAIN_TAGGED, &error);
      if (v == NULL)
        g_error ("plain parse: %s", error->message);
      ddb_value_free (v);
    }
  t = seconds_since (start);
  printf ("plainjson parse: %.1f MB/s (%.0f ns/item)\n", plain_total / 1e6 / t, t * 1e9 / n);

  {
    guint reps = 100000;
    start = g_get_monotonic_time ();
    for (guint i = 0; i < reps; i++)
      {
        g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (names, values);
        DdbNode *cond = ddb_condition_parse (DDB_EXPR_CONDITION, cond_text, ctx, &error);
        if (cond == NULL)
          g_error ("parse: %s", error->message);
        ddb_node_free (cond);
      }
    t = seconds_since (start);
    printf ("expression parse (%zu bytes, 4 conditions): %.0f ns/parse\n", strlen (cond_text),
            t * 1e9 / reps);
  }

  {
    g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (names, values);
    g_autoptr (DdbNode) cond = ddb_condition_parse (DDB_EXPR_CONDITION, cond_text, ctx, &error);
    g_autoptr (DdbNode) filter = ddb_condition_parse (DDB_EXPR_FILTER, filter_text, ctx, &error);
    g_autoptr (DdbUpdate) update = ddb_update_parse (update_text, ctx, &error);

    if (cond == NULL || filter == NULL || update == NULL)
      g_error ("parse: %s", error->message);

    start = g_get_monotonic_time ();
    for (guint i = 0; i < n; i++)
      {
        gboolean r;
        if (!ddb_condition_eval (cond, g_ptr_array_index (items, i), &r, &error))
          g_error ("eval: %s", error->message);
        matched += r;
      }
    t = seconds_since (start);
    printf ("condition evaluate (4 conditions, %u matched): %.0f ns/item\n", matched, t * 1e9 / n);

    matched = 0;
    start = g_get_monotonic_time ();
    for (guint i = 0; i < n; i++)
      {
        gboolean r;
        if (!ddb_condition_eval (filter, g_ptr_array_index (items, i), &r, &error))
          g_error ("eval: %s", error->message);
        matched += r;
      }
    t = seconds_since (start);
    printf ("filter evaluate (string equality + 38-digit compare, %u matched): %.0f ns/item\n",
            matched, t * 1e9 / n);

    start = g_get_monotonic_time ();
    for (guint i = 0; i < n; i++)
      {
        g_autoptr (DdbValue) copy = ddb_value_copy (g_ptr_array_index (items, i));
        if (!ddb_update_apply (update, copy, &error))
          g_error ("update: %s", error->message);
      }
    t = seconds_since (start);
    printf ("update apply incl. item copy (SET +, SET, REMOVE list element): %.0f ns/item\n",
            t * 1e9 / n);
  }

  {
    g_autoptr (GByteArray) buf = g_byte_array_new ();
    start = g_get_monotonic_time ();
    for (guint i = 0; i < n; i++)
      {
        DdbValue *item = g_ptr_array_index (items, i);
        g_byte_array_set_size (buf, 0);
        if (!ddb_key_encode (ddb_value_map_get (item, "EntityRef"), buf, &error)
            || !ddb_key_encode (ddb_value_map_get (item, "exact"), buf, &error))
          g_error ("key encode: %s", error->message);
      }
    t = seconds_since (start);
    printf ("key encode (S + 38-digit N): %.0f ns/item\n", t * 1e9 / n);
  }
  return 0;
}
