/* base64.c: strict RFC 4648 base64 with padding, encoder and canonical-only decoder. */
#include "core/base64.h"

#include <string.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* 0..63 for an alphabet character, 64 for '=', 0xFF for anything else. */
static const guint8 decode_table[256] = {
  ['A'] = 0,  ['B'] = 1,  ['C'] = 2,  ['D'] = 3,  ['E'] = 4,  ['F'] = 5,  ['G'] = 6,  ['H'] = 7,
  ['I'] = 8,  ['J'] = 9,  ['K'] = 10, ['L'] = 11, ['M'] = 12, ['N'] = 13, ['O'] = 14, ['P'] = 15,
  ['Q'] = 16, ['R'] = 17, ['S'] = 18, ['T'] = 19, ['U'] = 20, ['V'] = 21, ['W'] = 22, ['X'] = 23,
  ['Y'] = 24, ['Z'] = 25, ['a'] = 26, ['b'] = 27, ['c'] = 28, ['d'] = 29, ['e'] = 30, ['f'] = 31,
  ['g'] = 32, ['h'] = 33, ['i'] = 34, ['j'] = 35, ['k'] = 36, ['l'] = 37, ['m'] = 38, ['n'] = 39,
  ['o'] = 40, ['p'] = 41, ['q'] = 42, ['r'] = 43, ['s'] = 44, ['t'] = 45, ['u'] = 46, ['v'] = 47,
  ['w'] = 48, ['x'] = 49, ['y'] = 50, ['z'] = 51, ['0'] = 52, ['1'] = 53, ['2'] = 54, ['3'] = 55,
  ['4'] = 56, ['5'] = 57, ['6'] = 58, ['7'] = 59, ['8'] = 60, ['9'] = 61, ['+'] = 62, ['/'] = 63,
  ['='] = 64,
};

/* The designated initializer above leaves unlisted entries 0, which is also 'A'; this marks
 * which bytes really are in the alphabet. */
static inline gboolean
is_b64 (guchar c)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+'
         || c == '/';
}

gsize
ddb_base64_encode_to (char *out, const guchar *data, gsize len)
{
  char *o = out;
  gsize i = 0;

  for (; i + 3 <= len; i += 3)
    {
      guint32 w = ((guint32) data[i] << 16) | ((guint32) data[i + 1] << 8) | data[i + 2];
      *o++ = alphabet[(w >> 18) & 63];
      *o++ = alphabet[(w >> 12) & 63];
      *o++ = alphabet[(w >> 6) & 63];
      *o++ = alphabet[w & 63];
    }
  if (len - i == 1)
    {
      guint32 w = (guint32) data[i] << 16;
      *o++ = alphabet[(w >> 18) & 63];
      *o++ = alphabet[(w >> 12) & 63];
      *o++ = '=';
      *o++ = '=';
    }
  else if (len - i == 2)
    {
      guint32 w = ((guint32) data[i] << 16) | ((guint32) data[i + 1] << 8);
      *o++ = alphabet[(w >> 18) & 63];
      *o++ = alphabet[(w >> 12) & 63];
      *o++ = alphabet[(w >> 6) & 63];
      *o++ = '=';
    }
  return (gsize) (o - out);
}

void
ddb_base64_append (GString *out, const guchar *data, gsize len)
{
  gsize old = out->len;

  g_string_set_size (out, old + DDB_BASE64_ENCODED_LEN (len));
  ddb_base64_encode_to (out->str + old, data, len);
}

char *
ddb_base64_encode (const guchar *data, gsize len)
{
  gsize n = DDB_BASE64_ENCODED_LEN (len);
  char *out = g_malloc (n + 1);

  ddb_base64_encode_to (out, data, len);
  out[n] = '\0';
  return out;
}

static guchar *
fail (DdbBase64Error *error, gsize *error_pos, DdbBase64Error what, gsize pos)
{
  if (error != NULL)
    *error = what;
  if (error_pos != NULL)
    *error_pos = pos;
  return NULL;
}

guchar *
ddb_base64_decode (const char *text, gssize len, gsize *out_len, DdbBase64Error *error,
                   gsize *error_pos)
{
  const guchar *p = (const guchar *) text;
  gsize n, pad = 0, full, olen;
  guchar *out, *o;

  g_return_val_if_fail (text != NULL || len == 0, NULL);
  if (len < 0)
    len = (gssize) strlen (text);
  n = (gsize) len;

  if (n % 4 != 0)
    return fail (error, error_pos, DDB_BASE64_BAD_LENGTH, 0);
  if (n > 0 && p[n - 1] == '=')
    pad = (p[n - 2] == '=') ? 2 : 1;

  /* Everything but the padding must be in the alphabet. */
  for (gsize i = 0; i < n - pad; i++)
    {
      if (G_UNLIKELY (!is_b64 (p[i])))
        return fail (error, error_pos, DDB_BASE64_BAD_CHARACTER, i);
    }

  olen = n / 4 * 3 - pad;
  out = g_malloc (olen + 1);
  o = out;
  full = pad ? n - 4 : n;
  for (gsize i = 0; i < full; i += 4)
    {
      guint32 w = ((guint32) decode_table[p[i]] << 18) | ((guint32) decode_table[p[i + 1]] << 12)
                  | ((guint32) decode_table[p[i + 2]] << 6) | decode_table[p[i + 3]];
      *o++ = (guchar) (w >> 16);
      *o++ = (guchar) (w >> 8);
      *o++ = (guchar) w;
    }
  if (pad)
    {
      const guchar *q = p + full;
      guint32 w = ((guint32) decode_table[q[0]] << 18) | ((guint32) decode_table[q[1]] << 12);
      if (pad == 1)
        w |= (guint32) decode_table[q[2]] << 6;
      /* Bits the padding says are unused must be zero, or two texts would decode the same. */
      if ((pad == 2 && (w & 0xFFFF) != 0) || (pad == 1 && (w & 0xFF) != 0))
        {
          g_free (out);
          return fail (error, error_pos, DDB_BASE64_BAD_TRAILING_BITS, n - pad - 1);
        }
      *o++ = (guchar) (w >> 16);
      if (pad == 1)
        *o++ = (guchar) (w >> 8);
    }
  *o = '\0';
  if (error != NULL)
    *error = DDB_BASE64_OK;
  if (out_len != NULL)
    *out_len = olen;
  return out;
}
