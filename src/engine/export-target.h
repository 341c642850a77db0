/* export-target.h: where the engine's ExportTableToPointInTime writes. An export job asks the
 * target for a PUT into the request's S3Bucket, then hands every object of the export layout
 * (export-layout.h) to it. Without a target, exports end FAILED.
 *
 * Two targets: a folder standing for S3 (ddb_engine_set_export_dir: s3://BUCKET/KEY is
 * DIR/BUCKET/KEY, a missing DIR/BUCKET fails the job with S3NoSuchBucket as AWS does for a
 * missing bucket), or any other through ddb_engine_set_export_target: an S3 client plugs in
 * there, its open_bucket returning a PUT callback over the bucket (serve's cli/serve-s3.c,
 * and exports/s3-target.h in the process). */
#pragma once

#include "engine/engine.h"
#include "engine/export-layout.h"

G_BEGIN_DECLS

/* Binds a PUT to `bucket` (owned by `bucket_owner`, an account id, NULL when the request named
 * none): sets *put, *put_data and *put_data_free (may stay NULL), or returns FALSE with an
 * error (DDB_EXPORT_ERROR_NO_SUCH_BUCKET / _ACCESS_DENIED become the job's FailureCode). Called
 * on the job's thread. */
typedef gboolean (*DdbExportBucketFunc) (const char *bucket, const char *bucket_owner,
                                         gpointer user_data, DdbExportPutFunc *put,
                                         gpointer *put_data, GDestroyNotify *put_data_free,
                                         GError **error);

/* Called with the target's user_data when the engine closes, before it waits for the running
 * exports, so that a put under way stops rather than running to its end (a request cancelled,
 * a process killed); the put then fails, and so does its export. */
typedef void (*DdbExportStopFunc) (gpointer user_data);

/* Sets the target (replacing any; `destroy` frees user_data when replaced or with the engine;
 * `stop` may be NULL). Before exports are asked for. */
void ddb_engine_set_export_target (DdbEngine *engine, DdbExportBucketFunc open_bucket,
                                   DdbExportStopFunc stop, gpointer user_data,
                                   GDestroyNotify destroy);
/* The folder target: bucket B is the folder DIR/B. */
void ddb_engine_set_export_dir (DdbEngine *engine, const char *dir);

G_END_DECLS
