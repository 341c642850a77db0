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

/* The same for a key's parts: the LEN bytes of an S (its UTF-8) or a B, and a number (fails, as
 * ddb_key_encode does, for one that is not normalized or out of DynamoDB's range). */
void ddb_key_encode_bytes (const void *data, gsize len, GByteArray *out);
gboolean ddb_key_encode_number (const DdbNumber *n, GByteArray *out, GError **error);

/* Decodes one key of type `type` from the start of `buf`; sets *consumed to the bytes used. */
DdbValue *ddb_key_decode (DdbType type, const guint8 *buf, gsize len, gsize *consumed,
                          GError **error);

G_END_DECLS
