/* dy-partiql.c: what a PartiQL statement is, its parameters and its pages' columns (see
 * dy-partiql.h). */
#define G_LOG_DOMAIN "dynoscope-sql"

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <string.h>

#include "app/sql/dy-partiql.h"
#include "core/ddbjson.h"
#include "core/value.h"

/* The statement's words. */

static const char *
skip_space (const char *p)
{
  for (;;)
    {
      while (g_ascii_isspace (*p))
        p++;
      /* PartiQL's comments: "--" to the end of the line, and C's */
      if (p[0] == '-' && p[1] == '-')
        {
          while (*p != '\0' && *p != '\n')
            p++;
        }
      else if (p[0] == '/' && p[1] == '*')
        {
          const char *end = strstr (p + 2, "*/");

          p = end != NULL ? end + 2 : p + strlen (p);
        }
      else
        return p;
    }
}

/* Past a 'string' or "identifier" starting at P (its quote doubled inside). */
static const char *
skip_quoted (const char *p)
{
  char quote = *p++;

  while (*p != '\0')
    {
      if (*p == quote && p[1] == quote)
        p += 2;
      else if (*p++ == quote)
        break;
    }
  return p;
}

static gboolean
word_is (const char *p, const char *word)
{
  gsize n = strlen (word);

  return g_ascii_strncasecmp (p, word, n) == 0 && !g_ascii_isalnum (p[n]) && p[n] != '_';
}

/* The identifier at P: "quoted" (unquoted here) or a bare word; NULL when none. */
static char *
read_identifier (const char *p)
{
  p = skip_space (p);
  if (*p == '"')
    {
      GString *name = g_string_new (NULL);

      for (p++; *p != '\0'; p++)
        {
          if (*p == '"' && p[1] == '"')
            p++;
          else if (*p == '"')
            return g_string_free (name, FALSE);
          g_string_append_c (name, *p);
        }
      g_string_free (name, TRUE);
      return NULL;
    }
  else
    {
      const char *start = p;

      while (g_ascii_isalnum (*p) || *p == '_' || *p == '-')
        p++;
      return p > start ? g_strndup (start, p - start) : NULL;
    }
}

/* The identifier after the first top-level WORD of STATEMENT (outside strings and quoted
 * names), or NULL. */
static char *
identifier_after (const char *statement, const char *word)
{
  for (const char *p = statement; *p != '\0';)
    {
      if (*p == '\'' || *p == '"')
        p = skip_quoted (p);
      else if ((p == statement || !(g_ascii_isalnum (p[-1]) || p[-1] == '_')) && word_is (p, word))
        return read_identifier (p + strlen (word));
      else
        p++;
    }
  return NULL;
}

DyPartiqlKind
dy_partiql_kind (const char *statement, char **table)
{
  const char *p = skip_space (statement);
  DyPartiqlKind kind = DY_PARTIQL_READ;
  char *name = NULL;

  if (word_is (p, "insert"))
    {
      kind = DY_PARTIQL_INSERT;
      name = identifier_after (p, "into");
    }
  else if (word_is (p, "update"))
    {
      kind = DY_PARTIQL_UPDATE;
      name = read_identifier (p + strlen ("update"));
    }
  else if (word_is (p, "delete"))
    {
      kind = DY_PARTIQL_DELETE;
      name = identifier_after (p, "from");
    }
  else
    name = identifier_after (p, "from");
  if (table != NULL)
    *table = name;
  else
    g_free (name);
  return kind;
}

const char *
dy_partiql_kind_name (DyPartiqlKind kind)
{
  switch (kind)
    {
    case DY_PARTIQL_INSERT:
      return "INSERT";
    case DY_PARTIQL_UPDATE:
      return "UPDATE";
    case DY_PARTIQL_DELETE:
      return "DELETE";
    case DY_PARTIQL_READ:
    default:
      return "SELECT";
    }
}

/* Parameters. */

/* VALUE (taken) when it is a DynamoDB JSON value DynamoDB would take, else NULL with the
 * codec's message. */
static json_t *
checked_value (json_t *value, guint index, GError **error)
{
  g_autoptr (GError) local = NULL;
  DdbValue *parsed = ddb_json_to_value (value, &local);

  if (parsed == NULL)
    {
      /* TRANSLATORS: %u is the parameter's position (1 for the first ?), %s why it is refused */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("Parameter %u: %s"), index,
                   local->message);
      json_decref (value);
      return NULL;
    }
  ddb_value_free (parsed);
  return value;
}

/* The JSON object starting at P, up to its closing brace (strings skipped); *END past it. */
static json_t *
read_json_object (const char *p, const char **end, guint index, GError **error)
{
  int depth = 0;
  const char *q = p;
  json_error_t json_error;
  json_t *value;

  for (; *q != '\0'; q++)
    {
      if (*q == '"')
        {
          for (q++; *q != '\0' && *q != '"'; q++)
            if (*q == '\\' && q[1] != '\0')
              q++;
          if (*q == '\0')
            break;
        }
      else if (*q == '{' || *q == '[')
        depth++;
      else if ((*q == '}' || *q == ']') && --depth == 0)
        {
          q++;
          break;
        }
    }
  value = json_loadb (p, q - p, JSON_DECODE_ANY, &json_error);
  if (value == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("Parameter %u: %s"), index,
                   json_error.text);
      return NULL;
    }
  *end = q;
  return checked_value (value, index, error);
}

static json_t *
read_literal (const char *p, const char **end, guint index, GError **error)
{
  const char *q = p;
  g_autofree char *word = NULL;

  if (*p == '\'')
    {
      GString *text = g_string_new (NULL);

      for (q = p + 1; *q != '\0'; q++)
        {
          if (*q == '\'' && q[1] == '\'')
            q++;
          else if (*q == '\'')
            break;
          g_string_append_c (text, *q);
        }
      if (*q != '\'')
        {
          g_string_free (text, TRUE);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("Parameter %u: the string has no closing quote"), index);
          return NULL;
        }
      *end = q + 1;
      {
        json_t *value = json_pack ("{ss%}", "S", text->str, (size_t) text->len);

        g_string_free (text, TRUE);
        return value;
      }
    }
  while (*q != '\0' && *q != ',' && *q != '\n' && !g_ascii_isspace (*q))
    q++;
  word = g_strndup (p, q - p);
  *end = q;
  if (g_ascii_strcasecmp (word, "true") == 0 || g_ascii_strcasecmp (word, "false") == 0)
    return json_pack ("{sb}", "BOOL", g_ascii_strcasecmp (word, "true") == 0);
  if (g_ascii_strcasecmp (word, "null") == 0)
    return json_pack ("{sb}", "NULL", 1);
  if (*word == '-' || *word == '+' || *word == '.' || g_ascii_isdigit (*word))
    return checked_value (json_pack ("{ss}", "N", word), index, error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               _ ("Parameter %u: “%s” is not a value: write 'text', a number, TRUE, FALSE, NULL "
                  "or DynamoDB JSON such as {\"S\": \"text\"}"),
               index, word);
  return NULL;
}

json_t *
dy_partiql_parse_parameters (const char *text, GError **error)
{
  json_t *values = json_array ();
  const char *p = skip_space (text != NULL ? text : "");

  if (*p == '[')
    {
      json_error_t json_error;
      json_t *list = json_loads (p, 0, &json_error);
      json_t *value;
      size_t i;

      json_decref (values);
      if (list == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _ ("Parameters: %s"),
                       json_error.text);
          return NULL;
        }
      json_array_foreach (list, i, value)
        if (checked_value (json_incref (value), i + 1, error) == NULL)
          {
            json_decref (list);
            return NULL;
          }
        else
          json_decref (value);
      return list;
    }
  while (*p != '\0')
    {
      guint index = json_array_size (values) + 1;
      const char *end = p;
      json_t *value;

      if (*p == '{')
        value = read_json_object (p, &end, index, error);
      else
        value = read_literal (p, &end, index, error);
      if (value == NULL)
        {
          json_decref (values);
          return NULL;
        }
      json_array_append_new (values, value);
      /* then a comma, a new line, or the end */
      p = end;
      while (*p == ' ' || *p == '\t' || *p == '\r')
        p++;
      if (*p != '\0' && *p != ',' && *p != '\n')
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _ ("Parameter %u: a comma or a new line should follow it"), index);
          json_decref (values);
          return NULL;
        }
      if (*p != '\0')
        p++;
      p = skip_space (p);
    }
  return values;
}

/* Columns. */

static gboolean
strv_contains (const char *const *names, const char *name)
{
  return names != NULL && g_strv_contains (names, name);
}

static gboolean
array_contains (GPtrArray *names, const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (g_str_equal (names->pdata[i], name))
      return TRUE;
  return FALSE;
}

GPtrArray *
dy_partiql_new_columns (const char *const *shown, GPtrArray *page_names, const char *const *keys)
{
  GPtrArray *added = g_ptr_array_new_with_free_func (g_free);

  if ((shown == NULL || shown[0] == NULL) && keys != NULL)
    for (guint i = 0; keys[i] != NULL; i++)
      if (array_contains (page_names, keys[i]))
        g_ptr_array_add (added, g_strdup (keys[i]));
  for (guint i = 0; i < page_names->len; i++)
    {
      const char *name = page_names->pdata[i];

      if (!strv_contains (shown, name) && !array_contains (added, name))
        g_ptr_array_add (added, g_strdup (name));
    }
  return added;
}
