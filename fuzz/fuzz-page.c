/* fuzz-page.c: libFuzzer target for a Query's or Scan's answer read without a tree of its
 * items (ddb_json_read_page, core/ddbjson.h), as the DynamoDB client reads a page. Each input
 * is an answer's body. The reference is the client's other path: jansson's object
 * (json_loadb, JSON_ALLOW_NUL) and ddb_json_to_item of each element of its Items. When the
 * direct reading takes the body, the reference must take it too and give the same members and
 * the same items, in order; when it leaves the body to jansson, nothing is handed out. Aborts
 * otherwise. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/ddbjson.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  json_t *rest = NULL;
  GPtrArray *items = NULL;
  json_t *expected;
  json_t *list;

  if (!ddb_json_read_page ((const char *) data, size, "Items", &rest, &items))
    {
      if (rest != NULL || items != NULL)
        abort ();
      return 0;
    }
  expected = json_loadb ((const char *) data, size, JSON_ALLOW_NUL, NULL);
  if (!json_is_object (expected) || rest == NULL || items == NULL)
    abort ();
  list = json_object_get (expected, "Items");
  if (list != NULL)
    {
      if (!json_is_array (list) || json_array_size (list) != items->len)
        abort ();
      for (guint i = 0; i < items->len; i++)
        {
          DdbValue *item = ddb_json_to_item (json_array_get (list, i), NULL);

          if (item == NULL || !ddb_value_equal (item, items->pdata[i]))
            abort ();
          ddb_value_free (item);
        }
      json_object_del (expected, "Items");
    }
  else if (items->len != 0)
    abort ();
  if (!json_equal (expected, rest))
    abort ();
  json_decref (expected);
  json_decref (rest);
  g_ptr_array_unref (items);
  return 0;
}
