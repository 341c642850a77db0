/* itemcodec.h: a compact binary encoding of items for storage (much smaller than DynamoDB JSON:
 * type tags and lengths as bytes, numbers as base-100 digit pairs), decodable exactly. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

/* Appends the encoding of `item` (a map) to `out`. */
void ddb_item_encode (const DdbValue *item, GByteArray *out);

/* Decodes an item; fails (DDB_ERROR_INTERNAL, "Malformed stored item: ...") on corrupt input
 * without reading out of bounds. */
DdbValue *ddb_item_decode (const guint8 *data, gsize len, GError **error);

G_END_DECLS
