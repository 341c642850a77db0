/* fuzz-plainjson.c: libFuzzer target for the plain JSON reader and writer. Whatever parses in
 * TAGGED mode must be a valid DynamoDB value, format, read back equal and format to the same
 * text again (compact and pretty, as a value and as an item); whatever parses in STRICT mode
 * must do the same in STRICT mode, since it cannot hold binary or sets. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/plainjson.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

typedef DdbValue *(*ParseFunc) (const char *, gssize, DdbPlainFlags, GError **);
typedef char *(*FormatFunc) (const DdbValue *, DdbPlainFlags, GError **);

static void
check_round_trip (const DdbValue *v, DdbPlainFlags flags, ParseFunc parse, FormatFunc format)
{
  GError *error = NULL;
  char *text, *again;
  DdbValue *back;

  text = format (v, flags, &error);
  if (text == NULL)
    abort ();
  back = parse (text, -1, flags, &error);
  if (back == NULL || !ddb_value_equal (v, back))
    abort ();
  again = format (back, flags, &error);
  if (again == NULL || strcmp (text, again) != 0)
    abort ();
  g_free (again);
  ddb_value_free (back);
  g_free (text);
}

static void
check_mode (const uint8_t *data, size_t size, DdbPlainFlags mode, gboolean item)
{
  ParseFunc parse = item ? ddb_plain_parse_item : ddb_plain_parse_value;
  FormatFunc format = item ? ddb_plain_format_item : ddb_plain_format_value;
  GError *error = NULL;
  DdbValue *v;

  v = parse ((const char *) data, (gssize) size, mode, &error);
  if (v == NULL)
    {
      /* Every refusal is a user-facing validation error with a position. */
      if (error == NULL || !g_error_matches (error, DDB_ERROR, DDB_ERROR_VALIDATION)
          || !g_str_has_prefix (error->message, "line "))
        abort ();
      g_error_free (error);
      return;
    }
  if (item ? !ddb_item_validate (v, NULL) : !ddb_value_validate (v, NULL))
    abort ();
  check_round_trip (v, mode, parse, format);
  check_round_trip (v, mode | DDB_PLAIN_PRETTY, parse, format);
  ddb_value_free (v);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  check_mode (data, size, DDB_PLAIN_TAGGED, FALSE);
  check_mode (data, size, DDB_PLAIN_STRICT, FALSE);
  if (size > 0 && data[0] == '{')
    check_mode (data, size, DDB_PLAIN_TAGGED, TRUE);
  return 0;
}
