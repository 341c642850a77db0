/* fuzz-snapshot-count.c: what a data file holds, as fuzz-snapshot's oracle counts it
 * independently of the importer (fuzz-snapshot-private.h): gunzipped as gzip -d reads it, then
 * one item a non-blank line, plain JSON array element, CSV record after the header, or Ion
 * record as core/ion.h's generic reader reads the whole text. */
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <zlib.h>

#include "core/ion.h"
#include "fuzz-snapshot-private.h"

/* ---- What a data file holds ---- */

/* Skips a leading UTF-8 BOM, as the line reader does. */
static const char *
skip_bom (const char *p, gsize *len)
{
  if (*len >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    {
      *len -= 3;
      return p + 3;
    }
  return p;
}

static gboolean
is_blank (const char *s, gsize len)
{
  for (gsize i = 0; i < len; i++)
    if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
      return FALSE;
  return TRUE;
}

static gboolean
is_gzip (GBytes *b)
{
  gsize len;
  const guint8 *p = g_bytes_get_data (b, &len);

  return len >= 2 && p[0] == 0x1f && p[1] == 0x8b;
}

static guint64
count_lines (const char *p, gsize len)
{
  guint64 n = 0;

  p = skip_bom (p, &len);
  while (len > 0)
    {
      const char *nl = memchr (p, '\n', len);
      gsize l = nl != NULL ? (gsize) (nl - p) : len;

      if (!is_blank (p, l))
        n++;
      if (nl == NULL)
        break;
      p += l + 1;
      len -= l + 1;
    }
  return n;
}

/* CSV records after the header: a record starts on a non-blank line outside a quoted cell. */
static guint64
count_csv_records (const char *p, gsize len)
{
  guint64 n = 0;
  gboolean quoted = FALSE;

  p = skip_bom (p, &len);
  while (len > 0)
    {
      const char *nl = memchr (p, '\n', len);
      gsize l = nl != NULL ? (gsize) (nl - p) : len;

      if (quoted || !is_blank (p, l))
        {
          if (!quoted)
            n++;
          for (gsize i = 0; i < l; i++)
            if (p[i] == '"')
              quoted = !quoted;
        }
      if (nl == NULL)
        break;
      p += l + 1;
      len -= l + 1;
    }
  return n > 0 ? n - 1 : 0;
}

/* Plain JSON: the elements of an array (when the first non-blank text is '['), else a line
 * per object. */
static guint64
count_json (const char *p, gsize len)
{
  const char *end;
  guint64 n = 0;
  int depth = 0;
  gboolean in_string = FALSE, content = FALSE;

  p = skip_bom (p, &len);
  end = p + len;
  {
    /* The first non-blank line decides: '[' after spaces and tabs starts an array. */
    const char *q = p;

    for (;;)
      {
        const char *nl = memchr (q, '\n', (gsize) (end - q));
        const char *stop = nl != NULL ? nl : end;

        if (!is_blank (q, (gsize) (stop - q)) || nl == NULL)
          break;
        q = nl + 1;
      }
    while (q < end && (*q == ' ' || *q == '\t'))
      q++;
    if (q >= end || *q != '[')
      return count_lines (p, len);
    p = q + 1;
  }
  for (; p < end; p++)
    {
      char c = *p;

      if (in_string)
        {
          if (c == '\\')
            p++;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE, content = TRUE;
      else if (c == '{' || c == '[')
        depth++, content = TRUE;
      else if (c == '}' || c == ']')
        {
          if (depth == 0)
            break; /* the array's end */
          depth--;
        }
      else if (c == ',' && depth == 0)
        {
          n += content;
          content = FALSE;
        }
      else if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
        content = TRUE;
    }
  return n + content;
}

/* Ion records, as the generic reader reads the whole text; FALSE if it refuses it. */
static gboolean
count_ion (const char *p, gsize len, guint64 *n)
{
  DdbIonReader *r;
  gboolean ok = TRUE;

  p = skip_bom (p, &len);
  r = ddb_ion_reader_new (p, len);
  for (;;)
    {
      DdbIonRecord rec;
      GError *error = NULL;

      if (!ddb_ion_reader_next_record (r, &rec, &error))
        {
          g_clear_error (&error);
          ok = FALSE;
          break;
        }
      if (rec.line == 0)
        break;
      (*n)++;
      ddb_ion_record_clear (&rec);
    }
  ddb_ion_reader_free (r);
  return ok;
}

/* What a data file holds once read: gunzipped when it starts with gzip's magic bytes, as
 * gzip -d reads it (every member; what follows a member and does not start with the magic
 * bytes ignored); NULL when gzip -d refuses it. */
static GBytes *
decode (GBytes *stored)
{
  gsize len, off = 0;
  const guint8 *p = g_bytes_get_data (stored, &len);
  GByteArray *out;

  if (!is_gzip (stored))
    return g_bytes_ref (stored);
  out = g_byte_array_new ();
  for (gboolean first = TRUE; off < len; first = FALSE)
    {
      z_stream z = { 0 };
      int r;

      if (!first && (len - off < 2 || p[off] != 0x1f || p[off + 1] != 0x8b))
        break; /* trailing garbage */
      if (inflateInit2 (&z, 15 + 16) != Z_OK)
        abort ();
      z.next_in = (Bytef *) p + off;
      z.avail_in = (uInt) (len - off);
      do
        {
          guint8 buf[16384];

          z.next_out = buf;
          z.avail_out = sizeof buf;
          r = inflate (&z, Z_NO_FLUSH);
          if (r != Z_OK && r != Z_STREAM_END)
            {
              inflateEnd (&z);
              g_byte_array_unref (out);
              return NULL;
            }
          g_byte_array_append (out, buf, (guint) (sizeof buf - z.avail_out));
        }
      while (r != Z_STREAM_END);
      off = len - z.avail_in;
      inflateEnd (&z);
    }
  return g_byte_array_free_to_bytes (out);
}

/* The items (or changes) the data file STORED holds, as it reads: one a non-blank line, array
 * element, CSV record or Ion record. */
guint64
fsn_count_items (GBytes *stored, Holds holds)
{
  g_autoptr (GBytes) text = decode (stored);
  const char *p;
  gsize len;
  guint64 n = 0;

  if (text == NULL)
    fsn_fail ("an import succeeded over a data file that gzip -d refuses", NULL);
  p = g_bytes_get_data (text, &len);
  p = len > 0 ? p : "";
  switch (holds)
    {
    case HOLDS_LINES:
      return count_lines (p, len);
    case HOLDS_JSON:
      return count_json (p, len);
    case HOLDS_CSV:
      return count_csv_records (p, len);
    case HOLDS_ION:
    default:
      if (!count_ion (p, len, &n))
        fsn_fail ("an Ion data file imported that core/ion.h's reader refuses", NULL);
      return n;
    }
}
