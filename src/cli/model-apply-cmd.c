/* model-apply-cmd.c: `dynoscope-cli CONNECTION model apply MODEL.json [--items N] [--dry-run]`:
 * the model's tables created on the connection and filled with its sample items or N generated
 * items per entity (src/model/apply.h); --dry-run prints the CreateTable requests only. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/model-cmd.h"
#include "cli/snapshot-cmd.h"
#include "core/error.h"
#include "model/apply.h"
#include "model/generate.h"
#include "model/workbench.h"

#define APPLY_PREFIX "dynoscope-cli model apply: "
#define APPLY_USAGE \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] model apply MODEL.json [--items N] " \
      "[--dry-run] [--existing]")

/* Generated items are held in memory before they are written. */
#define MAX_ITEMS 100000

typedef struct {
  GPtrArray *tables; /* of char*: each table as it starts */
  GArray *totals;    /* of guint64: each table's items */
  gboolean terminal;
} ApplyRun;

static void
on_progress (const char *table, guint64 written, guint64 total, gpointer user_data)
{
  ApplyRun *run = user_data;

  if (run->tables->len == 0
      || !g_str_equal (g_ptr_array_index (run->tables, run->tables->len - 1), table))
    {
      g_ptr_array_add (run->tables, g_strdup (table));
      g_array_append_val (run->totals, total);
    }
  if (run->terminal)
    {
      g_autofree char *w = g_strdup_printf ("%" G_GUINT64_FORMAT, written);
      g_autofree char *t = g_strdup_printf ("%" G_GUINT64_FORMAT, total);
      /* TRANSLATORS: table name, items written, items in all */
      fprintf (stderr, "\r");
      fprintf (stderr, ngettext ("%s: %s of %s item", "%s: %s of %s items", (gulong) total), table,
               w, t);
      fflush (stderr);
    }
}

static int
usage_error (const char *message)
{
  fprintf (stderr, APPLY_PREFIX "%s\n%s\n", message, _ (APPLY_USAGE));
  return 2;
}

static int
dry_run (const DyModel *model, guint items)
{
  for (guint i = 0; i < model->tables->len; i++)
    {
      const DyModelTable *table = g_ptr_array_index (model->tables, i);
      g_autoptr (GError) error = NULL;
      json_auto_t *req = dy_model_create_table_request (model, table, &error);
      json_auto_t *rows = req != NULL ? dy_model_apply_items (model, table, items, &error) : NULL;
      if (rows == NULL)
        {
          fprintf (stderr, APPLY_PREFIX "%s\n", error->message);
          return 2;
        }
      g_autofree char *text = json_dumps (req, JSON_INDENT (2) | JSON_SORT_KEYS);
      g_autofree char *n = g_strdup_printf ("%zu", json_array_size (rows));
      printf (ngettext ("CreateTable %s (then %s item):\n%s\n",
                        "CreateTable %s (then %s items):\n%s\n", (gulong) json_array_size (rows)),
              table->name, n, text);
    }
  return 0;
}

int
cli_model_apply_main (const CliTarget *target, int argc, char **argv)
{
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) rest = NULL;
  gint items = 0;
  gboolean dry = FALSE, existing = FALSE;
  GOptionEntry entries[] = {
    { "items", 'n', 0, G_OPTION_ARG_INT, &items,
      N_ ("Write N generated items per entity instead of the model's sample items"), N_ ("N") },
    { "dry-run", 0, 0, G_OPTION_ARG_NONE, &dry,
      N_ ("Print the CreateTable requests and create nothing"), NULL },
    { "existing", 0, 0, G_OPTION_ARG_NONE, &existing,
      N_ ("Write into a table that exists already instead of failing"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("MODEL.json") },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Create the tables of a NoSQL Workbench model (with Dynoscope's x-dynoscope "
               "member) on the database given with --db or on the endpoint: key schema, "
               "indexes with their projections and billing mode as the model gives them. Once "
               "a table is ACTIVE, its sample items are written, or with --items N, N "
               "generated items per entity whose keys follow the entity's templates, so that "
               "the access patterns find them. A table that exists already is an error "
               "(ResourceInUseException) unless --existing is given. What was created before "
               "an error stays. Exit status: 0 on success; 1 on a DynamoDB error, printed as "
               "“ErrorName: message”; 2 on a usage error or a model that cannot be read or "
               "applied."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    return usage_error (error->message);
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    return usage_error (_ ("give one MODEL.json"));
  if (items < 0 || items > MAX_ITEMS)
    {
      g_autofree char *message = g_strdup_printf (_ ("--items must be from 0 to %d"), MAX_ITEMS);
      return usage_error (message);
    }

  g_autoptr (DyModel) model = dy_workbench_read_file (rest[0], &error);
  if (model == NULL)
    {
      fprintf (stderr, APPLY_PREFIX "%s\n", error->message);
      return 2;
    }
  if (dry)
    return dry_run (model, (guint) items);

  gboolean config_error = FALSE;
  g_autoptr (DdbBackend) backend = cli_target_open (target, &config_error, &error);
  if (backend == NULL || !ddb_backend_check_writable (backend, "model apply", &error))
    {
      fprintf (stderr, APPLY_PREFIX "%s\n", error->message);
      return config_error ? 2 : 1;
    }

  CliSnapshotRun srun;
  DdbSnapshotProgressFunc unused_progress;
  gpointer unused_data;
  ApplyRun run = { g_ptr_array_new_with_free_func (g_free),
                   g_array_new (FALSE, FALSE, sizeof (guint64)), FALSE };
  cli_snapshot_run_begin (&srun, _ ("Applying"), &unused_progress, &unused_data);
  run.terminal = srun.terminal;
  gboolean ok = dy_model_apply (backend, model, (guint) items,
                                existing ? DY_APPLY_EXISTING_OK : DY_APPLY_NONE, on_progress, &run,
                                srun.cancellable, &error);
  if (run.terminal)
    fprintf (stderr, "\n");
  cli_snapshot_run_end (&srun);

  int status = 0;
  guint done = ok ? run.tables->len : (run.tables->len > 0 ? run.tables->len - 1 : 0);
  for (guint i = 0; i < done; i++)
    {
      g_autofree char *n
          = g_strdup_printf ("%" G_GUINT64_FORMAT, g_array_index (run.totals, guint64, i));
      printf (ngettext ("Created table %s on %s and wrote %s item\n",
                        "Created table %s on %s and wrote %s items\n",
                        (gulong) g_array_index (run.totals, guint64, i)),
              (char *) g_ptr_array_index (run.tables, i), ddb_backend_get_description (backend), n);
    }
  if (!ok)
    {
      if (run.tables->len > 0 && error->domain == DDB_ERROR)
        fprintf (stderr, _ ("dynoscope-cli model apply: table %s:\n"),
                 (char *) g_ptr_array_index (run.tables, run.tables->len - 1));
      if (error->domain == DY_APPLY_ERROR || error->domain == DY_GENERATE_ERROR)
        {
          fprintf (stderr, APPLY_PREFIX "%s\n", error->message);
          status = 2;
        }
      else
        status = cli_snapshot_fail ("model apply", error);
    }
  g_ptr_array_unref (run.tables);
  g_array_unref (run.totals);
  return status;
}
