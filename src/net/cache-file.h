/* cache-file.h: writing a file of the caches the AWS CLI shares (~/.aws/sso/cache,
 * ~/.aws/login/cache, ~/.aws/cli/cache) as botocore's JSONFileCache writes one: the directory
 * made if needed (0700), the text written to a temporary file (0600) beside it, synced, then
 * renamed over the file, so that a reader never sees half a file. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Writes LEN bytes of TEXT to PATH atomically. G_FILE_ERROR naming the path on failure (no
 * temporary file is left behind). TEXT may hold secrets: it is only read. */
gboolean ddb_aws_cache_file_write (const char *path, const char *text, gsize len, GError **error);

G_END_DECLS
