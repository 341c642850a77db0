/* snapshot-ion.c: the records of an export's data file in Amazon Ion, full or incremental.
 * AWS writes one record a line ("$ion_1_0 {Item:{...}}"), which core/ion.h's direct path
 * reads; a line it does not take is read with the lines that follow it while a value stays
 * open on them (a record printed over several lines, as AWS's documentation prints one), and
 * every record of that text is returned in turn (several on a line are Ion too). */
#include <string.h>

#include "core/error.h"
#include "engine/snapshot-private.h"

/* Makes an error of the Ion reader (INNER, taken) a DynamoDB validation error "Ion: ..."
 * without the reader's "line N: ", which goes to *line (kept when the message has none);
 * FALSE. */
static gboolean
ion_error (GError **error, GError *inner, guint64 *line)
{
  const char *message = inner->message;

  if (g_str_has_prefix (message, "line ") && strstr (message, ": ") != NULL)
    {
      guint64 n = g_ascii_strtoull (message + 5, NULL, 10);

      if (n > 0)
        *line = n;
      message = strstr (message, ": ") + 2;
    }
  g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "Ion: %s", message);
  g_error_free (inner);
  return FALSE;
}

/* The next line (the one put back by gather_text () first), past blank ones when SKIP_BLANK;
 * FALSE at the end (no error) or on error. *NUMBER is its line number. */
static gboolean
next_line (ItemSource *src, gboolean skip_blank, const char **line, gsize *len, guint64 *number,
           GError **error)
{
  if (src->ion_pending_line > 0)
    {
      *line = (const char *) src->ion_pending->data;
      *len = src->ion_pending->len;
      *number = src->ion_pending_line;
      src->ion_pending_line = 0;
      return TRUE;
    }
  do
    {
      if (!snap_line_reader_next (&src->lr, line, len, src->file->display, error))
        return FALSE;
    }
  while (skip_blank && snap_is_blank (*line, *len));
  *number = src->lr.line;
  return TRUE;
}

/* A line starting with the version marker, as each of AWS's records does, starts a record. */
static gboolean
starts_record (const char *line, gsize len)
{
  gsize i = 0;

  while (i < len && (line[i] == ' ' || line[i] == '\t'))
    i++;
  return len - i >= 8 && memcmp (line + i, "$ion_1_0", 8) == 0
         && (len - i == 8
             || !(g_ascii_isalnum (line[i + 8]) || line[i + 8] == '_' || line[i + 8] == '$'));
}

/* The text of the value starting on LINE: the line, and the lines after it while a value
 * stays open, joined by '\n' in src->ion_text. A line that starts a record (outside text)
 * ends the text and is put back: a line cut short does not swallow the records after it. */
static gboolean
gather_text (ItemSource *src, const char *line, gsize len, GError **error)
{
  DdbIonScan scan = { 0 };
  gboolean open = ddb_ion_scan_line (&scan, line, len);

  if (src->ion_text == NULL)
    src->ion_text = g_byte_array_new ();
  g_byte_array_set_size (src->ion_text, 0);
  g_byte_array_append (src->ion_text, (const guint8 *) line, (guint) len);
  while (open)
    {
      GError *inner = NULL;
      guint64 number;

      /* Blank lines inside a value are its text (in a long string). At the end the text
       * stays open: the reader words it ("unterminated struct"). */
      if (!next_line (src, FALSE, &line, &len, &number, &inner))
        {
          if (inner == NULL)
            break;
          g_propagate_error (error, inner);
          return FALSE;
        }
      if (!ddb_ion_scan_in_text (&scan) && starts_record (line, len))
        {
          if (src->ion_pending == NULL)
            src->ion_pending = g_byte_array_new ();
          g_byte_array_set_size (src->ion_pending, 0);
          g_byte_array_append (src->ion_pending, (const guint8 *) line, (guint) len);
          src->ion_pending_line = number;
          break;
        }
      g_byte_array_append (src->ion_text, (const guint8 *) "\n", 1);
      g_byte_array_append (src->ion_text, (const guint8 *) line, (guint) len);
      open = ddb_ion_scan_line (&scan, line, len);
    }
  return TRUE;
}

gboolean
snap_ion_source_next (ItemSource *src, DdbIonRecord *out, GError **error)
{
  memset (out, 0, sizeof *out);
  src->refused_item = FALSE;
  for (;;)
    {
      const char *line;
      gsize len;
      GError *inner = NULL;

      if (src->ion_reader != NULL)
        {
          GError *mapped = NULL;

          if (ddb_ion_reader_next_record (src->ion_reader, out, &inner))
            {
              if (out->line != 0)
                {
                  src->item_line = out->line;
                  return TRUE;
                }
              g_clear_pointer (&src->ion_reader, ddb_ion_reader_free);
              continue;
            }
          /* The rest of this text is dropped: reading goes on after it. */
          g_clear_pointer (&src->ion_reader, ddb_ion_reader_free);
          src->refused_item = TRUE;
          ion_error (&mapped, inner, &src->item_line);
          return snap_item_error (error, mapped, src->file->display, src->item_line);
        }
      if (!next_line (src, TRUE, &line, &len, &src->item_line, &inner))
        {
          if (inner == NULL)
            return TRUE; /* the end */
          g_propagate_error (error, inner);
          return FALSE;
        }
      if (ddb_ion_direct_export_record (line, len, (guint) MIN (src->item_line, G_MAXUINT), out))
        return TRUE;
      if (!gather_text (src, line, len, error))
        return FALSE;
      src->ion_reader = ddb_ion_reader_new ((const char *) src->ion_text->data, src->ion_text->len);
      ddb_ion_reader_set_first_line (src->ion_reader, (guint) MIN (src->item_line, G_MAXUINT));
    }
}
