/* fuzz-ion.c: libFuzzer target for the Amazon Ion text reader and writer (core/ion.h). Each
 * input is read value by value (each value also mapped to a DynamoDB value and item), record
 * by record, and as one export line (ddb_ion_parse_export_record). Aborts when a failure has
 * no "line N: " message in DDB_ION_ERROR, when a mapped value is not valid, when what is
 * accepted, written back (ddb_ion_append_value, ddb_ion_append_record_line), does not read
 * back to an equal value or record, or does not write again to the same text, or when the
 * direct path of export lines (ddb_ion_direct_export_record) accepts what the generic reader
 * refuses or reads it as another record, or when the scan of lines (ddb_ion_scan_line) sees a
 * record accepted on one line as still open at its end. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ion.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* A failure names its line; clears *error. */
static void
check_error (GError **error)
{
  if (*error == NULL || (*error)->domain != DDB_ION_ERROR
      || !g_str_has_prefix ((*error)->message, "line "))
    abort ();
  g_clear_error (error);
}

/* Both NULL, or both set and equal. */
static gboolean
same_part (const DdbValue *a, const DdbValue *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return ddb_value_equal (a, b) && ddb_value_equal (b, a);
}

/* The one value of `text` mapped to a DynamoDB value (or item). */
static DdbValue *
read_back (const char *text, gsize len, gboolean item)
{
  DdbIonReader *r = ddb_ion_reader_new (text, len);
  DdbIonValue *v = NULL, *extra = NULL;
  GError *error = NULL;
  DdbValue *out;

  if (!ddb_ion_reader_next_value (r, &v, &error) || v == NULL)
    abort ();
  if (!ddb_ion_reader_next_value (r, &extra, &error) || extra != NULL)
    abort ();
  out = item ? ddb_ion_to_item (v, &error) : ddb_ion_to_ddb (v, &error);
  if (out == NULL)
    abort ();
  ddb_ion_value_free (v);
  ddb_ion_reader_free (r);
  return out;
}

/* A mapped value written as Ion reads back to an equal value, and writes again the same. */
static void
check_mapped (const DdbValue *value, gboolean item)
{
  GString *text = g_string_new (NULL), *again = g_string_new (NULL);
  DdbValue *back;

  if (!(item ? ddb_item_validate (value, NULL) : ddb_value_validate (value, NULL)))
    abort ();
  if (item)
    ddb_ion_append_item (text, value);
  else
    ddb_ion_append_value (text, value);
  back = read_back (text->str, text->len, item);
  if (!same_part (value, back))
    abort ();
  if (item)
    ddb_ion_append_item (again, back);
  else
    ddb_ion_append_value (again, back);
  if (strcmp (text->str, again->str) != 0)
    abort ();
  ddb_value_free (back);
  g_string_free (text, TRUE);
  g_string_free (again, TRUE);
}

/* Every top-level value; each one mapped as a value and as an item. */
static void
check_values (const char *text, size_t size)
{
  DdbIonReader *r = ddb_ion_reader_new (text, size);

  for (;;)
    {
      DdbIonValue *v = NULL;
      GError *error = NULL;
      DdbValue *mapped;

      if (!ddb_ion_reader_next_value (r, &v, &error))
        {
          check_error (&error);
          /* The reader stays failed. */
          if (ddb_ion_reader_next_value (r, &v, &error) || v != NULL)
            abort ();
          check_error (&error);
          break;
        }
      if (v == NULL)
        break;
      if (ddb_ion_reader_offset (r) > size)
        abort ();
      mapped = ddb_ion_to_ddb (v, &error);
      if (mapped != NULL)
        {
          check_mapped (mapped, FALSE);
          ddb_value_free (mapped);
        }
      else
        check_error (&error);
      mapped = ddb_ion_to_item (v, &error);
      if (mapped != NULL)
        {
          check_mapped (mapped, TRUE);
          ddb_value_free (mapped);
        }
      else
        check_error (&error);
      ddb_ion_value_free (v);
    }
  ddb_ion_reader_free (r);
}

/* An accepted record written back as an export line reads back to the same record, and that
 * writes the same line again. */
static void
check_record (const DdbIonRecord *rec)
{
  GString *line = g_string_new (NULL), *again = g_string_new (NULL);
  DdbIonRecord back;
  GError *error = NULL;

  if (rec->item == NULL && rec->keys == NULL)
    abort ();
  ddb_ion_append_record_line (line, rec);
  if (!ddb_ion_parse_export_record (line->str, line->len, 1, &back, &error))
    abort ();
  if (!same_part (rec->item, back.item) || !same_part (rec->keys, back.keys)
      || !same_part (rec->new_image, back.new_image) || !same_part (rec->old_image, back.old_image)
      || !same_part (rec->metadata, back.metadata))
    abort ();
  ddb_ion_append_record_line (again, &back);
  if (strcmp (line->str, again->str) != 0)
    abort ();
  ddb_ion_record_clear (&back);
  g_string_free (line, TRUE);
  g_string_free (again, TRUE);
}

/* Every record of the input, as a data file is read. */
static void
check_records (const char *text, size_t size)
{
  DdbIonReader *r = ddb_ion_reader_new (text, size);

  for (;;)
    {
      DdbIonRecord rec;
      GError *error = NULL;

      if (!ddb_ion_reader_next_record (r, &rec, &error))
        {
          check_error (&error);
          break;
        }
      if (rec.line == 0)
        {
          if (rec.item != NULL || rec.keys != NULL || rec.new_image != NULL || rec.old_image != NULL
              || rec.metadata != NULL)
            abort ();
          break;
        }
      check_record (&rec);
      ddb_ion_record_clear (&rec);
    }
  ddb_ion_reader_free (r);
}

static void
write_record (GString *out, const DdbIonRecord *rec)
{
  g_string_truncate (out, 0);
  ddb_ion_append_record_line (out, rec);
}

/* A line the direct path accepts, the generic reader accepts as the same one record. */
static void
check_direct (const char *text, size_t size)
{
  DdbIonRecord direct, generic;
  DdbIonReader *r;
  DdbIonValue *extra = NULL;
  GError *error = NULL;
  GString *a, *b;

  if (!ddb_ion_direct_export_record (text, size, 1, &direct))
    {
      if (direct.item != NULL || direct.keys != NULL || direct.metadata != NULL)
        abort ();
      return;
    }
  r = ddb_ion_reader_new (text, size);
  if (!ddb_ion_reader_next_record (r, &generic, &error) || generic.line != direct.line
      || !ddb_ion_reader_next_value (r, &extra, &error) || extra != NULL)
    abort ();
  a = g_string_new (NULL);
  b = g_string_new (NULL);
  write_record (a, &direct);
  write_record (b, &generic);
  if (strcmp (a->str, b->str) != 0)
    abort ();
  g_string_free (a, TRUE);
  g_string_free (b, TRUE);
  ddb_ion_record_clear (&direct);
  ddb_ion_record_clear (&generic);
  ddb_ion_reader_free (r);
}

/* Every line of the input scanned (no read past it); a one-line input accepted as a record
 * scans as closed, so that a data file's reader never joins the next line to it. */
static void
check_scan (const char *text, size_t size, gboolean accepted)
{
  DdbIonScan scan = { 0 };
  const char *p = text, *end = text + size;
  gboolean open = FALSE;

  for (;;)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));

      open = ddb_ion_scan_line (&scan, p, (gsize) ((nl != NULL ? nl : end) - p));
      if (nl == NULL)
        break;
      p = nl + 1;
    }
  if (accepted && memchr (text, '\n', size) == NULL && memchr (text, '\r', size) == NULL && open)
    abort ();
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* An exact-size copy, so that a read past the end is caught. */
  char *text = g_memdup2 (data, size > 0 ? size : 1);
  DdbIonRecord rec;
  GError *error = NULL;

  check_values (text, size);
  check_records (text, size);
  check_direct (text, size);
  if (ddb_ion_parse_export_record (text, size, 1, &rec, &error))
    {
      check_record (&rec);
      ddb_ion_record_clear (&rec);
      check_scan (text, size, TRUE);
    }
  else
    {
      check_error (&error);
      check_scan (text, size, FALSE);
    }
  g_free (text);
  return 0;
}
