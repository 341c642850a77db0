/* value.h: DynamoDB attribute values (S N B BOOL NULL M L SS NS BS) as an owned tree.
 * An item is a value of type M. Maps and sets keep insertion order, so what is read is written
 * back in the same order. */
#pragma once

#include <glib.h>

#include "core/number.h"

G_BEGIN_DECLS

typedef enum {
  DDB_TYPE_S,
  DDB_TYPE_N,
  DDB_TYPE_B,
  DDB_TYPE_BOOL,
  DDB_TYPE_NULL,
  DDB_TYPE_M,
  DDB_TYPE_L,
  DDB_TYPE_SS,
  DDB_TYPE_NS,
  DDB_TYPE_BS,
} DdbType;

#define DDB_N_TYPES 10
#define DDB_MAX_NESTING 32

typedef struct _DdbValue DdbValue;

/* A byte string: S (UTF-8) and B (raw bytes). `data` is NUL-terminated for convenience, but
 * `len` is authoritative (S may hold U+0000, B anything). */
typedef struct {
  char *data;
  gsize len;
} DdbBytes;

typedef struct {
  char *name; /* UTF-8, NUL-terminated */
  gsize name_len;
  DdbValue *value;
} DdbAttr;

struct _DdbValue {
  DdbType type;
  union {
    DdbBytes bytes;   /* S, B */
    DdbNumber number; /* N */
    gboolean boolean; /* BOOL; NULL has no payload (always "true" on the wire) */
    GArray *attrs;    /* M: array of DdbAttr, in insertion order, names unique */
    GPtrArray *elems; /* L: DdbValue*; SS/BS: DdbValue* of type S/B; NS: of type N */
  };
};

/* "S", "N", ... as on the wire; NULL for an invalid type. */
const char *ddb_type_name (DdbType type);
/* Parses "S", "N", ... ; returns FALSE for anything else. */
gboolean ddb_type_from_name (const char *name, DdbType *out);

gboolean ddb_type_is_set (DdbType type);
/* The element type of a set type (SS -> S, NS -> N, BS -> B). */
DdbType ddb_type_set_element (DdbType set_type);

/* Constructors. Each returns a new value the caller owns. */
DdbValue *ddb_value_new_s (const char *utf8, gssize len);
DdbValue *ddb_value_new_b (const void *data, gsize len);
DdbValue *ddb_value_new_n (const DdbNumber *n);
DdbValue *ddb_value_new_bool (gboolean b);
DdbValue *ddb_value_new_null (void);
DdbValue *ddb_value_new_m (void);
DdbValue *ddb_value_new_l (void);
/* An empty set of the given set type; fill it with ddb_value_set_add(). An empty set is not a
 * valid DynamoDB value: ddb_value_validate() refuses it. */
DdbValue *ddb_value_new_set (DdbType set_type);

DdbValue *ddb_value_copy (const DdbValue *v);
void ddb_value_free (DdbValue *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DdbValue, ddb_value_free)

/* Deep equality as DynamoDB sees it: same type and same content; numbers numerically; sets
 * regardless of order; maps regardless of attribute order; lists in order. */
gboolean ddb_value_equal (const DdbValue *a, const DdbValue *b);

/* Maps. Lookup is by exact UTF-8 bytes. */
DdbValue *ddb_value_map_get (const DdbValue *m, const char *name);
guint ddb_value_map_size (const DdbValue *m);
DdbAttr *ddb_value_map_nth (const DdbValue *m, guint i);
/* Takes ownership of `value`; replaces (and frees) an existing attribute of that name in place,
 * keeping its position. */
void ddb_value_map_set (DdbValue *m, const char *name, DdbValue *value);
/* Removes the attribute; returns TRUE if it existed. */
gboolean ddb_value_map_remove (DdbValue *m, const char *name);

/* Lists. */
guint ddb_value_list_size (const DdbValue *l);
DdbValue *ddb_value_list_nth (const DdbValue *l, guint i);
/* Takes ownership. */
void ddb_value_list_append (DdbValue *l, DdbValue *elem);

/* Sets. ddb_value_set_add takes ownership of `elem` (which must be of the element type); if an
 * equal element is already present (numbers compared numerically) it frees `elem` and returns
 * FALSE. */
gboolean ddb_value_set_add (DdbValue *set, DdbValue *elem);
gboolean ddb_value_set_contains (const DdbValue *set, const DdbValue *elem);
/* Removes an element equal to `elem`; returns TRUE if one was removed. */
gboolean ddb_value_set_remove (DdbValue *set, const DdbValue *elem);
guint ddb_value_set_size (const DdbValue *set);

/* Checks DynamoDB's structural rules on a value: sets non-empty and duplicate-free, S valid
 * UTF-8, nesting at most DDB_MAX_NESTING levels. Fails with DDB_ERROR_VALIDATION and
 * DynamoDB's message. */
gboolean ddb_value_validate (const DdbValue *v, GError **error);

/* Additions for parsers and validation. */

/* DynamoDB's message for a value nested deeper than DDB_MAX_NESTING levels. */
#define DDB_NESTING_MESSAGE \
  "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels " \
  "beyond supported limit"
/* Our message for an S value or attribute name that is not UTF-8. DynamoDB cannot receive one
 * (its JSON layer refuses the request first), so it has no wording of its own for this. */
#define DDB_INVALID_UTF8_MESSAGE \
  "One or more parameter values were invalid: A string is not valid UTF-8"

/* Takes ownership of `data` (g_malloc'ed, len + 1 bytes with data[len] == '\0') as the payload
 * of a new S or B value, avoiding a copy. */
DdbValue *ddb_value_take_bytes (DdbType type, char *data, gsize len);
/* The same constructors with room reserved for `reserved` members. */
DdbValue *ddb_value_new_m_sized (guint reserved);
DdbValue *ddb_value_new_l_sized (guint reserved);
DdbValue *ddb_value_new_set_sized (DdbType set_type, guint reserved);

/* Lookup by name and length (names may come from a buffer that is not NUL-terminated). */
DdbValue *ddb_value_map_get_len (const DdbValue *m, const char *name, gsize name_len);
/* Appends an attribute without looking for an existing one: the caller guarantees `name` is
 * not in the map yet (e.g. a JSON parser that rejects duplicate keys). Copies the name, takes
 * ownership of `value`. */
void ddb_value_map_append (DdbValue *m, const char *name, gsize name_len, DdbValue *value);

/* TRUE if two elements of the set are equal (numbers numerically). */
gboolean ddb_value_set_has_duplicates (const DdbValue *set);
/* The set rules alone: non-empty, elements of the element type, valid UTF-8 in SS, no
 * duplicates; DynamoDB's messages:
 *   SS empty:  "One or more parameter values were invalid: An string set  may not be empty"
 *   NS empty:  "One or more parameter values were invalid: An number set  may not be empty"
 *   BS empty:  "One or more parameter values were invalid: Binary sets should not be empty"
 *   SS dups:   "One or more parameter values were invalid: Input collection [a, a] contains
 *               duplicates."
 *   BS dups:   "One or more parameter values were invalid: Input collection [Yg==, Yg==]of type
 *               BS contains duplicates."   (elements in base64)
 *   NS dups:   "Input collection contains duplicates" */
gboolean ddb_value_validate_set (const DdbValue *set, GError **error);

/* Nesting levels: ddb_value_validate() takes `v` to be an item's top-level attribute value,
 * which is level 1; every value directly inside an M or L at level k is at level k + 1 (set
 * elements are not levels). Any value at a level over DDB_MAX_NESTING (32) is refused with
 * DDB_NESTING_MESSAGE: an attribute may wrap a scalar in at most 31 maps/lists, as DynamoDB
 * accepts 31 map wraps and refuses 32.
 * ddb_item_validate() checks an item (an M whose attributes are at level 1) the same way. */
gboolean ddb_item_validate (const DdbValue *item, GError **error);

/* Strict UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF); unlike
 * g_utf8_validate_len() it accepts U+0000, which DynamoDB strings may hold. */
gboolean ddb_utf8_validate (const char *data, gsize len);

/* Sets a DDB_ERROR_VALIDATION whose message is the formatted text (which may hold '%' from the
 * arguments without harm) and returns FALSE, so that a check can `return` it. */
gboolean ddb_set_validation_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
