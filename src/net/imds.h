/* imds.h: what the EC2 instance metadata service (imds.c) gives besides credentials. */
#pragma once

#include "net/credentials.h"

G_BEGIN_DECLS

/* The instance's region (IMDSv2 GET /latest/meta-data/placement/region), for when nothing
 * else configures one. NULL with an error when IMDS is disabled (AWS_EC2_METADATA_DISABLED),
 * does not answer within the metadata timeouts, or refuses. */
char *ddb_imds_region (DdbAwsSession *session, GCancellable *cancellable, GError **error);

G_END_DECLS
