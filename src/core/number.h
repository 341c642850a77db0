/* number.h: DynamoDB's exact decimal numbers (up to 38 significant digits, magnitude 1E-130 to
 * 9.99..E+125), parsed, normalized, compared and added without ever passing through a double. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define DDB_NUMBER_MAX_DIGITS 38

/* value = (negative ? -1 : 1) * 0.d[0]d[1]...d[ndigits-1] * 10^exponent
 * Normalized: ndigits == 0 means zero (then negative is FALSE and exponent 0); otherwise
 * d[0] != 0 and d[ndigits-1] != 0 (no leading or trailing zeros). Each d[i] is 0..9.
 * Two normalized numbers are numerically equal iff their structs compare equal field by field
 * over the used digits, so 1, 1.0, 1E0 and 10E-1 are one value. */
typedef struct {
  gboolean negative;
  guint8 ndigits;
  guint8 d[DDB_NUMBER_MAX_DIGITS];
  gint32 exponent;
} DdbNumber;

/* Parses one of the forms DynamoDB accepts: optional sign, digits with an optional decimal
 * point (".5" and "5." included), optional exponent e/E with optional sign. Leading and
 * trailing whitespace is not accepted. On failure sets a DDB_ERROR_VALIDATION error whose
 * message is DynamoDB's, e.g.
 *   "The parameter cannot be converted to a numeric value: abc"
 *   "Attempting to store more than 38 significant digits in a Number"
 *   "Number overflow. Attempting to store a number with magnitude larger than supported range"
 *   "Number underflow. Attempting to store a number with magnitude smaller than supported range"
 * `len` may be -1 for a NUL-terminated string. */
gboolean ddb_number_parse (DdbNumber *out, const char *text, gssize len, GError **error);

/* The canonical text DynamoDB returns for the number (e.g. "1.0" -> "1", "00.100" -> "0.1",
 * "-0" -> "0"). Newly allocated. */
char *ddb_number_to_string (const DdbNumber *n);

/* The longest canonical text, in bytes (170 and a margin). */
#define DDB_NUMBER_MAX_TEXT 176

/* Writes the canonical text into BUF (DDB_NUMBER_MAX_TEXT bytes), not NUL-terminated; returns its
 * length. */
gsize ddb_number_write (const DdbNumber *n, char *buf);

/* Appends the canonical text to a GString. */
void ddb_number_append (const DdbNumber *n, GString *out);

/* <0, 0, >0 numerically. */
int ddb_number_compare (const DdbNumber *a, const DdbNumber *b);

gboolean ddb_number_equal (const DdbNumber *a, const DdbNumber *b);

/* Exact a + b and a - b. Fails (DDB_ERROR_VALIDATION, DynamoDB's overflow/underflow or
 * "more than 38 significant digits" message) when the exact result is not representable. */
gboolean ddb_number_add (DdbNumber *out, const DdbNumber *a, const DdbNumber *b, GError **error);
gboolean ddb_number_subtract (DdbNumber *out, const DdbNumber *a, const DdbNumber *b,
                              GError **error);

/* Sets n to zero / to a small integer. */
void ddb_number_set_zero (DdbNumber *n);
void ddb_number_set_int (DdbNumber *n, gint64 v);

gboolean ddb_number_is_zero (const DdbNumber *n);

/* If the number is an integer in [0, G_MAXUINT32] sets *out and returns TRUE. */
gboolean ddb_number_to_uint32 (const DdbNumber *n, guint32 *out);

guint ddb_number_hash (const DdbNumber *n);

G_END_DECLS
