/* snapshot-s3.c: the S3 export layout (DynamoDB's "export to S3" output): reading its
 * manifests (from a folder or a store), verifying its checksums, and writing one into a folder
 * through export-layout.h's writer (DynamoDB JSON or Ion), as ExportTableToPointInTime does.
 *
 * manifest-summary.json (itemCount, outputFormat, manifestFilesS3Key, ...) and
 * manifest-files.json, one JSON object a line per data file: {"itemCount", "md5Checksum"
 * (base64 MD5 of the object as stored, i.e. of the .gz), "etag" (S3's ETag: the hex MD5, or for
 * a multipart upload the hex MD5 of the parts' MD5s followed by "-PARTS"), "dataFileS3Key"}. A
 * data file is found under the folder's data/ by the part of its key after "/data/". Each
 * file's MD5 is checked against md5Checksum, and against etag when it is a single-part one or a
 * one-part multipart one (other multipart ETags depend on the part size, which the manifest does
 * not record); item counts are checked per file (snapshot-import.c) and in total. The data files
 * are DynamoDB JSON lines ({"Item": ...}) or, with outputFormat ION, Amazon Ion lines
 * ($ion_1_0 {Item:{...}}, core/ion.h); another outputFormat is refused. Our exports add "dynoscopeKey" and
 * "dynoscopeGsis" to the summary so that they import without --key. */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/error.h"
#include "engine/export-layout.h"
#include "engine/snapshot-private.h"

/* ---- Reading the S3 layout ---- */

/* The folder holding manifest-summary.json: `dir` itself, or its one AWSDynamoDB/<id>/. */
static char *
find_s3_export_dir (const char *dir)
{
  g_autofree char *direct = g_build_filename (dir, "manifest-summary.json", NULL);
  g_autofree char *aws = g_build_filename (dir, "AWSDynamoDB", NULL);
  GDir *d;
  const char *name;
  char *found = NULL;
  guint n = 0;

  if (snap_file_exists (direct))
    return g_strdup (dir);
  d = g_dir_open (aws, 0, NULL);
  if (d == NULL)
    return NULL;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (aws, name, NULL);
      g_autofree char *summary = g_build_filename (sub, "manifest-summary.json", NULL);

      if (snap_file_exists (summary))
        {
          n++;
          g_free (found);
          found = g_steal_pointer (&sub);
        }
    }
  g_dir_close (d);
  if (n != 1)
    g_clear_pointer (&found, g_free);
  return found;
}

/* The summary's time NAME ("2020-11-04T07:28:34.028Z") in microseconds since the epoch into
 * *OUT; 0 when absent or null. */
static gboolean
summary_time (json_t *summary, const char *name, gint64 *out, GError **error)
{
  json_t *j = json_object_get (summary, name);
  g_autoptr (GDateTime) t = NULL;

  *out = 0;
  if (j == NULL || json_is_null (j))
    return TRUE;
  if (json_is_string (j))
    t = g_date_time_new_from_iso8601 (json_string_value (j), NULL);
  if (t == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "manifest-summary.json: %s is not an ISO 8601 time", name);
      return FALSE;
    }
  *out = g_date_time_to_unix (t) * G_USEC_PER_SEC + g_date_time_get_microsecond (t);
  return TRUE;
}

static gboolean
json_count (json_t *j, guint64 *out)
{
  if (!json_is_integer (j) || json_integer_value (j) < 0)
    return FALSE;
  *out = (guint64) json_integer_value (j);
  return TRUE;
}

/* A manifest's dataFileS3Key KEY as an object of a store, the export's summary being
 * SUMMARY_KEY: KEY as given when it starts with the export's root (what precedes
 * "AWSDynamoDB/" in SUMMARY_KEY: the export's prefix), else KEY under that root; when
 * SUMMARY_KEY is not under an AWSDynamoDB/ folder, the data/ folder beside it. */
static char *
store_data_key (const char *summary_key, const char *key)
{
  const char *aws = g_strrstr (summary_key, "AWSDynamoDB/");
  g_autofree char *root = aws != NULL ? g_strndup (summary_key, aws - summary_key) : NULL;
  const char *rel = g_strrstr (key, "/data/");

  if (aws == NULL && rel != NULL)
    {
      /* An export's folder copied elsewhere (or our own folder export uploaded): its data/
       * beside its manifest-summary.json. */
      g_autofree char *dir = g_path_get_dirname (summary_key);

      return strcmp (dir, ".") == 0 ? g_strdup (rel + 1) : g_strconcat (dir, rel, NULL);
    }
  if (root == NULL || *root == '\0' || g_str_has_prefix (key, root))
    return g_strdup (key);
  return g_strconcat (root, key, NULL);
}

/* The data file KEY of the export in DIR (a folder) as a SourceFile: found under DIR's data/ by
 * the part of KEY after "/data/", or in the AWSDynamoDB/data/ beside DIR (where incremental
 * exports may keep their data). */
static SourceFile *
folder_data_file (const char *dir, const char *key)
{
  const char *rel = g_strrstr (key, "/data/");
  SourceFile *f = g_new0 (SourceFile, 1);

  rel = rel != NULL                       ? rel + strlen ("/data/")
        : g_str_has_prefix (key, "data/") ? key + 5
                                          : NULL;
  if (rel == NULL || *rel == '\0' || strstr (rel, "..") != NULL)
    {
      g_autofree char *base = g_path_get_basename (key);

      f->path = g_build_filename (dir, "data", base, NULL);
      f->display = g_build_filename ("data", base, NULL);
      return f;
    }
  f->path = g_build_filename (dir, "data", rel, NULL);
  f->display = g_build_filename ("data", rel, NULL);
  if (!snap_file_exists (f->path))
    {
      g_autofree char *shared = g_build_filename (dir, "..", "data", rel, NULL);

      if (snap_file_exists (shared))
        {
          g_free (f->path);
          f->path = g_steal_pointer (&shared);
        }
    }
  return f;
}

/* The summary's outputFormat, exportType, times, counts and our own key records into S. */
static gboolean
read_summary (Sources *s, json_t *summary, gboolean *ion, GError **error)
{
  json_t *j = json_object_get (summary, "outputFormat");

  *ion = FALSE;
  if (j != NULL && json_is_string (j) && strcmp (json_string_value (j), "ION") == 0)
    *ion = TRUE;
  else if (j != NULL
           && (!json_is_string (j) || strcmp (json_string_value (j), "DYNAMODB_JSON") != 0))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "manifest-summary.json: outputFormat %s is not supported (DYNAMODB_JSON or "
                   "ION)",
                   json_is_string (j) ? json_string_value (j) : "?");
      return FALSE;
    }
  j = json_object_get (summary, "exportType");
  if (j != NULL && json_is_string (j) && strcmp (json_string_value (j), "INCREMENTAL_EXPORT") == 0)
    s->incremental = TRUE;
  else if (j != NULL && (!json_is_string (j) || strcmp (json_string_value (j), "FULL_EXPORT") != 0))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "manifest-summary.json: exportType %s is not supported (FULL_EXPORT or "
                   "INCREMENTAL_EXPORT)",
                   json_is_string (j) ? json_string_value (j) : "?");
      return FALSE;
    }
  if (!summary_time (summary, "exportTime", &s->export_time_us, error)
      || !summary_time (summary, "exportFromTime", &s->from_time_us, error)
      || !summary_time (summary, "exportToTime", &s->to_time_us, error))
    return FALSE;
  if (s->incremental && (s->from_time_us == 0 || s->to_time_us == 0))
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "manifest-summary.json: an incremental export without exportFromTime "
                           "and exportToTime");
      return FALSE;
    }
  j = json_object_get (summary, "exportArn");
  if (json_is_string (j))
    s->export_arn = g_strdup (json_string_value (j));
  s->has_total = json_count (json_object_get (summary, "itemCount"), &s->total);
  j = json_object_get (summary, "dynoscopeKey");
  if (json_is_string (j))
    s->key_spec = g_strdup (json_string_value (j));
  j = json_object_get (summary, "dynoscopeGsis");
  if (json_is_array (j))
    {
      GPtrArray *specs = g_ptr_array_new ();
      gsize i;
      json_t *e;

      json_array_foreach (j, i, e)
        if (json_is_string (e))
          g_ptr_array_add (specs, g_strdup (json_string_value (e)));
      g_ptr_array_add (specs, NULL);
      s->gsi_specs = (GStrv) g_ptr_array_free (specs, FALSE);
    }
  return TRUE;
}

/* A manifest of a folder, read through GIO so that a missing or unreadable one is a
 * G_IO_ERROR ("manifest-files.json: ..."), as every other file of an import is (GLib's
 * g_file_get_contents would give a G_FILE_ERROR). */
static GBytes *
read_manifest (const char *path, const char *display, GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GError *inner = NULL;
  GBytes *bytes = g_file_load_bytes (file, NULL, NULL, &inner);

  if (bytes == NULL)
    snap_io_error_prefixed (error, inner, display);
  return bytes;
}

gboolean
snap_load_s3_sources (Sources *s, const char *folder, const DdbSnapshotStore *store,
                      GError **error)
{
  g_autofree char *dir = NULL;
  g_autoptr (GBytes) summary_bytes = NULL;
  g_autoptr (GBytes) files_bytes = NULL;
  json_auto_t *summary = NULL;
  json_error_t jerr;
  const char *text, *end;
  gsize size;
  guint64 line_no = 0;
  gboolean ion = FALSE;

  s->store = store;
  if (store != NULL)
    {
      g_autofree char *prefix = g_path_get_dirname (folder);
      g_autofree char *files_key
          = strcmp (prefix, ".") == 0 ? g_strdup ("manifest-files.json")
                                      : g_strconcat (prefix, "/manifest-files.json", NULL);

      summary_bytes = store->get (folder, store->data, NULL, error);
      if (summary_bytes == NULL)
        return FALSE;
      files_bytes = store->get (files_key, store->data, NULL, error);
      if (files_bytes == NULL)
        return FALSE;
    }
  else
    {
      g_autofree char *summary_path = NULL;
      g_autofree char *files_path = NULL;

      dir = find_s3_export_dir (folder);
      if (dir == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       "%s: not a DynamoDB S3 export: no manifest-summary.json in it (or in one "
                       "AWSDynamoDB/<export id>/ folder under it)",
                       folder);
          return FALSE;
        }
      summary_path = g_build_filename (dir, "manifest-summary.json", NULL);
      files_path = g_build_filename (dir, "manifest-files.json", NULL);
      summary_bytes = read_manifest (summary_path, "manifest-summary.json", error);
      if (summary_bytes == NULL)
        return FALSE;
      files_bytes = read_manifest (files_path, "manifest-files.json", error);
      if (files_bytes == NULL)
        return FALSE;
    }
  /* An empty object's bytes may have no data at all (NULL): read it as the empty text. */
  text = g_bytes_get_data (summary_bytes, &size);
  summary = json_loadb (size > 0 ? text : "", size, JSON_REJECT_DUPLICATES, &jerr);
  if (summary == NULL)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "manifest-summary.json:%d: %s",
                   jerr.line, jerr.text);
      return FALSE;
    }
  if (!read_summary (s, summary, &ion, error))
    return FALSE;

  text = g_bytes_get_data (files_bytes, &size);
  if (size == 0)
    text = "";
  for (end = text + size; text < end; line_no++)
    {
      const char *nl = memchr (text, '\n', end - text);
      gsize len = (nl != NULL ? nl : end) - text;
      json_auto_t *entry = NULL;
      const char *key;
      SourceFile *f;

      entry = snap_is_blank (text, len) ? NULL : json_loadb (text, len, JSON_REJECT_DUPLICATES, &jerr);
      key = entry != NULL ? json_string_value (json_object_get (entry, "dataFileS3Key")) : NULL;
      if (key == NULL && !snap_is_blank (text, len))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "manifest-files.json:%" G_GUINT64_FORMAT
                       ": expected an object with a dataFileS3Key",
                       line_no + 1);
          return FALSE;
        }
      text = nl != NULL ? nl + 1 : end;
      if (key == NULL)
        continue;
      if (store != NULL)
        {
          const char *rel = g_strrstr (key, "/data/");

          f = g_new0 (SourceFile, 1);
          f->key = store_data_key (folder, key);
          f->display = g_strconcat ("data/", rel != NULL ? rel + 6 : key, NULL);
        }
      else
        f = folder_data_file (dir, key);
      f->has_count = json_count (json_object_get (entry, "itemCount"), &f->count);
      f->md5_base64 = g_strdup (json_string_value (json_object_get (entry, "md5Checksum")));
      f->etag = g_strdup (json_string_value (json_object_get (entry, "etag")));
      f->ion = ion;
      g_ptr_array_add (s->files, f);
    }
  return TRUE;
}

/* ---- Checksums ---- */

static gboolean
file_md5 (const char *path, const char *display, guint8 digest[16], GCancellable *cancellable,
          GError **error)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInputStream) in = NULL;
  g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
  g_autofree guint8 *buf = g_malloc (READ_CHUNK);
  gsize dlen = 16;
  GError *inner = NULL;

  in = g_file_read (file, cancellable, &inner);
  if (in == NULL)
    return snap_io_error_prefixed (error, inner, display);
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (in), buf, READ_CHUNK, cancellable, &inner);

      if (n < 0)
        return snap_io_error_prefixed (error, inner, display);
      if (n == 0)
        break;
      g_checksum_update (sum, buf, n);
    }
  g_checksum_get_digest (sum, digest, &dlen);
  return TRUE;
}

static char *
hex_of (const guint8 *d, gsize n)
{
  GString *s = g_string_sized_new (2 * n);

  for (gsize i = 0; i < n; i++)
    g_string_append_printf (s, "%02x", d[i]);
  return g_string_free (s, FALSE);
}

gboolean
snap_verify_checksums (const SourceFile *f, GCancellable *cancellable, GError **error)
{
  guint8 digest[16];

  if (f->md5_base64 == NULL && f->etag == NULL)
    return TRUE;
  return file_md5 (f->path, f->display, digest, cancellable, error)
         && snap_check_digest (f, digest, error);
}

gboolean
snap_check_digest (const SourceFile *f, const guint8 digest[16], GError **error)
{
  g_autofree char *b64 = NULL;
  g_autofree char *hex = NULL;

  b64 = g_base64_encode (digest, 16);
  hex = hex_of (digest, 16);
  if (f->md5_base64 != NULL && strcmp (f->md5_base64, b64) != 0)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "%s: checksum mismatch: manifest-files.json gives md5Checksum %s, the file's "
                   "MD5 is %s",
                   f->display, f->md5_base64, b64);
      return FALSE;
    }
  if (f->etag != NULL)
    {
      g_autofree char *etag = g_ascii_strdown (f->etag, -1);
      g_autofree char *want = NULL;
      char *dash;

      /* S3 may quote ETags. */
      g_strdelimit (etag, "\"", ' ');
      g_strstrip (etag);
      dash = strchr (etag, '-');
      if (dash == NULL)
        want = g_strdup (hex);
      else if (strcmp (dash, "-1") == 0)
        {
          /* One-part multipart upload: MD5 of the part's MD5. */
          guint8 d2[16];
          gsize dlen = sizeof d2;
          g_autoptr (GChecksum) sum = g_checksum_new (G_CHECKSUM_MD5);
          g_autofree char *h2 = NULL;

          g_checksum_update (sum, digest, 16);
          g_checksum_get_digest (sum, d2, &dlen);
          h2 = hex_of (d2, sizeof d2);
          want = g_strconcat (h2, "-1", NULL);
        }
      if (want != NULL && strcmp (want, etag) != 0)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "%s: checksum mismatch: manifest-files.json gives etag %s, the file's is %s",
                       f->display, f->etag, want);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- Writing the S3 layout ---- */

static gboolean
describe_key_specs (const SnapCaller *caller, const char *table, GCancellable *cancellable,
                    char **key_spec, GStrv *gsis, char **table_arn, char **table_id,
                    GError **error)
{
  json_auto_t *req = json_pack ("{ss}", "TableName", table);
  json_auto_t *resp = NULL;
  json_t *desc, *attrs, *j;
  g_autoptr (GHashTable) types = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *specs = g_ptr_array_new ();
  gsize i;

  /* Cancellable: an endpoint that does not answer is left with Ctrl-C. */
  if (!caller->call (0, "DescribeTable", req, cancellable, &resp, error, caller->data))
    {
      g_ptr_array_free (specs, TRUE);
      return FALSE;
    }
  desc = json_object_get (resp, "Table");
  attrs = json_object_get (desc, "AttributeDefinitions");
  json_array_foreach (attrs, i, j)
    g_hash_table_insert (types, (gpointer) json_string_value (json_object_get (j, "AttributeName")),
                         (gpointer) json_string_value (json_object_get (j, "AttributeType")));

#define SPEC_OF(schema, out) \
  do \
    { \
      GString *s_ = g_string_new (NULL); \
      gsize k_; \
      json_t *e_; \
      json_array_foreach ((schema), k_, e_) \
        { \
          const char *n_ = json_string_value (json_object_get (e_, "AttributeName")); \
          const char *t_ = n_ != NULL ? g_hash_table_lookup (types, n_) : NULL; \
          g_string_append_printf (s_, "%s%s:%s", k_ > 0 ? "," : "", n_ ? n_ : "?", t_ ? t_ : "S"); \
        } \
      (out) = g_string_free (s_, FALSE); \
    } \
  while (0)

  SPEC_OF (json_object_get (desc, "KeySchema"), *key_spec);
  json_array_foreach (json_object_get (desc, "GlobalSecondaryIndexes"), i, j)
    {
      char *ks;
      SPEC_OF (json_object_get (j, "KeySchema"), ks);
      g_ptr_array_add (
          specs,
          g_strdup_printf ("%s:%s", json_string_value (json_object_get (j, "IndexName")), ks));
      g_free (ks);
    }
#undef SPEC_OF
  g_ptr_array_add (specs, NULL);
  *gsis = (GStrv) g_ptr_array_free (specs, FALSE);
  *table_arn = g_strdup (json_string_value (json_object_get (desc, "TableArn")));
  *table_id = g_strdup (json_string_value (json_object_get (desc, "TableId")));
  return TRUE;
}

/* The folder export's PUT: the layout's keys "AWSDynamoDB/<id>/NAME" written as DEST/NAME (the
 * folder holds the export itself, as an export copied down from a bucket does). */
typedef struct {
  char *dest;
  char *strip; /* "AWSDynamoDB/<id>/" */
} FolderPut;

static gboolean
folder_put (const char *key, GBytes *contents, gpointer data, GCancellable *cancellable,
            GError **error)
{
  FolderPut *fp = data;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  return ddb_export_folder_put (g_str_has_prefix (key, fp->strip) ? key + strlen (fp->strip) : key,
                                contents, fp->dest, cancellable, error);
}

typedef struct {
  DdbExportLayout *layout;
  Progress *pr;
} LayoutState;

static gboolean
layout_item (const DdbValue *item, gpointer data, GError **error)
{
  LayoutState *ls = data;

  if (!ddb_export_layout_add_item (ls->layout, item, error))
    return FALSE;
  ls->pr->p.items++;
  ls->pr->p.bytes = ddb_export_layout_billed_bytes (ls->layout);
  snap_progress_tick (ls->pr);
  return TRUE;
}

/* Removes what the folder holds, not the folder. */
static void
remove_contents (const char *path)
{
  GDir *d = g_dir_open (path, 0, NULL);
  const char *name;

  if (d == NULL)
    return;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *sub = g_build_filename (path, name, NULL);

      if (g_file_test (sub, G_FILE_TEST_IS_DIR) && !g_file_test (sub, G_FILE_TEST_IS_SYMLINK))
        {
          remove_contents (sub);
          g_rmdir (sub);
        }
      else
        g_unlink (sub);
    }
  g_dir_close (d);
}

gboolean
snap_export_s3 (const SnapCaller *caller, const char *dest, const DdbExportOptions *options,
                Progress *pr, GError **error)
{
  g_autofree char *export_id = NULL;
  g_autofree char *key_spec = NULL;
  g_autofree char *table_arn = NULL;
  g_autofree char *table_id = NULL;
  g_autofree char *arn = NULL;
  g_auto (GStrv) gsis = NULL;
  json_auto_t *extra = NULL;
  json_t *gsi_array;
  gboolean created = FALSE;
  g_autoptr (DdbExportLayout) layout = NULL;
  DdbExportLayoutOptions lo = { 0 };
  FolderPut fp = { 0 };
  LayoutState ls = { 0 };

  if (g_file_test (dest, G_FILE_TEST_EXISTS))
    {
      GDir *d = g_dir_open (dest, 0, NULL);
      gboolean empty = d != NULL && g_dir_read_name (d) == NULL;

      if (d != NULL)
        g_dir_close (d);
      if (!empty)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                       "%s: the folder for an s3 export must be new or empty", dest);
          return FALSE;
        }
    }
  else
    created = TRUE;
  if (!describe_key_specs (caller, options->table_name, options->cancellable, &key_spec, &gsis,
                           &table_arn, &table_id, error))
    return FALSE;
  if (g_mkdir_with_parents (dest, 0777) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "%s: %s", dest, g_strerror (e));
      return FALSE;
    }

  /* DynamoDB's export ids: the time in milliseconds and 8 hex digits. */
  export_id = g_strdup_printf ("%014" G_GINT64_FORMAT "-%08x", g_get_real_time () / 1000,
                               g_random_int ());
  arn = g_strdup_printf ("%s/export/%s", table_arn ? table_arn : "", export_id);
  gsi_array = json_array ();
  for (guint i = 0; gsis != NULL && gsis[i] != NULL; i++)
    json_array_append_new (gsi_array, json_string (gsis[i]));
  /* Our own members: the key schema and the GSIs, so that the export imports without --key. */
  extra = json_pack ("{ss so}", "dynoscopeKey", key_spec, "dynoscopeGsis", gsi_array);
  if (extra == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                           "Cannot write manifest-summary.json (a name is not UTF-8)");
      goto fail;
    }
  lo.export_arn = arn;
  lo.table_arn = table_arn != NULL ? table_arn : "";
  lo.table_id = table_id;
  lo.bucket = "local";
  lo.format = options->ion ? DDB_EXPORT_FORMAT_ION : DDB_EXPORT_FORMAT_DYNAMODB_JSON;
  lo.export_time_us = g_get_real_time ();
  lo.summary_extra = extra;
  fp.dest = (char *) dest;
  fp.strip = g_strdup_printf ("AWSDynamoDB/%s/", export_id);
  layout = ddb_export_layout_begin (&lo, folder_put, &fp, options->cancellable, error);
  if (layout == NULL)
    goto fail;
  ls.layout = layout;
  ls.pr = pr;
  if (!snap_for_each_item (caller, options, layout_item, &ls, options->cancellable, error)
      || !ddb_export_layout_finish (layout, NULL, error))
    goto fail;
  g_free (fp.strip);
  return TRUE;

fail:
  g_free (fp.strip);
  /* An empty folder the caller gave is left as it was. */
  remove_contents (dest);
  if (created)
    g_rmdir (dest);
  return FALSE;
}
