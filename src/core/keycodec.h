/* keycodec.h: an encoding of key values (S, N, B) whose memcmp order is DynamoDB's key order
 * (S by UTF-8 bytes, N numerically, B by unsigned bytes), decodable back to the value. The
 * encoding is self-delimiting, so a partition key and a sort key can be concatenated and still
 * sort as the pair (pk, sk). */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

/* Appends the encoding of `key` (type S, N or B) to `out`. Fails for other types. */
gboolean ddb_key_encode (const DdbValue *key, GByteArray *out, GError **error);

/* Decodes one key of type `type` from the start of `buf`; sets *consumed to the bytes used. */
DdbValue *ddb_key_decode (DdbType type, const guint8 *buf, gsize len, gsize *consumed,
                          GError **error);

G_END_DECLS
