/* fuzz-ddbjson.c: libFuzzer target for DynamoDB JSON. Each input is parsed as an item and as a
 * value, through the text API (fast path with its jansson fallback) and through jansson plus
 * the json_t API (the reference). Aborts when the two disagree, when a parsed value fails
 * validation, or when format -> parse -> format is not stable. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check (const char *text, size_t size, gboolean item)
{
  GError *error = NULL, *ref_error = NULL;
  DdbValue *v, *ref = NULL, *again, *copy;
  json_error_t jerr;
  json_t *json;
  char *out, *out2, *dumped;

  v = item ? ddb_json_parse_item (text, (gssize) size, &error)
           : ddb_json_parse_value (text, (gssize) size, &error);

  json = json_loadb (text, size, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL | JSON_DECODE_ANY, &jerr);
  if (json != NULL)
    {
      ref = item ? ddb_json_to_item (json, &ref_error) : ddb_json_to_value (json, &ref_error);
      json_decref (json);
    }

  if (v == NULL)
    {
      /* Refused: the reference refuses too, for the same reason. */
      if (error == NULL || ref != NULL)
        abort ();
      if (ref_error != NULL
          && (ref_error->code != error->code || strcmp (ref_error->message, error->message) != 0))
        abort ();
      if (ref_error == NULL && error->code != DDB_ERROR_SERIALIZATION)
        abort ();
      g_error_free (error);
      g_clear_error (&ref_error);
      return;
    }

  /* Accepted: the reference accepts the same value, and the value is valid. */
  if (error != NULL || ref == NULL || !ddb_value_equal (v, ref))
    abort ();
  if (!(item ? ddb_item_validate (v, NULL) : ddb_value_validate (v, NULL)))
    abort ();

  out = item ? ddb_json_format_item (v) : ddb_json_format_value (v);
  out2 = item ? ddb_json_format_item (ref) : ddb_json_format_value (ref);
  if (strcmp (out, out2) != 0)
    abort ();
  g_free (out2);

  /* The json_t writer writes the same text. */
  json = item ? ddb_item_to_json (v) : ddb_value_to_json (v);
  dumped = json_dumps (json, JSON_COMPACT);
  if (dumped == NULL || strcmp (dumped, out) != 0)
    abort ();
  free (dumped);
  json_decref (json);

  /* format(parse(format(x))) == format(x), and the value survives. */
  again = item ? ddb_json_parse_item (out, -1, &error) : ddb_json_parse_value (out, -1, &error);
  if (again == NULL || !ddb_value_equal (v, again) || !ddb_value_equal (again, v))
    abort ();
  out2 = item ? ddb_json_format_item (again) : ddb_json_format_value (again);
  if (strcmp (out, out2) != 0)
    abort ();

  copy = ddb_value_copy (v);
  if (!ddb_value_equal (copy, v))
    abort ();

  g_free (out);
  g_free (out2);
  ddb_value_free (copy);
  ddb_value_free (again);
  ddb_value_free (ref);
  ddb_value_free (v);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const char *text = size > 0 ? (const char *) data : "";

  check (text, size, TRUE);
  check (text, size, FALSE);
  return 0;
}
