/* dy-import-source.c: the source of an import (dy-import-private.h): looked at before importing
 * (a file's format and size, an export's table and item count, in a folder or in a bucket), and
 * the import itself (an export in a bucket read straight from S3, exports/s3-import.h). */
#define G_LOG_DOMAIN "dynoscope-import"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "app/common/dy-format.h"
#include "app/connections/dy-mfa-dialog.h"
#include "app/tables/dy-import-private.h"
#include "backend/transfer.h"
#include "exports/s3-import.h"

DyImportSource *
dy_import_source_new (const char *source, const char *profile, const char *region)
{
  DyImportSource *s = g_new0 (DyImportSource, 1);

  s->source = g_strdup (source);
  s->profile = g_strdup (profile);
  s->region = g_strdup (region);
  return s;
}

void
dy_import_source_free (DyImportSource *s)
{
  g_free (s->source);
  g_free (s->profile);
  g_free (s->region);
  g_strfreev (s->incrementals);
  g_free (s);
}

gboolean
dy_import_source_is_s3 (const DyImportSource *s)
{
  return g_str_has_prefix (s->source, "s3://");
}

/* A DdbS3SinkFunc into a GByteArray. */
static gboolean
append_bytes (const guint8 *data, gsize len, gpointer user_data, GError **error)
{
  g_byte_array_append (user_data, data, (guint) len);
  return TRUE;
}

static DdbS3 *
open_s3 (const DyImportSource *s, GError **error)
{
  /* A role with mfa_serial asks for the code, as the connection's requests do (a worker
   * thread: the dialog waits for the main loop). */
  DdbS3Options o = { .profile = s->profile, .region = s->region, .mfa_prompt = dy_mfa_prompt };

  return ddb_s3_new (&o, error);
}

/* DynamoDB's table names: 3 to 255 of [A-Za-z0-9_.-]. */
gboolean
dy_import_valid_table_name (const char *name)
{
  gsize n = strlen (name);

  if (n < 3 || n > 255)
    return FALSE;
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != '-')
      return FALSE;
  return TRUE;
}

/* A table name from a file name: "orders.jsonl.gz" -> "orders". */
static char *
table_name_from_file (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  char *dot;

  if (g_str_has_suffix (base, ".gz"))
    base[strlen (base) - 3] = '\0';
  dot = strrchr (base, '.');
  if (dot != NULL && dot != base)
    *dot = '\0';
  for (char *p = base; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '.' && *p != '-')
      *p = '_';
  return g_steal_pointer (&base);
}

/* Looking at the source before importing: the table name it suggests and what it is. */

void
dy_import_inspection_free (DyImportInspection *inspection)
{
  g_free (inspection->table);
  g_free (inspection->description);
  g_free (inspection);
}

/* The manifest-summary.json of an S3 export folder: in it, or in its one AWSDynamoDB/<id>/
 * (the layout of the bucket's prefix). */
static char *
find_manifest (const char *dir)
{
  g_autofree char *direct = g_build_filename (dir, "manifest-summary.json", NULL);
  g_autofree char *aws = g_build_filename (dir, "AWSDynamoDB", NULL);
  g_autoptr (GDir) d = NULL;
  const char *name;
  char *found = NULL;

  if (g_file_test (direct, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&direct);
  d = g_dir_open (aws, 0, NULL);
  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (aws, name, "manifest-summary.json", NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          if (found != NULL)
            {
              g_free (found);
              return NULL; /* several exports: the import refuses to guess, so do we */
            }
          found = g_steal_pointer (&path);
        }
    }
  return found;
}

/* The table's name and the item count from an export's manifest-summary.json. */
static void
inspect_summary (DyImportInspection *inspection, json_t *summary)
{
  json_t *count = json_object_get (summary, "itemCount");
  const char *arn = json_string_value (json_object_get (summary, "tableArn"));
  const char *slash = arn != NULL ? strstr (arn, ":table/") : NULL;
  gboolean ion = g_strcmp0 (json_string_value (json_object_get (summary, "outputFormat")), "ION")
                 == 0;

  if (slash != NULL)
    {
      const char *name = slash + strlen (":table/");
      const char *end = strchr (name, '/');

      inspection->table = end != NULL ? g_strndup (name, end - name) : g_strdup (name);
      if (!dy_import_valid_table_name (inspection->table))
        g_clear_pointer (&inspection->table, g_free);
    }
  if (json_is_integer (count))
    {
      json_int_t items = json_integer_value (count);
      g_autofree char *n = dy_format_count ((guint64) MAX (items, 0));

      inspection->description = g_strdup_printf (
          ion ?
              /* TRANSLATORS: the source of an import; %s is a number of items */
              ngettext ("DynamoDB export to S3 in Amazon Ion · %s item",
                        "DynamoDB export to S3 in Amazon Ion · %s items", (gulong) MAX (items, 0))
              :
              /* TRANSLATORS: the source of an import; %s is a number of items */
              ngettext ("DynamoDB export to S3 · %s item", "DynamoDB export to S3 · %s items",
                        (gulong) MAX (items, 0)),
          n);
    }
  else
    inspection->description = g_strdup (_ ("DynamoDB export to S3"));
}

static DyImportInspection *
inspect_folder (const char *dir)
{
  DyImportInspection *inspection = g_new0 (DyImportInspection, 1);
  g_autofree char *manifest = find_manifest (dir);
  json_t *summary;

  inspection->icon = "folder-symbolic";
  if (manifest == NULL)
    {
      inspection->description = g_strdup (
          _ ("No manifest-summary.json here: choose the folder of a DynamoDB export to S3"));
      return inspection;
    }
  summary = json_load_file (manifest, 0, NULL);
  inspect_summary (inspection, summary);
  json_decref (summary);
  return inspection;
}

static DyImportInspection *
inspect_file (const char *path)
{
  DyImportInspection *inspection = g_new0 (DyImportInspection, 1);
  g_autofree char *lower = g_ascii_strdown (path, -1);
  g_autofree char *size = NULL;
  const char *format;
  GStatBuf st;

  inspection->icon = "text-x-generic-symbolic";
  if (g_str_has_suffix (lower, ".gz"))
    lower[strlen (lower) - 3] = '\0';
  if (g_str_has_suffix (lower, ".csv"))
    {
      format = _ ("CSV with a header row");
      inspection->icon = "x-office-spreadsheet-symbolic";
    }
  else if (g_str_has_suffix (lower, ".json"))
    format = _ ("JSON");
  else
    format = _ ("DynamoDB JSON lines");
  inspection->table = table_name_from_file (path);
  if (!dy_import_valid_table_name (inspection->table))
    g_clear_pointer (&inspection->table, g_free);
  if (g_stat (path, &st) == 0)
    {
      size = dy_format_size ((guint64) st.st_size);
      /* TRANSLATORS: the source of an import: its format and its size */
      inspection->description = g_strdup_printf (_ ("%s · %s"), format, size);
    }
  else
    inspection->description = g_strdup_printf ("%s: %s", path, g_strerror (errno));
  return inspection;
}

/* An export in a bucket: located, its summary read. */
static DyImportInspection *
inspect_s3 (const DyImportSource *source, GCancellable *cancellable)
{
  DyImportInspection *inspection = g_new0 (DyImportInspection, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (DdbS3) s3 = open_s3 (source, &error);
  g_autofree char *bucket = NULL;
  g_autofree char *key = NULL;
  g_autoptr (GByteArray) text = g_byte_array_new ();
  json_auto_t *summary = NULL;

  inspection->icon = "network-server-symbolic";
  if (s3 == NULL || !ddb_s3_export_locate (s3, source->source, &bucket, &key, cancellable, &error)
      || !ddb_s3_get_object (s3, bucket, key, NULL, append_bytes, text, cancellable,
                             NULL, NULL, &error))
    {
      inspection->description = g_strdup (error->message);
      return inspection;
    }
  summary = json_loadb ((const char *) text->data, text->len, 0, NULL);
  inspect_summary (inspection, summary);
  return inspection;
}

DyImportInspection *
dy_import_inspect (const DyImportSource *source, GCancellable *cancellable)
{
  if (dy_import_source_is_s3 (source))
    return inspect_s3 (source, cancellable);
  if (g_file_test (source->source, G_FILE_TEST_IS_DIR))
    return inspect_folder (source->source);
  return inspect_file (source->source);
}

/* ---- Importing ---- */

gboolean
dy_import_run (const DyImportSource *source, const char *db_path, gboolean read_only,
               const DdbImportOptions *options, DdbSnapshotProgress *out, GError **error)
{
  g_autoptr (DdbBackend) backend = ddb_backend_open_database (db_path, error);
  g_autoptr (DdbS3) s3 = NULL;
  g_autoptr (GPtrArray) urls = g_ptr_array_new ();

  if (backend == NULL)
    return FALSE;
  ddb_backend_set_read_only (backend, read_only);
  if (!dy_import_source_is_s3 (source))
    return ddb_transfer_import (backend, source->source, options, NULL, out, error);
  if (!ddb_backend_check_writable (backend, "import", error))
    return FALSE;
  s3 = open_s3 (source, error);
  /* the full export first, then its incremental exports (the import orders them by time) */
  g_ptr_array_add (urls, source->source);
  for (guint i = 0; source->incrementals != NULL && source->incrementals[i] != NULL; i++)
    g_ptr_array_add (urls, source->incrementals[i]);
  g_ptr_array_add (urls, NULL);
  return s3 != NULL
         && ddb_s3_import (ddb_backend_get_engine (backend), s3, (const char *const *) urls->pdata,
                           options, NULL, out, error);
}
