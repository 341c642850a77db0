/* plainjson.h: plain JSON ({"a": 1, "b": [true]}) to and from values, for the editor and for
 * exports. Numbers keep every digit (our own reader: jansson's would round them through a
 * double). Binary and sets have a documented, reversible tagged form (docs/plain-json.md); a
 * conversion that would lose a type fails and says so rather than guess. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

typedef enum {
  /* Binary and sets written as tagged objects (see docs/plain-json.md); reading recognises the
   * tags. Lossless. */
  DDB_PLAIN_TAGGED = 0,
  /* Only what plain JSON can say: writing a B, SS, NS or BS fails; reading takes tags
   * literally as ordinary maps. */
  DDB_PLAIN_STRICT = 1 << 0,
  /* Writing: indent for people. */
  DDB_PLAIN_PRETTY = 1 << 1,
} DdbPlainFlags;

/* Errors are DDB_ERROR_VALIDATION with a message for people, e.g.
 *   "line 3, column 14 (at a.b[2]): number 1.2345... has more than 38 significant digits, ..."
 * Reading never rounds: a number DynamoDB cannot store exactly is an error. Nesting is limited
 * as ddb_value_validate() counts it: the value parsed is at level 1. */
DdbValue *ddb_plain_parse_value (const char *text, gssize len, DdbPlainFlags flags, GError **error);
/* Fails (naming the path) for B/SS/NS/BS in STRICT mode, and for anything that could not be
 * read back: an empty or invalid set, a string or name that is not UTF-8, a name holding
 * U+0000, nesting past DDB_MAX_NESTING. Compact output has no spaces; PRETTY indents by two
 * spaces. Neither ends with a newline. */
char *ddb_plain_format_value (const DdbValue *value, DdbPlainFlags flags, GError **error);

/* The same for an item: the text must be a JSON object (an M), whose attributes are at level 1
 * as ddb_item_validate() counts them, so an item holds one more level of nesting than a value. */
DdbValue *ddb_plain_parse_item (const char *text, gssize len, DdbPlainFlags flags, GError **error);
char *ddb_plain_format_item (const DdbValue *item, DdbPlainFlags flags, GError **error);

G_END_DECLS
