/* value.c: the DdbValue tree: constructors, deep copy and equality, map/list/set access and
 * DynamoDB's structural validation. */
#include "core/value.h"

#include <string.h>

#include "core/base64.h"
#include "core/error.h"
#include "core/jsontext.h"

static const char *const type_names[DDB_N_TYPES] = {
  [DDB_TYPE_S] = "S",       [DDB_TYPE_N] = "N",   [DDB_TYPE_B] = "B", [DDB_TYPE_BOOL] = "BOOL",
  [DDB_TYPE_NULL] = "NULL", [DDB_TYPE_M] = "M",   [DDB_TYPE_L] = "L", [DDB_TYPE_SS] = "SS",
  [DDB_TYPE_NS] = "NS",     [DDB_TYPE_BS] = "BS",
};

const char *
ddb_type_name (DdbType type)
{
  if ((guint) type >= DDB_N_TYPES)
    return NULL;
  return type_names[type];
}

gboolean
ddb_type_from_name (const char *name, DdbType *out)
{
  if (name == NULL)
    return FALSE;
  for (guint i = 0; i < DDB_N_TYPES; i++)
    {
      if (strcmp (name, type_names[i]) == 0)
        {
          if (out != NULL)
            *out = (DdbType) i;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
ddb_type_is_set (DdbType type)
{
  return type == DDB_TYPE_SS || type == DDB_TYPE_NS || type == DDB_TYPE_BS;
}

DdbType
ddb_type_set_element (DdbType set_type)
{
  switch (set_type)
    {
    case DDB_TYPE_SS:
      return DDB_TYPE_S;
    case DDB_TYPE_NS:
      return DDB_TYPE_N;
    case DDB_TYPE_BS:
      return DDB_TYPE_B;
    default:
      g_return_val_if_reached (DDB_TYPE_S);
    }
}

/* Constructors */

static DdbValue *
value_alloc (DdbType type)
{
  DdbValue *v = g_new0 (DdbValue, 1);
  v->type = type;
  return v;
}

static DdbValue *
value_new_bytes (DdbType type, const void *data, gsize len)
{
  /* One allocation: the bytes follow the value (ddb_value_free knows them by their place). */
  DdbValue *v = g_malloc (sizeof (DdbValue) + len + 1);

  memset (v, 0, sizeof (DdbValue));
  v->type = type;
  v->bytes.data = (char *) (v + 1);
  if (len > 0)
    memcpy (v->bytes.data, data, len);
  v->bytes.data[len] = '\0';
  v->bytes.len = len;
  return v;
}

DdbValue *
ddb_value_new_s (const char *utf8, gssize len)
{
  g_return_val_if_fail (utf8 != NULL || len == 0, NULL);
  if (len < 0)
    len = (gssize) strlen (utf8);
  return value_new_bytes (DDB_TYPE_S, utf8, (gsize) len);
}

DdbValue *
ddb_value_new_b (const void *data, gsize len)
{
  g_return_val_if_fail (data != NULL || len == 0, NULL);
  return value_new_bytes (DDB_TYPE_B, data, len);
}

DdbValue *
ddb_value_take_bytes (DdbType type, char *data, gsize len)
{
  DdbValue *v;

  g_return_val_if_fail (type == DDB_TYPE_S || type == DDB_TYPE_B, NULL);
  g_return_val_if_fail (data != NULL, NULL);
  v = value_alloc (type);
  v->bytes.data = data;
  v->bytes.len = len;
  return v;
}

DdbValue *
ddb_value_new_n (const DdbNumber *n)
{
  DdbValue *v;

  g_return_val_if_fail (n != NULL, NULL);
  v = value_alloc (DDB_TYPE_N);
  v->number = *n;
  return v;
}

DdbValue *
ddb_value_new_bool (gboolean b)
{
  DdbValue *v = value_alloc (DDB_TYPE_BOOL);
  v->boolean = b ? TRUE : FALSE;
  return v;
}

DdbValue *
ddb_value_new_null (void)
{
  return value_alloc (DDB_TYPE_NULL);
}

DdbValue *
ddb_value_new_m (void)
{
  return ddb_value_new_m_sized (0);
}

DdbValue *
ddb_value_new_m_sized (guint reserved)
{
  DdbValue *v = value_alloc (DDB_TYPE_M);
  v->attrs = g_array_sized_new (FALSE, FALSE, sizeof (DdbAttr), reserved);
  return v;
}

static DdbValue *
value_new_elems (DdbType type, guint reserved)
{
  DdbValue *v = value_alloc (type);
  v->elems = g_ptr_array_new_full (reserved, (GDestroyNotify) ddb_value_free);
  return v;
}

DdbValue *
ddb_value_new_l (void)
{
  return value_new_elems (DDB_TYPE_L, 0);
}

DdbValue *
ddb_value_new_l_sized (guint reserved)
{
  return value_new_elems (DDB_TYPE_L, reserved);
}

DdbValue *
ddb_value_new_set (DdbType set_type)
{
  g_return_val_if_fail (ddb_type_is_set (set_type), NULL);
  return value_new_elems (set_type, 0);
}

DdbValue *
ddb_value_new_set_sized (DdbType set_type, guint reserved)
{
  g_return_val_if_fail (ddb_type_is_set (set_type), NULL);
  return value_new_elems (set_type, reserved);
}

DdbValue *
ddb_value_copy (const DdbValue *v)
{
  DdbValue *c;

  if (v == NULL)
    return NULL;

  switch (v->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      return value_new_bytes (v->type, v->bytes.data, v->bytes.len);
    case DDB_TYPE_N:
      return ddb_value_new_n (&v->number);
    case DDB_TYPE_BOOL:
      return ddb_value_new_bool (v->boolean);
    case DDB_TYPE_NULL:
      return ddb_value_new_null ();
    case DDB_TYPE_M:
      c = ddb_value_new_m_sized (v->attrs->len);
      for (guint i = 0; i < v->attrs->len; i++)
        {
          const DdbAttr *a = &g_array_index (v->attrs, DdbAttr, i);
          DdbAttr na = {
            .name = g_memdup2 (a->name, a->name_len + 1),
            .name_len = a->name_len,
            .value = ddb_value_copy (a->value),
          };
          g_array_append_val (c->attrs, na);
        }
      return c;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      c = value_new_elems (v->type, v->elems->len);
      for (guint i = 0; i < v->elems->len; i++)
        g_ptr_array_add (c->elems, ddb_value_copy (g_ptr_array_index (v->elems, i)));
      return c;
    default:
      g_return_val_if_reached (NULL);
    }
}

void
ddb_value_free (DdbValue *v)
{
  if (v == NULL)
    return;

  switch (v->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      if (v->bytes.data != (char *) (v + 1))
        g_free (v->bytes.data);
      break;
    case DDB_TYPE_M:
      for (guint i = 0; i < v->attrs->len; i++)
        {
          DdbAttr *a = &g_array_index (v->attrs, DdbAttr, i);
          g_free (a->name);
          ddb_value_free (a->value);
        }
      g_array_unref (v->attrs);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      g_ptr_array_unref (v->elems);
      break;
    default:
      break;
    }
  g_free (v);
}

/* Equality */

static gboolean
bytes_equal (const DdbBytes *a, const DdbBytes *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len) == 0;
}

/* Elements of one set, or two scalars of one type: S and B bytewise, N numerically. */
static gboolean
scalar_equal (const DdbValue *a, const DdbValue *b)
{
  if (a->type == DDB_TYPE_N)
    return ddb_number_equal (&a->number, &b->number);
  return bytes_equal (&a->bytes, &b->bytes);
}

static gint
map_find (const DdbValue *m, const char *name, gsize name_len)
{
  for (guint i = 0; i < m->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (m->attrs, DdbAttr, i);
      if (a->name_len == name_len && memcmp (a->name, name, name_len) == 0)
        return (gint) i;
    }
  return -1;
}

static gint
set_find (const DdbValue *set, const DdbValue *elem)
{
  for (guint i = 0; i < set->elems->len; i++)
    {
      if (scalar_equal (g_ptr_array_index (set->elems, i), elem))
        return (gint) i;
    }
  return -1;
}

/* Every element of `a` is in `b`. The same position is tried first: values that were copied or
 * round-tripped keep their order, which makes the usual case linear. */
static gboolean
set_subset (const DdbValue *a, const DdbValue *b)
{
  for (guint i = 0; i < a->elems->len; i++)
    {
      const DdbValue *e = g_ptr_array_index (a->elems, i);
      if (i < b->elems->len && scalar_equal (e, g_ptr_array_index (b->elems, i)))
        continue;
      if (set_find (b, e) < 0)
        return FALSE;
    }
  return TRUE;
}

gboolean
ddb_value_equal (const DdbValue *a, const DdbValue *b)
{
  if (a == b)
    return TRUE;
  if (a == NULL || b == NULL || a->type != b->type)
    return FALSE;

  switch (a->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      return bytes_equal (&a->bytes, &b->bytes);
    case DDB_TYPE_N:
      return ddb_number_equal (&a->number, &b->number);
    case DDB_TYPE_BOOL:
      return !a->boolean == !b->boolean;
    case DDB_TYPE_NULL:
      return TRUE;
    case DDB_TYPE_M:
      if (a->attrs->len != b->attrs->len)
        return FALSE;
      /* Names are unique and the counts match, so one direction suffices. */
      for (guint i = 0; i < a->attrs->len; i++)
        {
          const DdbAttr *x = &g_array_index (a->attrs, DdbAttr, i);
          const DdbAttr *y = &g_array_index (b->attrs, DdbAttr, i);
          if (x->name_len != y->name_len || memcmp (x->name, y->name, x->name_len) != 0)
            {
              gint j = map_find (b, x->name, x->name_len);
              if (j < 0)
                return FALSE;
              y = &g_array_index (b->attrs, DdbAttr, j);
            }
          if (!ddb_value_equal (x->value, y->value))
            return FALSE;
        }
      return TRUE;
    case DDB_TYPE_L:
      if (a->elems->len != b->elems->len)
        return FALSE;
      for (guint i = 0; i < a->elems->len; i++)
        {
          if (!ddb_value_equal (g_ptr_array_index (a->elems, i), g_ptr_array_index (b->elems, i)))
            return FALSE;
        }
      return TRUE;
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      /* Both directions, so that sets holding duplicates (invalid, but constructible through
       * the struct) still compare sensibly. */
      return a->elems->len == b->elems->len && set_subset (a, b) && set_subset (b, a);
    default:
      return FALSE;
    }
}

/* Maps */

DdbValue *
ddb_value_map_get (const DdbValue *m, const char *name)
{
  gint i;

  g_return_val_if_fail (m != NULL && m->type == DDB_TYPE_M, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  i = map_find (m, name, strlen (name));
  return i < 0 ? NULL : g_array_index (m->attrs, DdbAttr, i).value;
}

DdbValue *
ddb_value_map_get_len (const DdbValue *m, const char *name, gsize name_len)
{
  gint i;

  g_return_val_if_fail (m != NULL && m->type == DDB_TYPE_M, NULL);
  g_return_val_if_fail (name != NULL || name_len == 0, NULL);
  i = map_find (m, name, name_len);
  return i < 0 ? NULL : g_array_index (m->attrs, DdbAttr, i).value;
}

guint
ddb_value_map_size (const DdbValue *m)
{
  g_return_val_if_fail (m != NULL && m->type == DDB_TYPE_M, 0);
  return m->attrs->len;
}

DdbAttr *
ddb_value_map_nth (const DdbValue *m, guint i)
{
  g_return_val_if_fail (m != NULL && m->type == DDB_TYPE_M, NULL);
  g_return_val_if_fail (i < m->attrs->len, NULL);
  return &g_array_index (m->attrs, DdbAttr, i);
}

void
ddb_value_map_set (DdbValue *m, const char *name, DdbValue *value)
{
  gsize name_len;
  gint i;

  g_return_if_fail (m != NULL && m->type == DDB_TYPE_M);
  g_return_if_fail (name != NULL);
  g_return_if_fail (value != NULL);

  name_len = strlen (name);
  i = map_find (m, name, name_len);
  if (i >= 0)
    {
      DdbAttr *a = &g_array_index (m->attrs, DdbAttr, i);
      if (a->value != value)
        ddb_value_free (a->value);
      a->value = value;
      return;
    }
  ddb_value_map_append (m, name, name_len, value);
}

void
ddb_value_map_append (DdbValue *m, const char *name, gsize name_len, DdbValue *value)
{
  DdbAttr a;

  g_return_if_fail (m != NULL && m->type == DDB_TYPE_M);
  g_return_if_fail (name != NULL || name_len == 0);
  g_return_if_fail (value != NULL);

  a.name = g_malloc (name_len + 1);
  if (name_len > 0)
    memcpy (a.name, name, name_len);
  a.name[name_len] = '\0';
  a.name_len = name_len;
  a.value = value;
  g_array_append_val (m->attrs, a);
}

gboolean
ddb_value_map_remove (DdbValue *m, const char *name)
{
  gint i;

  g_return_val_if_fail (m != NULL && m->type == DDB_TYPE_M, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  i = map_find (m, name, strlen (name));
  if (i < 0)
    return FALSE;
  {
    DdbAttr *a = &g_array_index (m->attrs, DdbAttr, i);
    g_free (a->name);
    ddb_value_free (a->value);
  }
  g_array_remove_index (m->attrs, (guint) i);
  return TRUE;
}

/* Lists */

guint
ddb_value_list_size (const DdbValue *l)
{
  g_return_val_if_fail (l != NULL && l->type == DDB_TYPE_L, 0);
  return l->elems->len;
}

DdbValue *
ddb_value_list_nth (const DdbValue *l, guint i)
{
  g_return_val_if_fail (l != NULL && l->type == DDB_TYPE_L, NULL);
  if (i >= l->elems->len)
    return NULL;
  return g_ptr_array_index (l->elems, i);
}

void
ddb_value_list_append (DdbValue *l, DdbValue *elem)
{
  g_return_if_fail (l != NULL && l->type == DDB_TYPE_L);
  g_return_if_fail (elem != NULL);
  g_ptr_array_add (l->elems, elem);
}

/* Sets */

gboolean
ddb_value_set_add (DdbValue *set, DdbValue *elem)
{
  g_return_val_if_fail (set != NULL && ddb_type_is_set (set->type), FALSE);
  g_return_val_if_fail (elem != NULL, FALSE);
  if (elem->type != ddb_type_set_element (set->type))
    {
      g_critical ("ddb_value_set_add: a %s cannot go into a %s", ddb_type_name (elem->type),
                  ddb_type_name (set->type));
      ddb_value_free (elem);
      return FALSE;
    }
  if (set_find (set, elem) >= 0)
    {
      ddb_value_free (elem);
      return FALSE;
    }
  g_ptr_array_add (set->elems, elem);
  return TRUE;
}

gboolean
ddb_value_set_contains (const DdbValue *set, const DdbValue *elem)
{
  g_return_val_if_fail (set != NULL && ddb_type_is_set (set->type), FALSE);
  g_return_val_if_fail (elem != NULL, FALSE);
  if (elem->type != ddb_type_set_element (set->type))
    return FALSE;
  return set_find (set, elem) >= 0;
}

gboolean
ddb_value_set_remove (DdbValue *set, const DdbValue *elem)
{
  gint i;

  g_return_val_if_fail (set != NULL && ddb_type_is_set (set->type), FALSE);
  g_return_val_if_fail (elem != NULL, FALSE);
  if (elem->type != ddb_type_set_element (set->type))
    return FALSE;
  i = set_find (set, elem);
  if (i < 0)
    return FALSE;
  /* Ordered removal: what remains is written back in the order it was read. */
  g_ptr_array_remove_index (set->elems, (guint) i);
  return TRUE;
}

guint
ddb_value_set_size (const DdbValue *set)
{
  g_return_val_if_fail (set != NULL && ddb_type_is_set (set->type), 0);
  return set->elems->len;
}

/* Validation */

gboolean
ddb_utf8_validate (const char *data, gsize len)
{
  const guchar *p = (const guchar *) data;
  const guchar *end = p + len;

  while (p < end)
    {
      gunichar c;
      gsize n;
      guint64 word;

      /* ASCII eight bytes at a time, then a byte at a time. */
      while (end - p >= 8)
        {
          memcpy (&word, p, 8);
          if ((word & G_GUINT64_CONSTANT (0x8080808080808080)) != 0)
            break;
          p += 8;
        }
      while (p < end && *p < 0x80)
        p++;
      if (p == end)
        break;
      n = ddb_utf8_decode (p, (gsize) (end - p), &c);
      if (n == 0)
        return FALSE;
      p += n;
    }
  return TRUE;
}

/* Elements of a set as DynamoDB lists them in its duplicates message: "[a, b]", binary
 * elements in base64. */
static char *
set_elements_text (const DdbValue *set)
{
  GString *s = g_string_new ("[");

  for (guint i = 0; i < set->elems->len; i++)
    {
      const DdbValue *e = g_ptr_array_index (set->elems, i);
      if (i > 0)
        g_string_append (s, ", ");
      if (e->type == DDB_TYPE_S)
        g_string_append_len (s, e->bytes.data, (gssize) e->bytes.len);
      else if (e->type == DDB_TYPE_B)
        ddb_base64_append (s, (const guchar *) e->bytes.data, e->bytes.len);
      else
        ddb_number_append (&e->number, s);
    }
  g_string_append_c (s, ']');
  return g_string_free (s, FALSE);
}

static guint
element_hash (gconstpointer p)
{
  const DdbValue *v = p;
  guint h = 5381;

  if (v->type == DDB_TYPE_N)
    return ddb_number_hash (&v->number);
  for (gsize i = 0; i < v->bytes.len; i++)
    h = h * 33 + (guchar) v->bytes.data[i];
  return h;
}

static gboolean
element_equal (gconstpointer a, gconstpointer b)
{
  return scalar_equal (a, b);
}

gboolean
ddb_value_set_has_duplicates (const DdbValue *set)
{
  GPtrArray *e;
  gboolean dup = FALSE;

  g_return_val_if_fail (set != NULL && ddb_type_is_set (set->type), FALSE);
  e = set->elems;

  /* Pairwise is cheaper than hashing for the small sets most items hold. */
  if (e->len <= 16)
    {
      for (guint i = 1; i < e->len; i++)
        for (guint j = 0; j < i; j++)
          if (scalar_equal (g_ptr_array_index (e, i), g_ptr_array_index (e, j)))
            return TRUE;
      return FALSE;
    }
  else
    {
      GHashTable *seen = g_hash_table_new (element_hash, element_equal);
      for (guint i = 0; i < e->len && !dup; i++)
        dup = !g_hash_table_add (seen, g_ptr_array_index (e, i));
      g_hash_table_destroy (seen);
      return dup;
    }
}

gboolean
ddb_value_validate_set (const DdbValue *set, GError **error)
{
  DdbType elem_type;

  g_return_val_if_fail (set != NULL && ddb_type_is_set (set->type), FALSE);

  if (set->elems->len == 0)
    {
      /* DynamoDB's wording, its grammar and double space included. */
      const char *msg = set->type == DDB_TYPE_SS   ? "An string set  may not be empty"
                        : set->type == DDB_TYPE_NS ? "An number set  may not be empty"
                                                   : "Binary sets should not be empty";
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "One or more parameter values were invalid: %s", msg);
      return FALSE;
    }

  elem_type = ddb_type_set_element (set->type);
  for (guint i = 0; i < set->elems->len; i++)
    {
      const DdbValue *e = g_ptr_array_index (set->elems, i);
      if (e == NULL || e->type != elem_type)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: "
                       "A %s set may only hold %s elements",
                       ddb_type_name (set->type), ddb_type_name (elem_type));
          return FALSE;
        }
      if (e->type == DDB_TYPE_S && !ddb_utf8_validate (e->bytes.data, e->bytes.len))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE);
          return FALSE;
        }
    }

  if (ddb_value_set_has_duplicates (set))
    {
      g_autofree char *text = NULL;

      /* DynamoDB words the three cases differently (the missing space before "of type BS" is
       * its own). */
      if (set->type == DDB_TYPE_NS)
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                               "Input collection contains duplicates");
          return FALSE;
        }
      text = set_elements_text (set);
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                   "One or more parameter values were invalid: Input collection %s%s "
                   "contains duplicates.",
                   text, set->type == DDB_TYPE_BS ? "of type BS" : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
nesting_error (GError **error)
{
  g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_NESTING_MESSAGE);
  return FALSE;
}

/* `level` is the level of `v`: 1 for an item's top-level attribute value, one more for each
 * M or L around it. */
static gboolean
validate_at (const DdbValue *v, guint level, GError **error)
{
  if (v == NULL)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Supplied AttributeValue is empty, must contain exactly one of the "
                           "supported datatypes");
      return FALSE;
    }
  if (level > DDB_MAX_NESTING)
    return nesting_error (error);

  switch (v->type)
    {
    case DDB_TYPE_S:
      if (!ddb_utf8_validate (v->bytes.data, v->bytes.len))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE);
          return FALSE;
        }
      return TRUE;
    case DDB_TYPE_N:
    case DDB_TYPE_B:
    case DDB_TYPE_BOOL:
    case DDB_TYPE_NULL:
      return TRUE;
    case DDB_TYPE_M:
      for (guint i = 0; i < v->attrs->len; i++)
        {
          const DdbAttr *a = &g_array_index (v->attrs, DdbAttr, i);
          if (!ddb_utf8_validate (a->name, a->name_len))
            {
              g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                                   DDB_INVALID_UTF8_MESSAGE);
              return FALSE;
            }
          if (!validate_at (a->value, level + 1, error))
            return FALSE;
        }
      return TRUE;
    case DDB_TYPE_L:
      for (guint i = 0; i < v->elems->len; i++)
        {
          if (!validate_at (g_ptr_array_index (v->elems, i), level + 1, error))
            return FALSE;
        }
      return TRUE;
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      return ddb_value_validate_set (v, error);
    default:
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Supplied AttributeValue is empty, must contain exactly one of the "
                           "supported datatypes");
      return FALSE;
    }
}

gboolean
ddb_value_validate (const DdbValue *v, GError **error)
{
  return validate_at (v, 1, error);
}

gboolean
ddb_item_validate (const DdbValue *item, GError **error)
{
  g_return_val_if_fail (item != NULL, FALSE);
  if (item->type != DDB_TYPE_M)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "An item must be a map of attribute names to attribute values");
      return FALSE;
    }
  for (guint i = 0; i < item->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (item->attrs, DdbAttr, i);
      if (!ddb_utf8_validate (a->name, a->name_len))
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, DDB_INVALID_UTF8_MESSAGE);
          return FALSE;
        }
      if (!validate_at (a->value, 1, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
ddb_set_validation_error (GError **error, const char *format, ...)
{
  va_list ap;

  va_start (ap, format);
  g_propagate_error (error, g_error_new_valist (DDB_ERROR, DDB_ERROR_VALIDATION, format, ap));
  va_end (ap);
  return FALSE;
}
