/* serve-s3.h: serve's exports written into an S3 bucket, while dynoscope-serve stays lean: the
 * engine's export target (engine/export-target.h) hands each object to `dynoscope-cli s3 put`,
 * the launcher found beside this executable, which signs and sends it with the full CLI's S3
 * client (the profile's credentials, AWS_ENDPOINT_URL_S3 ...). S3's refusals become the
 * export's FailureCode as AWS reports them: S3NoSuchBucket, S3AccessDenied. GLib core only. */
#pragma once

#include "engine/engine.h"

G_BEGIN_DECLS

/* Whether exports go to S3: asked for (--export-s3), or, without --export-dir, because an S3
 * endpoint is configured in the environment (AWS_ENDPOINT_URL_S3, else AWS_ENDPOINT_URL). */
gboolean cli_serve_s3_wanted (gboolean asked, const char *export_dir);

/* Makes ENGINE's exports go to S3 through `dynoscope-cli s3 put`. FALSE with an error when
 * dynoscope-cli cannot be found. */
gboolean cli_serve_s3_set_target (DdbEngine *engine, GError **error);

G_END_DECLS
