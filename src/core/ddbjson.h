/* ddbjson.h: DynamoDB JSON ({"S": "x"}, {"N": "1"}, ...) to and from values, strictly: every
 * error names the attribute path it was found at. Writing is compact and keeps insertion order,
 * so DynamoDB's own output is written back byte for byte. */
#pragma once

#include <glib.h>
#include <jansson.h>

#include "core/value.h"

G_BEGIN_DECLS

/* One typed value: {"S": "x"}. */
DdbValue *ddb_json_to_value (json_t *json, GError **error);
/* An item: {"attr": {"S": "x"}, ...}. */
DdbValue *ddb_json_to_item (json_t *json, GError **error);

/* New references. */
json_t *ddb_value_to_json (const DdbValue *value);
json_t *ddb_item_to_json (const DdbValue *item);

/* The same from and to text. */
DdbValue *ddb_json_parse_value (const char *text, gssize len, GError **error);
DdbValue *ddb_json_parse_item (const char *text, gssize len, GError **error);
char *ddb_json_format_value (const DdbValue *value);
char *ddb_json_format_item (const DdbValue *item);

/* Additions.
 *
 * Errors. Each message is DynamoDB's own for the problem, followed, when the problem is inside
 * an attribute, by DDB_JSON_PATH_SEPARATOR and the attribute path in DynamoDB's document-path
 * notation: top-level attribute names bare, map keys after '.', list and set elements as [i]
 * (0-based), e.g. "...; attribute path: a.b[2].c" or, for the third element of set "tags",
 * "tags[2]". A name that is empty or holds . [ ] " \ or a control character is written as a
 * JSON string: `a."x.y"[0]`. A problem with the whole value passed to ddb_json_to_value()
 * (or the whole item) has no path.
 *
 * Codes. DDB_ERROR_SERIALIZATION where DynamoDB fails while reading the JSON (malformed JSON, a
 * duplicate key, a member of the wrong JSON type such as {"S": 1} -> "NUMBER_VALUE cannot be
 * converted to String", {"BOOL": "true"} -> "Unexpected token received from parser", bad
 * base64 in B/BS -> "Invalid last non-pad Base64 character dectected" [sic]); otherwise
 * DDB_ERROR_VALIDATION (empty descriptor, two type keys, NULL false, numbers, empty sets,
 * duplicate elements, nesting, UTF-8). As DynamoDB deserializes a request before validating it,
 * a serialization error anywhere wins over a validation error found earlier; among errors of
 * one kind the first in document order is reported. A value nested too deep is refused without
 * looking inside it.
 *
 * Strictness beyond DynamoDB: a type key that is not one of the ten (DynamoDB ignores unknown
 * members) is refused with "Supplied AttributeValue has an unknown datatype "X", must contain
 * exactly one of the supported datatypes" (our wording). A member set to JSON null is treated
 * as absent, as DynamoDB does: {"S": null} is an empty descriptor.
 *
 * Text. ddb_json_parse_*() accept exactly what json_loadb (text, len, JSON_REJECT_DUPLICATES |
 * JSON_ALLOW_NUL | JSON_DECODE_ANY) followed by ddb_json_to_*() accepts, with the same value or
 * the same error; `len` may be -1 for NUL-terminated text. They do it without building a json_t
 * tree (a direct parser handles valid input; on any problem the text goes through jansson,
 * which words the error). The fuzz target checks the two paths agree.
 *
 * Writing never fails: bytes of an S or a name that are not UTF-8 (only possible in values
 * built by hand, never in parsed ones) are written as U+FFFD. */
#define DDB_JSON_PATH_SEPARATOR "; attribute path: "
#define DDB_JSON_EMPTY_VALUE_MESSAGE \
  "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
/* Our wording: DynamoDB's for a null set element is not known. */
#define DDB_JSON_NULL_IN_SET_MESSAGE \
  "One or more parameter values were invalid: A set may not contain null"

/* A Query's or Scan's answer TEXT read with its MEMBER (an array of items, "Items") parsed
 * directly into values (no json_t tree of them): TRUE, *REST the other members (jansson's
 * object, JSON_ALLOW_NUL) and *ITEMS the items (DdbValue*, freed with the array; empty without
 * MEMBER), exactly what json_loadb (text, JSON_ALLOW_NUL) and ddb_json_to_item of each element
 * give. FALSE when TEXT is not such an answer, or is one written in a way the direct parser
 * leaves to jansson (a name with escapes, an item with a duplicate name...): read it then with
 * jansson. */
gboolean ddb_json_read_page (const char *text, gsize len, const char *member, json_t **rest,
                             GPtrArray **items);

/* Append the compact text to `out` (what ddb_json_format_value/item return). */
void ddb_json_append_value (GString *out, const DdbValue *value);
void ddb_json_append_item (GString *out, const DdbValue *item);

G_END_DECLS
