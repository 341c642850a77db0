/* item-corpus.h: a generated corpus of items holding every kind of DynamoDB value, for round
 * trips (formats, copies): 38-digit numbers and extreme exponents, sets, binary with odd bytes,
 * nested maps and lists, empty strings and binary, unicode, and attribute names holding commas,
 * quotes, newlines and what looks like a CSV type suffix. */
#pragma once

#include "core/value.h"

G_BEGIN_DECLS

/* N items (DdbValue maps, freed with the array), the same for the same SEED. Each holds the
 * attribute HASH_NAME (type S, unique) and, if RANGE_NAME is not NULL, RANGE_NAME (type N);
 * the rest is random. */
GPtrArray *corpus_items (guint n, guint32 seed, const char *hash_name, const char *range_name);

/* Asserts that GOT holds exactly the items of WANT, in any order (matched by HASH_NAME and
 * RANGE_NAME). */
void corpus_assert_same_items (GPtrArray *want, GPtrArray *got, const char *hash_name,
                               const char *range_name);

G_END_DECLS
