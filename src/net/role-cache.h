/* role-cache.h: the AWS CLI's cache of assumed-role credentials (AssumeRole and
 * AssumeRoleWithWebIdentity), ~/.aws/cli/cache/<key>.json, shared with the CLI both ways: the
 * key is botocore's BaseAssumeRoleCredentialFetcher._create_cache_key (the SHA-1 of the call's
 * arguments as json.dumps (sort_keys=True) writes them, without a generated RoleSessionName),
 * the content is what JSONFileCache writes ({"Credentials": {..., "Expiration":
 * "2030-01-01T01:00:00UTC", "AccountId": ...}}), written atomically with mode 0600 in a
 * directory of mode 0700. Entries are used while more than 15 minutes remain, as botocore's
 * CachedCredentialFetcher does. */
#pragma once

#include "net/credentials-private.h"

G_BEGIN_DECLS

/* The arguments of the assume-role call that make the key (NULL / < 0: not part of it). */
typedef struct {
  const char *role_arn;
  const char *role_session_name; /* only when configured */
  const char *external_id;
  const char *serial_number;
  gint64 duration_seconds;
} DdbRoleCacheArgs;

/* The file name without ".json": a SHA-1 in hex. */
char *ddb_role_cache_key (const DdbRoleCacheArgs *args);

/* $HOME/.aws/cli/cache for the session's environment. */
char *ddb_role_cache_dir (DdbAwsSession *session);

/* The credentials cached under KEY in DIR when they are still good at NOW (more than 15
 * minutes left), labelled METHOD; NULL otherwise (missing, unreadable, malformed, expiring). */
DdbAwsCredentials *ddb_role_cache_load (const char *dir, const char *key, gint64 now,
                                        const char *method);

/* Writes CREDS under KEY in DIR as the CLI does; ROLE_ARN gives the AccountId. */
gboolean ddb_role_cache_store (const char *dir, const char *key, const DdbAwsCredentials *creds,
                               const char *role_arn, GError **error);

/* Parses an Expiration as the CLI's caches hold it: ISO 8601, or ending in "UTC" as
 * strftime ("%Y-%m-%dT%H:%M:%S%Z") writes it. */
gboolean ddb_role_cache_parse_time (const char *text, gint64 *out);

G_END_DECLS
