/* base-cmd.c: `dynoscope-cli --db PATH snapshot base --table T [EXPORT]`: with EXPORT, records
 * it (not copied) as the base of table T, for a snapshot that has none, so that later writes
 * keep each item's version before its first edit; without, prints the recorded base and the
 * number of items edited since. */
#include <glib/gi18n.h>
#include <stdio.h>

#include "backend/read-only.h"
#include "cli/base-cmd.h"
#include "engine/base.h"
#include "engine/engine.h"

#define BASE_PREFIX "dynoscope-cli snapshot base: "
#define BASE_USAGE "dynoscope-cli --db PATH snapshot base --table NAME [EXPORT]"

static int
usage_error (const char *message)
{
  fprintf (stderr, BASE_PREFIX "%s\n%s: %s\n", message, _ ("Usage"), BASE_USAGE);
  return 2;
}

static int
print_base (DdbEngine *engine, const char *table)
{
  g_autoptr (GError) error = NULL;
  DdbTableBase base = { 0 };
  gboolean found = FALSE;
  gint64 edited = 0;
  g_autoptr (GDateTime) when = NULL;
  g_autofree char *when_text = NULL;

  if (!ddb_engine_get_base (engine, table, &base, &found, &error)
      || (found && !ddb_engine_base_item_count (engine, table, &edited, &error)))
    {
      fprintf (stderr, BASE_PREFIX "%s\n", error->message);
      ddb_table_base_clear (&base);
      return 1;
    }
  if (!found)
    {
      printf (_ ("%s has no base\n"), table);
      return 0;
    }
  when = g_date_time_new_from_unix_utc (base.created_ms / 1000);
  when_text = when != NULL ? g_date_time_format_iso8601 (when) : g_strdup ("?");
  /* key=value words for scripts: not translated */
  printf ("source=%s format=%s recorded=%s items=%" G_GINT64_FORMAT " edited=%" G_GINT64_FORMAT,
          base.source, base.format, when_text, base.item_count, edited);
  if (base.export_arn != NULL)
    printf (" arn=%s", base.export_arn);
  printf ("\n");
  ddb_table_base_clear (&base);
  return 0;
}

int
cli_snapshot_base_main (const char *db_path, gboolean read_only, int argc, char **argv)
{
  char *table = NULL;
  char **rest = NULL;
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbEngine) engine = NULL;
  int status = 0;
  GOptionEntry entries[] = {
    { "table", 't', 0, G_OPTION_ARG_STRING, &table, N_ ("The snapshot's table (required)"),
      N_ ("NAME") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("[EXPORT]") },
    { NULL },
  };

  if (argc < 2 || g_strcmp0 (argv[1], "base") != 0)
    return usage_error (_ ("expected the subcommand base"));
  argc--;
  argv++;
  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("With EXPORT (an export of the table: a folder in the S3 export layout or a file), "
               "record it as the base of the snapshot NAME, without copying it: from then on the "
               "first write of each item keeps its version before the write, for compare and "
               "push. Without EXPORT, print the recorded base and the number of items edited "
               "since."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      status = usage_error (error->message);
      goto out;
    }
  if (db_path == NULL)
    {
      status = usage_error (_ ("snapshot base needs --db PATH"));
      goto out;
    }
  if (table == NULL)
    {
      status = usage_error (_ ("missing --table NAME"));
      goto out;
    }
  if (rest != NULL && rest[0] != NULL && rest[1] != NULL)
    {
      status = usage_error (_ ("too many arguments"));
      goto out;
    }
  if (read_only
      && ((rest != NULL && rest[0] != NULL) || !g_file_test (db_path, G_FILE_TEST_EXISTS)))
    {
      ddb_backend_set_read_only_error (&error, "snapshot base");
      fprintf (stderr, BASE_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }
  engine = ddb_engine_open (db_path, &error);
  if (engine == NULL)
    {
      fprintf (stderr, BASE_PREFIX "%s\n", error->message);
      status = 1;
      goto out;
    }
  if (rest != NULL && rest[0] != NULL)
    {
      g_autofree char *absolute = g_canonicalize_filename (rest[0], NULL);
      const char *format_name = "s3";

      if (!g_file_test (absolute, G_FILE_TEST_EXISTS))
        {
          fprintf (stderr, BASE_PREFIX);
          fprintf (stderr, _ ("the export %s does not exist\n"), absolute);
          status = 1;
          goto out;
        }
      if (!g_file_test (absolute, G_FILE_TEST_IS_DIR))
        format_name = g_str_has_suffix (absolute, ".csv")    ? "csv"
                      : g_str_has_suffix (absolute, ".json") ? "json"
                                                             : "jsonl";
      if (!ddb_engine_set_base (engine, table, absolute, format_name, &error))
        {
          fprintf (stderr, BASE_PREFIX "%s\n", error->message);
          status = 1;
          goto out;
        }
    }
  status = print_base (engine, table);

out:
  g_free (table);
  g_strfreev (rest);
  return status;
}
