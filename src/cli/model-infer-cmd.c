/* model-infer-cmd.c: `dynoscope-cli CONNECTION model infer --table T [--sample N]`: the model
 * src/model/infer.h proposes for a table, printed as NoSQL Workbench JSON. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "cli/model-cmd.h"
#include "model/infer.h"
#include "model/workbench.h"

#define INFER_PREFIX "dynoscope-cli model infer: "
#define INFER_USAGE \
  N_ ("Usage: dynoscope-cli [--db PATH | --endpoint URL] model infer --table T [--sample N]")

int
cli_model_infer_main (const CliTarget *target, int argc, char **argv)
{
  char *table = NULL;
  gint64 sample = DY_INFER_DEFAULT_SAMPLE;
  g_auto (GStrv) rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbBackend) backend = NULL;
  g_autoptr (DyModel) model = NULL;
  gboolean config_error = FALSE;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The table"), N_ ("T") },
    { "sample", 0, 0, G_OPTION_ARG_INT64, &sample, N_ ("Read at most N items (default 10000)"),
      N_ ("N") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL },
  };

  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Propose the model of a table that was never modeled, from its description and "
               "a sample of its items (a parallel Scan): entities told apart by their key "
               "prefixes, key templates with named and zero-padded fields, each entity's "
               "attributes, the table's indexes, billing mode and a few items per entity. "
               "Printed as a NoSQL Workbench model (with Dynoscope's x-dynoscope member), ready "
               "for `model check`.\n\nExit status: 0; 1 when the table cannot be read; 2 on a "
               "usage error."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, INFER_PREFIX "%s\n", error->message);
      g_free (table);
      return 2;
    }
  G_GNUC_UNUSED g_autofree char *table_owned = table;
  if (rest != NULL && rest[0] != NULL)
    {
      fprintf (stderr, INFER_PREFIX "%s\n%s\n", _ ("too many arguments"), _ (INFER_USAGE));
      return 2;
    }
  if (table == NULL || *table == '\0')
    {
      fprintf (stderr, INFER_PREFIX "%s\n%s\n", _ ("--table is required"), _ (INFER_USAGE));
      return 2;
    }
  if (sample < 1)
    {
      fprintf (stderr, INFER_PREFIX "%s\n", _ ("--sample is a number of items, 1 or more"));
      return 2;
    }

  backend = cli_target_open (target, &config_error, &error);
  if (backend == NULL)
    {
      fprintf (stderr, INFER_PREFIX "%s\n", error->message);
      return config_error ? 2 : 1;
    }
  model = dy_model_infer (backend, table, (guint64) sample, NULL, &error);
  if (model == NULL)
    {
      fprintf (stderr, INFER_PREFIX "%s: %s\n", ddb_backend_error_name (error, NULL),
               error->message);
      return 1;
    }
  json_auto_t *json = dy_workbench_write (model);
  g_autofree char *text = json_dumps (json, JSON_INDENT (2) | JSON_PRESERVE_ORDER);
  puts (text);
  return fflush (stdout) == 0 ? 0 : 1;
}
