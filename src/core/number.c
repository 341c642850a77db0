/* number.c: DynamoDB's exact decimal numbers: parsing, canonical text, ordering, hashing and
 * exact addition, all on a fixed-size struct with no heap use outside the text functions.
 *
 * What DynamoDB does, and where that was learnt (the AWS documentation only says "up to 38
 * digits of precision", "magnitude 1E-130 to 9.9999999999999999999999999999999999999E+125",
 * "leading and trailing zeroes are trimmed"; everything finer is observed behaviour):
 *
 * Grammar. DynamoDB Local reads N values with Java's BigDecimal(String) (its
 * LocalDBUtils.validateNumericValue), and all that is known of the service agrees, so that is
 * the grammar followed here: an optional '+' or '-', digits with at most one '.'
 * ("5." and ".5" are fine, "." is not), then optionally 'e' or 'E', an optional sign and at
 * least one digit. No whitespace anywhere, no "NaN"/"Infinity", no hex. A leading '+' is
 * accepted (ScyllaDB's Alternator tests, run against AWS, store "+3"; nubo-db/dynoxide#109
 * captured "+5" -> "5" in ap-south-1). Like BigDecimal, any Unicode decimal digit of the Basic
 * Multilingual Plane counts as a digit ("١" and "１" are 1 in DynamoDB Local 1.25). An exponent
 * outside the 32-bit int range, or a scale (fraction digits minus exponent) outside it, makes
 * BigDecimal fail, so "1e2147483648", "1e99999999999" and even "0e99999999999" are "cannot be
 * converted" errors, exactly as DynamoDB Local answers them, while "1e2147483647" parses and
 * then overflows and "0e2147483647" is zero.
 *
 * Messages. Taken from dynalite's validation tests (recorded against DynamoDB) and the error
 * table inside DynamoDB Local's jar (ErrorFactory), which agree:
 *   ""        -> "The parameter cannot be converted to a numeric value"
 *   "abc"     -> "The parameter cannot be converted to a numeric value: abc"
 *   39 digits -> "Attempting to store more than 38 significant digits in a Number"
 *   1E+126    -> "Number overflow. Attempting to store a number with magnitude larger than
 *                supported range"
 *   1E-131    -> "Number underflow. Attempting to store a number with magnitude smaller than
 *                supported range"
 * (DynamoDB Local 1.25's own validator says "A value provided cannot be converted into a
 * number" and "DynamoDB only supports precision up to 38 digits" instead; the service's wording
 * wins.) The precision check comes before the range checks, as in DynamoDB Local's
 * LocalDBUtils.validateNumericValue; dynalite tests each rule alone, so it cannot tell.
 *
 * Text. DynamoDB answers with plain digits, never an exponent, with leading and trailing zeros
 * removed: "1e2" -> "100", "1E+125" -> "1" and 125 zeros, "1.5e-7" -> "0.00000015", "-0" ->
 * "0". Seen in DynamoDB Local, and from AWS in boto/boto3#2500 (1e100 read back as 1 and 100
 * zeros) and boto/boto3#4636 ("1.00000000000000007629769841092E+50" read back in plain digits).
 *
 * Arithmetic. SET a = a + :v is exact. A result outside the range fails with the overflow or
 * underflow message; a result that needs more than 38 significant digits (1E+50 + 1) is not
 * rounded but fails too, and real DynamoDB words that failure as "Number overflow. ..."
 * (ScyllaDB test/alternator/test_number.py, test_update_expression_plus_imprecise, notes this
 * strange wording), so that is what ddb_number_add reports. DynamoDB Local says "DynamoDB only
 * supports precision up to 38 digits" there instead. */
#include "core/number.h"

#include <string.h>

#include "core/error.h"

#define MIN_LEAD_EXPONENT (-130) /* exponent of the leading digit of 1E-130 */
#define MAX_LEAD_EXPONENT 125    /* and of 9.99...E+125 */

/* sign + "0." + 129 zeros + 38 digits (170 bytes) is the longest canonical text. */
#define MAX_TEXT DDB_NUMBER_MAX_TEXT

/* Places a sum of two in-range numbers can touch: 10^126 (carry) down to 10^-167. */
#define SUM_PLACES 296

static const char msg_not_numeric[] = "The parameter cannot be converted to a numeric value";
static const char msg_precision[]
    = "Attempting to store more than 38 significant digits in a Number";
static const char msg_overflow[]
    = "Number overflow. Attempting to store a number with magnitude larger than supported range";
static const char msg_underflow[]
    = "Number underflow. Attempting to store a number with magnitude smaller than supported range";

static void
set_not_numeric (GError **error, const char *text, gsize len)
{
  char *shown;

  if (len == 0)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg_not_numeric);
      return;
    }
  /* The message travels in JSON, so bytes that are not UTF-8 must not reach it. */
  shown = g_utf8_make_valid (text, (gssize) len);
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s: %s", msg_not_numeric, shown);
  g_free (shown);
}

/* `exponent` is one more than the exponent of the leading digit; refuses a number outside
 * DynamoDB's range with its overflow or underflow message. */
static gboolean
check_range (gint64 exponent, GError **error)
{
  if (exponent - 1 > MAX_LEAD_EXPONENT)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg_overflow);
      return FALSE;
    }
  if (exponent - 1 < MIN_LEAD_EXPONENT)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg_underflow);
      return FALSE;
    }
  return TRUE;
}

/* BigDecimal takes any BMP character Java calls a decimal digit; supplementary-plane digits
 * arrive in Java as two surrogates, neither a digit. Returns -1 when it is not a digit, and
 * leaves *pp after the character when it is. */
static int
read_unicode_digit (const guchar **pp, const guchar *end)
{
  const guchar *p = *pp;
  gunichar c;
  int v;

  c = g_utf8_get_char_validated ((const char *) p, end - p);
  if (c == (gunichar) -1 || c == (gunichar) -2 || c >= 0x10000)
    return -1;
  v = g_unichar_digit_value (c);
  if (v < 0)
    return -1;
  *pp = (const guchar *) g_utf8_next_char (p);
  return v;
}

static inline int
read_digit (const guchar **pp, const guchar *end)
{
  const guchar *p = *pp;

  if ((guint) (*p - '0') <= 9)
    {
      *pp = p + 1;
      return *p - '0';
    }
  if (*p < 0x80)
    return -1;
  return read_unicode_digit (pp, end);
}

gboolean
ddb_number_parse (DdbNumber *out, const char *text, gssize len, GError **error)
{
  const guchar *p, *end;
  gboolean negative = FALSE;
  gint64 ndig = 0;        /* mantissa digits read, leading zeros included */
  gint64 int_digits = -1; /* mantissa digits before the point, once the point is seen */
  gint64 first_nz = -1;   /* index among mantissa digits of the first and last non-zero */
  gint64 last_nz = -1;
  guint nsig = 0; /* digits stored in out->d */
  gboolean too_many = FALSE;
  gint64 exp10 = 0;
  gint64 scale, exponent;

  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);

  if (len < 0)
    len = (gssize) strlen (text);
  if (len == 0)
    goto not_numeric;
  p = (const guchar *) text;
  end = p + len;

  if (*p == '+' || *p == '-')
    {
      negative = *p == '-';
      p++;
    }

  while (p < end)
    {
      int v;

      if ((guint) (*p - '0') <= 9)
        v = *p++ - '0';
      else if (*p == '.')
        {
          if (int_digits >= 0)
            goto not_numeric;
          int_digits = ndig;
          p++;
          continue;
        }
      else if (*p == 'e' || *p == 'E')
        break;
      else if (*p < 0x80 || (v = read_unicode_digit (&p, end)) < 0)
        goto not_numeric;

      if (v != 0)
        {
          if (first_nz < 0)
            first_nz = ndig;
          else if (!too_many)
            {
              /* Zeros between two non-zero digits are significant; a run at the end is not,
               * so they are only written once a later non-zero digit shows up. */
              gint64 gap = ndig - last_nz - 1;

              if ((gint64) nsig + gap + 1 > DDB_NUMBER_MAX_DIGITS)
                too_many = TRUE;
              else
                {
                  memset (out->d + nsig, 0, (gsize) gap);
                  nsig += (guint) gap;
                }
            }
          if (!too_many)
            out->d[nsig++] = (guint8) v;
          last_nz = ndig;
        }
      ndig++;
    }

  if (ndig == 0)
    goto not_numeric;
  if (int_digits < 0)
    int_digits = ndig;

  if (p < end)
    {
      gboolean exp_negative = FALSE;
      int exp_digits = 0;

      p++; /* the 'e' */
      if (p < end && (*p == '+' || *p == '-'))
        {
          exp_negative = *p == '-';
          p++;
        }
      if (p >= end)
        goto not_numeric;
      while (p < end)
        {
          int v = read_digit (&p, end);

          if (v < 0)
            goto not_numeric;
          if (v == 0 && exp_digits == 0)
            continue;
          /* BigDecimal's limits: at most 10 digits once leading zeros are skipped... */
          if (++exp_digits > 10)
            goto not_numeric;
          exp10 = exp10 * 10 + v;
        }
      if (exp_negative)
        exp10 = -exp10;
      /* and the exponent itself must fit an int ("Exponent overflow"). */
      if (exp10 > G_MAXINT32 || exp10 < G_MININT32)
        goto not_numeric;
    }

  /* BigDecimal keeps the scale in an int and refuses text whose scale does not fit. */
  scale = (ndig - int_digits) - exp10;
  if (scale > G_MAXINT32 || scale < G_MININT32)
    goto not_numeric;

  if (first_nz < 0)
    {
      ddb_number_set_zero (out);
      return TRUE;
    }

  if (too_many)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg_precision);
      return FALSE;
    }

  exponent = int_digits - first_nz + exp10;
  if (!check_range (exponent, error))
    return FALSE;

  out->negative = negative;
  out->ndigits = (guint8) nsig;
  out->exponent = (gint32) exponent;
  return TRUE;

not_numeric:
  set_not_numeric (error, text, (gsize) len);
  return FALSE;
}

/* Writes the canonical text into buf (at least MAX_TEXT bytes), returns its length. */
static gsize
format_number (const DdbNumber *n, char *buf)
{
  char *o = buf;
  int i;

  if (n->ndigits == 0)
    {
      buf[0] = '0';
      return 1;
    }
  if (n->negative)
    *o++ = '-';

  if (n->exponent <= 0)
    {
      *o++ = '0';
      *o++ = '.';
      for (i = 0; i < -n->exponent; i++)
        *o++ = '0';
      for (i = 0; i < n->ndigits; i++)
        *o++ = (char) ('0' + n->d[i]);
    }
  else if (n->exponent >= n->ndigits)
    {
      for (i = 0; i < n->ndigits; i++)
        *o++ = (char) ('0' + n->d[i]);
      for (; i < n->exponent; i++)
        *o++ = '0';
    }
  else
    {
      for (i = 0; i < n->exponent; i++)
        *o++ = (char) ('0' + n->d[i]);
      *o++ = '.';
      for (; i < n->ndigits; i++)
        *o++ = (char) ('0' + n->d[i]);
    }
  return (gsize) (o - buf);
}

char *
ddb_number_to_string (const DdbNumber *n)
{
  char buf[MAX_TEXT];
  gsize len;

  g_return_val_if_fail (n != NULL, NULL);

  len = format_number (n, buf);
  return g_strndup (buf, len);
}

gsize
ddb_number_write (const DdbNumber *n, char *buf)
{
  g_return_val_if_fail (n != NULL, 0);
  g_return_val_if_fail (buf != NULL, 0);

  return format_number (n, buf);
}

void
ddb_number_append (const DdbNumber *n, GString *out)
{
  char buf[MAX_TEXT];
  gsize len;

  g_return_if_fail (n != NULL);
  g_return_if_fail (out != NULL);

  len = format_number (n, buf);
  g_string_append_len (out, buf, (gssize) len);
}

/* Compares |a| and |b| for non-zero normalized numbers. */
static inline int
compare_magnitude (const DdbNumber *a, const DdbNumber *b)
{
  int n, c;

  if (a->exponent != b->exponent)
    return a->exponent < b->exponent ? -1 : 1;
  n = MIN (a->ndigits, b->ndigits);
  c = memcmp (a->d, b->d, (gsize) n);
  if (c != 0)
    return c < 0 ? -1 : 1;
  /* Without trailing zeros, the longer one has more below the shared digits. */
  return (a->ndigits > b->ndigits) - (a->ndigits < b->ndigits);
}

static inline int
sign_of (const DdbNumber *n)
{
  if (n->ndigits == 0)
    return 0;
  return n->negative ? -1 : 1;
}

int
ddb_number_compare (const DdbNumber *a, const DdbNumber *b)
{
  int sa = sign_of (a);
  int sb = sign_of (b);

  if (sa != sb)
    return sa < sb ? -1 : 1;
  if (sa == 0)
    return 0;
  return sa * compare_magnitude (a, b);
}

gboolean
ddb_number_equal (const DdbNumber *a, const DdbNumber *b)
{
  if (a->ndigits != b->ndigits)
    return FALSE;
  if (a->ndigits == 0)
    return TRUE;
  return a->negative == b->negative && a->exponent == b->exponent
         && memcmp (a->d, b->d, a->ndigits) == 0;
}

guint
ddb_number_hash (const DdbNumber *n)
{
  /* FNV-1a over the fields ddb_number_equal looks at, so equal numbers hash alike. */
  guint32 h = 2166136261u;
  int i;

  if (n->ndigits == 0)
    return h;
  h = (h ^ (guint32) n->negative) * 16777619u;
  h = (h ^ (guint32) n->exponent) * 16777619u;
  for (i = 0; i < n->ndigits; i++)
    h = (h ^ n->d[i]) * 16777619u;
  return h;
}

/* out = a + (b_negative ? -|b| : |b|); out may alias a or b. */
static gboolean
add_signed (DdbNumber *out, const DdbNumber *a, const DdbNumber *b, gboolean b_negative,
            GError **error)
{
  guint8 buf[SUM_PLACES];
  const DdbNumber *big, *small;
  gboolean same_sign, result_negative;
  int top, bottom, span, off_big, off_small, k, carry, first, last, ndigits;
  gint32 exponent;
  DdbNumber r;

  if (b->ndigits == 0)
    {
      r = *a;
      *out = r;
      return TRUE;
    }
  if (a->ndigits == 0)
    {
      r = *b;
      r.negative = b_negative;
      *out = r;
      return TRUE;
    }

  same_sign = a->negative == b_negative;
  if (same_sign)
    {
      big = a;
      small = b;
      result_negative = a->negative;
    }
  else
    {
      int c = compare_magnitude (a, b);

      if (c == 0)
        {
          ddb_number_set_zero (out);
          return TRUE;
        }
      big = c > 0 ? a : b;
      small = c > 0 ? b : a;
      result_negative = c > 0 ? a->negative : b_negative;
    }

  /* buf[k] holds the digit of place 10^(top - k); buf[0] is room for a carry. */
  top = MAX (a->exponent, b->exponent);
  bottom = MIN (a->exponent - a->ndigits, b->exponent - b->ndigits);
  span = top - bottom + 1;
  if (span > SUM_PLACES || span <= 0)
    {
      /* Only reachable with operands outside DynamoDB's range; the sum cannot be exact. */
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg_overflow);
      return FALSE;
    }
  memset (buf, 0, (gsize) span);
  off_big = top - big->exponent + 1;
  off_small = top - small->exponent + 1;
  memcpy (buf + off_big, big->d, big->ndigits);

  carry = 0;
  for (k = off_small + small->ndigits - 1; k >= 0 && (k >= off_small || carry); k--)
    {
      int s = k >= off_small ? small->d[k - off_small] : 0;
      int v;

      if (same_sign)
        {
          v = buf[k] + s + carry;
          carry = v >= 10;
          if (carry)
            v -= 10;
        }
      else
        {
          v = buf[k] - s - carry;
          carry = v < 0;
          if (carry)
            v += 10;
        }
      buf[k] = (guint8) v;
    }

  for (first = 0; first < span && buf[first] == 0; first++)
    ;
  /* |big| > |small| when the signs differ, so the result is never zero here. */
  g_assert (first < span);
  for (last = span - 1; buf[last] == 0; last--)
    ;
  ndigits = last - first + 1;
  exponent = top - first + 1;

  if (!check_range (exponent, error))
    return FALSE;
  if (ndigits > DDB_NUMBER_MAX_DIGITS)
    {
      /* Real DynamoDB rejects an inexact sum with its overflow wording (see the top). */
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION, msg_overflow);
      return FALSE;
    }

  r.negative = result_negative;
  r.ndigits = (guint8) ndigits;
  r.exponent = exponent;
  memcpy (r.d, buf + first, (gsize) ndigits);
  *out = r;
  return TRUE;
}

gboolean
ddb_number_add (DdbNumber *out, const DdbNumber *a, const DdbNumber *b, GError **error)
{
  g_return_val_if_fail (out != NULL && a != NULL && b != NULL, FALSE);

  return add_signed (out, a, b, b->negative, error);
}

gboolean
ddb_number_subtract (DdbNumber *out, const DdbNumber *a, const DdbNumber *b, GError **error)
{
  g_return_val_if_fail (out != NULL && a != NULL && b != NULL, FALSE);

  return add_signed (out, a, b, !b->negative, error);
}

void
ddb_number_set_zero (DdbNumber *n)
{
  n->negative = FALSE;
  n->ndigits = 0;
  n->exponent = 0;
}

void
ddb_number_set_int (DdbNumber *n, gint64 v)
{
  /* Unsigned negation keeps G_MININT64 exact. */
  guint64 mag = v < 0 ? (guint64) 0 - (guint64) v : (guint64) v;
  guint8 rev[20];
  int len = 0, low = 0, i;

  ddb_number_set_zero (n);
  if (mag == 0)
    return;
  while (mag != 0)
    {
      rev[len++] = (guint8) (mag % 10);
      mag /= 10;
    }
  while (rev[low] == 0)
    low++;
  n->negative = v < 0;
  n->exponent = len;
  n->ndigits = (guint8) (len - low);
  for (i = 0; i < n->ndigits; i++)
    n->d[i] = rev[len - 1 - i];
}

gboolean
ddb_number_is_zero (const DdbNumber *n)
{
  return n->ndigits == 0;
}

gboolean
ddb_number_to_uint32 (const DdbNumber *n, guint32 *out)
{
  guint64 v = 0;
  int i;

  if (n->ndigits == 0)
    {
      *out = 0;
      return TRUE;
    }
  /* A fraction has digits below the point; 4294967295 has ten digits. */
  if (n->negative || n->exponent < n->ndigits || n->exponent > 10)
    return FALSE;
  for (i = 0; i < n->exponent; i++)
    v = v * 10 + (i < n->ndigits ? n->d[i] : 0);
  if (v > G_MAXUINT32)
    return FALSE;
  *out = (guint32) v;
  return TRUE;
}
