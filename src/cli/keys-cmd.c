/* keys-cmd.c: `dynoscope-cli CONNECTION keys --table T [--index I] [--sample N]
 * [--rate RCU:WCU] [--json | --code LANG [--code-endpoint URL]]`: the analysis of
 * src/model/keys.h printed as text (a summary, the histogram drawn, the heaviest partitions,
 * sharded families, rate warnings, advice) or JSON; with --code, the fan-out Query program of
 * the first advice to shard (src/codegen) after the text. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli/interrupt.h"
#include "cli/keys-cmd.h"
#include "codegen/codegen.h"
#include "model/keys.h"

#define KEYS_PREFIX "dynoscope-cli keys: "
#define KEYS_USAGE                                                                               \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] keys --table T [--index I] "            \
      "[--sample N] [--rate RCU:WCU] [--json | --code LANG [--code-endpoint URL]]")
#define BAR_WIDTH 40
#define MAX_HOT_SHOWN 20

static void
show_progress (guint64 items, gpointer data)
{
  g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, items);

  (void) data;
  fprintf (stderr, "\r%s", "");
  fprintf (stderr, ngettext ("Reading… %s item", "Reading… %s items", (gulong) items), n);
  fflush (stderr);
}

static gboolean
parse_rate (const char *text, double *rcu, double *wcu)
{
  g_auto (GStrv) parts = g_strsplit (text, ":", -1);
  char *end;

  if (g_strv_length (parts) != 2)
    return FALSE;
  *rcu = g_ascii_strtod (parts[0], &end);
  if (*parts[0] == '\0' || *end != '\0' || !(*rcu >= 0) || *rcu > 1e12)
    return FALSE;
  *wcu = g_ascii_strtod (parts[1], &end);
  if (*parts[1] == '\0' || *end != '\0' || !(*wcu >= 0) || *wcu > 1e12)
    return FALSE;
  return *rcu > 0 || *wcu > 0;
}

static char *
human_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static void
print_text (const DdbKeysReport *r)
{
  g_autofree char *bytes = human_bytes (r->bytes);
  g_autofree char *n_items = g_strdup_printf ("%" G_GUINT64_FORMAT, r->items);
  guint64 most = 0;

  printf (_ ("%s%s%s, partition key %s\n"), r->table, r->index != NULL ? "." : "",
          r->index != NULL ? r->index : "", r->key_name);
  if (r->sampled)
    printf (ngettext ("Read: a sample of %s item (not the whole table: the figures are of the "
                      "sample, whole item collections from a few places in the key space; a "
                      "partition it did not meet is not counted, so read without --sample for "
                      "exact figures)\n",
                      "Read: a sample of %s items (not the whole table: the figures are of the "
                      "sample, whole item collections from a few places in the key space; a "
                      "partition it did not meet is not counted, so read without --sample for "
                      "exact figures)\n",
                      (gulong) r->items),
            n_items);
  else
    printf (ngettext ("Read: all %s item\n", "Read: all %s items\n", (gulong) r->items), n_items);
  printf (_ ("Items: %s, %s; distinct partition key values: %u\n"), n_items, bytes,
          r->partitions->len);

  printf ("\n%s\n", _ ("Items per partition (partitions, log scale):"));
  for (guint b = 0; b < r->n_buckets; b++)
    most = MAX (most, r->buckets[b]);
  for (guint b = 0; b < r->n_buckets; b++)
    {
      g_autofree char *label = ddb_keys_bucket_label (b);
      guint width = most ? (guint) ((r->buckets[b] * BAR_WIDTH + most - 1) / most) : 0;
      GString *bar = g_string_new (NULL);

      for (guint i = 0; i < width; i++)
        g_string_append (bar, "█");
      printf ("  %15s │%-s %" G_GUINT64_FORMAT "\n", label, bar->str, r->buckets[b]);
      g_string_free (bar, TRUE);
    }

  printf ("\n%s\n", _ ("Heaviest partitions (share of items, of bytes):"));
  for (guint i = 0; i < r->partitions->len && i < 10; i++)
    {
      const DdbKeysPartition *p = r->partitions->pdata[i];
      g_autofree char *size = human_bytes (p->bytes);

      printf ("  %6.1f%% %6.1f%%  %8" G_GUINT64_FORMAT " items %10s  %s\n",
              100 * ddb_keys_share_items (r, p), 100 * ddb_keys_share_bytes (r, p), p->items,
              size, p->key);
    }

  printf ("\n%s\n", r->has_lsi
          ? _ ("Largest item collections (the table has a local secondary index: 10 GB each "
               "at most):")
          : _ ("Largest partitions by size (no local secondary index: item collections have no "
               "size limit):"));
  for (guint i = 0; i < r->collections->len; i++)
    {
      const DdbKeysPartition *p = r->collections->pdata[i];
      g_autofree char *size = human_bytes (p->bytes);

      /* TRANSLATORS: a share of DynamoDB's 10 GB item collection size limit, in percent. */
      g_autofree char *share = g_strdup_printf (_ ("%9.6f%% of 10 GB"),
                                                100.0 * (double) p->bytes
                                                    / (double) DDB_KEYS_COLLECTION_LIMIT);

      printf ("  %10s  %s  %s\n", size, share, p->key);
    }

  printf ("\n%s\n", _ ("Sharded families (keys differing only by a numeric suffix):"));
  if (r->families->len == 0)
    printf ("  %s\n", _ ("none"));
  for (guint i = 0; i < r->families->len; i++)
    {
      const DdbKeysFamily *f = r->families->pdata[i];
      const DdbKeysPartition *first = f->shards->pdata[0];
      const DdbKeysPartition *last = f->shards->pdata[f->shards->len - 1];

      g_autofree char *items = g_strdup_printf ("%" G_GUINT64_FORMAT, f->items);
      g_autofree char *lo = g_strdup_printf ("%" G_GUINT64_FORMAT, f->min_items);
      g_autofree char *hi = g_strdup_printf ("%" G_GUINT64_FORMAT, f->max_items);

      /* TRANSLATORS: a sharded family: its prefix, first and last shard, the number of shards
       * (always two or more), its items and their share, the fewest and most items a shard,
       * their ratio, and the heaviest shard */
      printf (_ ("  %s* (%s … %s): %u shards, %s items (%.1f%%), %s–%s a shard (×%.1f), "
                 "heaviest %s\n"),
              f->prefix, first->key, last->key, f->shards->len, items,
              r->items ? 100.0 * (double) f->items / (double) r->items : 0.0, lo, hi,
              f->min_items ? (double) f->max_items / (double) f->min_items : 0.0,
              f->hottest->key);
    }

  if (r->has_rate)
    {
      printf ("\n");
      printf (_ ("At %.0f RCU / %.0f WCU (spread by share of items), partitions past %.0f RCU / "
                 "%.0f WCU:\n"), r->rate_rcu, r->rate_wcu, DDB_KEYS_PARTITION_RCU,
              DDB_KEYS_PARTITION_WCU);
      if (r->hot->len == 0)
        printf ("  %s\n", _ ("none"));
      for (guint i = 0; i < r->hot->len; i++)
        {
          const DdbKeysHot *h = &g_array_index (r->hot, DdbKeysHot, i);

          if (i == MAX_HOT_SHOWN)
            {
              printf (_ ("  … and %u more (all of them in --json)\n"), r->hot->len - i);
              break;
            }

          printf (_ ("  %s: %.0f RCU%s, %.0f WCU%s\n"), h->partition->key, h->rcu,
                  h->rcu > DDB_KEYS_PARTITION_RCU ? _ (" (too many)") : "", h->wcu,
                  h->wcu > DDB_KEYS_PARTITION_WCU ? _ (" (too many)") : "");
        }
    }

  printf ("\n%s\n", _ ("Advice:"));
  if (r->advice->len == 0)
    printf ("  %s\n", _ ("nothing to change"));
  for (guint i = 0; i < r->advice->len; i++)
    printf ("  - %s\n", (const char *) r->advice->pdata[i]);
}

/* The fan-out Query of the first advice to shard, as a LANG program for the connection (or
 * CODE_ENDPOINT): 0 when printed, or when there is no such advice (said on stderr); 1 when it
 * cannot be written. */
static int
print_code (const DdbKeysReport *r, const CliTarget *target, DdbLang lang,
            const char *code_endpoint)
{
  const DdbKeysShardAdvice *a;
  DdbCodegenTarget to;
  json_auto_t *request = NULL;
  g_autofree char *program = NULL;
  g_autoptr (GError) error = NULL;

  if (r->shard_advice->len == 0)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n",
               r->key_is_string
                   ? _ ("no advice to shard a key or to read a sharded one: no fan-out program")
                   : _ ("the partition key is not a string: it cannot take a suffix, no fan-out "
                        "program"));
      return 0;
    }
  a = r->shard_advice->pdata[0];
  request = ddb_keys_fanout_request (r, a);
  to.endpoint_url = code_endpoint != NULL ? code_endpoint : target->endpoint_url;
  to.profile = target->profile;
  to.region = target->region;
  program = ddb_codegen_fanout_program (lang, request, DDB_KEYS_FANOUT_PLACEHOLDER, a->prefix,
                                        a->first, a->suffixes, a->width, &to, &error);
  if (program == NULL)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n", error->message);
      return 1;
    }
  printf ("\n");
  printf (_ ("The fan-out Query for “%s” (%u suffixes):\n\n"),
          (const char *) r->advice->pdata[a->advice], a->suffixes);
  fputs (program, stdout);
  return 0;
}

int
cli_keys_main (const CliTarget *target, int argc, char **argv)
{
  g_autofree char *table = NULL, *index = NULL, *rate = NULL;
  g_autofree char *code = NULL, *code_endpoint = NULL;
  DdbLang lang = DDB_LANG_PYTHON;
  gint64 sample = 0;
  gint segments = 0;
  gboolean json = FALSE;
  g_auto (GStrv) rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  g_autoptr (DdbKeysReport) report = NULL;
  g_autoptr (GCancellable) cancellable = NULL;
  gboolean config_error = FALSE, progress;
  DdbKeysOptions options = { 0 };
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table"), N_ ("T") },
    { "index", 'i', 0, G_OPTION_ARG_STRING, &index,
      N_ ("An index of the table: its partition key instead of the table's"), N_ ("I") },
    { "sample", 0, 0, G_OPTION_ARG_INT64, &sample,
      N_ ("Stop after N items read (default: read them all)"), N_ ("N") },
    { "rate", 0, 0, G_OPTION_ARG_STRING, &rate,
      N_ ("The table's whole read and write rate, spread over the partitions by their share "
          "of items, to find those past 3,000 RCU / 1,000 WCU"),
      N_ ("RCU:WCU") },
    { "segments", 0, 0, G_OPTION_ARG_INT, &segments,
      N_ ("Segments of the parallel Scan (default 8 for an endpoint, one per processor up to "
          "4 for a database)"),
      N_ ("N") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_ ("Print the figures as JSON"), NULL },
    { "code", 0, 0, G_OPTION_ARG_STRING, &code,
      N_ ("After the report, the fan-out Query of the first advice to shard as a program: cli, "
          "python, js, java, go or rust"),
      N_ ("LANG") },
    { "code-endpoint", 0, 0, G_OPTION_ARG_STRING, &code_endpoint,
      N_ ("The endpoint the program talks to (default: the connection's; with --db, AWS)"),
      N_ ("URL") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("The partition-key health of a table or index, from a parallel Scan of every "
               "item or a sample: how many distinct keys, items per partition, the heaviest "
               "partitions, sharded key families and their spread, the partitions a rate would "
               "overload, and what to change.\n\nExit status: 0; 1 when the table cannot be "
               "read; 2 on a usage error; 130 when interrupted."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, KEYS_PREFIX "%s\n", error->message);
      return 2;
    }
  if (rest != NULL && rest[0] != NULL)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n%s\n", _ ("too many arguments"), _ (KEYS_USAGE));
      return 2;
    }
  if (table == NULL || *table == '\0')
    {
      fprintf (stderr, KEYS_PREFIX "%s\n%s\n", _ ("--table is required"), _ (KEYS_USAGE));
      return 2;
    }
  if (sample < 0)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n", _ ("--sample is a number of items, 1 or more"));
      return 2;
    }
  if (segments < 0 || segments > 64)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n", _ ("--segments is 1 to 64"));
      return 2;
    }
  if (code != NULL && !ddb_lang_from_name (code, &lang))
    {
      fprintf (stderr, KEYS_PREFIX "%s\n",
               _ ("--code must be one of cli, python, js, java, go, rust"));
      return 2;
    }
  if (code != NULL && json)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n",
               _ ("--code prints a program after the text report, not with --json (whose "
                  "shardAdvice holds each fan-out's request)"));
      return 2;
    }
  if (code_endpoint != NULL && code == NULL)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n", _ ("--code-endpoint goes with --code"));
      return 2;
    }
  options.table = table;
  options.index = index;
  options.sample = (guint64) sample;
  options.segments = (guint) segments;
  if (rate != NULL && !parse_rate (rate, &options.rate_rcu, &options.rate_wcu))
    {
      fprintf (stderr, KEYS_PREFIX "%s\n",
               _ ("--rate is RCU:WCU, two numbers of 0 or more, not both 0 (e.g. 12000:3000)"));
      return 2;
    }

  backend = cli_target_open (target, &config_error, &error);
  if (backend == NULL)
    {
      fprintf (stderr, KEYS_PREFIX "%s\n", error->message);
      return config_error ? 2 : 1;
    }
  cancellable = g_cancellable_new ();
  cli_interrupt_cancels (cancellable);
  progress = isatty (STDERR_FILENO);
  report = ddb_keys_analyze (backend, &options, progress ? show_progress : NULL, NULL,
                             cancellable, &error);
  cli_interrupt_cancels (NULL);
  if (progress)
    fprintf (stderr, "\r\033[K");
  if (report == NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          fprintf (stderr, KEYS_PREFIX "%s\n", _ ("interrupted"));
          return 130;
        }
      fprintf (stderr, KEYS_PREFIX "%s: %s\n", ddb_backend_error_name (error, NULL),
               error->message);
      return 1;
    }
  if (json)
    {
      json_auto_t *out = ddb_keys_report_to_json (report);
      g_autofree char *text = json_dumps (out, JSON_INDENT (2) | JSON_ENSURE_ASCII);

      puts (text);
    }
  else
    {
      print_text (report);
      if (code != NULL && print_code (report, target, lang, code_endpoint) != 0)
        return 1;
    }
  return fflush (stdout) == 0 ? 0 : 1;
}
