/* itemcodec-read.c: reading the compact item encoding (itemcodec.c describes it): decoding
 * items, walking them without building values (sizes, scalars, attributes where they lie), and
 * reading such attributes. Never reads past the bytes given; malformed bytes are an error. */
#include "core/itemcodec.h"

#include <string.h>

#include "core/error.h"
#include "core/itemcodec-private.h"
#include "core/itemsize.h"

/* Reading */

typedef struct {
  const guint8 *p;
  const guint8 *end;
  GError **error;
  /* Keyless items: the values put back at the placeholders (taken as used). */
  const char *const *key_names;
  DdbValue **key_values;
  guint n_keys;
  /* ddb_item_decode_keyed_some: the item's own attributes to decode (NULL: all). */
  const char *const *wanted;
  guint n_wanted;
  /* ddb_item_encoded_foreach_scalar: called on each scalar skip_value steps over, until it
   * says stop. */
  DdbEncodedScalarFunc visit;
  gpointer visit_data;
  gboolean stopped;
} Reader;

/* A reader of LEN bytes from DATA that builds everything and visits nothing. Field by field:
 * an initializer would clear the whole struct first, a cost the lookups of a million rows
 * notice. */
static inline void
reader_init (Reader *r, const guint8 *data, gsize len, GError **error)
{
  r->p = data;
  r->end = data + len;
  r->error = error;
  r->key_names = NULL;
  r->key_values = NULL;
  r->n_keys = 0;
  r->wanted = NULL;
  r->n_wanted = 0;
  r->visit = NULL;
  r->visit_data = NULL;
  r->stopped = FALSE;
}

static gboolean
malformed (Reader *r, const char *what)
{
  /* Only the first problem is reported; callers unwind on FALSE. */
  if (r->error != NULL && *r->error == NULL)
    g_set_error (r->error, DDB_ERROR, DDB_ERROR_INTERNAL, "Malformed stored item: %s", what);
  return FALSE;
}

static inline gsize
remaining (const Reader *r)
{
  return (gsize) (r->end - r->p);
}

static gboolean
get_long_varint (Reader *r, guint64 *out)
{
  guint64 v = 0;

  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 b;

      if (r->p >= r->end)
        return malformed (r, "truncated length");
      b = *r->p++;
      if (shift == 63 && b > 1)
        return malformed (r, "length out of range");
      v |= (guint64) (b & 0x7F) << shift;
      if ((b & 0x80) == 0)
        {
          /* A redundant zero group would give a value a second encoding. */
          if (b == 0 && shift > 0)
            return malformed (r, "overlong length");
          *out = v;
          return TRUE;
        }
    }
  return malformed (r, "length out of range");
}

static inline gboolean
get_varint (Reader *r, guint64 *out)
{
  /* Names and lengths below 128 are one byte: most of them. */
  if (G_LIKELY (r->p < r->end && *r->p < 0x80))
    {
      *out = *r->p++;
      return TRUE;
    }
  return get_long_varint (r, out);
}

/* The length or count carried by a tag; `min_size` is the fewest bytes each unit takes, so that
 * a count that cannot fit in what is left is refused before anything is allocated for it. */
static inline gboolean
get_len (Reader *r, guint8 tag, gsize min_size, gsize *out)
{
  guint64 v = TAG_K (tag);

  if (v == K_EXTENDED)
    {
      guint64 extra;

      if (!get_varint (r, &extra))
        return FALSE;
      if (extra > G_MAXUINT32)
        return malformed (r, "length out of range");
      v = extra + K_EXTENDED;
    }
  if (v > remaining (r) / min_size)
    return malformed (r, "truncated value");
  *out = (gsize) v;
  return TRUE;
}

/* The digit count, exponent and sign of the number whose encoding follows TAG; R steps past
 * it, its framing checked (the digit count, the exponent in range, the digit pairs there) as
 * read_number checks it, its digits not looked at. */
/* Steps over an attribute's name, which starts at *NAME (may be NULL) and is *LEN bytes. */
static inline gboolean
skip_name (Reader *r, const guint8 **name, guint64 *len)
{
  if (!get_varint (r, len))
    return FALSE;
  if (*len > remaining (r))
    return malformed (r, "truncated attribute name");
  if (name != NULL)
    *name = r->p;
  r->p += *len;
  return TRUE;
}

/* Steps over the tag of the item DATA .. DATA+LEN-1 (a map), which must be there. */
static gboolean
open_item (Reader *r, const guint8 *data, gsize len)
{
  if (len == 0)
    return malformed (r, "empty");
  if (TAG_TYPE (data[0]) != DDB_TYPE_M)
    return malformed (r, "not a map");
  r->p++;
  return TRUE;
}

static inline gboolean
read_number_head (Reader *r, guint8 tag, guint *ndigits_out, gint32 *exponent, gboolean *negative)
{
  guint ndigits = TAG_K (tag);
  guint64 zz;
  gint64 e;

  *ndigits_out = 0;
  *exponent = 0;
  *negative = FALSE;
  if (ndigits == 0)
    return TRUE;
  if (ndigits == K_EXTENDED)
    {
      if (r->p >= r->end)
        return malformed (r, "truncated number");
      ndigits = *r->p++;
      if (ndigits < K_EXTENDED)
        return malformed (r, "overlong number digit count");
    }
  if (ndigits > DDB_NUMBER_MAX_DIGITS)
    return malformed (r, "number has too many digits");
  if (!get_varint (r, &zz))
    return FALSE;
  *negative = (zz & 1) != 0;
  zz >>= 1;
  if (zz > 1000)
    return malformed (r, "number exponent out of range");
  e = (zz & 1) ? -(gint64) (zz >> 1) - 1 : (gint64) (zz >> 1);
  if (e < NUM_MIN_EXPONENT || e > NUM_MAX_EXPONENT)
    return malformed (r, "number exponent out of range");
  *exponent = (gint32) e;
  if (remaining (r) < (ndigits + 1) / 2)
    return malformed (r, "truncated number");
  *ndigits_out = ndigits;
  return TRUE;
}

/* Steps over a number as read_number_head reads it and past its digit pairs. */
static inline gboolean
skip_number (Reader *r, guint8 tag, guint *ndigits, gint32 *exponent, gboolean *negative)
{
  if (!read_number_head (r, tag, ndigits, exponent, negative))
    return FALSE;
  r->p += (*ndigits + 1) / 2;
  return TRUE;
}

/* Steps over a number's encoding after its TAG, checked as a whole (digit count, exponent,
 * digits, normalization) but its digits left packed: *NDIGITS (0 for zero), *EXPONENT and
 * *NEGATIVE are DdbNumber's, *PAIRS the (NDIGITS + 1) / 2 bytes of digit pairs. */
static gboolean
read_number (Reader *r, guint8 tag, guint *ndigits_out, gint32 *exponent, gboolean *negative,
             const guint8 **pairs)
{
  guint ndigits, npairs, last;

  *pairs = NULL;
  if (!read_number_head (r, tag, &ndigits, exponent, negative))
    return FALSE;
  *ndigits_out = ndigits;
  if (ndigits == 0)
    return TRUE;
  npairs = (ndigits + 1) / 2;
  for (guint i = 0; i < npairs; i++)
    if (r->p[i] > 99)
      return malformed (r, "invalid number digits");
  /* An odd count's last pair holds a 0 beside its digit. */
  last = r->p[npairs - 1];
  if (ndigits % 2 == 1 && last % 10 != 0)
    return malformed (r, "invalid number digits");
  /* No leading zero (the first pair's first digit), no trailing zero (the last digit). */
  if (r->p[0] < 10 || (ndigits % 2 == 0 ? last % 10 : last / 10) == 0)
    return malformed (r, "number not normalized");
  *pairs = r->p;
  r->p += npairs;
  return TRUE;
}

static gboolean
get_number (Reader *r, guint8 tag, DdbNumber *n)
{
  guint ndigits;
  const guint8 *pairs;

  memset (n, 0, sizeof *n);
  if (!read_number (r, tag, &ndigits, &n->exponent, &n->negative, &pairs))
    return FALSE;
  for (guint i = 0; i < ndigits; i += 2)
    {
      n->d[i] = (guint8) (pairs[i / 2] / 10);
      if (i + 1 < ndigits)
        n->d[i + 1] = (guint8) (pairs[i / 2] % 10);
    }
  n->ndigits = (guint8) ndigits;
  return TRUE;
}

static DdbValue *get_value (Reader *r, guint level);

/* Unique names: pairwise for the small maps most items are, hashed beyond. */
static gboolean
names_unique (const DdbValue *m)
{
  GArray *attrs = m->attrs;
  gboolean dup = FALSE;

  if (attrs->len <= 24)
    {
      for (guint i = 1; i < attrs->len; i++)
        {
          const DdbAttr *a = &g_array_index (attrs, DdbAttr, i);
          for (guint j = 0; j < i; j++)
            {
              const DdbAttr *b = &g_array_index (attrs, DdbAttr, j);
              if (a->name_len == b->name_len && memcmp (a->name, b->name, a->name_len) == 0)
                return FALSE;
            }
        }
      return TRUE;
    }
  else
    {
      /* Names hold no U+0000 here only by convention, so hash them as byte strings. */
      GHashTable *seen = g_hash_table_new ((GHashFunc) g_bytes_hash, (GEqualFunc) g_bytes_equal);
      GPtrArray *keep = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

      for (guint i = 0; i < attrs->len && !dup; i++)
        {
          const DdbAttr *a = &g_array_index (attrs, DdbAttr, i);
          GBytes *b = g_bytes_new_static (a->name, a->name_len);

          g_ptr_array_add (keep, b);
          dup = !g_hash_table_add (seen, b);
        }
      g_hash_table_destroy (seen);
      g_ptr_array_unref (keep);
      return !dup;
    }
}

/* Hands a scalar to the reader's visitor, if it has one and has not stopped. */
static void
visit (Reader *r, DdbType type, const guint8 *bytes, gsize len, const DdbNumber *number,
       gboolean boolean)
{
  DdbEncodedScalar scalar = { type, bytes, len, number, boolean };

  if (!r->stopped)
    r->stopped = r->visit (&scalar, r->visit_data);
}

/* Steps over a value not wanted, allocating nothing: its framing is checked (nothing is read
 * past the end, counts and nesting within bounds), its contents are not (a number's digits
 * are when the visitor is handed the number). SIZE grows by the value's size as DynamoDB counts it
 * (itemsize.c's rules). The reader's visitor (if any) sees each scalar. */
/* Steps over a number whose tag TAG was read, SIZE growing by its size (which needs no digit
 * of it, unless the visitor is to see it). */
static inline gboolean
step_number (Reader *r, guint8 tag, gsize *size)
{
  if (r->visit == NULL)
    {
      guint ndigits;
      gint32 exponent;
      gboolean negative;

      if (!skip_number (r, tag, &ndigits, &exponent, &negative))
        return FALSE;
      *size += ddb_number_size_of (ndigits, exponent, negative);
    }
  else
    {
      DdbNumber n;

      if (!get_number (r, tag, &n))
        return FALSE;
      visit (r, DDB_TYPE_N, NULL, 0, &n, FALSE);
      *size += ddb_number_size (&n);
    }
  return TRUE;
}

/* The same for a BOOL or a NULL. */
static inline void
step_flag (Reader *r, guint8 tag, gsize *size)
{
  if (r->visit != NULL)
    visit (r, TAG_TYPE (tag), NULL, 0, NULL, TAG_K (tag) != 0);
  *size += 1;
}

static gboolean skip_value (Reader *r, guint level, gsize *size);

/* skip_value without a call for the values items are mostly made of (a string or binary of up
 * to 142 bytes, a number, a boolean, a null), with the same checks, errors and visits; anything
 * else goes through skip_value. */
G_ALWAYS_INLINE static inline gboolean
skip_value_fast (Reader *r, guint level, gsize *size)
{
  guint8 tag;

  if (r->p >= r->end || level > DDB_MAX_NESTING)
    return skip_value (r, level, size);
  tag = *r->p;
  switch (TAG_TYPE (tag))
    {
    case DDB_TYPE_S:
      case DDB_TYPE_B: {
        gsize count = TAG_K (tag), head = 1;

        if (count == K_EXTENDED)
          {
            /* A one-byte varint of the length past 15. */
            if (r->end - r->p < 2 || r->p[1] >= 0x80)
              break;
            count += r->p[1];
            head = 2;
          }
        if (count > (gsize) (r->end - r->p) - head)
          break;
        r->p += head;
        if (r->visit != NULL)
          visit (r, TAG_TYPE (tag), r->p, count, NULL, FALSE);
        r->p += count;
        *size += count;
        return TRUE;
      }
    case DDB_TYPE_N:
      r->p++;
      return step_number (r, tag, size);
    case DDB_TYPE_BOOL:
    case DDB_TYPE_NULL:
      r->p++;
      step_flag (r, tag, size);
      return TRUE;
    default:
      break;
    }
  return skip_value (r, level, size);
}

static gboolean
skip_value (Reader *r, guint level, gsize *size)
{
  guint8 tag;
  gsize count;

  if (r->p >= r->end)
    return malformed (r, "truncated value");
  if (level > DDB_MAX_NESTING)
    return malformed (r, "nested too deep");
  tag = *r->p++;
  switch (TAG_TYPE (tag))
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      if (!get_len (r, tag, 1, &count))
        return FALSE;
      if (r->visit != NULL)
        visit (r, TAG_TYPE (tag), r->p, count, NULL, FALSE);
      r->p += count;
      *size += count;
      return TRUE;
    case DDB_TYPE_N:
      return step_number (r, tag, size);
    case DDB_TYPE_BOOL:
    case DDB_TYPE_NULL:
      step_flag (r, tag, size);
      return TRUE;
    case DDB_TYPE_M:
      if (!get_len (r, tag, 2, &count))
        return FALSE;
      *size += DDB_ITEM_NESTED_OVERHEAD;
      for (gsize i = 0; i < count; i++)
        {
          guint64 name_len;

          if (!skip_name (r, NULL, &name_len))
            return FALSE;
          *size += DDB_ITEM_ELEMENT_OVERHEAD + name_len;
          if (!skip_value_fast (r, level + 1, size))
            return FALSE;
        }
      return TRUE;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      if (!get_len (r, tag, 1, &count))
        return FALSE;
      if (TAG_TYPE (tag) == DDB_TYPE_L)
        *size += DDB_ITEM_NESTED_OVERHEAD + count * DDB_ITEM_ELEMENT_OVERHEAD;
      for (gsize i = 0; i < count; i++)
        if (!skip_value_fast (r, TAG_TYPE (tag) == DDB_TYPE_L ? level + 1 : level, size))
          return FALSE;
      return TRUE;
    default:
      return malformed (r, "unknown type tag");
    }
}

static gboolean
is_wanted (const Reader *r, const char *name, gsize len)
{
  for (guint i = 0; i < r->n_wanted; i++)
    if (strlen (r->wanted[i]) == len && memcmp (r->wanted[i], name, len) == 0)
      return TRUE;
  return FALSE;
}

static DdbValue *
get_map (Reader *r, guint8 tag, guint level)
{
  gsize count;
  DdbValue *m;

  /* An attribute takes at least a name length byte and a tag. */
  if (!get_len (r, tag, 2, &count))
    return NULL;
  m = ddb_value_new_m_sized ((guint) count);
  for (gsize i = 0; i < count; i++)
    {
      guint64 name_len;
      const char *name;
      DdbValue *v;

      if (!get_varint (r, &name_len))
        goto fail;
      if (name_len == 0 && level == 1 && r->key_values != NULL)
        {
          guint slot;

          if (r->p >= r->end)
            {
              malformed (r, "truncated key placeholder");
              goto fail;
            }
          slot = *r->p++;
          if (slot >= r->n_keys || r->key_values[slot] == NULL)
            {
              malformed (r, "key placeholder without its value");
              goto fail;
            }
          ddb_value_map_append (m, r->key_names[slot], strlen (r->key_names[slot]),
                                r->key_values[slot]);
          r->key_values[slot] = NULL;
          continue;
        }
      if (name_len > remaining (r))
        {
          malformed (r, "truncated attribute name");
          goto fail;
        }
      name = (const char *) r->p;
      if (!ddb_utf8_validate (name, (gsize) name_len))
        {
          malformed (r, "attribute name is not valid UTF-8");
          goto fail;
        }
      r->p += name_len;
      if (level == 1 && r->wanted != NULL && !is_wanted (r, name, (gsize) name_len))
        {
          gsize ignored = 0;

          if (!skip_value (r, level, &ignored))
            goto fail;
          continue;
        }
      v = get_value (r, level);
      if (v == NULL)
        goto fail;
      ddb_value_map_append (m, name, (gsize) name_len, v);
    }
  if (!names_unique (m))
    {
      malformed (r, "duplicate attribute name");
      goto fail;
    }
  return m;

fail:
  ddb_value_free (m);
  return NULL;
}

static DdbValue *
get_elems (Reader *r, guint8 tag, DdbType type, guint level)
{
  gsize count;
  DdbValue *c;
  gboolean set = type != DDB_TYPE_L;
  DdbType elem_type = set ? ddb_type_set_element (type) : DDB_TYPE_L;

  if (!get_len (r, tag, 1, &count))
    return NULL;
  if (set && count == 0)
    {
      malformed (r, "empty set");
      return NULL;
    }
  c = set ? ddb_value_new_set_sized (type, (guint) count) : ddb_value_new_l_sized ((guint) count);
  for (gsize i = 0; i < count; i++)
    {
      DdbValue *e;

      if (set)
        {
          if (r->p >= r->end)
            {
              malformed (r, "truncated set");
              goto fail;
            }
          if (TAG_TYPE (*r->p) != elem_type)
            {
              malformed (r, "set element of the wrong type");
              goto fail;
            }
        }
      /* Set elements are not nesting levels. */
      e = get_value (r, set ? level : level + 1);
      if (e == NULL)
        goto fail;
      g_ptr_array_add (c->elems, e);
    }
  if (set && ddb_value_set_has_duplicates (c))
    {
      malformed (r, "duplicate set element");
      goto fail;
    }
  return c;

fail:
  ddb_value_free (c);
  return NULL;
}

/* `level` is the nesting level of the value read, counted as ddb_item_validate() does. */
static DdbValue *
get_value (Reader *r, guint level)
{
  guint8 tag;
  DdbType type;

  if (r->p >= r->end)
    {
      malformed (r, "truncated value");
      return NULL;
    }
  if (level > DDB_MAX_NESTING)
    {
      malformed (r, "nested too deep");
      return NULL;
    }
  tag = *r->p++;
  type = TAG_TYPE (tag);

  switch (type)
    {
    case DDB_TYPE_S:
      case DDB_TYPE_B: {
        gsize len;
        DdbValue *v;

        if (!get_len (r, tag, 1, &len))
          return NULL;
        if (type == DDB_TYPE_S && !ddb_utf8_validate ((const char *) r->p, len))
          {
            malformed (r, "string is not valid UTF-8");
            return NULL;
          }
        v = type == DDB_TYPE_S ? ddb_value_new_s ((const char *) r->p, (gssize) len)
                               : ddb_value_new_b (r->p, len);
        r->p += len;
        return v;
      }
      case DDB_TYPE_N: {
        DdbNumber n;

        if (!get_number (r, tag, &n))
          return NULL;
        return ddb_value_new_n (&n);
      }
    case DDB_TYPE_BOOL:
      if (TAG_K (tag) > 1)
        {
          malformed (r, "invalid boolean");
          return NULL;
        }
      return ddb_value_new_bool (TAG_K (tag) == 1);
    case DDB_TYPE_NULL:
      if (TAG_K (tag) != 0)
        {
          malformed (r, "invalid null");
          return NULL;
        }
      return ddb_value_new_null ();
    case DDB_TYPE_M:
      return get_map (r, tag, level + 1);
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      return get_elems (r, tag, type, level);
    default:
      malformed (r, "unknown type tag");
      return NULL;
    }
}

static DdbValue *
decode (Reader *r, const guint8 *data, gsize len)
{
  DdbValue *item;

  if (!open_item (r, data, len))
    return NULL;
  /* The item's own attributes are at level 1. */
  item = get_map (r, data[0], 1);
  if (item == NULL)
    return NULL;
  if (r->p != r->end)
    {
      malformed (r, "trailing bytes");
      ddb_value_free (item);
      return NULL;
    }
  return item;
}

DdbValue *
ddb_item_decode (const guint8 *data, gsize len, GError **error)
{
  Reader r = { data, data + len, error, NULL, NULL, 0, NULL, 0 };

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return decode (&r, data, len);
}

DdbValue *
ddb_item_decode_keyed_some (const guint8 *data, gsize len, const char *const *key_names,
                            DdbValue **key_values, guint n, const char *const *wanted,
                            guint n_wanted, GError **error)
{
  Reader r = { data, data + len, error, key_names, key_values, n, wanted, n_wanted };
  DdbValue *item;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  g_return_val_if_fail (n <= DDB_ITEM_MAX_KEY_SLOTS, NULL);

  item = decode (&r, data, len);
  for (guint k = 0; k < n; k++)
    {
      if (key_values[k] == NULL)
        continue;
      if (item != NULL)
        {
          malformed (&r, "key attribute without its placeholder");
          g_clear_pointer (&item, ddb_value_free);
        }
      g_clear_pointer (&key_values[k], ddb_value_free);
    }
  return item;
}

/* Steps over the whole item R reads, its size into *SIZE. */
static gboolean
skip_item (Reader *r, const guint8 *data, gsize *size)
{
  gsize count, total = 0;

  if (!open_item (r, data, (gsize) (r->end - r->p)) || !get_len (r, data[0], 2, &count))
    return FALSE;
  /* The item itself is no nested map: its attributes cost their names and values only. */
  for (gsize i = 0; i < count; i++)
    {
      guint64 name_len;

      if (!skip_name (r, NULL, &name_len))
        return FALSE;
      total += name_len;
      if (!skip_value_fast (r, 1, &total))
        return FALSE;
    }
  if (r->p != r->end)
    return malformed (r, "trailing bytes");
  *size = total;
  return TRUE;
}

gboolean
ddb_item_encoded_foreach_scalar (const guint8 *data, gsize len, DdbEncodedScalarFunc func,
                                 gpointer user_data, gboolean *stopped, GError **error)
{
  Reader r;
  gsize size;
  gboolean ok;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (func != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  reader_init (&r, data, len, error);
  r.visit = func;
  r.visit_data = user_data;
  ok = skip_item (&r, data, &size);
  if (stopped != NULL)
    *stopped = ok && r.stopped;
  return ok;
}

gboolean
ddb_item_encoded_size (const guint8 *data, gsize len, gsize *size, GError **error)
{
  Reader r;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);
  reader_init (&r, data, len, error);
  return skip_item (&r, data, size);
}

DdbValue *
ddb_item_decode_keyed (const guint8 *data, gsize len, const char *const *key_names,
                       DdbValue **key_values, guint n, GError **error)
{
  return ddb_item_decode_keyed_some (data, len, key_names, key_values, n, NULL, 0, error);
}

/* Whether NAME (a C string) is the LEN bytes at P, read no further than its end. */
static inline gboolean
name_is (const char *name, const guint8 *p, gsize len)
{
  gsize i = 0;

  while (i < len && name[i] != '\0' && (guint8) name[i] == p[i])
    i++;
  return i == len && name[i] == '\0';
}

gboolean
ddb_item_encoded_lookup (const guint8 *data, gsize len, const char *const *names, guint n,
                         DdbEncodedValue *values, gsize *size, GError **error)
{
  Reader r;
  guint missing = n;
  gsize count, total = 0;

  g_return_val_if_fail (data != NULL || len == 0, FALSE);
  g_return_val_if_fail (names != NULL || n == 0, FALSE);
  g_return_val_if_fail (values != NULL || n == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reader_init (&r, data, len, error);
  for (guint j = 0; j < n; j++)
    {
      values[j].data = NULL;
      values[j].len = 0;
      values[j].type = DDB_TYPE_NULL;
    }
  if (!open_item (&r, data, len) || !get_len (&r, data[0], 2, &count))
    return FALSE;
  for (gsize i = 0; i < count && (missing > 0 || size != NULL); i++)
    {
      guint64 name_len;
      const guint8 *name, *value;

      if (!skip_name (&r, &name, &name_len))
        return FALSE;
      total += name_len;
      value = r.p;
      /* The item's own attributes are at level 1; it is no nested map itself. */
      if (!skip_value_fast (&r, 1, &total))
        return FALSE;
      for (guint j = 0; j < n && missing > 0; j++)
        if (values[j].data == NULL && name_is (names[j], name, name_len))
          {
            values[j].data = value;
            values[j].len = (gsize) (r.p - value);
            values[j].type = TAG_TYPE (*value);
            missing--;
          }
    }
  if (size != NULL)
    {
      if (r.p != r.end)
        return malformed (&r, "trailing bytes");
      *size = total;
    }
  return TRUE;
}

gboolean
ddb_encoded_value_get_scalar (const DdbEncodedValue *value, DdbEncodedScalar *scalar,
                              DdbNumber *number, GError **error)
{
  Reader r;
  guint8 tag;

  g_return_val_if_fail (value != NULL && value->data != NULL, FALSE);
  g_return_val_if_fail (scalar != NULL && number != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Most keys and cells: a string or binary of less than 15 bytes, whole and valid. */
  tag = value->len >= 1 ? value->data[0] : 0;
  if ((TAG_TYPE (tag) == DDB_TYPE_S || TAG_TYPE (tag) == DDB_TYPE_B) && value->len >= 1
      && TAG_K (tag) < K_EXTENDED && value->len == 1 + (gsize) TAG_K (tag)
      && (TAG_TYPE (tag) == DDB_TYPE_B
          || ddb_utf8_validate ((const char *) value->data + 1, value->len - 1)))
    {
      scalar->type = TAG_TYPE (tag);
      scalar->bytes = value->data + 1;
      scalar->len = value->len - 1;
      scalar->number = NULL;
      scalar->boolean = FALSE;
      return TRUE;
    }
  memset (scalar, 0, sizeof *scalar);
  reader_init (&r, value->data, value->len, error);
  if (r.p >= r.end)
    return malformed (&r, "truncated value");
  tag = *r.p++;
  scalar->type = TAG_TYPE (tag);
  switch (TAG_TYPE (tag))
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      if (!get_len (&r, tag, 1, &scalar->len))
        return FALSE;
      if (TAG_TYPE (tag) == DDB_TYPE_S && !ddb_utf8_validate ((const char *) r.p, scalar->len))
        return malformed (&r, "string is not valid UTF-8");
      scalar->bytes = r.p;
      r.p += scalar->len;
      break;
    case DDB_TYPE_N:
      if (!get_number (&r, tag, number))
        return FALSE;
      scalar->number = number;
      break;
    case DDB_TYPE_BOOL:
      if (TAG_K (tag) > 1)
        return malformed (&r, "invalid boolean");
      scalar->boolean = TAG_K (tag) == 1;
      break;
    case DDB_TYPE_NULL:
      if (TAG_K (tag) != 0)
        return malformed (&r, "invalid null");
      break;
    case DDB_TYPE_M:
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      /* Not a scalar: its type is all that is said. */
      return TRUE;
    default:
      return malformed (&r, "unknown type tag");
    }
  if (r.p != r.end)
    return malformed (&r, "trailing bytes");
  return TRUE;
}

DdbValue *
ddb_encoded_value_decode (const DdbEncodedValue *value, GError **error)
{
  Reader r;
  DdbValue *v;

  g_return_val_if_fail (value != NULL && value->data != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  reader_init (&r, value->data, value->len, error);
  /* An item's own attribute is at level 1. */
  v = get_value (&r, 1);
  if (v != NULL && r.p != r.end)
    {
      malformed (&r, "trailing bytes");
      g_clear_pointer (&v, ddb_value_free);
    }
  return v;
}
