/* keys-private.h: between the read (keys-read.c) and the analysis (keys.c) of the
 * partition-key health. */
#pragma once

#include "model/keys.h"

/* The partition key into REPORT (key_name, has_lsi, sampled) and the partitions read, as
 * DdbKeysPartition* in no order; NULL with ERROR on failure or cancellation. */
GPtrArray *ddb_keys_read (DdbBackend *backend, const DdbKeysOptions *options,
                          DdbKeysReport *report, DdbKeysProgress progress, gpointer user_data,
                          GCancellable *cancellable, GError **error);
