/* base64.h: strict standard base64 (RFC 4648, alphabet A-Z a-z 0-9 + /, '=' padding), as
 * DynamoDB reads and writes B and BS values. Unlike g_base64_decode() the decoder refuses
 * anything that is not the one canonical encoding of some bytes. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Length of the encoding of `len` bytes. */
#define DDB_BASE64_ENCODED_LEN(len) ((((gsize) (len) + 2) / 3) * 4)

/* Appends the encoding of `data` to `out`. */
void ddb_base64_append (GString *out, const guchar *data, gsize len);
/* Newly allocated, NUL-terminated encoding. */
char *ddb_base64_encode (const guchar *data, gsize len);
/* Writes the encoding to `out`, which has room for DDB_BASE64_ENCODED_LEN (len) bytes (no NUL
 * is written). Returns the number of bytes written. */
gsize ddb_base64_encode_to (char *out, const guchar *data, gsize len);

typedef enum {
  DDB_BASE64_OK,
  DDB_BASE64_BAD_LENGTH,        /* not a multiple of 4 */
  DDB_BASE64_BAD_CHARACTER,     /* outside the alphabet, or '=' where no padding may be */
  DDB_BASE64_BAD_TRAILING_BITS, /* unused low bits of the last character are not zero */
} DdbBase64Error;

/* Decodes `text` (`len` may be -1 for NUL-terminated). Refuses a length that is not a multiple
 * of 4, any character outside the alphabet (whitespace and line breaks included), '=' anywhere
 * but the last one or two places, and non-zero bits in the unused low bits of the last
 * character (so each byte string has exactly one accepted encoding). Returns a newly allocated
 * buffer of *out_len bytes plus a NUL terminator; or NULL, with *error set to the first problem
 * and *error_pos to the offset of the offending character (both may be NULL). */
guchar *ddb_base64_decode (const char *text, gssize len, gsize *out_len, DdbBase64Error *error,
                           gsize *error_pos);

G_END_DECLS
