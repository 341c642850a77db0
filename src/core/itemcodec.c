/* itemcodec.c: the compact binary encoding of items that the store keeps on disk.
 *
 * An item is encoded as its M value. Every value starts with a tag byte: the type in the low
 * four bits (DdbType's numbering) and a small number `k` in the high four bits:
 *   S, B       k = byte length if < 15, else 15 followed by a varint of (length - 15); then the
 *              raw bytes.
 *   M          k = attribute count (same scheme); then per attribute a varint name length, the
 *              raw name bytes and the attribute's value.
 *   L, SS,     k = element count (same scheme); then the elements as values with their own tags
 *   NS, BS     (a set's elements must all be of its element type).
 *   BOOL       k = 0 or 1.   NULL  k = 0.
 *   N          k = 0 for zero (nothing follows). Otherwise k = digit count if < 15, else 15
 *              followed by one byte holding it (15..38); then a varint of
 *              (zigzag (exponent) << 1 | negative); then the digits two per byte as 10 * hi + lo
 *              (0..99), an odd last digit paired with 0. Number fields are DdbNumber's, which
 *              is normalized, so the encoding of a number is unique.
 * Keyless items (ddb_item_encode_keyless): at the item's own level an attribute whose name
 * length is 0 (no attribute has an empty name) is a placeholder followed by one byte, the slot
 * number of a key attribute stored outside the blob.
 * Varints are LEB128 (7 bits a byte, low first), at most 10 bytes, without redundant high
 * zero groups. Sets and maps keep their order, so decoding gives back exactly what was encoded.
 *
 * A typical attribute costs its name plus two or three bytes of framing, against about ten
 * in DynamoDB JSON. Decoding validates everything the value tree promises (UTF-8 names and
 * strings, unique names, non-empty duplicate-free sets of the right element type, normalized
 * numbers in range, the nesting limit) and never reads past `len` (itemcodec-read.c). */
#include "core/itemcodec.h"

#include <string.h>

#include "core/itemcodec-private.h"


/* Writing: straight into the array's storage, grown ahead, as a call per small piece through
 * g_byte_array_append() would cost more than the encoding itself. */

typedef struct {
  GByteArray *out;
  gsize pos;
} Writer;

static void put_value (Writer *w, const DdbValue *v);

static inline guint8 *
reserve (Writer *w, gsize n)
{
  if (w->pos + n > w->out->len)
    g_byte_array_set_size (w->out, (guint) MAX ((gsize) w->out->len * 2, w->pos + n + 256));
  return w->out->data + w->pos;
}

/* Writes a varint into buf (at least 10 bytes); returns the bytes used. */
static inline gsize
varint_write (guint8 *buf, guint64 v)
{
  gsize n = 0;

  while (v >= 0x80)
    {
      buf[n++] = (guint8) (v | 0x80);
      v >>= 7;
    }
  buf[n++] = (guint8) v;
  return n;
}

static inline void
put_raw (Writer *w, const void *data, gsize len)
{
  if (len > 0)
    {
      memcpy (reserve (w, len), data, len);
      w->pos += len;
    }
}

static inline void
put_varint (Writer *w, guint64 v)
{
  w->pos += varint_write (reserve (w, 10), v);
}

/* Tag with a length or count in k. */
static inline void
put_tag_len (Writer *w, DdbType type, gsize len)
{
  guint8 *buf = reserve (w, 11);

  if (len < K_EXTENDED)
    {
      buf[0] = (guint8) (type | (len << 4));
      w->pos += 1;
    }
  else
    {
      buf[0] = (guint8) (type | (K_EXTENDED << 4));
      w->pos += 1 + varint_write (buf + 1, (guint64) len - K_EXTENDED);
    }
}

static void
put_number (Writer *w, const DdbNumber *n)
{
  /* tag, digit count, varint exponent, 19 digit pairs */
  guint8 *buf = reserve (w, 1 + 1 + 10 + (DDB_NUMBER_MAX_DIGITS + 1) / 2);
  gsize len = 0;
  guint ndigits = MIN (n->ndigits, DDB_NUMBER_MAX_DIGITS);
  gint64 e = n->exponent;
  guint64 zz;

  if (ndigits == 0)
    {
      buf[0] = DDB_TYPE_N;
      w->pos += 1;
      return;
    }
  if (ndigits < K_EXTENDED)
    buf[len++] = (guint8) (DDB_TYPE_N | (ndigits << 4));
  else
    {
      buf[len++] = (guint8) (DDB_TYPE_N | (K_EXTENDED << 4));
      buf[len++] = (guint8) ndigits;
    }
  zz = e < 0 ? ((guint64) (-(e + 1)) << 1) | 1 : (guint64) e << 1;
  len += varint_write (buf + len, (zz << 1) | (n->negative ? 1 : 0));
  for (guint i = 0; i < ndigits; i += 2)
    {
      guint hi = n->d[i];
      guint lo = i + 1 < ndigits ? n->d[i + 1] : 0;

      buf[len++] = (guint8) (10 * hi + lo);
    }
  w->pos += len;
}

static void
put_value (Writer *w, const DdbValue *v)
{
  switch (v->type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      put_tag_len (w, v->type, v->bytes.len);
      put_raw (w, v->bytes.data, v->bytes.len);
      break;
    case DDB_TYPE_N:
      put_number (w, &v->number);
      break;
    case DDB_TYPE_BOOL:
      put_tag_len (w, DDB_TYPE_BOOL, v->boolean ? 1 : 0);
      break;
    case DDB_TYPE_NULL:
      put_tag_len (w, DDB_TYPE_NULL, 0);
      break;
    case DDB_TYPE_M:
      put_tag_len (w, DDB_TYPE_M, v->attrs->len);
      for (guint i = 0; i < v->attrs->len; i++)
        {
          const DdbAttr *a = &g_array_index (v->attrs, DdbAttr, i);

          put_varint (w, a->name_len);
          put_raw (w, a->name, a->name_len);
          put_value (w, a->value);
        }
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      put_tag_len (w, v->type, v->elems->len);
      for (guint i = 0; i < v->elems->len; i++)
        put_value (w, g_ptr_array_index (v->elems, i));
      break;
    default:
      g_return_if_reached ();
    }
}

/* The slot of the item's own attribute `a` among the omitted key names, or -1. */
static int
key_slot (const DdbAttr *a, const char *const *key_names, guint n)
{
  for (guint k = 0; k < n; k++)
    if (key_names[k] != NULL && strlen (key_names[k]) == a->name_len
        && memcmp (key_names[k], a->name, a->name_len) == 0)
      return (int) k;
  return -1;
}

void
ddb_item_encode_keyless (const DdbValue *item, const char *const *key_names, guint n,
                         GByteArray *out)
{
  Writer w;

  g_return_if_fail (item != NULL && item->type == DDB_TYPE_M);
  g_return_if_fail (out != NULL);
  g_return_if_fail (n <= DDB_ITEM_MAX_KEY_SLOTS);

  w.out = out;
  w.pos = out->len;
  put_tag_len (&w, DDB_TYPE_M, item->attrs->len);
  for (guint i = 0; i < item->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (item->attrs, DdbAttr, i);
      int slot = key_slot (a, key_names, n);

      if (slot >= 0)
        {
          guint8 *buf = reserve (&w, 2);

          buf[0] = 0;
          buf[1] = (guint8) slot;
          w.pos += 2;
          continue;
        }
      put_varint (&w, a->name_len);
      put_raw (&w, a->name, a->name_len);
      put_value (&w, a->value);
    }
  g_byte_array_set_size (out, (guint) w.pos);
}

void
ddb_item_encode (const DdbValue *item, GByteArray *out)
{
  Writer w;

  g_return_if_fail (item != NULL && item->type == DDB_TYPE_M);
  g_return_if_fail (out != NULL);

  w.out = out;
  w.pos = out->len;
  put_value (&w, item);
  g_byte_array_set_size (out, (guint) w.pos);
}
