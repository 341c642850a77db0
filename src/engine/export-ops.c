/* export-ops.c: ExportTableToPointInTime, DescribeExport and ListExports, and the exports'
 * target (export-target.h). An export is a job (export-job.c) that writes the table as it was
 * at ExportTime (full) or the changes of a window (incremental) from the point-in-time recovery
 * history, in DynamoDB's S3 layout, to the engine's target; its ExportDescription lives in the
 * store (export-store.c) from the request on, IN_PROGRESS, then COMPLETED or FAILED. */
#include <string.h>

#include "core/error.h"
#include "engine/export-private.h"
#include "engine/export-store.h"
#include "engine/pitr-store.h"
#include "engine/request.h"

/* A ClientToken identifies its export this long (AWS: 8 hours). */
#define TOKEN_LIFETIME_US (8 * G_TIME_SPAN_HOUR)
/* The longest incremental export window AWS takes. */
#define MAX_INCREMENTAL_US (24 * G_TIME_SPAN_HOUR)

/* ---- Target ---- */

static gboolean
folder_open_bucket (const char *bucket, const char *owner, gpointer user_data,
                    DdbExportPutFunc *put, gpointer *put_data, GDestroyNotify *put_data_free,
                    GError **error)
{
  (void) owner;
  (void) error;
  *put = ddb_export_folder_put;
  *put_data = g_build_filename (user_data, bucket, NULL);
  *put_data_free = g_free;
  return TRUE;
}

void
ddb_engine_set_export_target (DdbEngine *e, DdbExportBucketFunc open_bucket, DdbExportStopFunc stop,
                              gpointer user_data, GDestroyNotify destroy)
{
  g_mutex_lock (&e->export_lock);
  if (e->export_target_destroy != NULL)
    e->export_target_destroy (e->export_target_data);
  e->export_open_bucket = open_bucket;
  e->export_target_data = user_data;
  e->export_target_destroy = destroy;
  e->export_target_stop = stop;
  g_mutex_unlock (&e->export_lock);
}

void
ddb_engine_set_export_dir (DdbEngine *e, const char *dir)
{
  ddb_engine_set_export_target (e, folder_open_bucket, NULL, g_strdup (dir), g_free);
}

void
ddb_exports_init (DdbEngine *e)
{
  g_autoptr (GError) error = NULL;

  g_mutex_init (&e->export_lock);
  g_cond_init (&e->export_idle);
  if (!ddb_export_store_recover (e->store, &error))
    g_warning ("Cannot end the exports a restart interrupted: %s", error->message);
}

void
ddb_exports_shutdown (DdbEngine *e)
{
  g_atomic_int_set (&e->export_closing, 1);
  g_mutex_lock (&e->export_lock);
  if (e->export_target_stop != NULL && e->exports_running > 0)
    e->export_target_stop (e->export_target_data);
  while (e->exports_running > 0)
    g_cond_wait (&e->export_idle, &e->export_lock);
  g_mutex_unlock (&e->export_lock);
  ddb_engine_set_export_target (e, NULL, NULL, NULL, NULL);
  g_mutex_clear (&e->export_lock);
  g_cond_clear (&e->export_idle);
}

void
ddb_export_job_spec_free (DdbExportJobSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->export_arn);
  ddb_table_def_free (spec->def);
  g_free (spec->bucket);
  g_free (spec->bucket_owner);
  g_free (spec->prefix);
  g_free (spec->sse);
  g_free (spec->kms);
  if (spec->description != NULL)
    json_decref (spec->description);
  g_free (spec);
}

/* ---- Requests ---- */

/* An optional timestamp member (epoch seconds) in microseconds; *present tells. */
static gboolean
time_member (json_t *obj, const char *member, gint64 *us, gboolean *present, GError **error)
{
  json_t *j = json_object_get (obj, member);

  *present = j != NULL && !json_is_null (j);
  if (!*present)
    return TRUE;
  if (!json_is_number (j))
    return ddb_req_type_error (j, "Timestamp", error);
  {
    double v = json_number_value (j) * G_USEC_PER_SEC;

    *us = (gint64) (v >= 0 ? v + 0.5 : v - 0.5);
  }
  return TRUE;
}

static void
check_length (DdbViolations *v, const char *path, const char *s, gsize min, gsize max)
{
  g_autofree char *c = NULL;

  if (s == NULL)
    return;
  if (strlen (s) < min)
    {
      c = g_strdup_printf ("Member must have length greater than or equal to %zu", min);
      ddb_violation_add (v, path, s, c);
    }
  else if (strlen (s) > max)
    {
      c = g_strdup_printf ("Member must have length less than or equal to %zu", max);
      ddb_violation_add (v, path, s, c);
    }
}

/* S3Bucket: ^[a-z0-9A-Z]+[\.\-\w]*[a-z0-9A-Z]+$, at most 255 characters. */
static gboolean
bucket_name_ok (const char *b)
{
  gsize n = strlen (b);

  if (n < 2 || !g_ascii_isalnum (b[0]) || !g_ascii_isalnum (b[n - 1]))
    return FALSE;
  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isalnum (b[i]) && b[i] != '.' && b[i] != '-' && b[i] != '_')
      return FALSE;
  return TRUE;
}

static char *
new_export_arn (const char *table_arn)
{
  return g_strdup_printf ("%s/export/%014" G_GINT64_FORMAT "-%08x", table_arn,
                          g_get_real_time () / 1000, g_random_int ());
}

/* The parameters an idempotent retry must repeat: the request without its ClientToken. */
static char *
params_digest (json_t *req)
{
  json_auto_t *copy = json_deep_copy (req);

  json_object_del (copy, "ClientToken");
  return json_dumps (copy, JSON_COMPACT | JSON_SORT_KEYS);
}

json_t *
ddb_op_export_table_to_point_in_time (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  static const char *const formats[] = { "DYNAMODB_JSON", "ION", NULL };
  static const char *const types[] = { "FULL_EXPORT", "INCREMENTAL_EXPORT", NULL };
  static const char *const sses[] = { "AES256", "KMS", NULL };
  static const char *const views[] = { "NEW_AND_OLD_IMAGES", "NEW_IMAGE", NULL };
  const char *table_arn, *token, *bucket, *owner, *prefix, *kms;
  json_t *inc = json_object_get (req, "IncrementalExportSpecification");
  int format, type, sse, view = 0;
  gint64 now = g_get_real_time (), export_us = now, from_us = 0, to_us = now, earliest, latest;
  gboolean has_time, has_from = FALSE, has_to = FALSE;
  g_autoptr (DdbTableDef) def = NULL;
  g_autoptr (DdbExportJobSpec) spec = NULL;
  g_autofree char *params = NULL;
  g_autofree char *own_arn = NULL;
  json_t *d;
  DdbViolations v;

  (void) extra;
#define STR(var, member)                                                                       \
  var = ddb_req_string (req, member, FALSE, error);                                           \
  if (var == NULL && error != NULL && *error != NULL)                                          \
    return NULL;
  STR (table_arn, "TableArn");
  STR (token, "ClientToken");
  STR (bucket, "S3Bucket");
  STR (owner, "S3BucketOwner");
  STR (prefix, "S3Prefix");
  STR (kms, "S3SseKmsKeyId");
#undef STR
  if ((format = ddb_req_enum (req, "ExportFormat", formats, 0, error)) < 0
      || (type = ddb_req_enum (req, "ExportType", types, 0, error)) < 0
      || (sse = ddb_req_enum (req, "S3SseAlgorithm", sses, 0, error)) < 0)
    return NULL;
  if (inc != NULL && !json_is_object (inc))
    return ddb_req_fail (error, DDB_ERROR_SERIALIZATION,
                         "Start of structure or map found where not expected");
  if (inc != NULL && (view = ddb_req_enum (inc, "ExportViewType", views, 0, error)) < 0)
    return NULL;
  if (!time_member (req, "ExportTime", &export_us, &has_time, error)
      || !time_member (inc, "ExportFromTime", &from_us, &has_from, error)
      || !time_member (inc, "ExportToTime", &to_us, &has_to, error))
    return NULL;

  ddb_violations_init (&v);
  if (table_arn == NULL)
    ddb_violation_add (&v, "tableArn", NULL, "Member must not be null");
  check_length (&v, "tableArn", table_arn, 1, 1024);
  check_length (&v, "clientToken", token, 0, 64);
  if (bucket == NULL)
    ddb_violation_add (&v, "s3Bucket", NULL, "Member must not be null");
  else if (strlen (bucket) > 255)
    ddb_violation_add (&v, "s3Bucket", bucket, "Member must have length less than or equal to 255");
  else if (!bucket_name_ok (bucket))
    ddb_violation_add (&v, "s3Bucket", bucket,
                       "Member must satisfy regular expression pattern: "
                       "^[a-z0-9A-Z]+[\\.\\-\\w]*[a-z0-9A-Z]+$");
  check_length (&v, "s3Prefix", prefix, 0, 1024);
  check_length (&v, "s3SseKmsKeyId", kms, 1, 2048);
  if (!ddb_violations_finish (&v, error))
    return NULL;

  params = params_digest (req);
  if (token != NULL)
    {
      json_t *known = NULL;
      g_autofree char *known_params = NULL;

      if (!ddb_export_store_by_token (e->store, token, now - TOKEN_LIFETIME_US, &known,
                                      &known_params, error))
        return NULL;
      if (known != NULL)
        {
          if (g_strcmp0 (known_params, params) == 0)
            return json_pack ("{so}", "ExportDescription", known);
          json_decref (known);
          return ddb_req_fail (error, DDB_ERROR_IMPORT_CONFLICT,
                               "There was a conflict when attempting to export: the client "
                               "token %s was used with different parameters",
                               token);
        }
    }

  def = ddb_pitr_table (e, table_arn, error);
  if (def == NULL)
    return NULL;
  if (!ddb_pitr_enabled (def, NULL, NULL))
    return ddb_req_fail (error, DDB_ERROR_PITR_UNAVAILABLE,
                         "Point in time recovery is not enabled for table '%s'", def->name);
  ddb_pitr_window (def, now, &earliest, &latest);
  if (type == 0)
    {
      if (export_us < earliest || export_us > latest)
        return ddb_req_fail (error, DDB_ERROR_INVALID_EXPORT_TIME,
                             "The specified ExportTime is outside of the point in time recovery "
                             "window.");
    }
  else
    {
      if (!has_from)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             "IncrementalExportSpecification.ExportFromTime must be specified "
                             "for an incremental export");
      if (from_us >= to_us)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             "ExportFromTime must be before ExportToTime");
      if (to_us - from_us > MAX_INCREMENTAL_US)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION,
                             "The incremental export period cannot be longer than 24 hours");
      if (from_us < earliest || to_us > latest)
        return ddb_req_fail (error, DDB_ERROR_INVALID_EXPORT_TIME,
                             "The specified export period is outside of the point in time "
                             "recovery window.");
    }

  own_arn = ddb_pitr_table_arn (def->name);
  spec = g_new0 (DdbExportJobSpec, 1);
  spec->export_arn = new_export_arn (own_arn);
  spec->format = format == 1 ? DDB_EXPORT_FORMAT_ION : DDB_EXPORT_FORMAT_DYNAMODB_JSON;
  spec->incremental = type == 1;
  spec->old_images = view == 0;
  spec->export_us = export_us;
  spec->from_us = from_us;
  spec->to_us = to_us;
  spec->start_us = now;
  spec->bucket = g_strdup (bucket);
  spec->bucket_owner = g_strdup (owner);
  spec->prefix = g_strdup (prefix);
  spec->sse = g_strdup (sses[sse]);
  spec->kms = g_strdup (kms);

  d = json_object ();
  json_object_set_new (d, "ExportArn", json_string (spec->export_arn));
  json_object_set_new (d, "ExportStatus", json_string ("IN_PROGRESS"));
  json_object_set_new (d, "StartTime", ddb_export_time_json (now));
  json_object_set_new (d, "TableArn", json_string (own_arn));
  if (json_is_string (json_object_get (def->meta, "TableId")))
    json_object_set (d, "TableId", json_object_get (def->meta, "TableId"));
  if (!spec->incremental)
    json_object_set_new (d, "ExportTime", ddb_export_time_json (export_us));
  if (token != NULL)
    json_object_set_new (d, "ClientToken", json_string (token));
  json_object_set_new (d, "S3Bucket", json_string (bucket));
  if (owner != NULL)
    json_object_set_new (d, "S3BucketOwner", json_string (owner));
  if (prefix != NULL)
    json_object_set_new (d, "S3Prefix", json_string (prefix));
  json_object_set_new (d, "S3SseAlgorithm", json_string (sses[sse]));
  if (kms != NULL)
    json_object_set_new (d, "S3SseKmsKeyId", json_string (kms));
  json_object_set_new (d, "ExportFormat", json_string (formats[format]));
  json_object_set_new (d, "ExportType", json_string (types[type]));
  if (spec->incremental)
    json_object_set_new (d, "IncrementalExportSpecification",
                         json_pack ("{so so ss}", "ExportFromTime", ddb_export_time_json (from_us),
                                    "ExportToTime", ddb_export_time_json (to_us),
                                    "ExportViewType", views[view]));
  spec->description = d;
  if (!ddb_export_store_add (e->store, d, params, now, error))
    return NULL;
  spec->def = g_steal_pointer (&def);
  d = json_deep_copy (d);
  ddb_export_job_start (e, g_steal_pointer (&spec));
  return json_pack ("{so}", "ExportDescription", d);
}

static gboolean
check_export_arn (DdbViolations *v, const char *path, const char *arn, gboolean required)
{
  if (arn == NULL && required)
    ddb_violation_add (v, path, NULL, "Member must not be null");
  check_length (v, path, arn, 37, 1024);
  return TRUE;
}

json_t *
ddb_op_describe_export (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *arn = ddb_req_string (req, "ExportArn", FALSE, error);
  json_t *d = NULL;
  DdbViolations v;

  (void) extra;
  if (arn == NULL && error != NULL && *error != NULL)
    return NULL;
  ddb_violations_init (&v);
  check_export_arn (&v, "exportArn", arn, TRUE);
  if (!ddb_violations_finish (&v, error))
    return NULL;
  if (!ddb_export_store_get (e->store, arn, &d, error))
    return NULL;
  if (d == NULL)
    return ddb_req_fail (error, DDB_ERROR_EXPORT_NOT_FOUND, "Export not found: %s", arn);
  return json_pack ("{so}", "ExportDescription", d);
}

json_t *
ddb_op_list_exports (DdbEngine *e, json_t *req, json_t **extra, GError **error)
{
  const char *table_arn = ddb_req_string (req, "TableArn", FALSE, error);
  const char *next = NULL;
  gint64 max = 25;
  gboolean present, more = FALSE;
  g_autofree char *own_arn = NULL;
  json_t *list, *summaries, *out, *d;
  DdbViolations v;
  size_t i;

  (void) extra;
  if (table_arn == NULL && error != NULL && *error != NULL)
    return NULL;
  next = ddb_req_string (req, "NextToken", FALSE, error);
  if (next == NULL && error != NULL && *error != NULL)
    return NULL;
  if (!ddb_req_int (req, "MaxResults", 1, 25, &max, &present, error))
    return NULL;
  ddb_violations_init (&v);
  check_length (&v, "tableArn", table_arn, 1, 1024);
  if (!ddb_violations_finish (&v, error))
    return NULL;
  if (table_arn != NULL)
    {
      const char *t = strstr (table_arn, ":table/");

      own_arn = ddb_pitr_table_arn (t != NULL ? t + strlen (":table/") : table_arn);
    }
  if (next != NULL)
    {
      json_t *known = NULL;

      if (!ddb_export_store_get (e->store, next, &known, error))
        return NULL;
      if (known == NULL)
        return ddb_req_fail (error, DDB_ERROR_VALIDATION, "Invalid NextToken");
      json_decref (known);
    }
  list = ddb_export_store_list (e->store, own_arn, next, (guint) max, &more, error);
  if (list == NULL)
    return NULL;
  summaries = json_array ();
  json_array_foreach (list, i, d)
    json_array_append_new (summaries,
                           json_pack ("{sO sO sO}", "ExportArn", json_object_get (d, "ExportArn"),
                                      "ExportStatus", json_object_get (d, "ExportStatus"),
                                      "ExportType", json_object_get (d, "ExportType")));
  out = json_pack ("{so}", "ExportSummaries", summaries);
  if (more && json_array_size (list) > 0)
    json_object_set (out, "NextToken",
                     json_object_get (json_array_get (list, json_array_size (list) - 1),
                                      "ExportArn"));
  json_decref (list);
  return out;
}
