/* compare-cmd.c: `dynoscope-cli CONNECTION compare --table T (--with-db PATH | --with-endpoint
 * URL | --with-export PATH [--with-incremental PATH …]) [--with-table T2] [--base PATH |
 * --no-base] [--exclude PATH …]
 * [--segments N] [--json] [--stage [--staging PATH]]`. Text: the line `same=N changed=C
 * only_here=A only_there=B` first; when a base is known the line `edited_here=E
 * edited_there=F both=X`; then `items_here=… bytes_here=… items_there=… bytes_there=…`
 * (DynamoDB item sizes), then each difference in key order (its kind, its class with a base,
 * its key, and for a changed item each path `old -> new`); with --stage last the line
 * `staged=N creates=C updates=U deletes=D left_there=F conflicts=X`. --json: JSON lines, first
 * {"same":N,"changed":C,"only_here":A,"only_there":B,"items_here":…,"items_there":…,
 * "bytes_here":…,"bytes_there":…} (with a base also "edited_here", "edited_there", "both" and
 * "base"), then one object a difference: {"kind":"changed","class":"edited-here","key":{…},
 * "diff":[{"path":"a.b","old":{…},"new":{…}}…]} (old or new absent when the path is absent on
 * that side), or {"kind":"only-here"|"only-there","key":{…},"item":{…}}; values in DynamoDB
 * JSON; with --stage last {"staged":N,…}. --stage stages the push (compare/push.h) on the other
 * side's connection in the staging store, to be sent with `dynoscope-cli OTHER commit`. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "cli/interrupt.h"
#include "cli/compare-cmd.h"
#include "cli/mfa-prompt.h"
#include "compare/compare.h"
#include "cli/staging-cmd.h"
#include "exports/s3-import.h"
#include "compare/push.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "staging/diff.h"

#define COMPARE_PREFIX "dynoscope-cli compare: "
#define COMPARE_USAGE \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] compare --table T " \
      "(--with-db PATH | --with-endpoint URL | --with-export PATH [--with-incremental PATH …]) " \
      "[--with-table T2] " \
      "[--base PATH | --no-base] [--filter JSON] [--partition VALUE …] [--map-keys] " \
      "[--exclude PATH …] [--segments N] [--json] " \
      "[--stage [--staging PATH]]")

/* How many of WITH_EXPORT and INCREMENTALS are s3:// URLs. */
static guint
s3_urls (const char *with_export, char **incrementals)
{
  guint n = with_export != NULL && g_str_has_prefix (with_export, "s3://");

  for (guint i = 0; incrementals != NULL && incrementals[i] != NULL; i++)
    n += g_str_has_prefix (incrementals[i], "s3://");
  return n;
}

/* The exports at the s3:// URLs WITH_EXPORT and INCREMENTALS located in their bucket, read
 * through S3 with this side's session (--profile, --region, --ca-bundle; AWS_ENDPOINT_URL_S3
 * and the rest of the environment). */
static DdbS3Exports *
open_s3_exports (const CliTarget *target, const char *with_export, char **incrementals,
                 GCancellable *cancellable, DdbS3 **s3, gboolean *config_error, GError **error)
{
  DdbS3Options options = { 0 };
  g_autoptr (GPtrArray) urls = g_ptr_array_new ();

  options.profile = target->profile;
  options.region = target->region;
  options.ca_bundle = target->ca_bundle;
  options.mfa_prompt = cli_mfa_prompt;
  *s3 = ddb_s3_new (&options, error);
  if (*s3 == NULL)
    {
      *config_error = TRUE;
      return NULL;
    }
  g_ptr_array_add (urls, (gpointer) with_export);
  for (guint i = 0; incrementals != NULL && incrementals[i] != NULL; i++)
    g_ptr_array_add (urls, incrementals[i]);
  g_ptr_array_add (urls, NULL);
  return ddb_s3_exports_open (*s3, (const char *const *) urls->pdata, NULL, cancellable, error);
}

static void
show_progress (guint side, guint64 items, double rate, gpointer data)
{
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, items);

  (void) data;
  fprintf (stderr, "\r\033[K");
  /* TRANSLATORS: items read so far, and items a second */
  if (side == 0)
    fprintf (stderr, ngettext ("Reading this side… %s item (%.0f/s)",
                               "Reading this side… %s items (%.0f/s)", (gulong) items),
             n, rate);
  else if (side == 1)
    fprintf (stderr, ngettext ("Reading the other side… %s item (%.0f/s)",
                               "Reading the other side… %s items (%.0f/s)", (gulong) items),
             n, rate);
  else
    fprintf (stderr, ngettext ("Reading the base… %s item (%.0f/s)",
                               "Reading the base… %s items (%.0f/s)", (gulong) items),
             n, rate);
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
  g_autofree char *with_class = d->klass == DDB_COMPARE_NO_BASE
                                    ? g_strdup (key)
                                    : g_strdup_printf ("%s %s", ddb_compare_class_name (d->klass),
                                                       key);

  (void) data;
  json_decref (key_json);
  /* The kinds and classes are stable words for scripts, not translated. */
  switch (d->kind)
    {
    case DDB_COMPARE_CHANGED:
      printf ("changed %s\n", with_class);
      break;
    case DDB_COMPARE_ONLY_HERE:
      printf ("only here %s\n", with_class);
      break;
    case DDB_COMPARE_ONLY_THERE:
      printf ("only there %s\n", with_class);
      break;
    case DDB_COMPARE_SAME:
      printf ("same %s\n", with_class);
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
  if (d->klass != DDB_COMPARE_NO_BASE)
    json_object_set_new (o, "class", json_string (ddb_compare_class_name (d->klass)));
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

static void
print_counts (DdbCompareResult *result, gboolean json)
{
  const DdbCompareCounts *c = ddb_compare_result_counts (result);

  if (json)
    {
      json_t *o = json_pack ("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "same", (json_int_t) c->same,
                             "changed", (json_int_t) c->changed, "only_here",
                             (json_int_t) c->only_here, "only_there", (json_int_t) c->only_there,
                             "items_here", (json_int_t) c->items_here, "items_there",
                             (json_int_t) c->items_there, "bytes_here", (json_int_t) c->bytes_here,
                             "bytes_there", (json_int_t) c->bytes_there);
      char *line;

      if (c->has_base)
        {
          json_object_set_new (o, "edited_here", json_integer ((json_int_t) c->edited_here));
          json_object_set_new (o, "edited_there", json_integer ((json_int_t) c->edited_there));
          json_object_set_new (o, "both", json_integer ((json_int_t) c->both));
          json_object_set_new (o, "base", json_string (ddb_compare_result_base (result)));
        }
      line = json_dumps (o, JSON_COMPACT);
      printf ("%s\n", line);
      free (line);
      json_decref (o);
      return;
    }
  printf ("same=%" G_GUINT64_FORMAT " changed=%" G_GUINT64_FORMAT " only_here=%" G_GUINT64_FORMAT
          " only_there=%" G_GUINT64_FORMAT "\n",
          c->same, c->changed, c->only_here, c->only_there);
  if (c->has_base)
    printf ("edited_here=%" G_GUINT64_FORMAT " edited_there=%" G_GUINT64_FORMAT
            " both=%" G_GUINT64_FORMAT "\n",
            c->edited_here, c->edited_there, c->both);
  printf ("items_here=%" G_GUINT64_FORMAT " bytes_here=%" G_GUINT64_FORMAT
          " items_there=%" G_GUINT64_FORMAT " bytes_there=%" G_GUINT64_FORMAT "\n",
          c->items_here, c->bytes_here, c->items_there, c->bytes_there);
}

/* --stage: the push staged on OTHER's connection. Returns 0 or the exit status. */
static int
stage_push (DdbCompareResult *result, const CliTarget *other, DdbBackend *there,
            const char *staging_path, gboolean json)
{
  const DdbCompareCounts *c = ddb_compare_result_counts (result);
  g_autofree char *connection = cli_staging_connection (other, there);
  g_autofree char *default_path = NULL;
  g_autoptr (DdbStaging) staging = NULL;
  g_autoptr (GError) error = NULL;
  DdbPushCounts pc = { 0 };

  if (staging_path == NULL)
    staging_path = default_path = ddb_staging_default_path ();
  staging = ddb_staging_open (staging_path, &error);
  if (staging == NULL)
    {
      fprintf (stderr, COMPARE_PREFIX "%s: %s\n", staging_path, error->message);
      return 3;
    }
  if (c->has_base)
    fprintf (stderr, _ ("Three-way push from the base %s: only the edits made on this side are "
                        "staged, each guarded by the base values.\n"),
             ddb_compare_result_base (result));
  else
    {
      guint64 n = c->changed + c->only_here + c->only_there;
      g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, n);

      fprintf (stderr,
               ngettext ("No base is known: the push makes the other side equal to this one, "
                         "%s change guarded by the values the compare saw.\n",
                         "No base is known: the push makes the other side equal to this one, "
                         "%s changes guarded by the values the compare saw.\n",
                         (gulong) n),
               text);
    }
  if (!ddb_push_stage (result, staging, connection, NULL, NULL, &pc, &error))
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      return 3;
    }
  if (json)
    {
      json_t *o = json_pack ("{s:i,s:i,s:i,s:i,s:i,s:i,s:s}", "staged", pc.staged, "creates",
                             pc.creates, "updates", pc.updates, "deletes", pc.deletes,
                             "left_there", pc.left_there, "conflicts", pc.conflicts,
                             "connection", connection);
      char *line = json_dumps (o, JSON_COMPACT);

      printf ("%s\n", line);
      free (line);
      json_decref (o);
    }
  else
    printf ("staged=%u creates=%u updates=%u deletes=%u left_there=%u conflicts=%u\n", pc.staged,
            pc.creates, pc.updates, pc.deletes, pc.left_there, pc.conflicts);
  fprintf (stderr, _ ("Staged on %s; send with: dynoscope-cli %s %s commit --table %s\n"),
           connection, cli_target_is_remote (other) ? "--endpoint" : "--db", connection,
           ddb_compare_result_options (result)->there.table);
  return 0;
}

int
cli_compare_main (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *table = NULL, *with_db = NULL, *with_endpoint = NULL, *with_table = NULL;
  g_autofree char *with_export = NULL, *base = NULL, *staging_path = NULL, *filter_text = NULL;
  g_auto (GStrv) partitions = NULL;
  g_auto (GStrv) incrementals = NULL;
  json_t *filter = NULL;
  gboolean map_keys = FALSE;
  g_auto (GStrv) exclude = NULL;
  g_auto (GStrv) rest = NULL;
  gint segments = 0;
  gboolean json = FALSE, progress, no_base = FALSE, stage = FALSE;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) here = NULL;
  g_autoptr (DdbBackend) there = NULL;
  g_autoptr (DdbCompareResult) result = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  g_autoptr (DdbS3) s3 = NULL;
  g_autoptr (DdbS3Exports) s3_exports = NULL;
  guint n_s3;
  gboolean config_error = FALSE;
  CliTarget other = { 0 };
  DdbCompareOptions options = { 0 };
  int status;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table on this side"), N_ ("T") },
    { "with-db", 0, 0, G_OPTION_ARG_FILENAME, &with_db, N_ ("The other side: a database file"),
      N_ ("PATH") },
    { "with-endpoint", 0, 0, G_OPTION_ARG_STRING, &with_endpoint,
      N_ ("The other side: an endpoint (with this side's --profile, --region and --ca-bundle)"),
      N_ ("URL") },
    { "with-export", 0, 0, G_OPTION_ARG_FILENAME, &with_export,
      N_ ("The other side: a folder in the S3 export layout, an export file, or an export in "
          "its bucket (s3://BUCKET/PREFIX, as import takes it), read without importing it"),
      N_ ("PATH") },
    { "with-incremental", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &incrementals,
      N_ ("An incremental export applied on top of --with-export's full export (repeat it for "
          "several): the other side is the table as of its end, and compared with a snapshot of "
          "the full export, the differences are what it changed"),
      N_ ("PATH") },
    { "with-table", 0, 0, G_OPTION_ARG_STRING, &with_table,
      N_ ("The table on the other side (default: the same name)"), N_ ("T2") },
    { "base", 0, 0, G_OPTION_ARG_FILENAME, &base,
      N_ ("An export of the base both sides started from, for the three-way classes (default: "
          "the base a snapshot recorded when it was imported)"),
      N_ ("PATH") },
    { "no-base", 0, 0, G_OPTION_ARG_NONE, &no_base,
      N_ ("Ignore a recorded base: a two-way compare, and a push that makes the other side equal "
          "to this one"),
      NULL },
    { "filter", 0, 0, G_OPTION_ARG_STRING, &filter_text,
      N_ ("Only the items this condition holds for, on both sides: "
          "{\"FilterExpression\": …, \"ExpressionAttributeNames\": …, "
          "\"ExpressionAttributeValues\": …} (a key range is a condition on the keys)"),
      N_ ("JSON") },
    { "partition", 'p', 0, G_OPTION_ARG_STRING_ARRAY, &partitions,
      N_ ("Only this partition (its partition key value; N as digits, B in base64), read with "
          "Query (repeatable)"),
      N_ ("VALUE") },
    { "map-keys", 0, 0, G_OPTION_ARG_NONE, &map_keys,
      N_ ("Match the key attributes by position when the other side names them differently"),
      NULL },
    { "exclude", 'x', 0, G_OPTION_ARG_STRING_ARRAY, &exclude,
      N_ ("An attribute or nested path (a.b) left out of the comparison (repeatable)"),
      N_ ("PATH") },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments,
      N_ ("Segments of each side's parallel Scan (default 8 for an endpoint, one per processor "
          "up to 4 for a database)"),
      N_ ("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_ ("Print JSON lines: the counts, then one object a difference"), NULL },
    { "stage", 0, 0, G_OPTION_ARG_NONE, &stage,
      N_ ("Stage the push on the other side's connection: with a base the edits made here, each "
          "guarded by its base values; without one every difference"),
      NULL },
    { "staging", 0, 0, G_OPTION_ARG_FILENAME, &staging_path,
      N_ ("The staging store for --stage (default: the user's, as commit uses)"), N_ ("PATH") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Compare a table with a table of another database or endpoint, or with an export, "
               "item by item and attribute by attribute: numbers by value, sets as sets. Prints "
               "the line \"same=N changed=C only_here=A only_there=B\"; when a base is known "
               "(recorded by the snapshot's import, or --base) also \"edited_here=E "
               "edited_there=F both=X\"; then each difference.\n\n"
               "Exit status: 0 when the tables hold the same items; 1 when they differ; 2 on a "
               "usage error; 3 when a side cannot be read or the push cannot be staged; 130 when "
               "interrupted."));
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
  if ((with_db != NULL) + (with_endpoint != NULL) + (with_export != NULL) != 1)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n%s\n",
               _ ("give the other side with one of --with-db, --with-endpoint or --with-export"),
               _ (COMPARE_USAGE));
      return 2;
    }
  if (incrementals != NULL && with_export == NULL)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n",
               _ ("--with-incremental goes with --with-export (the full export it applies to)"));
      return 2;
    }
  n_s3 = s3_urls (with_export, incrementals);
  if (n_s3 > 0 && n_s3 != 1 + (incrementals != NULL ? g_strv_length (incrementals) : 0))
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n",
               _ ("--with-export and --with-incremental must be all s3:// URLs or all local "
                  "paths"));
      return 2;
    }
  if (base != NULL && no_base)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", _ ("--base and --no-base exclude each other"));
      return 2;
    }
  if (stage && with_export != NULL)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n",
               _ ("--stage needs a table on the other side: an export cannot be written to"));
      return 2;
    }
  if (staging_path != NULL && !stage)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", _ ("--staging goes with --stage"));
      return 2;
    }
  if (segments < 0 || segments > 64)
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", _ ("--segments is 1 to 64"));
      return 2;
    }
  if (filter_text != NULL)
    {
      json_error_t jerr;

      filter = json_loads (filter_text, JSON_REJECT_DUPLICATES, &jerr);
      if (!json_is_object (filter))
        {
          fprintf (stderr, COMPARE_PREFIX "%s: %s\n", _ ("--filter is not a JSON object"),
                   filter == NULL ? jerr.text : filter_text);
          json_decref (filter);
          return 2;
        }
    }
  other.db_path = with_db;
  other.endpoint_url = with_endpoint;
  other.read_only = target->read_only;
  if (with_endpoint != NULL)
    {
      other.profile = target->profile;
      other.region = target->region;
      other.ca_bundle = target->ca_bundle;
    }

  here = cli_target_open (target, &config_error, &error);
  if (here != NULL && with_export == NULL)
    there = cli_target_open (&other, &config_error, &error);
  if (here == NULL || (there == NULL && with_export == NULL))
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      json_decref (filter);
      return config_error ? 2 : 3;
    }
  options.here.backend = here;
  options.here.table = table;
  options.there.backend = there;
  options.there.table = with_table != NULL ? with_table : table;
  options.there.export_path = with_export;
  options.there.export_incrementals = (const char *const *) incrementals;
  cancellable = g_cancellable_new ();
  if (n_s3 > 0)
    {
      /* The exports in S3: read from their bucket, as an import reads them. */
      const char *const *keys;

      s3_exports = open_s3_exports (target, with_export, incrementals, cancellable, &s3,
                                    &config_error, &error);
      if (s3_exports == NULL)
        {
          fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
          json_decref (filter);
          return config_error ? 2 : 3;
        }
      keys = ddb_s3_exports_get_summaries (s3_exports);
      options.there.export_path = keys[0];
      options.there.export_incrementals = keys[1] != NULL ? keys + 1 : NULL;
      options.there.export_store = ddb_s3_exports_get_store (s3_exports);
    }
  options.exclude = (const char *const *) exclude;
  options.segments = (guint) segments;
  options.base_path = base;
  options.no_base = no_base;
  options.filter = filter;
  options.partitions = (const char *const *) partitions;
  options.map_keys = map_keys;
  cli_interrupt_cancels (cancellable);
  progress = isatty (STDERR_FILENO);
  result = ddb_compare_run (&options, progress ? show_progress : NULL, NULL, cancellable, &error);
  json_decref (filter);
  if (progress)
    fprintf (stderr, "\r\033[K");
  cli_interrupt_cancels (NULL);
  if (result == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fprintf (stderr, COMPARE_PREFIX "%s\n", _ ("interrupted"));
          return 130;
        }
      if (error->domain == DDB_ERROR)
        fprintf (stderr, COMPARE_PREFIX "%s: %s\n", ddb_backend_error_name (error, NULL),
                 error->message);
      else
        fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      return 3;
    }
  print_counts (result, json);
  if (!ddb_compare_result_foreach (result, json ? print_json : print_text, NULL, &error))
    {
      fprintf (stderr, COMPARE_PREFIX "%s\n", error->message);
      return 3;
    }
  if (stage && (status = stage_push (result, &other, there, staging_path, json)) != 0)
    return status;
  return ddb_compare_result_identical (result) ? 0 : 1;
}
