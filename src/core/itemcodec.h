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

/* At most this many key slots (a table's and an index's key attributes). */
#define DDB_ITEM_MAX_KEY_SLOTS 4

/* ddb_item_encode() without the item's own attributes named in `key_names` (n of them, entries
 * may be NULL): each such attribute leaves a two-byte placeholder (00, slot number) at its
 * place, so that ddb_item_decode_keyed() rebuilds the exact attribute order. The store keeps
 * key values in columns of their own; this spares storing them twice. */
void ddb_item_encode_keyless (const DdbValue *item, const char *const *key_names, guint n,
                              GByteArray *out);

/* Decodes what ddb_item_encode_keyless() wrote, putting back key_values[i] (named
 * key_names[i]) at placeholder i. Takes ownership of every key_values[i] (NULL ones skipped),
 * used or not; a placeholder without its value, a value without its placeholder or one used
 * twice is a malformed item. */
DdbValue *ddb_item_decode_keyed (const guint8 *data, gsize len, const char *const *key_names,
                                 DdbValue **key_values, guint n, GError **error);

/* ddb_item_decode_keyed() of only the key attributes and the item's own attributes named in
 * `wanted` (n_wanted names, wanted NULL: all), in their stored order; the others are stepped
 * over without being built (their framing is checked, their contents are not). */
DdbValue *ddb_item_decode_keyed_some (const guint8 *data, gsize len, const char *const *key_names,
                                      DdbValue **key_values, guint n, const char *const *wanted,
                                      guint n_wanted, GError **error);

/* The item's size as DynamoDB counts it (ddb_item_size), read from ddb_item_encode()'s bytes
 * (not a keyless encoding's) without building the item; FALSE (the error set) when they are
 * malformed. The framing is checked as ddb_item_decode() checks it; names and strings are not
 * checked for UTF-8, nor sets for duplicates, nor numbers' digits (their count, exponent and
 * sign, all their size depends on, are). */
gboolean ddb_item_encoded_size (const guint8 *data, gsize len, gsize *size, GError **error);

/* A scalar value of an encoded item as ddb_item_encoded_foreach_scalar hands it over: a string's
 * or a binary's bytes where they lie in the encoding, a number decoded, a boolean; the elements
 * of sets are scalars too. */
typedef struct {
  DdbType type;        /* S, N, B, BOOL or NULL */
  const guint8 *bytes; /* S and B: LEN bytes (not NUL-terminated) */
  gsize len;
  const DdbNumber *number; /* N */
  gboolean boolean;        /* BOOL */
} DdbEncodedScalar;

/* TRUE stops the walk. */
typedef gboolean (*DdbEncodedScalarFunc) (const DdbEncodedScalar *scalar, gpointer user_data);

/* Calls FUNC on every scalar value of the item ddb_item_encode() wrote (not on the attribute
 * names), at any depth, in their stored order, until it returns TRUE (*STOPPED then TRUE; may be
 * NULL), allocating nothing; FALSE (the error set) when the bytes are malformed, with the
 * framing checked as ddb_item_encoded_size checks it and the numbers' digits too (each number
 * is handed over decoded). */
gboolean ddb_item_encoded_foreach_scalar (const guint8 *data, gsize len, DdbEncodedScalarFunc func,
                                          gpointer user_data, gboolean *stopped, GError **error);

/* Where the value of one of an item's own attributes lies in ddb_item_encode()'s bytes: its
 * encoding (LEN bytes from DATA, its tag first) and type; DATA NULL when the item has no such
 * attribute. Points into the bytes it was found in. */
typedef struct {
  const guint8 *data;
  gsize len;
  DdbType type;
} DdbEncodedValue;

/* Finds the item's own attributes NAMES (N of them) in the bytes ddb_item_encode() wrote (not a
 * keyless encoding's), building and allocating nothing: VALUES[i] is where the value of
 * NAMES[i] lies, or says it is missing. The walk stops once every name is found,
 * unless SIZE is given: then it goes on to the end, checks that nothing follows and sets *SIZE
 * as ddb_item_encoded_size does. The attributes walked have their framing checked as
 * ddb_item_encoded_size checks it, and nothing is read past LEN; FALSE (the error set) when
 * they are malformed. Bytes after the last attribute walked are not looked at, and an item
 * holding a name twice gives its first. */
gboolean ddb_item_encoded_lookup (const guint8 *data, gsize len, const char *const *names, guint n,
                                  DdbEncodedValue *values, gsize *size, GError **error);

/* Reads VALUE (one ddb_item_encoded_lookup found) into *SCALAR as
 * ddb_item_encoded_foreach_scalar hands scalars over, a number into *NUMBER (SCALAR->number
 * then points at it), checked as ddb_item_decode() checks the value (a string's UTF-8
 * included); of an M, L or set only SCALAR->type is set. FALSE (the error set) when malformed. */
gboolean ddb_encoded_value_get_scalar (const DdbEncodedValue *value, DdbEncodedScalar *scalar,
                                       DdbNumber *number, GError **error);

/* VALUE (one ddb_item_encoded_lookup found) built, checked as ddb_item_decode() checks an
 * attribute's value; NULL (the error set) when malformed. */
DdbValue *ddb_encoded_value_decode (const DdbEncodedValue *value, GError **error);

G_END_DECLS
