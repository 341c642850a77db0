/* keycodec.c: the order-preserving, self-delimiting byte encoding of S, N and B key values.
 *
 * S and B: the bytes as they are, except that 0x00 is written as 0x00 0xFF, followed by the
 * terminator 0x00 0x01. The terminator sorts below every data byte and below an escaped zero,
 * so a value sorts before its extensions ("ab" < "ab\0" < "abc") and a value followed by
 * anything still sorts as the value alone.
 *
 * N: a sign byte (0x01 negative, 0x02 zero, 0x03 positive); zero stops there. Otherwise the
 * exponent byte (exponent + 129, as 0.d1d2.. * 10^exponent spans exactly -129..126, i.e. one
 * byte), then the digits two per byte as 1 + (10 * hi + lo) (1..100; an odd last digit is paired
 * with a 0, which cannot be confused with a real digit because normalized numbers have no trailing
 * zero), then the terminator 0x00, which sorts below every digit byte so 0.12 < 0.123. For a
 * negative number every byte after the sign is complemented (0xFF - b): that reverses the order
 * of the magnitudes, and the terminator becomes 0xFF. Normalization makes the encoding of a
 * number unique, so 1, 1.0 and 1E0 encode identically. */
#include "core/keycodec.h"

#include <string.h>

#include "core/error.h"

#define STR_ESCAPE 0x00
#define STR_ESCAPED_ZERO 0xFF
#define STR_END 0x01

#define NUM_NEGATIVE 0x01
#define NUM_ZERO 0x02
#define NUM_POSITIVE 0x03

#define NUM_MIN_EXPONENT (-129)
#define NUM_MAX_EXPONENT 126
#define NUM_END 0x00
#define NUM_MAX_PAIRS ((DDB_NUMBER_MAX_DIGITS + 1) / 2)

void
ddb_key_encode_bytes (const void *data, gsize len, GByteArray *out)
{
  const guint8 *p = data;
  const guint8 *end = p + len;
  static const guint8 escaped_zero[2] = { STR_ESCAPE, STR_ESCAPED_ZERO };
  static const guint8 terminator[2] = { STR_ESCAPE, STR_END };

  /* Most keys hold no zero byte: the bytes and the terminator at once. */
  if (len == 0 || memchr (p, 0, len) == NULL)
    {
      guint at = out->len;

      g_byte_array_set_size (out, at + (guint) len + sizeof terminator);
      if (len > 0)
        memcpy (out->data + at, p, len);
      memcpy (out->data + at + len, terminator, sizeof terminator);
      return;
    }
  /* Copy runs between zero bytes in one go. */
  while (p < end)
    {
      const guint8 *zero = memchr (p, 0, (gsize) (end - p));

      if (zero == NULL)
        {
          g_byte_array_append (out, p, (guint) (end - p));
          break;
        }
      if (zero > p)
        g_byte_array_append (out, p, (guint) (zero - p));
      g_byte_array_append (out, escaped_zero, sizeof escaped_zero);
      p = zero + 1;
    }
  g_byte_array_append (out, terminator, sizeof terminator);
}

gboolean
ddb_key_encode_number (const DdbNumber *n, GByteArray *out, GError **error)
{
  guint8 buf[2 + NUM_MAX_PAIRS + 1];
  gsize len = 0;
  guint8 flip;

  if (n->ndigits == 0)
    {
      buf[len++] = NUM_ZERO;
      g_byte_array_append (out, buf, (guint) len);
      return TRUE;
    }

  if (n->ndigits > DDB_NUMBER_MAX_DIGITS)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Attempting to store more than 38 significant digits in a Number");
      return FALSE;
    }
  if (n->exponent > NUM_MAX_EXPONENT)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Number overflow. Attempting to store a number with magnitude larger "
                           "than supported range");
      return FALSE;
    }
  if (n->exponent < NUM_MIN_EXPONENT)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Number underflow. Attempting to store a number with magnitude smaller "
                           "than supported range");
      return FALSE;
    }
  flip = n->negative ? 0xFF : 0x00;
  buf[len++] = n->negative ? NUM_NEGATIVE : NUM_POSITIVE;
  buf[len++] = (guint8) (n->exponent - NUM_MIN_EXPONENT) ^ flip;
  for (guint i = 0; i < n->ndigits; i += 2)
    {
      guint hi = n->d[i];
      guint lo = i + 1 < n->ndigits ? n->d[i + 1] : 0;

      /* A non-normalized number would get a second encoding and break key equality. */
      if (hi > 9 || lo > 9)
        {
          g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                               "Cannot encode a key number: digit out of range");
          return FALSE;
        }
      buf[len++] = (guint8) (1 + 10 * hi + lo) ^ flip;
    }
  if (n->d[0] == 0 || n->d[n->ndigits - 1] == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_INTERNAL,
                           "Cannot encode a key number: not normalized");
      return FALSE;
    }
  buf[len++] = NUM_END ^ flip;

  g_byte_array_append (out, buf, (guint) len);
  return TRUE;
}

/* Only S, N and B can be key attributes; `verb` says what was attempted with another type. */
static gboolean
check_key_type (DdbType type, const char *verb, GError **error)
{
  switch (type)
    {
    case DDB_TYPE_S:
    case DDB_TYPE_B:
    case DDB_TYPE_N:
      return TRUE;
    case DDB_TYPE_BOOL:
    case DDB_TYPE_NULL:
    case DDB_TYPE_M:
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
    default:
      break;
    }

  g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL,
               "Cannot %s a key of type %s: keys are S, N or B", verb,
               ddb_type_name (type) != NULL ? ddb_type_name (type) : "?");
  return FALSE;
}

gboolean
ddb_key_encode (const DdbValue *key, GByteArray *out, GError **error)
{
  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_key_type (key->type, "encode", error))
    return FALSE;
  if (key->type == DDB_TYPE_N)
    return ddb_key_encode_number (&key->number, out, error);
  ddb_key_encode_bytes (key->bytes.data, key->bytes.len, out);
  return TRUE;
}

static gboolean
malformed (GError **error, const char *what)
{
  g_set_error (error, DDB_ERROR, DDB_ERROR_INTERNAL, "Malformed encoded key: %s", what);
  return FALSE;
}

/* Strings may hold U+0000, which g_utf8_validate_len() refuses, so validate between zeros. */
static gboolean
utf8_valid_with_nuls (const char *s, gsize len)
{
  const char *end = s + len;

  while (s < end)
    {
      const char *zero = memchr (s, 0, (gsize) (end - s));
      const char *stop = zero != NULL ? zero : end;

      if (!g_utf8_validate_len (s, (gsize) (stop - s), NULL))
        return FALSE;
      s = zero != NULL ? zero + 1 : end;
    }
  return TRUE;
}

static DdbValue *
decode_bytes (DdbType type, const guint8 *buf, gsize len, gsize *consumed, GError **error)
{
  gsize decoded_len = 0;
  gsize i = 0;
  gboolean escaped = FALSE;
  DdbValue *value;

  /* First pass: find the terminator, check the escapes and size the result. */
  for (;;)
    {
      if (i >= len)
        {
          malformed (error, "missing string terminator");
          return NULL;
        }
      if (buf[i] != STR_ESCAPE)
        {
          decoded_len++;
          i++;
          continue;
        }
      if (i + 1 >= len)
        {
          malformed (error, "truncated escape");
          return NULL;
        }
      if (buf[i + 1] == STR_END)
        break;
      if (buf[i + 1] != STR_ESCAPED_ZERO)
        {
          malformed (error, "invalid escape");
          return NULL;
        }
      escaped = TRUE;
      decoded_len++;
      i += 2;
    }

  if (!escaped)
    {
      if (type == DDB_TYPE_S && !utf8_valid_with_nuls ((const char *) buf, decoded_len))
        {
          malformed (error, "string is not valid UTF-8");
          return NULL;
        }
      value = type == DDB_TYPE_S ? ddb_value_new_s ((const char *) buf, (gssize) decoded_len)
                                 : ddb_value_new_b (buf, decoded_len);
    }
  else
    {
      gsize o = 0;
      char *tmp = g_malloc (decoded_len + 1);
      for (gsize j = 0; j < i; j++)
        {
          tmp[o++] = (char) buf[j];
          if (buf[j] == STR_ESCAPE)
            j++;
        }
      tmp[o] = '\0';
      if (type == DDB_TYPE_S && !utf8_valid_with_nuls (tmp, decoded_len))
        {
          g_free (tmp);
          malformed (error, "string is not valid UTF-8");
          return NULL;
        }
      value = ddb_value_take_bytes (type, tmp, decoded_len);
    }

  if (consumed != NULL)
    *consumed = i + 2;
  return value;
}

static DdbValue *
decode_number (const guint8 *buf, gsize len, gsize *consumed, GError **error)
{
  DdbNumber n;
  guint8 flip;
  gsize i;

  memset (&n, 0, sizeof n);

  if (len < 1)
    {
      malformed (error, "truncated number");
      return NULL;
    }
  if (buf[0] == NUM_ZERO)
    {
      if (consumed != NULL)
        *consumed = 1;
      return ddb_value_new_n (&n);
    }
  if (buf[0] != NUM_NEGATIVE && buf[0] != NUM_POSITIVE)
    {
      malformed (error, "invalid number sign");
      return NULL;
    }
  n.negative = buf[0] == NUM_NEGATIVE;
  flip = n.negative ? 0xFF : 0x00;

  if (len < 2)
    {
      malformed (error, "truncated number");
      return NULL;
    }
  n.exponent = (gint32) (buf[1] ^ flip) + NUM_MIN_EXPONENT;

  for (i = 2;; i++)
    {
      guint b;

      if (i >= len)
        {
          malformed (error, "truncated number");
          return NULL;
        }
      b = buf[i] ^ flip;
      if (b == NUM_END)
        break;
      if (b > 100)
        {
          malformed (error, "invalid number digits");
          return NULL;
        }
      if (n.ndigits + 2 > DDB_NUMBER_MAX_DIGITS)
        {
          malformed (error, "too many number digits");
          return NULL;
        }
      n.d[n.ndigits++] = (guint8) ((b - 1) / 10);
      n.d[n.ndigits++] = (guint8) ((b - 1) % 10);
    }

  /* The pad digit of an odd count; what remains must be exactly what the encoder writes. */
  if (n.ndigits > 0 && n.d[n.ndigits - 1] == 0)
    n.ndigits--;
  if (n.ndigits == 0 || n.d[0] == 0 || n.d[n.ndigits - 1] == 0)
    {
      malformed (error, "number digits not normalized");
      return NULL;
    }

  if (consumed != NULL)
    *consumed = i + 1;
  return ddb_value_new_n (&n);
}

DdbValue *
ddb_key_decode (DdbType type, const guint8 *buf, gsize len, gsize *consumed, GError **error)
{
  g_return_val_if_fail (buf != NULL || len == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_key_type (type, "decode", error))
    return NULL;
  if (type == DDB_TYPE_N)
    return decode_number (buf, len, consumed, error);
  return decode_bytes (type, buf, len, consumed, error);
}
