/* dy-inspector-key.c: what the inspector checks before anything is staged: DynamoDB's checks
 * of an item's key attributes and size (PutItem's wording), for the editor's text and for a
 * draft kept while another item is shown. */
#define G_LOG_DOMAIN "dynoscope-inspector"

#include <glib/gi18n.h>

#include "app/inspector/dy-inspector-private.h"
#include "core/ddbjson.h"
#include "core/error.h"
#include "core/itemsize.h"

/* DynamoDB's checks of an item's key attributes (PutItem's wording): NAMES and TYPES are the
 * table's partition and sort key (the sort key's name NULL without one); ORIGINAL the item as
 * loaded, whose key cannot change unless CREATING. */
static gboolean
check_key (const char *const names[2], const DdbType types[2], const DdbValue *original,
           gboolean creating, const char *schema_error, const DdbValue *item, GError **error)
{
  if (names[0] == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING, schema_error);
      return FALSE;
    }
  for (guint i = 0; i < 2; i++)
    {
      const DdbValue *v, *was;

      if (names[i] == NULL)
        continue;
      v = ddb_value_map_get (item, names[i]);
      if (v == NULL)
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: Missing the key %s in the "
                       "item" DDB_JSON_PATH_SEPARATOR "%s",
                       names[i], names[i]);
          return FALSE;
        }
      if (v->type != types[i])
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "One or more parameter values were invalid: Type mismatch for key %s "
                       "expected: %s actual: %s" DDB_JSON_PATH_SEPARATOR "%s",
                       names[i], ddb_type_name (types[i]), ddb_type_name (v->type), names[i]);
          return FALSE;
        }
      if (v->type != DDB_TYPE_N && v->bytes.len == 0)
        {
          g_set_error (
              error, DDB_ERROR, DDB_ERROR_VALIDATION,
              "One or more parameter values are not valid. The AttributeValue for a "
              "key attribute cannot contain an empty %s value. Key: %s" DDB_JSON_PATH_SEPARATOR
              "%s",
              v->type == DDB_TYPE_S ? "string" : "binary", names[i], names[i]);
          return FALSE;
        }
      was = original != NULL ? ddb_value_map_get (original, names[i]) : NULL;
      if (!creating && was != NULL && !ddb_value_equal (v, was))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _ ("The key attribute %s cannot change: the key is the item’s identity. "
                          "Use New Item for an item with the new key, then delete this one.%s%s"),
                       names[i], DDB_JSON_PATH_SEPARATOR, names[i]);
          return FALSE;
        }
    }
  return TRUE;
}

DdbValue *
dy_inspector_parse_item (const char *const names[2], const DdbType types[2], const DdbValue *original,
                         gboolean creating, const char *schema_error, const char *text, GError **error)
{
  g_autoptr (DdbValue) item = ddb_json_parse_item (text, -1, error);

  if (item == NULL)
    return NULL;
  if (ddb_item_size (item) > DDB_MAX_ITEM_SIZE)
    {
      g_set_error_literal (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                           "Item size has exceeded the maximum allowed size");
      return NULL;
    }
  if (!check_key (names, types, original, creating, schema_error, item, error))
    return NULL;
  return g_steal_pointer (&item);
}

void
dy_inspector_draft_free (DyInspectorDraft *draft)
{
  if (draft == NULL)
    return;
  g_free (draft->title);
  g_free (draft->text);
  g_clear_pointer (&draft->key, ddb_value_free);
  g_clear_pointer (&draft->base, ddb_value_free);
  g_clear_pointer (&draft->original, ddb_value_free);
  g_free (draft->pk_name);
  g_free (draft->sk_name);
  g_free (draft);
}

DdbValue *
dy_inspector_draft_parse (const DyInspectorDraft *draft, GError **error)
{
  const char *names[] = { draft->pk_name, draft->sk_name };
  const DdbType types[] = { draft->pk_type, draft->sk_type };

  /* a draft is made only once the key schema is known */
  return dy_inspector_parse_item (names, types, draft->original, draft->key == NULL, NULL,
                                  draft->text, error);
}
