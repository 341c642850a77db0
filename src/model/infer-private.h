/* infer-private.h: between the reading of key values into shapes and named fields
 * (infer-shape.c) and the proposal built from them (infer.c). */
#pragma once

#include "model/infer.h"

/* A field of a key as read from the values: one segment (or one number of a segment). */
typedef struct {
  char *name;
  guint width;       /* zero-padded width, 0 when not padded */
  gboolean digits;   /* every value is digits */
  gboolean year;     /* the first number of a "2026-0040" segment, a year */
  gboolean date;     /* every value is YYYY-MM-DD */
  gboolean stamp;    /* every value is an ISO 8601 timestamp */
  char *after;       /* the literal word just before it ("WS" of "WS#{…}"), or NULL */
  gboolean last;     /* the last part of the value */
  GPtrArray *values; /* char*, one per item of its key */
} Field;

typedef struct {
  char *literal; /* the literal text, or NULL for a field */
  Field *field;
} Part;

/* One key attribute of one entity, as its values show it. */
typedef struct {
  const char *attr;
  gboolean partition;
  GPtrArray *items; /* json_t*, borrowed: the entity's items holding the attribute */
  GPtrArray *parts; /* Part* */
  guint n_fields;
} Shape;

/* The items of one entity: those whose table keys have one signature. */
typedef struct {
  char *sig;
  GPtrArray *items;  /* json_t*, borrowed, in key order */
  GPtrArray *shapes; /* Shape* */
  char *pk_word, *sk_word;
} Group;

/* A key attribute of the table or of an index. */
typedef struct {
  char *name;
  char *type;
  gboolean partition;
  char sep; /* the separator its values use, or 0 */
} KeyAttr;

/* The text of an S or N attribute value ({"S": "…"}); NULL for another type or none. */
const char *infer_value_text (json_t *item, const char *attr);
/* The type name of an attribute value ("S", "BOOL", …), or NULL. */
const char *infer_value_type (json_t *v);
/* A word that names something: "WS", "PROJ", "user"; CAPITALS: only upper case, digits, '_'. */
gboolean infer_is_word (const char *s, gboolean capitals);
/* "ORDER_ITEM" -> "OrderItem", "WS" -> "Workspace": the entity a key word stands for. */
char *infer_word_name (const char *word);
/* The separator of ATTR's values in ITEMS: '#' when one of them holds it, else '|', else 0. */
char infer_choose_separator (json_t *items, const char *attr);
/* V split at SEP (0: V whole); always at least one segment. */
char **infer_split_value (const char *v, char sep);
/* The signature that puts an item in its entity: the first word (into *WORD, or NULL) and the
 * number of segments of a table key's value V. */
char *infer_key_signature (const char *v, char sep, char **word);
/* The parts of KEY's values in the items of GROUP that hold it; its fields not yet named. */
Shape *infer_read_shape (const Group *group, const KeyAttr *key);
void infer_shape_free (gpointer data);
/* Names every field of GROUP's shapes (infer.h lists the rules): one name per value, a number
 * after a name already taken. KEYS: the KeyAttr* of the table, whose attributes name nothing. */
void infer_name_fields (Group *group, GPtrArray *keys);
/* The template of a named shape: "WS#{workspaceId}", "PROJ#{year}-{seq:04}". */
char *infer_template_text (const Shape *shape);
gboolean infer_is_key_name (GPtrArray *keys, const char *name);
/* The longest of a field's values, in bytes. */
gsize infer_longest (const Field *f);
/* strcmp of two char* elements of a GPtrArray. */
int infer_compare_names (gconstpointer a, gconstpointer b);
