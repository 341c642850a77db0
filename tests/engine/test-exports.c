/* test-exports.c: point-in-time recovery and exports in the engine: UpdateContinuousBackups and
 * DescribeContinuousBackups as AWS answers them; ExportTableToPointInTime full and incremental,
 * in DynamoDB JSON and Ion, both view types, written to a folder and read back line by line
 * (Ion with core/ion.h's reader), every item compared with the table's state at the export's
 * time (a model kept beside the writes); manifests' counts and MD5s; incremental compaction;
 * DescribeExport after a reopen; ListExports paging; ClientToken; the errors. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/ion.h"
#include "engine-test-util.h"
#include "engine/export-target.h"
#include "item-corpus.h"

#define TABLE "Hist"
#define ARN "arn:aws:dynamodb:ddblocal:000000000000:table/" TABLE

/* The table's state: "pk" value -> item (owned). */
typedef GHashTable State;

static State *
state_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                (GDestroyNotify) ddb_value_free);
}

static State *
state_copy (State *s)
{
  State *c = state_new ();
  GHashTableIter it;
  gpointer k, v;

  g_hash_table_iter_init (&it, s);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_hash_table_insert (c, g_strdup (k), ddb_value_copy (v));
  return c;
}

static GPtrArray *
state_items (State *s)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
  GHashTableIter it;
  gpointer k, v;

  g_hash_table_iter_init (&it, s);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_ptr_array_add (out, ddb_value_copy (v));
  return out;
}

static const char *
pk_of (const DdbValue *item)
{
  return ddb_value_map_get (item, "pk")->bytes.data;
}

static void
put (DdbEngine *e, State *s, const DdbValue *item)
{
  json_auto_t *req = json_pack ("{ss so}", "TableName", TABLE, "Item", ddb_item_to_json (item));
  json_auto_t *resp = etu_call_ok (e, "PutItem", req);

  g_hash_table_insert (s, g_strdup (pk_of (item)), ddb_value_copy (item));
}

static void
del (DdbEngine *e, State *s, const char *pk)
{
  json_auto_t *req = json_pack ("{ss s{s{ss}}}", "TableName", TABLE, "Key", "pk", "S", pk);
  json_auto_t *resp = etu_call_ok (e, "DeleteItem", req);

  g_hash_table_remove (s, pk);
}

/* A time strictly between the writes before and after it, with a margin the API's timestamps
 * (seconds as a double) keep. */
static gint64
instant (void)
{
  gint64 t0 = g_get_real_time (), t;

  while (g_get_real_time () < t0 + 3000)
    g_thread_yield ();
  t = g_get_real_time ();
  while (g_get_real_time () < t + 3000)
    g_thread_yield ();
  return t;
}

static json_t *
wait_export (DdbEngine *e, const char *arn)
{
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;

  for (;;)
    {
      json_auto_t *req = json_pack ("{ss}", "ExportArn", arn);
      json_t *resp = etu_call_ok (e, "DescribeExport", req);
      json_t *d = json_object_get (resp, "ExportDescription");
      const char *status = json_string_value (json_object_get (d, "ExportStatus"));

      if (g_strcmp0 (status, "IN_PROGRESS") != 0)
        {
          json_t *out = json_incref (d);

          json_decref (resp);
          return out;
        }
      json_decref (resp);
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (2000);
    }
}

static char *
read_file (const char *path, gsize *len)
{
  char *text = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (g_file_get_contents (path, &text, len, &error));
  return text;
}

static char *
gunzip (const char *data, gsize len, gsize *out_len)
{
  g_autoptr (GZlibDecompressor) z = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr (GInputStream) mem = g_memory_input_stream_new_from_data (data, len, NULL);
  g_autoptr (GInputStream) in = g_converter_input_stream_new (mem, G_CONVERTER (z));
  g_autoptr (GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL,
                                           &error),
                   >=, 0);
  g_assert_no_error (error);
  *out_len = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out));
  g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL) || TRUE);
  return g_memdup2 (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)), *out_len + 1);
}

/* One record read back. */
typedef struct {
  DdbValue *item, *keys, *old_image, *new_image;
  gint64 write_us;
} Rec;

static void
rec_free (gpointer p)
{
  Rec *r = p;

  ddb_value_free (r->item);
  ddb_value_free (r->keys);
  ddb_value_free (r->old_image);
  ddb_value_free (r->new_image);
  g_free (r);
}

static DdbValue *
member_item (json_t *line, const char *name)
{
  json_t *j = json_object_get (line, name);
  g_autoptr (GError) error = NULL;
  DdbValue *v;

  if (j == NULL)
    return NULL;
  v = ddb_json_to_item (j, &error);
  g_assert_no_error (error);
  return v;
}

static Rec *
parse_line (const char *line, gsize len, gboolean ion)
{
  Rec *r = g_new0 (Rec, 1);
  g_autoptr (GError) error = NULL;

  if (ion)
    {
      DdbIonRecord rec = { 0 };

      g_assert_true (g_str_has_prefix (line, "$ion_1_0 {"));
      g_assert_true (ddb_ion_parse_export_record (line, len, 1, &rec, &error));
      g_assert_no_error (error);
      r->item = g_steal_pointer (&rec.item);
      r->keys = g_steal_pointer (&rec.keys);
      r->old_image = g_steal_pointer (&rec.old_image);
      r->new_image = g_steal_pointer (&rec.new_image);
      if (rec.metadata != NULL)
        {
          g_autofree char *n = ddb_json_format_value (ddb_value_map_get (rec.metadata,
                                                                         "WriteTimestampMicros"));

          g_assert_true (sscanf (n, "{\"N\":\"%" G_GINT64_FORMAT "\"}", &r->write_us) == 1);
        }
      ddb_ion_record_clear (&rec);
    }
  else
    {
      json_error_t jerr;
      json_auto_t *j = json_loadb (line, len, JSON_REJECT_DUPLICATES, &jerr);
      json_t *m;

      g_assert_nonnull (j);
      r->item = member_item (j, "Item");
      r->keys = member_item (j, "Keys");
      r->old_image = member_item (j, "OldImage");
      r->new_image = member_item (j, "NewImage");
      m = json_object_get (json_object_get (j, "Metadata"), "WriteTimestampMicros");
      if (m != NULL)
        r->write_us = g_ascii_strtoll (json_string_value (json_object_get (m, "N")), NULL, 10);
      g_assert_cmpuint (json_object_size (j), ==,
                        (r->item != NULL) + (r->keys != NULL) + (r->old_image != NULL)
                            + (r->new_image != NULL) + (m != NULL));
    }
  return r;
}

static char *
md5_hex (const char *data, gsize len)
{
  return g_compute_checksum_for_data (G_CHECKSUM_MD5, (const guchar *) data, len);
}

/* Reads the export `d` (COMPLETED) from bucket folder `bucket_dir`: checks its manifests and
 * returns its records. */
static GPtrArray *
read_export (const char *bucket_dir, json_t *d, gboolean incremental, guint *n_files)
{
  const char *manifest = json_string_value (json_object_get (d, "ExportManifest"));
  const char *arn = json_string_value (json_object_get (d, "ExportArn"));
  g_autofree char *summary_path = g_build_filename (bucket_dir, manifest, NULL);
  g_autofree char *dir = g_path_get_dirname (summary_path);
  g_autofree char *summary_text = NULL;
  g_autofree char *files_text = NULL;
  g_autofree char *sum = NULL;
  g_autofree char *sum2 = NULL;
  g_autofree char *started = g_build_filename (dir, "_started", NULL);
  g_autofree char *p = NULL;
  json_auto_t *summary = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *recs = g_ptr_array_new_with_free_func (rec_free);
  gboolean ion;
  guint64 total = 0;
  gsize len;

  g_assert_nonnull (manifest);
  g_assert_true (g_file_test (started, G_FILE_TEST_IS_REGULAR));
  summary_text = read_file (summary_path, &len);
  p = g_build_filename (dir, "manifest-summary.checksum", NULL);
  sum = read_file (p, &len);
  sum2 = md5_hex (summary_text, strlen (summary_text));
  g_assert_cmpstr (sum, ==, sum2);
  summary = json_loads (summary_text, 0, NULL);
  g_assert_nonnull (summary);
  g_assert_cmpstr (json_string_value (json_object_get (summary, "exportArn")), ==, arn);
  g_assert_cmpstr (json_string_value (json_object_get (summary, "exportType")), ==,
                   incremental ? "INCREMENTAL_EXPORT" : "FULL_EXPORT");
  g_assert_true (json_is_string (json_object_get (summary, incremental ? "exportFromTime"
                                                                        : "exportTime")));
  ion = g_strcmp0 (json_string_value (json_object_get (summary, "outputFormat")), "ION") == 0;
  g_clear_pointer (&p, g_free);
  p = g_build_filename (bucket_dir, json_string_value (json_object_get (summary,
                                                                        "manifestFilesS3Key")),
                        NULL);
  files_text = read_file (p, &len);
  g_clear_pointer (&p, g_free);
  g_clear_pointer (&sum, g_free);
  g_clear_pointer (&sum2, g_free);
  p = g_build_filename (dir, "manifest-files.checksum", NULL);
  sum = read_file (p, &len);
  sum2 = md5_hex (files_text, strlen (files_text));
  g_assert_cmpstr (sum, ==, sum2);
  lines = g_strsplit (files_text, "\n", -1);
  *n_files = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      json_auto_t *f = NULL;
      const char *key;
      g_autofree char *path = NULL;
      g_autofree char *gz = NULL;
      g_autofree char *text = NULL;
      g_autofree char *hex = NULL;
      g_autofree char *b64 = NULL;
      g_autoptr (GChecksum) ck = g_checksum_new (G_CHECKSUM_MD5);
      guint8 digest[16];
      gsize dlen = 16, gzlen, tlen;
      guint64 count = 0;
      char *line, *end;

      if (*lines[i] == '\0')
        continue;
      (*n_files)++;
      f = json_loads (lines[i], 0, NULL);
      g_assert_nonnull (f);
      key = json_string_value (json_object_get (f, "dataFileS3Key"));
      g_assert_true (g_str_has_suffix (key, ion ? ".ion.gz" : ".json.gz"));
      /* Incremental exports share AWSDynamoDB/data/; full ones keep data in their folder. */
      if (incremental)
        g_assert_true (g_str_has_prefix (key, "AWSDynamoDB/data/")
                       || strstr (key, "/AWSDynamoDB/data/") != NULL);
      else
        g_assert_true (strstr (key, "/data/") != NULL && strstr (key, "AWSDynamoDB/data/") == NULL);
      g_assert_cmpuint (strlen (strrchr (key, '/') + 1), ==, 26 + strlen (ion ? ".ion.gz"
                                                                              : ".json.gz"));
      path = g_build_filename (bucket_dir, key, NULL);
      gz = read_file (path, &gzlen);
      g_checksum_update (ck, (const guchar *) gz, gzlen);
      g_checksum_get_digest (ck, digest, &dlen);
      b64 = g_base64_encode (digest, 16);
      hex = md5_hex (gz, gzlen);
      g_assert_cmpstr (json_string_value (json_object_get (f, "md5Checksum")), ==, b64);
      g_assert_cmpstr (json_string_value (json_object_get (f, "etag")), ==, hex);
      text = gunzip (gz, gzlen, &tlen);
      for (line = text; line < text + tlen; line = end + 1)
        {
          end = memchr (line, '\n', text + tlen - line);
          g_assert_nonnull (end); /* every record ends its line */
          g_ptr_array_add (recs, parse_line (line, end - line, ion));
          count++;
        }
      g_assert_cmpint (json_integer_value (json_object_get (f, "itemCount")), ==, count);
      total += count;
    }
  g_assert_cmpint (json_integer_value (json_object_get (summary, "itemCount")), ==, total);
  g_assert_cmpint (json_integer_value (json_object_get (d, "ItemCount")), ==, total);
  return recs;
}

static json_t *
start_export (DdbEngine *e, const char *fmt, ...) G_GNUC_PRINTF (2, 3);

static json_t *
start_export (DdbEngine *e, const char *fmt, ...)
{
  va_list ap;
  g_autofree char *text = NULL;
  json_auto_t *req = NULL;
  json_t *resp, *d;

  va_start (ap, fmt);
  text = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  req = etu_json ("%s", text);
  resp = etu_call_ok (e, "ExportTableToPointInTime", req);
  d = json_incref (json_object_get (resp, "ExportDescription"));
  json_decref (resp);
  g_assert_cmpstr (json_string_value (json_object_get (d, "ExportStatus")), ==, "IN_PROGRESS");
  return d;
}

static double
secs (gint64 us)
{
  return us / 1e6;
}

/* Full exports at `t` in both formats equal `want`. */
static void
check_full (DdbEngine *e, const char *bucket_dir, gint64 t, State *want, gboolean now)
{
  static const char *const formats[] = { "DYNAMODB_JSON", "ION" };

  for (guint f = 0; f < 2; f++)
    {
      g_autofree char *time_member = now ? g_strdup ("") : g_strdup_printf (",'ExportTime':%.6f",
                                                                            secs (t));
      json_auto_t *d0 = start_export (e,
                                      "{'TableArn':'" ARN "','S3Bucket':'bkt','S3Prefix':'p/q',"
                                      "'ExportFormat':'%s'%s}",
                                      formats[f], time_member);
      json_auto_t *d = wait_export (e, json_string_value (json_object_get (d0, "ExportArn")));
      g_autoptr (GPtrArray) recs = NULL;
      g_autoptr (GPtrArray) got = g_ptr_array_new_with_free_func ((GDestroyNotify) ddb_value_free);
      g_autoptr (GPtrArray) expected = state_items (want);
      guint n_files;

      g_assert_cmpstr (json_string_value (json_object_get (d, "ExportStatus")), ==, "COMPLETED");
      g_assert_true (g_str_has_prefix (json_string_value (json_object_get (d, "ExportManifest")),
                                       "p/q/AWSDynamoDB/"));
      recs = read_export (bucket_dir, d, FALSE, &n_files);
      g_assert_cmpuint (n_files, >, 1); /* rolled over at DYNOSCOPE_EXPORT_FILE_BYTES */
      for (guint i = 0; i < recs->len; i++)
        {
          Rec *r = recs->pdata[i];

          g_assert_nonnull (r->item);
          g_ptr_array_add (got, g_steal_pointer (&r->item));
        }
      corpus_assert_same_items (expected, got, "pk", NULL);
    }
}

/* Incremental exports of [from, to) in both formats and views equal the changes from `a` to
 * `b`, one record per changed item. */
static void
check_incremental (DdbEngine *e, const char *bucket_dir, gint64 from, gint64 to, State *a,
                   State *b)
{
  static const char *const formats[] = { "DYNAMODB_JSON", "ION" };
  static const char *const views[] = { "NEW_AND_OLD_IMAGES", "NEW_IMAGE" };
  g_autoptr (GHashTable) keys = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter it;
  gpointer k, v;
  guint changed = 0;

  g_hash_table_iter_init (&it, a);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_hash_table_add (keys, k);
  g_hash_table_iter_init (&it, b);
  while (g_hash_table_iter_next (&it, &k, &v))
    g_hash_table_add (keys, k);
  g_hash_table_iter_init (&it, keys);
  while (g_hash_table_iter_next (&it, &k, NULL))
    {
      DdbValue *x = g_hash_table_lookup (a, k), *y = g_hash_table_lookup (b, k);

      if (!(x == NULL ? y == NULL : y != NULL && ddb_value_equal (x, y)))
        changed++;
    }
  g_assert_cmpuint (changed, >, 0);

  for (guint f = 0; f < 2; f++)
    for (guint vw = 0; vw < 2; vw++)
      {
        json_auto_t *d0 = start_export (
            e,
            "{'TableArn':'" ARN "','S3Bucket':'bkt','ExportFormat':'%s',"
            "'ExportType':'INCREMENTAL_EXPORT','IncrementalExportSpecification':"
            "{'ExportFromTime':%.6f,'ExportToTime':%.6f,'ExportViewType':'%s'}}",
            formats[f], secs (from), secs (to), views[vw]);
        json_auto_t *d = wait_export (e, json_string_value (json_object_get (d0, "ExportArn")));
        g_autoptr (GPtrArray) recs = NULL;
        g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
        guint n_files;

        g_assert_cmpstr (json_string_value (json_object_get (d, "ExportStatus")), ==,
                         "COMPLETED");
        recs = read_export (bucket_dir, d, TRUE, &n_files);
        g_assert_cmpuint (recs->len, ==, changed);
        for (guint i = 0; i < recs->len; i++)
          {
            Rec *r = recs->pdata[i];
            const char *pk;
            DdbValue *x, *y;

            g_assert_null (r->item);
            g_assert_nonnull (r->keys);
            g_assert_cmpuint (ddb_value_map_size (r->keys), ==, 1);
            pk = pk_of (r->keys);
            g_assert_true (g_hash_table_add (seen, (gpointer) pk)); /* one record an item */
            x = g_hash_table_lookup (a, pk);
            y = g_hash_table_lookup (b, pk);
            g_assert_cmpint (r->write_us, >=, from);
            g_assert_cmpint (r->write_us, <, to);
            if (y == NULL)
              g_assert_null (r->new_image);
            else
              g_assert_true (r->new_image != NULL && ddb_value_equal (r->new_image, y));
            if (vw == 1 || x == NULL)
              g_assert_null (r->old_image);
            else
              g_assert_true (r->old_image != NULL && ddb_value_equal (r->old_image, x));
          }
      }
}

static void
test_exports (void)
{
  g_autofree char *dir = etu_tmp_dir ("exports-XXXXXX");
  g_autofree char *db = g_build_filename (dir, "t.db", NULL);
  g_autofree char *root = g_build_filename (dir, "s3", NULL);
  g_autofree char *bucket_dir = g_build_filename (root, "bkt", NULL);
  g_autoptr (GPtrArray) corpus = corpus_items (80, 26, "pk", NULL);
  g_autoptr (GPtrArray) corpus2 = corpus_items (80, 2626, "pk", NULL);
  g_autoptr (DdbEngine) e = NULL;
  g_autoptr (GError) error = NULL;
  State *s = state_new (), *s0, *s1, *s2, *s3;
  json_t *r;
  gint64 t0, t1, t2, t3;

  g_setenv ("DYNOSCOPE_EXPORT_FILE_BYTES", "3000", TRUE);
  g_assert_cmpint (g_mkdir_with_parents (bucket_dir, 0700), ==, 0);
  e = ddb_engine_open (db, &error);
  g_assert_no_error (error);
  ddb_engine_set_export_dir (e, root);
  json_decref (etu_ok (e, "CreateTable",
                       "{'TableName':'" TABLE "','BillingMode':'PAY_PER_REQUEST',"
                       "'AttributeDefinitions':[{'AttributeName':'pk','AttributeType':'S'}],"
                       "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'}]}"));

  /* Without PITR: the state before enabling is not exportable. */
  r = etu_ok (e, "DescribeContinuousBackups", "{'TableName':'" TABLE "'}");
  etu_assert_json (r, "{'ContinuousBackupsDescription':{'ContinuousBackupsStatus':'ENABLED',"
                      "'PointInTimeRecoveryDescription':{'PointInTimeRecoveryStatus':'DISABLED'}}}");
  json_decref (r);
  json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_PITR_UNAVAILABLE,
                          "Point in time recovery is not enabled for table '" TABLE "'",
                          "{'TableArn':'" ARN "','S3Bucket':'bkt'}"));
  for (guint i = 0; i < 10; i++)
    put (e, s, corpus->pdata[i]);

  t0 = g_get_real_time ();
  r = etu_ok (e, "UpdateContinuousBackups",
              "{'TableName':'" ARN "','PointInTimeRecoverySpecification':"
              "{'PointInTimeRecoveryEnabled':true,'RecoveryPeriodInDays':7}}");
  {
    json_t *p = json_object_get (json_object_get (r, "ContinuousBackupsDescription"),
                                 "PointInTimeRecoveryDescription");
    double earliest = json_number_value (json_object_get (p, "EarliestRestorableDateTime"));

    g_assert_cmpstr (json_string_value (json_object_get (p, "PointInTimeRecoveryStatus")), ==,
                     "ENABLED");
    g_assert_cmpint (json_integer_value (json_object_get (p, "RecoveryPeriodInDays")), ==, 7);
    g_assert_cmpfloat (earliest, >=, secs (t0) - 0.002);
    g_assert_cmpfloat (earliest, <=, json_number_value (json_object_get (
                                          p, "LatestRestorableDateTime")));
  }
  json_decref (r);
  json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_INVALID_EXPORT_TIME, NULL,
                          "{'TableArn':'" ARN "','S3Bucket':'bkt','ExportTime':%.3f}",
                          secs (t0) - 60));
  json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_INVALID_EXPORT_TIME, NULL,
                          "{'TableArn':'" ARN "','S3Bucket':'bkt','ExportTime':%.3f}",
                          secs (g_get_real_time ()) + 3600));
  json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_TABLE_NOT_FOUND,
                          "Table not found: Nope",
                          "{'TableArn':'arn:aws:dynamodb:ddblocal:000000000000:table/Nope',"
                          "'S3Bucket':'bkt'}"));
  json_decref (etu_fails (e, "DescribeExport", DDB_ERROR_EXPORT_NOT_FOUND, NULL,
                          "{'ExportArn':'" ARN "/export/00000000000000-00000000'}"));
  json_decref (etu_fails (e, "UpdateContinuousBackups", DDB_ERROR_VALIDATION, NULL,
                          "{'TableName':'" TABLE "','PointInTimeRecoverySpecification':"
                          "{'PointInTimeRecoveryEnabled':true,'RecoveryPeriodInDays':36}}"));

  /* Phase A: the rest of the first items. */
  for (guint i = 10; i < 40; i++)
    put (e, s, corpus->pdata[i]);
  t1 = instant ();
  s1 = state_copy (s);
  /* Phase B: updates (one twice), deletes, inserts. */
  for (guint i = 0; i < 10; i++)
    {
      g_autoptr (DdbValue) u = ddb_value_copy (corpus2->pdata[i]);

      ddb_value_map_set (u, "pk", ddb_value_copy (ddb_value_map_get (corpus->pdata[i], "pk")));
      put (e, s, u);
    }
  {
    g_autoptr (DdbValue) u = ddb_value_copy (corpus2->pdata[70]);

    ddb_value_map_set (u, "pk", ddb_value_copy (ddb_value_map_get (corpus->pdata[0], "pk")));
    put (e, s, u);
  }
  for (guint i = 10; i < 20; i++)
    del (e, s, pk_of (corpus->pdata[i]));
  for (guint i = 40; i < 50; i++)
    put (e, s, corpus->pdata[i]);
  t2 = instant ();
  s2 = state_copy (s);
  /* Phase C: deletes of new items, an insert deleted again, updates through UpdateItem. */
  for (guint i = 40; i < 45; i++)
    del (e, s, pk_of (corpus->pdata[i]));
  put (e, s, corpus->pdata[55]);
  del (e, s, pk_of (corpus->pdata[55]));
  for (guint i = 50; i < 55; i++)
    put (e, s, corpus->pdata[i]);
  for (guint i = 20; i < 25; i++)
    {
      json_auto_t *req = json_pack ("{ss s{s{ss}} ss s{s{ss}}}", "TableName", TABLE, "Key", "pk",
                                    "S", pk_of (corpus->pdata[i]), "UpdateExpression",
                                    "SET extra = :v", "ExpressionAttributeValues", ":v", "S",
                                    "changed");
      json_auto_t *resp = etu_call_ok (e, "UpdateItem", req);
      DdbValue *cur = ddb_value_copy (g_hash_table_lookup (s, pk_of (corpus->pdata[i])));

      ddb_value_map_set (cur, "extra", ddb_value_new_s ("changed", -1));
      g_hash_table_insert (s, g_strdup (pk_of (cur)), cur);
    }
  t3 = instant ();
  s3 = state_copy (s);
  /* A change after every export time: it must appear in none of the exports. */
  put (e, s, corpus->pdata[79]);

  check_full (e, bucket_dir, t1, s1, FALSE);
  check_full (e, bucket_dir, t2, s2, FALSE);
  check_full (e, bucket_dir, t3, s3, FALSE);
  check_full (e, bucket_dir, 0, s, TRUE);
  check_incremental (e, bucket_dir, t1, t2, s1, s2);
  check_incremental (e, bucket_dir, t2, t3, s2, s3);
  check_incremental (e, bucket_dir, t1, t3, s1, s3);
  s0 = state_new ();
  /* An empty window: one empty data file. */
  {
    gint64 q = instant ();
    json_auto_t *d0 = start_export (
        e, "{'TableArn':'" ARN "','S3Bucket':'bkt','ExportType':'INCREMENTAL_EXPORT',"
           "'IncrementalExportSpecification':{'ExportFromTime':%.6f,'ExportToTime':%.6f}}",
        secs (q), secs (instant ()));
    json_auto_t *d = wait_export (e, json_string_value (json_object_get (d0, "ExportArn")));
    g_autoptr (GPtrArray) recs = NULL;
    guint n_files;

    recs = read_export (bucket_dir, d, TRUE, &n_files);
    g_assert_cmpuint (recs->len, ==, 0);
    g_assert_cmpuint (n_files, ==, 1);
    g_assert_cmpstr (json_string_value (json_object_get (
                         json_object_get (d, "IncrementalExportSpecification"), "ExportViewType")),
                     ==, "NEW_AND_OLD_IMAGES");
  }

  /* ClientToken: the same request is the same export; other parameters conflict. */
  {
    json_auto_t *a = start_export (e, "{'TableArn':'" ARN "','S3Bucket':'bkt','ClientToken':'tok1'}");
    json_auto_t *req = etu_json ("{'TableArn':'" ARN "','S3Bucket':'bkt','ClientToken':'tok1'}");
    json_auto_t *b = etu_call_ok (e, "ExportTableToPointInTime", req);
    json_auto_t *done = wait_export (e, json_string_value (json_object_get (a, "ExportArn")));

    g_assert_true (json_equal (json_object_get (a, "ExportArn"),
                               json_object_get (json_object_get (b, "ExportDescription"),
                                                "ExportArn")));
    json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_IMPORT_CONFLICT, NULL,
                            "{'TableArn':'" ARN "','S3Bucket':'bkt','ClientToken':'tok1',"
                            "'ExportFormat':'ION'}"));
  }
  /* A missing bucket: FAILED, S3NoSuchBucket. */
  {
    json_auto_t *a = start_export (e, "{'TableArn':'" ARN "','S3Bucket':'nobucket'}");
    json_auto_t *d = wait_export (e, json_string_value (json_object_get (a, "ExportArn")));

    g_assert_cmpstr (json_string_value (json_object_get (d, "ExportStatus")), ==, "FAILED");
    g_assert_cmpstr (json_string_value (json_object_get (d, "FailureCode")), ==,
                     "S3NoSuchBucket");
    g_assert_nonnull (json_string_value (json_object_get (d, "FailureMessage")));
  }

  /* ListExports: every export, paged, then after a reopen the same descriptions. */
  {
    g_autoptr (GPtrArray) arns = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *next = NULL;
    json_auto_t *first = NULL;
    guint pages = 0;

    do
      {
        json_auto_t *resp = next == NULL
                                ? etu_ok (e, "ListExports", "{'TableArn':'" ARN "','MaxResults':4}")
                                : etu_ok (e, "ListExports",
                                          "{'TableArn':'" ARN "','MaxResults':4,'NextToken':'%s'}",
                                          next);
        json_t *list = json_object_get (resp, "ExportSummaries");
        size_t i;
        json_t *x;

        g_assert_cmpuint (json_array_size (list), <=, 4);
        json_array_foreach (list, i, x)
          {
            g_assert_nonnull (json_string_value (json_object_get (x, "ExportStatus")));
            g_assert_nonnull (json_string_value (json_object_get (x, "ExportType")));
            g_ptr_array_add (arns, g_strdup (json_string_value (json_object_get (x, "ExportArn"))));
          }
        g_free (next);
        next = g_strdup (json_string_value (json_object_get (resp, "NextToken")));
        pages++;
      }
    while (next != NULL);
    /* 4 times 2 full, 3 times 4 incremental, 1 empty, 1 token, 1 failed */
    g_assert_cmpuint (arns->len, ==, 8 + 12 + 3);
    g_assert_cmpuint (pages, ==, (arns->len + 3) / 4);
    json_decref (etu_fails (e, "ListExports", DDB_ERROR_VALIDATION, NULL, "{'MaxResults':26}"));

    first = etu_ok (e, "DescribeExport", "{'ExportArn':'%s'}", (char *) arns->pdata[0]);
    g_clear_pointer (&e, ddb_engine_free);
    e = ddb_engine_open (db, &error);
    g_assert_no_error (error);
    r = etu_ok (e, "DescribeExport", "{'ExportArn':'%s'}", (char *) arns->pdata[0]);
    g_assert_true (json_equal (r, first));
    json_decref (r);
  }

  /* Disabling forgets the history: the window starts again. */
  json_decref (etu_ok (e, "UpdateContinuousBackups",
                       "{'TableName':'" TABLE "','PointInTimeRecoverySpecification':"
                       "{'PointInTimeRecoveryEnabled':false}}"));
  json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_PITR_UNAVAILABLE, NULL,
                          "{'TableArn':'" ARN "','S3Bucket':'bkt'}"));
  json_decref (etu_ok (e, "UpdateContinuousBackups",
                       "{'TableName':'" TABLE "','PointInTimeRecoverySpecification':"
                       "{'PointInTimeRecoveryEnabled':true}}"));
  json_decref (etu_fails (e, "ExportTableToPointInTime", DDB_ERROR_INVALID_EXPORT_TIME, NULL,
                          "{'TableArn':'" ARN "','S3Bucket':'bkt','ExportTime':%.6f}",
                          secs (t3)));
  r = etu_ok (e, "DescribeContinuousBackups", "{'TableName':'" TABLE "'}");
  g_assert_cmpint (json_integer_value (json_object_get (
                       json_object_get (json_object_get (r, "ContinuousBackupsDescription"),
                                        "PointInTimeRecoveryDescription"),
                       "RecoveryPeriodInDays")),
                   ==, 35);
  json_decref (r);

  g_hash_table_unref (s);
  g_hash_table_unref (s0);
  g_hash_table_unref (s1);
  g_hash_table_unref (s2);
  g_hash_table_unref (s3);
  g_clear_pointer (&e, ddb_engine_free);
  etu_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/exports/pitr-full-incremental", test_exports);
  return g_test_run ();
}
