/* itemsize.h: item size as DynamoDB counts it (attribute names plus values), for the 400 KB
 * item limit and for capacity units. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

#define DDB_MAX_ITEM_SIZE (400 * 1024)
/* An L or M value costs 3 bytes whatever it holds, and each of its elements 1 more. */
#define DDB_ITEM_NESTED_OVERHEAD 3
#define DDB_ITEM_ELEMENT_OVERHEAD 1

/* Size of a value, not counting any attribute name. */
gsize ddb_value_size (const DdbValue *value);
/* Size of an item (a map): every top-level attribute name plus its value. */
gsize ddb_item_size (const DdbValue *item);
/* Size of a number value (1 to 21 bytes). */
gsize ddb_number_size (const DdbNumber *n);
/* The same from what it depends on: a normalized number's digit count (0: zero), exponent and
 * sign, as DdbNumber holds them; for readers that do not unpack the digits. */
gsize ddb_number_size_of (guint ndigits, gint32 exponent, gboolean negative);

G_END_DECLS
