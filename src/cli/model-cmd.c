/* model-cmd.c: `dynoscope-cli model`: the subcommands' dispatch, and `model check`. */
#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>

#include "cli/subcommand.h"
#include "cli/model-cmd.h"
#include "codegen/codegen.h"
#include "model/check.h"
#include "model/workbench.h"

/* The program for a resolved pattern's request, indented under it. */
static void
print_code (const DyResolution *r, gboolean has_lang, DdbLang lang)
{
  DdbCodegenTarget target = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *program = NULL;
  g_auto (GStrv) lines = NULL;

  if (!has_lang)
    return;
  program = ddb_codegen_program (lang, r->kind == DY_RESOLVED_GET_ITEM ? "GetItem" : "Query",
                                 r->request, &target, &error);
  if (program == NULL)
    {
      printf ("  %-14s %s\n", _ ("code"), error->message);
      return;
    }
  printf ("  %s\n", _ ("code:"));
  lines = g_strsplit (program, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      printf ("    %s\n", lines[i]);
    else if (lines[i + 1] != NULL)
      printf ("\n");
}

static int
model_check (const char *path, gboolean has_lang, DdbLang lang)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyModel) model = dy_workbench_read_file (path, &error);
  if (model == NULL)
    {
      fprintf (stderr, "dynoscope-cli model check: %s\n", error->message);
      return 2;
    }
  g_autoptr (DyCheckReport) report = dy_model_check (model);
  printf (_ ("Model “%s”: %u access patterns\n"), model->name, report->resolutions->len);
  for (guint i = 0; i < report->resolutions->len; i++)
    {
      const DyResolution *r = g_ptr_array_index (report->resolutions, i);
      printf ("\n%s\n", r->pattern->name);
      if (r->kind == DY_RESOLVED_FLAGGED)
        {
          printf ("  %s\n", _ ("FLAGGED: no single request"));
          continue;
        }
      printf ("  %-14s %s\n", _ ("operation"), r->kind == DY_RESOLVED_GET_ITEM ? "GetItem" : "Query");
      if (r->index)
        printf ("  %-14s %s, index %s\n", _ ("on"), r->table, r->index);
      else
        printf ("  %-14s %s\n", _ ("on"), r->table);
      printf ("  %-14s %s\n", r->kind == DY_RESOLVED_GET_ITEM ? _ ("key") : _ ("key condition"),
              r->key_condition);
      if (r->kind == DY_RESOLVED_QUERY)
        printf ("  %-14s %s\n", _ ("direction"),
                r->forward ? _ ("ascending (ScanIndexForward true)")
                           : _ ("descending (ScanIndexForward false)"));
      g_autofree char *request = json_dumps (r->request, JSON_COMPACT | JSON_SORT_KEYS);
      printf ("  %-14s %s\n", _ ("request"), request);
      print_code (r, has_lang, lang);
    }
  if (report->flags->len > 0)
    {
      printf ("\n%s\n", _ ("Flags:"));
      for (guint i = 0; i < report->flags->len; i++)
        {
          const DyFlag *f = g_ptr_array_index (report->flags, i);
          printf ("  [%s] %s\n", dy_flag_kind_name (f->kind), f->message);
        }
    }
  else if (report->resolutions->len > 0)
    printf ("\n%s\n", _ ("No flags: every access pattern is one request."));
  else
    printf ("\n%s\n", _ ("No flags."));
  /* What could not be checked, so that a model without templates or patterns does not pass by
   * silence. */
  if (report->skipped->len > 0)
    {
      printf ("\n%s\n", _ ("Not checked:"));
      for (guint i = 0; i < report->skipped->len; i++)
        {
          const DyFlag *f = g_ptr_array_index (report->skipped, i);
          printf ("  [%s] %s\n", dy_flag_kind_name (f->kind), f->message);
        }
    }
  return report->flags->len > 0 ? 1 : 0;
}

int
cli_model_check_main (const CliTarget *target, int argc, char **argv)
{
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) rest = NULL;
  g_autofree char *lang_name = NULL;
  DdbLang lang = DDB_LANG_PYTHON;
  GOptionEntry entries[] = {
    { "code", 0, 0, G_OPTION_ARG_STRING, &lang_name,
      N_ ("Print each resolved pattern's request as a program too: cli (AWS CLI v2, bash), "
          "python (boto3), js (AWS SDK v3), java (SDK v2), go (SDK v2) or rust"),
      "LANG" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("MODEL.json") },
    { NULL },
  };

  (void) target;
  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Resolve each access pattern of a NoSQL Workbench model (with Dynoscope's "
               "x-dynoscope member) to one GetItem or Query, printing its table or index, key "
               "condition, direction and request, and flag the patterns that need a Scan, a "
               "filter or several requests, and keys that can collide, will not sort as "
               "numbers, mix cases, exceed DynamoDB's key sizes or take few values (hot "
               "partitions): from their key templates, and for keys without one (a plain "
               "Workbench model) from the tables' and facets' sample items. What cannot be "
               "checked is listed under \"Not checked\". Exits 1 when anything is flagged."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, "dynoscope-cli model check: %s\n", error->message);
      return 2;
    }
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      fprintf (stderr, "%s\n", _ ("Usage: dynoscope-cli model check MODEL.json"));
      return 2;
    }
  if (lang_name != NULL && !ddb_lang_from_name (lang_name, &lang))
    {
      fprintf (stderr, "dynoscope-cli model check: %s\n",
               _ ("--code must be one of cli, python, js, java, go, rust"));
      return 2;
    }
  return model_check (rest[0], lang_name != NULL, lang);
}

static const CliSubcommand model_commands[] = {
  { "check", "model check MODEL.json [--code LANG]", cli_model_check_main },
  { "apply", "CONNECTION model apply MODEL.json [--items N] [--dry-run]",
    cli_model_apply_main },
  { "infer", "[--db PATH | --endpoint URL] model infer --table T [--sample N]",
    cli_model_infer_main },
  { "estimate",
    "model estimate MODEL.json [--rate PATTERN=N] [--write-rate ENTITY=N] [--price NAME=VALUE] "
    "[--json]",
    cli_model_estimate_main },
};

int
cli_model_main (const CliTarget *target, int argc, char **argv)
{
  return cli_subcommand_run ("model", model_commands, G_N_ELEMENTS (model_commands), target, argc, argv);
}
