/* compare-cmd.c: `dynoscope-cli CONNECTION compare --table T (--with-db PATH | --with-endpoint
 * URL) [--with-table T2] [--exclude ATTR …] [--segments N] [--json]`. Text: the line
 * `same=N changed=C only_here=A only_there=B` first, then `items_here=… bytes_here=…
 * items_there=… bytes_there=…` (DynamoDB item sizes), then each difference in key order (its
 * kind and key, and for a changed item each path `old -> new`). --json: JSON lines, first
 * {"same":N,"changed":C,"only_here":A,"only_there":B,"items_here":…,"items_there":…,
 * "bytes_here":…,"bytes_there":…}, then one object a difference: {"kind":"changed","key":{…},
 * "diff":[{"path":"a.b","old":{…},"new":{…}}…]} (old or new absent when the path is absent on
 * that side), or {"kind":"only-here"|"only-there","key":{…},"item":{…}}; values in DynamoDB
 * JSON. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "cli/interrupt.h"
#include "cli/compare-cmd.h"
#include "compare/compare.h"
#include "core/ddbjson.h"
#include "staging/diff.h"

#define COMPARE_PREFIX "dynoscope-cli compare: "
#define COMPARE_USAGE \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] compare --table T " \
      "(--with-db PATH | --with-endpoint URL) [--with-table T2] [--exclude ATTR …] " \
      "[--segments N] [--json]")

static void
show_progress (guint side, guint64 items, double rate, gpointer data)
{
  (void) data;
  fprintf (stderr, "\r\033[K");
  if (side == 0)
    fprintf (stderr, _ ("Reading this side… %" G_GUINT64_FORMAT " items (%.0f/s)"), items, rate);
  else
    fprintf (stderr, _ ("Reading the other side… %" G_GUINT64_FORMAT " items (%.0f/s)"), items,
             rate);
  fflush (stderr);
}

static char *
value_text (const DdbValue *v)
{
  json_t *j;
  char *s;

  if (v == NULL)
    return g_strdup (_ ("(absent)"));
  j = ddb_value_to_json (v);
  s = json_dumps (j, JSON_COMPACT | JSON_ENCODE_ANY);
  json_decref (j);
  return s;
}

static gboolean
print_text (const DdbCompareDifference *d, gpointer data)
{
  json_t *key_json = ddb_item_to_json (d->key);
  g_autofree char *key = json_dumps (key_json, JSON_COMPACT);

  (void) data;
  json_decref (key_json);
  switch (d->kind)
    {
    case DDB_COMPARE_CHANGED:
      printf (_ ("changed %s\n"), key);
      break;
    case DDB_COMPARE_ONLY_HERE:
      printf (_ ("only here %s\n"), key);
      break;
    case DDB_COMPARE_ONLY_THERE:
      printf (_ ("only there %s\n"), key);
      break;
    case DDB_COMPARE_SAME:
      printf (_ ("same %s\n"), key);
      break;
    }
  for (guint i = 0; d->diff != NULL && i < d->diff->len; i++)
    {
      const DdbDiffEntry *e = d->diff->pdata[i];
      g_autofree char *path = ddb_path_to_string (&e->path);
      g_autofree char *old_text = value_text (e->old_value);
      g_autofree char *new_text = value_text (e->new_value);

      printf ("  %s: %s -> %s\n", path, old_text, new_text);
    }
  return TRUE;
}

static gboolean
print_json (const DdbCompareDifference *d, gpointer data)
{
  json_t *o = json_pack ("{s:s,s:o}", "kind", ddb_compare_kind_name (d->kind), "key",
                         ddb_item_to_json (d->key));
  char *line;

  (void) data;
  if (d->kind == DDB_COMPARE_CHANGED && d->diff != NULL)
    {
      json_t *diff = json_array ();

      for (guint i = 0; i < d->diff->len; i++)
        {
          const DdbDiffEntry *e = d->diff->pdata[i];
          g_autofree char *path = ddb_path_to_string (&e->path);
          json_t *entry = json_pack ("{s:s}", "path", path);

          if (e->old_value != NULL)
            json_object_set_new (entry, "old", ddb_value_to_json (e->old_value));
          if (e->new_value != NULL)
            json_object_set_new (entry, "new", ddb_value_to_json (e->new_value));
          json_array_append_new (diff, entry);
        }
      json_object_set_new (o, "diff", diff);
    }
  else if (d->kind == DDB_COMPARE_ONLY_HERE || d->kind == DDB_COMPARE_ONLY_THERE)
    json_object_set_new (o, "item",
                         ddb_item_to_json (d->kind == DDB_COMPARE_ONLY_HERE ? d->here : d->there));
  line = json_dumps (o, JSON_COMPACT);
  printf ("%s\n", line);
  free (line);
  json_decref (o);
  return TRUE;
}

int
cli_compare_main (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *table = NULL, *with_db = NULL, *with_endpoint = NULL, *with_table = NULL;
  g_auto (GStrv) exclude = NULL;
  g_auto (GStrv) rest = NULL;
  gint segments = 0;
  gboolean json = FALSE, progress;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) here = NULL;
  g_autoptr (DdbBackend) there = NULL;
  g_autoptr (DdbCompareResult) result = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  gboolean config_error = FALSE;
  CliTarget other = { 0 };
  DdbCompareOptions options = { 0 };
  const DdbCompareCounts *c;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table on this side"), N_ ("T") },
    { "with-db", 0, 0, G_OPTION_ARG_FILENAME, &with_db, N_ ("The other side: a database file"),
      N_ ("PATH") },
    { "with-endpoint", 0, 0, G_OPTION_ARG_STRING, &with_endpoint,
      N_ ("The other side: an endpoint (with this side's --profile, --region and --ca-bundle)"),
      N_ ("URL") },
    { "with-table", 0, 0, G_OPTION_ARG_STRING, &with_table,
      N_ ("The table on the other side (default: the same name)"), N_ ("T2") },
    { "exclude", 'x', 0, G_OPTION_ARG_STRING_ARRAY, &exclude,
      N_ ("A top-level attribute left out of the comparison (repeatable)"), N_ ("ATTR") },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments,
      N_ ("Segments of each side's parallel Scan (default 8 for an endpoint, one per processor "
          "up to 4 for a database)"),
      N_ ("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_ ("Print JSON lines: the counts, then one object a difference"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Compare a table with a table of another database or endpoint, item by item and "
               "attribute by attribute: numbers by value, sets as sets. Prints the line "
               "\"same=N changed=C only_here=A only_there=B\", then each difference.\n\n"
               "Exit status: 0 when the tables hold the same items; 1 when they differ; 2 on a "
               "usage error; 3 when a side cannot be read; 130 when interrupted."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      return 2;
    }
  if (rest != NULL && rest[0] != NULL)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n%s\n", _ ("too many arguments"), _ (COMPARE_USAGE));
      return 2;
    }
  if (table == NULL || *table == '\0')
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n%s\n", _ ("--table is required"), _ (COMPARE_USAGE));
      return 2;
    }
  if ((with_db == NULL) == (with_endpoint == NULL))
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n%s\n",
               _ ("give the other side with either --with-db or --with-endpoint"),
               _ (COMPARE_USAGE));
      return 2;
    }
  if (segments < 0 || segments > 64)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", _ ("--segments is 1 to 64"));
      return 2;
    }
  other.db_path = with_db;
  other.endpoint_url = with_endpoint;
  if (with_endpoint != NULL)
    {
      other.profile = target->profile;
      other.region = target->region;
      other.ca_bundle = target->ca_bundle;
    }

  here = cli_target_open (target, &config_error, &error);
  if (here != NULL)
    there = cli_target_open (&other, &config_error, &error);
  if (here == NULL || there == NULL)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      return config_error ? 2 : 3;
    }
  options.here.backend = here;
  options.here.table = table;
  options.there.backend = there;
  options.there.table = with_table != NULL ? with_table : table;
  options.exclude = (const char *const *) exclude;
  options.segments = (guint) segments;
  cancellable = g_cancellable_new ();
  cli_interrupt_cancels (cancellable);
  progress = isatty (STDERR_FILENO);
  result = ddb_compare_run (&options, progress ? show_progress : NULL, NULL, cancellable, &error);
  if (progress)
    fprintf (stderr, "\r\033[K");
  if (result == NULL)
    {
      cli_interrupt_cancels (NULL);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fprintf (stderr, COMPARE_PREFIX "%s\n", _ ("interrupted"));
          return 130;
        }
      fprintf (stderr, COMPARE_PREFIX "%s: %s\n", ddb_backend_error_name (error, NULL),
               error->message);
      return 3;
    }
  c = ddb_compare_result_counts (result);
  if (json)
    {
      json_t *o = json_pack ("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "same", (json_int_t) c->same,
                             "changed", (json_int_t) c->changed, "only_here",
                             (json_int_t) c->only_here, "only_there", (json_int_t) c->only_there,
                             "items_here", (json_int_t) c->items_here, "items_there",
                             (json_int_t) c->items_there, "bytes_here", (json_int_t) c->bytes_here,
                             "bytes_there", (json_int_t) c->bytes_there);
      char *line = json_dumps (o, JSON_COMPACT);

      printf ("%s\n", line);
      free (line);
      json_decref (o);
    }
  else
    {
      printf ("same=%" G_GUINT64_FORMAT " changed=%" G_GUINT64_FORMAT
              " only_here=%" G_GUINT64_FORMAT " only_there=%" G_GUINT64_FORMAT "\n",
              c->same, c->changed, c->only_here, c->only_there);
      printf ("items_here=%" G_GUINT64_FORMAT " bytes_here=%" G_GUINT64_FORMAT
              " items_there=%" G_GUINT64_FORMAT " bytes_there=%" G_GUINT64_FORMAT "\n",
              c->items_here, c->bytes_here, c->items_there, c->bytes_there);
    }
  if (!ddb_compare_result_foreach (result, json ? print_json : print_text, NULL, &error))
    {
      cli_interrupt_cancels (NULL);
      fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      return 3;
    }
  cli_interrupt_cancels (NULL);
  return ddb_compare_result_identical (result) ? 0 : 1;
}
