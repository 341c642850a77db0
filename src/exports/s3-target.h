/* s3-target.h: S3 as the target of an embedded engine's exports (GTK-free): the objects an
 * ExportTableToPointInTime job writes (engine/export-target.h) are put in the request's bucket
 * with net/s3.h's PutObject, in the process, signed with a session resolved as the AWS CLI does
 * (the profile and region given, else AWS_PROFILE, AWS_REGION, ...; AWS_ENDPOINT_URL_S3 and the
 * profile's [services] honoured). The S3 client is made at the first export, so that an
 * engine that never exports needs no region; a configuration error (no region) then fails
 * that export with its message. When the engine closes, a put under way is cancelled.
 * serve's target is cli/serve-s3.c (serve links no libcurl). */
#pragma once

#include "engine/engine.h"
#include "net/s3.h"

G_BEGIN_DECLS

/* Sets the target of ENGINE's exports to S3 with OPTIONS (copied: profile, region, endpoint_url,
 * ca_bundle, addressing_style, the MFA prompt; envp is not kept, the process environment is
 * read). */
void ddb_s3_set_export_target (DdbEngine *engine, const DdbS3Options *options);

G_END_DECLS
