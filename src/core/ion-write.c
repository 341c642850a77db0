/* ion-write.c: DynamoDB items and export records written as Amazon Ion text in the shapes
 * DynamoDB's export writes (see ion.h): compact, field names as symbols, numbers as decimals in
 * ion-java's text form. */
#include "core/ion.h"

#include <string.h>

#include "core/base64.h"
#include "core/jsontext.h"

/* Appends the text between quotes, escaping `quote`, '\' and the control characters. */
static void
append_escaped (GString *out, const char *s, gsize len, char quote)
{
  for (gsize i = 0; i < len;)
    {
      guchar c = (guchar) s[i];
      gunichar u;
      gsize n;

      if (c >= 0x80)
        {
          n = ddb_utf8_decode ((const guchar *) s + i, len - i, &u);
          if (n == 0)
            {
              g_string_append (out, "\xEF\xBF\xBD");
              i++;
            }
          else
            {
              g_string_append_len (out, s + i, (gssize) n);
              i += n;
            }
          continue;
        }
      i++;
      switch (c)
        {
        case 0:
          g_string_append (out, "\\0");
          break;
        case '\a':
          g_string_append (out, "\\a");
          break;
        case '\b':
          g_string_append (out, "\\b");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\v':
          g_string_append (out, "\\v");
          break;
        case '\f':
          g_string_append (out, "\\f");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        default:
          if (c == (guchar) quote)
            {
              g_string_append_c (out, '\\');
              g_string_append_c (out, (char) c);
            }
          else if (c < 0x20)
            g_string_append_printf (out, "\\x%02x", c);
          else
            g_string_append_c (out, (char) c);
          break;
        }
    }
}

static void
append_string (GString *out, const char *s, gsize len)
{
  g_string_append_c (out, '"');
  append_escaped (out, s, len, '"');
  g_string_append_c (out, '"');
}

/* A field name: bare when it is an identifier that is neither a keyword nor a symbol id. */
static void
append_symbol (GString *out, const char *s, gsize len)
{
  gboolean bare = len > 0 && (g_ascii_isalpha (s[0]) || s[0] == '_' || s[0] == '$');

  for (gsize i = 1; bare && i < len; i++)
    bare = g_ascii_isalnum (s[i]) || s[i] == '_' || s[i] == '$';
  if (bare)
    {
      static const char *const keywords[] = { "null", "true", "false", "nan" };
      for (guint k = 0; k < G_N_ELEMENTS (keywords); k++)
        if (len == strlen (keywords[k]) && memcmp (s, keywords[k], len) == 0)
          bare = FALSE;
      if (s[0] == '$' && len > 1 && strspn (s + 1, "0123456789") >= len - 1)
        bare = FALSE;
    }
  if (bare)
    {
      g_string_append_len (out, s, (gssize) len);
      return;
    }
  g_string_append_c (out, '\'');
  append_escaped (out, s, len, '\'');
  g_string_append_c (out, '\'');
}

/* ion-java's decimal text for unscaled digits `digits` and scale `scale`: plain when the
 * exponent is 0 ("103."), or negative with an adjusted exponent of at least -6 ("1.5",
 * "0.001"); otherwise with a d exponent ("6d2", "1d-7"). */
static void
append_number (GString *out, const DdbNumber *n)
{
  char digits[DDB_NUMBER_MAX_DIGITS + 1];
  gint64 len = n->ndigits, scale, adjusted;

  if (n->ndigits == 0)
    {
      g_string_append (out, "0.");
      return;
    }
  for (guint i = 0; i < n->ndigits; i++)
    digits[i] = (char) ('0' + n->d[i]);
  digits[n->ndigits] = '\0';
  if (n->negative)
    g_string_append_c (out, '-');
  scale = len - n->exponent;
  if (scale == 0)
    {
      g_string_append (out, digits);
      g_string_append_c (out, '.');
    }
  else if (scale > 0)
    {
      adjusted = len - 1 - scale;
      if (adjusted >= 0)
        {
          g_string_append_len (out, digits, (gssize) (len - scale));
          g_string_append_c (out, '.');
          g_string_append (out, digits + (len - scale));
        }
      else if (adjusted >= -6)
        {
          g_string_append (out, "0.");
          for (gint64 i = 0; i < scale - len; i++)
            g_string_append_c (out, '0');
          g_string_append (out, digits);
        }
      else
        g_string_append_printf (out, "%sd-%" G_GINT64_FORMAT, digits, scale);
    }
  else
    g_string_append_printf (out, "%sd%" G_GINT64_FORMAT, digits, -scale);
}

static void
append_blob (GString *out, const DdbBytes *b)
{
  g_string_append (out, "{{");
  ddb_base64_append (out, (const guchar *) b->data, b->len);
  g_string_append (out, "}}");
}

void
ddb_ion_append_value (GString *out, const DdbValue *v)
{
  switch (v->type)
    {
    case DDB_TYPE_S:
      append_string (out, v->bytes.data, v->bytes.len);
      break;
    case DDB_TYPE_N:
      append_number (out, &v->number);
      break;
    case DDB_TYPE_B:
      append_blob (out, &v->bytes);
      break;
    case DDB_TYPE_BOOL:
      g_string_append (out, v->boolean ? "true" : "false");
      break;
    case DDB_TYPE_NULL:
      g_string_append (out, "null");
      break;
    case DDB_TYPE_M:
      ddb_ion_append_item (out, v);
      break;
    case DDB_TYPE_L:
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      if (v->type != DDB_TYPE_L)
        g_string_append_printf (out, "$dynamodb_%s::", ddb_type_name (v->type));
      g_string_append_c (out, '[');
      for (guint i = 0; i < v->elems->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          ddb_ion_append_value (out, g_ptr_array_index (v->elems, i));
        }
      g_string_append_c (out, ']');
      break;
    }
}

void
ddb_ion_append_item (GString *out, const DdbValue *item)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < item->attrs->len; i++)
    {
      const DdbAttr *a = &g_array_index (item->attrs, DdbAttr, i);

      if (i > 0)
        g_string_append_c (out, ',');
      append_symbol (out, a->name, a->name_len);
      g_string_append_c (out, ':');
      ddb_ion_append_value (out, a->value);
    }
  g_string_append_c (out, '}');
}

char *
ddb_ion_format_item (const DdbValue *item)
{
  GString *out = g_string_new (NULL);

  ddb_ion_append_item (out, item);
  return g_string_free (out, FALSE);
}

void
ddb_ion_append_export_line (GString *out, const DdbValue *item)
{
  g_string_append (out, "$ion_1_0 {Item:");
  ddb_ion_append_item (out, item);
  g_string_append_c (out, '}');
}

void
ddb_ion_append_record_line (GString *out, const DdbIonRecord *record)
{
  const char *const names[] = { "Item", "Metadata", "Keys", "OldImage", "NewImage" };
  const DdbValue *parts[]
      = { record->item, record->metadata, record->keys, record->old_image, record->new_image };
  gboolean first = TRUE;

  g_string_append (out, "$ion_1_0 {");
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      if (parts[i] == NULL)
        continue;
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      g_string_append (out, names[i]);
      g_string_append_c (out, ':');
      ddb_ion_append_item (out, parts[i]);
    }
  g_string_append_c (out, '}');
}
