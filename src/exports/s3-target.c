/* s3-target.c: S3 as the target of an embedded engine's exports (s3-target.h). */
#include "exports/s3-target.h"

#include "engine/export-target.h"

typedef struct {
  GMutex lock;
  char *profile, *region, *endpoint_url, *ca_bundle;
  DdbS3AddressingStyle addressing_style;
  DdbAwsMfaPrompt mfa_prompt;
  gpointer mfa_prompt_data;
  DdbS3 *s3;          /* made at the first export */
  GCancellable *stop; /* cancelled when the engine closes: puts under way stop */
} Target;

/* What a job's put holds: the target (it lives as long as the engine) and the bucket. */
typedef struct {
  Target *target;
  char *bucket;
} Put;

static void
target_free (gpointer data)
{
  Target *t = data;

  g_clear_pointer (&t->s3, ddb_s3_free);
  g_clear_object (&t->stop);
  g_free (t->profile);
  g_free (t->region);
  g_free (t->endpoint_url);
  g_free (t->ca_bundle);
  g_mutex_clear (&t->lock);
  g_free (t);
}

static void
put_free (gpointer data)
{
  Put *p = data;

  g_free (p->bucket);
  g_free (p);
}

/* The export failure for an S3 error: NoSuchBucket and AccessDenied become the job's
 * S3NoSuchBucket and S3AccessDenied, any other DDB_EXPORT_ERROR_FAILED; the message is kept.
 * Takes INNER. */
static void
export_error (GError **error, GError *inner)
{
  DdbExportErrorCode code = DDB_EXPORT_ERROR_FAILED;

  if (inner->domain == DDB_S3_ERROR && inner->code == DDB_S3_ERROR_NO_SUCH_BUCKET)
    code = DDB_EXPORT_ERROR_NO_SUCH_BUCKET;
  else if (inner->domain == DDB_S3_ERROR && inner->code == DDB_S3_ERROR_ACCESS_DENIED)
    code = DDB_EXPORT_ERROR_ACCESS_DENIED;
  g_set_error_literal (error, DDB_EXPORT_ERROR, code, inner->message);
  g_error_free (inner);
}

static gboolean
s3_put (const char *key, GBytes *contents, gpointer data, GCancellable *cancellable, GError **error)
{
  Put *p = data;
  GError *inner = NULL;

  (void) cancellable; /* the engine's jobs stop through the target's own */
  if (ddb_s3_put_object (p->target->s3, p->bucket, key, contents, NULL, p->target->stop, NULL, NULL,
                         &inner))
    return TRUE;
  export_error (error, inner);
  return FALSE;
}

static gboolean
open_bucket (const char *bucket, const char *bucket_owner, gpointer user_data,
             DdbExportPutFunc *put, gpointer *put_data, GDestroyNotify *put_data_free,
             GError **error)
{
  Target *t = user_data;
  Put *p;
  GError *inner = NULL;

  (void) bucket_owner;
  g_mutex_lock (&t->lock);
  if (t->s3 == NULL)
    {
      DdbS3Options o = {
        .profile = t->profile,
        .region = t->region,
        .endpoint_url = t->endpoint_url,
        .ca_bundle = t->ca_bundle,
        .addressing_style = t->addressing_style,
        .mfa_prompt = t->mfa_prompt,
        .mfa_prompt_data = t->mfa_prompt_data,
      };

      t->s3 = ddb_s3_new (&o, &inner);
    }
  g_mutex_unlock (&t->lock);
  if (inner != NULL)
    {
      export_error (error, inner);
      return FALSE;
    }
  p = g_new0 (Put, 1);
  p->target = t;
  p->bucket = g_strdup (bucket);
  *put = s3_put;
  *put_data = p;
  *put_data_free = put_free;
  return TRUE;
}

static void
target_stop (gpointer data)
{
  g_cancellable_cancel (((Target *) data)->stop);
}

void
ddb_s3_set_export_target (DdbEngine *engine, const DdbS3Options *options)
{
  Target *t = g_new0 (Target, 1);

  g_mutex_init (&t->lock);
  t->stop = g_cancellable_new ();
  t->profile = g_strdup (options->profile);
  t->region = g_strdup (options->region);
  t->endpoint_url = g_strdup (options->endpoint_url);
  t->ca_bundle = g_strdup (options->ca_bundle);
  t->addressing_style = options->addressing_style;
  t->mfa_prompt = options->mfa_prompt;
  t->mfa_prompt_data = options->mfa_prompt_data;
  ddb_engine_set_export_target (engine, open_bucket, target_stop, t, target_free);
}
