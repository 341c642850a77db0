/* secret-json.c: the wiping JSON reader and the json.dumps-style string writer. */
#include "net/secret-json.h"

#include "net/hash.h"

#include <string.h>

#define MAX_DEPTH 64

typedef struct {
  DdbSecretJsonKind kind;
  GString *text; /* strings and numbers */
} Entry;

struct _DdbSecretJson {
  GHashTable *entries; /* path -> Entry */
  GHashTable *members; /* object path -> GPtrArray of member names, NULL-terminated */
};

typedef struct {
  const char *start;
  const char *p;
  const char *end;
  DdbSecretJson *json;
} Reader;

static void
entry_free (gpointer data)
{
  Entry *e = data;

  ddb_secret_string_free (e->text);
  g_free (e);
}

static void
ws (Reader *r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
    r->p++;
}

static int
hex4 (const char *p)
{
  int v = 0;

  for (int i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);

      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
  return v;
}

static gboolean
read_string (Reader *r, GString *out)
{
  if (r->p >= r->end || *r->p != '"')
    return FALSE;
  r->p++;
  while (r->p < r->end)
    {
      unsigned char c = *r->p;
      int u, lo;

      if (c == '"')
        {
          r->p++;
          return TRUE;
        }
      if (c < 0x20)
        return FALSE;
      if (c != '\\')
        {
          ddb_secret_string_append_c (out, c);
          r->p++;
          continue;
        }
      if (r->end - r->p < 2)
        return FALSE;
      switch (r->p[1])
        {
        case '"':
        case '\\':
        case '/':
          ddb_secret_string_append_c (out, r->p[1]);
          break;
        case 'b':
          ddb_secret_string_append_c (out, '\b');
          break;
        case 'f':
          ddb_secret_string_append_c (out, '\f');
          break;
        case 'n':
          ddb_secret_string_append_c (out, '\n');
          break;
        case 'r':
          ddb_secret_string_append_c (out, '\r');
          break;
        case 't':
          ddb_secret_string_append_c (out, '\t');
          break;
        case 'u':
          if (r->end - r->p < 6 || (u = hex4 (r->p + 2)) < 0)
            return FALSE;
          r->p += 6;
          if (u >= 0xD800 && u < 0xDC00)
            {
              if (r->end - r->p < 6 || r->p[0] != '\\' || r->p[1] != 'u'
                  || (lo = hex4 (r->p + 2)) < 0xDC00 || lo > 0xDFFF)
                return FALSE;
              r->p += 6;
              u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            }
          else if (u >= 0xDC00 && u < 0xE000)
            return FALSE;
          if (u == 0)
            return FALSE; /* C strings cannot hold it; no credential has one */
          {
            char utf8[6];

            ddb_secret_string_append_len (out, utf8, (gsize) g_unichar_to_utf8 (u, utf8));
            ddb_secure_zero (utf8, sizeof utf8);
          }
          continue;
        default:
          return FALSE;
        }
      r->p += 2;
    }
  return FALSE;
}

static gboolean
read_number (Reader *r)
{
  const char *p = r->p;

  if (p < r->end && *p == '-')
    p++;
  if (p >= r->end || !g_ascii_isdigit (*p))
    return FALSE;
  if (*p == '0')
    p++;
  else
    while (p < r->end && g_ascii_isdigit (*p))
      p++;
  if (p < r->end && *p == '.')
    {
      p++;
      if (p >= r->end || !g_ascii_isdigit (*p))
        return FALSE;
      while (p < r->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p < r->end && (*p == 'e' || *p == 'E'))
    {
      p++;
      if (p < r->end && (*p == '+' || *p == '-'))
        p++;
      if (p >= r->end || !g_ascii_isdigit (*p))
        return FALSE;
      while (p < r->end && g_ascii_isdigit (*p))
        p++;
    }
  r->p = p;
  return TRUE;
}

static gboolean
read_literal (Reader *r, const char *word)
{
  gsize n = strlen (word);

  if ((gsize) (r->end - r->p) < n || memcmp (r->p, word, n) != 0)
    return FALSE;
  r->p += n;
  return TRUE;
}

/* Drops what an earlier value at PATH left below it (a repeated key: the last one wins). */
static void
drop_below (Reader *r, const char *path)
{
  GHashTableIter iter;
  gpointer key;
  gsize n = strlen (path);

  g_hash_table_remove (r->json->members, path);
  g_hash_table_iter_init (&iter, r->json->entries);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (strncmp (key, path, n) == 0 && (((char *) key)[n] == '.' || ((char *) key)[n] == '['))
      g_hash_table_iter_remove (&iter);
  g_hash_table_iter_init (&iter, r->json->members);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (strncmp (key, path, n) == 0 && (((char *) key)[n] == '.' || ((char *) key)[n] == '['))
      g_hash_table_iter_remove (&iter);
}

static void
put (Reader *r, const char *path, DdbSecretJsonKind kind, GString *text)
{
  Entry *e;

  /* PATH NULL: a value under a key that no path can name ("", or holding '.' or '['): read and
   * checked, then dropped. */
  if (path == NULL)
    {
      ddb_secret_string_free (text);
      return;
    }
  e = g_hash_table_lookup (r->json->entries, path);
  if (e != NULL && (e->kind == DDB_SECRET_JSON_OBJECT || e->kind == DDB_SECRET_JSON_ARRAY))
    drop_below (r, path);
  e = g_new0 (Entry, 1);
  e->kind = kind;
  e->text = text;
  g_hash_table_replace (r->json->entries, g_strdup (path), e);
}

static gboolean read_value (Reader *r, const char *path, guint depth);

static gboolean
read_object (Reader *r, const char *path, guint depth)
{
  /* Owned by the table, or by this frame when PATH names nothing. */
  g_autoptr (GPtrArray) unnamed = NULL;
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  if (path != NULL)
    g_hash_table_replace (r->json->members, g_strdup (path), names);
  else
    unnamed = names;
  r->p++;
  ws (r);
  if (r->p < r->end && *r->p == '}')
    {
      r->p++;
      g_ptr_array_add (names, NULL);
      return TRUE;
    }
  for (;;)
    {
      g_autoptr (GString) key = g_string_new (NULL);
      g_autofree char *child = NULL;
      gboolean seen = FALSE;

      ws (r);
      if (!read_string (r, key))
        return FALSE;
      ws (r);
      if (r->p >= r->end || *r->p++ != ':')
        return FALSE;
      if (path != NULL && key->len > 0 && strpbrk (key->str, ".[") == NULL)
        child = path[0] != '\0' ? g_strconcat (path, ".", key->str, NULL) : g_strdup (key->str);
      if (!read_value (r, child, depth + 1))
        return FALSE;
      for (guint i = 0; i < names->len && !seen; i++)
        seen = strcmp (g_ptr_array_index (names, i), key->str) == 0;
      if (!seen)
        g_ptr_array_add (names, g_strdup (key->str));
      ws (r);
      if (r->p >= r->end)
        return FALSE;
      if (*r->p == ',')
        {
          r->p++;
          continue;
        }
      if (*r->p++ != '}')
        return FALSE;
      g_ptr_array_add (names, NULL);
      return TRUE;
    }
}

static gboolean
read_array (Reader *r, const char *path, guint depth)
{
  guint i = 0;

  r->p++;
  ws (r);
  if (r->p < r->end && *r->p == ']')
    {
      r->p++;
      return TRUE;
    }
  for (;; i++)
    {
      g_autofree char *child = path != NULL ? g_strdup_printf ("%s[%u]", path, i) : NULL;

      if (!read_value (r, child, depth + 1))
        return FALSE;
      ws (r);
      if (r->p >= r->end)
        return FALSE;
      if (*r->p == ',')
        {
          r->p++;
          continue;
        }
      return *r->p++ == ']';
    }
}

static gboolean
read_value (Reader *r, const char *path, guint depth)
{
  const char *start;
  GString *text;

  if (depth > MAX_DEPTH)
    return FALSE;
  ws (r);
  if (r->p >= r->end)
    return FALSE;
  /* Keys repeated at an outer level leave no stale entries below them. */
  switch (*r->p)
    {
    case '"':
      text = g_string_new (NULL);
      if (!read_string (r, text))
        {
          ddb_secret_string_free (text);
          return FALSE;
        }
      put (r, path, DDB_SECRET_JSON_STRING, text);
      return TRUE;
    case 't':
      put (r, path, DDB_SECRET_JSON_TRUE, NULL);
      return read_literal (r, "true");
    case 'f':
      put (r, path, DDB_SECRET_JSON_FALSE, NULL);
      return read_literal (r, "false");
    case 'n':
      put (r, path, DDB_SECRET_JSON_NULL, NULL);
      return read_literal (r, "null");
    case '{':
      put (r, path, DDB_SECRET_JSON_OBJECT, NULL);
      return read_object (r, path, depth);
    case '[':
      put (r, path, DDB_SECRET_JSON_ARRAY, NULL);
      return read_array (r, path, depth);
    default:
      start = r->p;
      if (!read_number (r))
        return FALSE;
      put (r, path, DDB_SECRET_JSON_NUMBER, g_string_new_len (start, r->p - start));
      return TRUE;
    }
}

static void
members_free (gpointer data)
{
  g_ptr_array_free (data, TRUE);
}

DdbSecretJson *
ddb_secret_json_parse (const char *text, gsize len, gsize *error_offset)
{
  DdbSecretJson *json = g_new0 (DdbSecretJson, 1);
  Reader r = { text, text, text + len, json };
  gboolean ok;

  json->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, entry_free);
  json->members = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, members_free);
  ws (&r);
  ok = r.p < r.end && *r.p == '{' && read_value (&r, "", 0);
  if (ok)
    {
      ws (&r);
      ok = r.p == r.end;
    }
  if (!ok)
    {
      if (error_offset != NULL)
        *error_offset = r.p - r.start;
      ddb_secret_json_free (json);
      return NULL;
    }
  return json;
}

void
ddb_secret_json_free (DdbSecretJson *json)
{
  if (json == NULL)
    return;
  g_hash_table_unref (json->entries);
  g_hash_table_unref (json->members);
  g_free (json);
}

DdbSecretJsonKind
ddb_secret_json_kind (DdbSecretJson *json, const char *path)
{
  Entry *e = g_hash_table_lookup (json->entries, path);

  return e != NULL ? e->kind : DDB_SECRET_JSON_ABSENT;
}

const char *
ddb_secret_json_get (DdbSecretJson *json, const char *path)
{
  Entry *e = g_hash_table_lookup (json->entries, path);

  return e != NULL && e->text != NULL ? e->text->str : NULL;
}

const char *
ddb_secret_json_get_string (DdbSecretJson *json, const char *path)
{
  Entry *e = g_hash_table_lookup (json->entries, path);

  return e != NULL && e->kind == DDB_SECRET_JSON_STRING ? e->text->str : NULL;
}

gboolean
ddb_secret_json_get_int (DdbSecretJson *json, const char *path, gint64 *out)
{
  Entry *e = g_hash_table_lookup (json->entries, path);
  char *end = NULL;
  double d;

  if (e == NULL || e->kind != DDB_SECRET_JSON_NUMBER)
    return FALSE;
  if (strpbrk (e->text->str, ".eE") == NULL)
    {
      gint64 v;

      if (!g_ascii_string_to_signed (e->text->str, 10, G_MININT64, G_MAXINT64, &v, NULL))
        return FALSE;
      *out = v;
      return TRUE;
    }
  d = g_ascii_strtod (e->text->str, &end);
  if (*end != '\0' || d > 9.0e15 || d < -9.0e15 || d != (double) (gint64) d)
    return FALSE;
  *out = (gint64) d;
  return TRUE;
}

const char *const *
ddb_secret_json_members (DdbSecretJson *json, const char *path)
{
  GPtrArray *names = g_hash_table_lookup (json->members, path);

  return names != NULL ? (const char *const *) names->pdata : NULL;
}

/* "\uXXXX" (lower-case hex, as json.dumps writes it), without a printf buffer. */
static void
append_escape (GString *out, gunichar c)
{
  static const char hex[] = "0123456789abcdef";
  char escape[6] = { '\\', 'u', hex[(c >> 12) & 0xf], hex[(c >> 8) & 0xf], hex[(c >> 4) & 0xf],
                     hex[c & 0xf] };

  ddb_secret_string_append_len (out, escape, sizeof escape);
  ddb_secure_zero (escape, sizeof escape);
}

void
ddb_secret_json_append_string (GString *out, const char *s)
{
  const char *p = s;

  ddb_secret_string_append_c (out, '"');
  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          c = 0xFFFD; /* not UTF-8: never in what we write, but never invalid JSON either */
          p++;
        }
      else
        p = g_utf8_next_char (p);
      switch (c)
        {
        case '"':
          ddb_secret_string_append (out, "\\\"");
          break;
        case '\\':
          ddb_secret_string_append (out, "\\\\");
          break;
        case '\n':
          ddb_secret_string_append (out, "\\n");
          break;
        case '\r':
          ddb_secret_string_append (out, "\\r");
          break;
        case '\t':
          ddb_secret_string_append (out, "\\t");
          break;
        case '\b':
          ddb_secret_string_append (out, "\\b");
          break;
        case '\f':
          ddb_secret_string_append (out, "\\f");
          break;
        default:
          if (c < 0x20 || (c >= 0x7F && c < 0x10000))
            append_escape (out, c);
          else if (c >= 0x10000)
            {
              c -= 0x10000;
              append_escape (out, 0xD800 + (c >> 10));
              append_escape (out, 0xDC00 + (c & 0x3FF));
            }
          else
            ddb_secret_string_append_c (out, (char) c);
        }
    }
  ddb_secret_string_append_c (out, '"');
}

gboolean
ddb_aws_parse_timestamp (const char *text, gint64 *out)
{
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr (GDateTime) dt = NULL;

  if (text == NULL)
    return FALSE;
  dt = g_date_time_new_from_iso8601 (text, utc);
  if (dt == NULL)
    return FALSE;
  /* No credential expires before 1970 or past 9999: such a date is not one (and would not
   * be written back as it was read). */
  if (g_date_time_to_unix (dt) < 0 || g_date_time_to_unix (dt) > G_GINT64_CONSTANT (253402300799))
    return FALSE;
  *out = g_date_time_to_unix (dt);
  return TRUE;
}

char *
ddb_aws_format_timestamp (gint64 when)
{
  g_autoptr (GDateTime) dt = g_date_time_new_from_unix_utc (when);

  return dt != NULL ? g_date_time_format (dt, "%Y-%m-%dT%H:%M:%SZ") : g_strdup ("");
}
