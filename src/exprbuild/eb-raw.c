/* eb-raw.c: parts the rows cannot hold, kept as validated expression text with the placeholders
 * it uses; and the reading of a request's placeholder maps. */
#include "exprbuild/eb-private.h"

#include <string.h>

#include "core/ddbjson.h"
#include "core/error.h"
#include "core/expr-lexer.h"

static gboolean
check_map (json_t *map, const char *member, char sigil, GError **error)
{
  const char *key;
  json_t *value;

  if (!json_is_object (map))
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s must be a JSON object", member);
      return FALSE;
    }
  if (json_object_size (map) == 0)
    {
      g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION, "%s must not be empty", member);
      return FALSE;
    }
  json_object_foreach (map, key, value)
    if (!ddb_expr_placeholder_valid (key, sigil))
      {
        g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                     "%s contains invalid key: Syntax error; key: \"%s\"", member, key);
        return FALSE;
      }
  return TRUE;
}

gboolean
eb_read_names (json_t *names, GHashTable **out, GError **error)
{
  g_autoptr (GHashTable) tab = NULL;
  const char *key;
  json_t *value;

  *out = NULL;
  if (names == NULL)
    return TRUE;
  if (!check_map (names, "ExpressionAttributeNames", '#', error))
    return FALSE;
  tab = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  json_object_foreach (names, key, value)
    {
      if (!json_is_string (value) || json_string_length (value) == 0
          || strlen (json_string_value (value)) != json_string_length (value))
        {
          g_set_error (error, DDB_ERROR, DDB_ERROR_VALIDATION,
                       "ExpressionAttributeNames contains invalid value: %s for key %s",
                       !json_is_string (value)           ? "Not a string"
                       : json_string_length (value) == 0 ? "Empty attribute name"
                                                         : "An attribute name holding U+0000",
                       key);
          return FALSE;
        }
      g_hash_table_insert (tab, g_strdup (key), g_strdup (json_string_value (value)));
    }
  *out = g_steal_pointer (&tab);
  return TRUE;
}

gboolean
ddb_eb_read_maps (json_t *request, GHashTable **names, GHashTable **values, GError **error)
{
  *values = NULL;
  if (!eb_read_names (json_object_get (request, "ExpressionAttributeNames"), names, error))
    return FALSE;
  if (!eb_read_values (json_object_get (request, "ExpressionAttributeValues"), values, error))
    {
      g_clear_pointer (names, g_hash_table_unref);
      return FALSE;
    }
  return TRUE;
}

gboolean
eb_read_values (json_t *values, GHashTable **out, GError **error)
{
  g_autoptr (GHashTable) tab = NULL;
  const char *key;
  json_t *value;

  *out = NULL;
  if (values == NULL)
    return TRUE;
  if (!check_map (values, "ExpressionAttributeValues", ':', error))
    return FALSE;
  tab = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ddb_value_free);
  json_object_foreach (values, key, value)
    {
      GError *local = NULL;
      DdbValue *v = ddb_json_to_value (value, &local);

      if (v == NULL)
        {
          g_set_error (error, DDB_ERROR, local->code,
                       "ExpressionAttributeValues contains invalid value: %s for key %s",
                       local->message, key);
          g_error_free (local);
          return FALSE;
        }
      g_hash_table_insert (tab, g_strdup (key), v);
    }
  *out = g_steal_pointer (&tab);
  return TRUE;
}

static gboolean
parse_raw (DdbExprType type, const char *text, DdbExprContext *ctx, GError **error)
{
  if (type == DDB_EXPR_UPDATE)
    {
      g_autoptr (DdbUpdate) u = ddb_update_parse (text, ctx, error);

      return u != NULL;
    }
  else
    {
      g_autoptr (DdbNode) n = ddb_condition_parse (type, text, ctx, error);

      return n != NULL;
    }
}

DdbEbRaw *
eb_raw_new_tables (DdbExprType type, const char *text, GHashTable *names, GHashTable *values,
                   GError **error)
{
  g_autoptr (DdbExprContext) ctx = NULL;
  DdbEbRaw *raw;
  gsize len = strlen (text), pos = 0;
  DdbToken tok;

  g_return_val_if_fail (type != DDB_EXPR_PROJECTION, NULL);
  ctx = ddb_expr_context_new (names, values);
  if (!parse_raw (type, text, ctx, error))
    return NULL;

  raw = g_new0 (DdbEbRaw, 1);
  raw->type = type;
  raw->text = g_strdup (text);
  raw->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  raw->values
      = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) ddb_value_free);
  /* The text parsed, so each placeholder token is defined; keep exactly those. */
  do
    {
      g_autofree char *key = NULL;

      pos = ddb_expr_lex (text, len, pos, &tok);
      if (tok.kind != DDB_TOK_NAME && tok.kind != DDB_TOK_VALUE)
        continue;
      key = g_strndup (text + tok.start, tok.len);
      if (tok.kind == DDB_TOK_NAME)
        g_hash_table_replace (raw->names, g_strdup (key),
                              g_strdup (g_hash_table_lookup (names, key)));
      else
        g_hash_table_replace (raw->values, g_strdup (key),
                              ddb_value_copy (g_hash_table_lookup (values, key)));
    }
  while (tok.kind != DDB_TOK_EOF);
  return raw;
}

DdbEbRaw *
ddb_eb_raw_new (DdbExprType type, const char *text, json_t *names, json_t *values, GError **error)
{
  g_autoptr (GHashTable) names_tab = NULL;
  g_autoptr (GHashTable) values_tab = NULL;

  /* A part's maps may be empty where a request's may not. */
  if (json_is_object (names) && json_object_size (names) == 0)
    names = NULL;
  if (json_is_object (values) && json_object_size (values) == 0)
    values = NULL;
  if (!eb_read_names (names, &names_tab, error) || !eb_read_values (values, &values_tab, error))
    return NULL;
  return eb_raw_new_tables (type, text, names_tab, values_tab, error);
}

void
ddb_eb_raw_free (DdbEbRaw *raw)
{
  if (raw == NULL)
    return;
  g_free (raw->text);
  g_hash_table_unref (raw->names);
  g_hash_table_unref (raw->values);
  g_free (raw);
}

DdbNode *
eb_raw_condition (const DdbEbRaw *raw, DdbExprType type, GError **error)
{
  g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (raw->names, raw->values);

  return ddb_condition_parse (type, raw->text, ctx, error);
}

DdbUpdate *
eb_raw_update (const DdbEbRaw *raw, GError **error)
{
  g_autoptr (DdbExprContext) ctx = ddb_expr_context_new (raw->names, raw->values);

  return ddb_update_parse (raw->text, ctx, error);
}
