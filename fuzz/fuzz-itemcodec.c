/* fuzz-itemcodec.c: libFuzzer target for the stored item encoding (core/itemcodec.h), which a
 * database file someone else wrote hands to every reader: the grid's rows, Find in Loaded Rows,
 * grouping, compare. An input starting with '{' is a DynamoDB JSON item, encoded and read back;
 * any other input is taken as stored bytes as they are. On any bytes the readers must agree:
 * the decoding, the size read from the encoding (ddb_item_encoded_size) and the scalars walked
 * in it (ddb_item_encoded_foreach_scalar) either all refuse or tell the same item, and a decoded
 * item encodes back to the very bytes (the encoding has one form per item). Aborts otherwise. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemcodec.h"
#include "core/itemsize.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
describe (GString *out, DdbType type, const void *bytes, gsize len, const DdbNumber *n,
          gboolean boolean)
{
  g_string_append_printf (out, "%d:%" G_GSIZE_FORMAT ":", type, len);
  if (type == DDB_TYPE_S || type == DDB_TYPE_B)
    g_string_append_len (out, bytes, (gssize) len);
  else if (type == DDB_TYPE_N)
    ddb_number_append (n, out);
  else if (type == DDB_TYPE_BOOL)
    g_string_append_c (out, boolean ? '1' : '0');
  g_string_append_c (out, '|');
}

static void
describe_value (GString *out, const DdbValue *value)
{
  switch (value->type)
    {
    case DDB_TYPE_M:
      for (guint i = 0; i < value->attrs->len; i++)
        describe_value (out, g_array_index (value->attrs, DdbAttr, i).value);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      for (guint i = 0; i < value->elems->len; i++)
        describe_value (out, g_ptr_array_index (value->elems, i));
      break;
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      describe (out, value->type, value->bytes.data, value->bytes.len, NULL, FALSE);
      break;
    default:
      describe (out, value->type, NULL, 0, &value->number, value->boolean);
    }
}

static gboolean
walked (const DdbEncodedScalar *scalar, gpointer data)
{
  describe (data, scalar->type, scalar->bytes,
            scalar->type == DDB_TYPE_S || scalar->type == DDB_TYPE_B ? scalar->len : 0,
            scalar->number, scalar->boolean);
  return FALSE;
}

static void
check_bytes (const guint8 *bytes, gsize len)
{
  GError *error = NULL;
  DdbValue *item = ddb_item_decode (bytes, len, &error);
  GString *walk = g_string_new (NULL);
  gsize size = 0;
  gboolean sized = ddb_item_encoded_size (bytes, len, &size, NULL);
  gboolean stopped = TRUE;
  gboolean walk_ok = ddb_item_encoded_foreach_scalar (bytes, len, walked, walk, &stopped, NULL);

  /* The size checks the framing, the walk the framing and the numbers' digits (it hands each
   * number over decoded): what the walk takes, the size takes. */
  if ((walk_ok && !sized) || (walk_ok && stopped))
    abort ();
  if (item == NULL)
    {
      /* Refused with the stored item's error; what decoding refuses, the framing readers may
       * take (they check the framing only), never the other way round. */
      if (error == NULL || error->domain != DDB_ERROR || error->code != DDB_ERROR_INTERNAL)
        abort ();
      g_error_free (error);
    }
  else
    {
      GByteArray *again = g_byte_array_new ();
      GString *want = g_string_new (NULL);

      if (error != NULL || !sized || size != ddb_item_size (item))
        abort ();
      describe_value (want, item);
      if (strcmp (want->str, walk->str) != 0)
        abort ();
      ddb_item_encode (item, again);
      if (again->len != len || memcmp (again->data, bytes, len) != 0)
        abort ();
      g_byte_array_unref (again);
      g_string_free (want, TRUE);
      ddb_value_free (item);
    }
  g_string_free (walk, TRUE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > 0 && data[0] == '{')
    {
      DdbValue *item = ddb_json_parse_item ((const char *) data, (gssize) size, NULL);

      if (item != NULL)
        {
          GByteArray *enc = g_byte_array_new ();

          ddb_item_encode (item, enc);
          check_bytes (enc->data, enc->len);
          g_byte_array_unref (enc);
          ddb_value_free (item);
        }
      return 0;
    }
  check_bytes (data, size);
  return 0;
}
