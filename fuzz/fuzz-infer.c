/* fuzz-infer.c: libFuzzer target for model inference from items. Each line of the input is an
 * item's "PK<TAB>SK[<TAB>GPK]" (a table with a GSI on GPK): the proposal is always made, every
 * key template it holds parses, each entity's partition-key template begins with text that
 * begins some item's partition key, and the model writes a Workbench model that reads back and
 * checks without a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/check.h"
#include "model/infer.h"
#include "model/workbench.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static json_t *
string_value (const char *s)
{
  return json_pack ("{ss}", "S", s);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = g_strndup ((const char *) data, size);
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_free (text);
      return 0;
    }
  char **lines = g_strsplit (text, "\n", 200);
  json_t *items = json_array ();
  for (char **l = lines; *l; l++)
    {
      char **cols = g_strsplit (*l, "\t", 3);
      if (cols[0] != NULL && cols[1] != NULL)
        {
          json_t *item = json_object ();
          json_object_set_new (item, "PK", string_value (cols[0]));
          json_object_set_new (item, "SK", string_value (cols[1]));
          if (cols[2] != NULL)
            json_object_set_new (item, "GPK", string_value (cols[2]));
          json_array_append_new (items, item);
        }
      g_strfreev (cols);
    }
  json_t *desc = json_pack (
      "{ss s[{ssss}{ssss}{ssss}] s[{ssss}{ssss}] s[{ss s[{ssss}] s{ss}}]}", "TableName", "Fuzz",
      "AttributeDefinitions", "AttributeName", "PK", "AttributeType", "S", "AttributeName", "SK",
      "AttributeType", "S", "AttributeName", "GPK", "AttributeType", "S", "KeySchema",
      "AttributeName", "PK", "KeyType", "HASH", "AttributeName", "SK", "KeyType", "RANGE",
      "GlobalSecondaryIndexes", "IndexName", "ByG", "KeySchema", "AttributeName", "GPK", "KeyType",
      "HASH", "Projection", "ProjectionType", "ALL");
  GError *error = NULL;
  DyModel *model = dy_model_infer_from_items (desc, items, &error);
  if (model == NULL)
    abort ();
  for (guint e = 0; e < model->entities->len; e++)
    {
      const DyModelEntity *entity = model->entities->pdata[e];
      const DyModelKey *pk = dy_model_entity_find_key (entity, "PK");
      gboolean found = FALSE;
      size_t i;
      json_t *item;
      if (pk == NULL)
        abort ();
      char *prefix = dy_template_literal_prefix (pk->tpl);
      json_array_foreach (items, i, item)
        {
          const char *v = json_string_value (json_object_get (json_object_get (item, "PK"), "S"));
          found |= g_str_has_prefix (v, prefix);
        }
      g_free (prefix);
      if (!found)
        abort ();
    }
  json_t *out = dy_workbench_write (model);
  DyModel *again = dy_workbench_read (out, &error);
  if (again == NULL)
    abort ();
  dy_check_report_free (dy_model_check (again));
  dy_model_free (again);
  json_decref (out);
  dy_model_free (model);
  json_decref (desc);
  json_decref (items);
  g_strfreev (lines);
  g_free (text);
  return 0;
}
