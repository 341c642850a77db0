/* template.c: key templates, parsed, rendered and measured. */
#include "model/template.h"

#include <string.h>

G_DEFINE_QUARK (dy-template-error-quark, dy_template_error)

static void
part_free (gpointer data)
{
  DyTemplatePart *part = data;
  g_free (part->text);
  g_free (part->format);
  g_free (part);
}

void
dy_template_free (DyTemplate *tpl)
{
  if (tpl == NULL)
    return;
  g_free (tpl->source);
  g_ptr_array_unref (tpl->parts);
  g_free (tpl);
}

static void
flush_literal (DyTemplate *tpl, GString *lit)
{
  if (lit->len == 0)
    return;
  DyTemplatePart *part = g_new0 (DyTemplatePart, 1);
  part->kind = DY_TEMPLATE_LITERAL;
  part->text = g_strndup (lit->str, lit->len);
  g_ptr_array_add (tpl->parts, part);
  g_string_truncate (lit, 0);
}

static gboolean
name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '-' || c == '.';
}

/* Parses "name" or "name:04" between START and END (exclusive) into a field part. */
static DyTemplatePart *
parse_field (const char *text, const char *start, const char *end, GError **error)
{
  const char *colon = memchr (start, ':', end - start);
  const char *name_end = colon ? colon : end;
  if (name_end == start)
    {
      g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                   "Key template \"%s\": empty field name at offset %d", text,
                   (int) (start - text));
      return NULL;
    }
  for (const char *p = start; p < name_end; p++)
    if (!name_char (*p))
      {
        g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                     "Key template \"%s\": '%c' at offset %d is not allowed in a field name",
                     text, *p, (int) (p - text));
        return NULL;
      }
  guint width = 0;
  if (colon && colon[1] == '%')
    {
      for (const char *p = colon + 1; p < end; p++)
        {
          if (*p != '%')
            continue;
          if (p + 1 >= end || strchr ("YmdHMSj%", p[1]) == NULL)
            {
              g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                           "Key template \"%s\": the date format at offset %d allows %%Y %%m %%d "
                           "%%H %%M %%S %%j and %%%%", text, (int) (p - text));
              return NULL;
            }
          p++;
        }
      DyTemplatePart *part = g_new0 (DyTemplatePart, 1);
      part->kind = DY_TEMPLATE_FIELD;
      part->text = g_strndup (start, name_end - start);
      part->format = g_strndup (colon + 1, end - colon - 1);
      return part;
    }
  if (colon)
    {
      const char *w = colon + 1;
      /* A width is written with its leading zero ("04") so that it reads as the padding it is. */
      if (end - w < 2 || w[0] != '0')
        {
          g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                       "Key template \"%s\": the format at offset %d must be a zero-padded "
                       "width such as 04", text, (int) (w - text));
          return NULL;
        }
      for (const char *p = w; p < end; p++)
        if (!g_ascii_isdigit (*p))
          {
            g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                         "Key template \"%s\": '%c' at offset %d is not a digit of a width",
                         text, *p, (int) (p - text));
            return NULL;
          }
      g_autofree char *digits = g_strndup (w, end - w);
      guint64 v = g_ascii_strtoull (digits, NULL, 10);
      if (v == 0 || v > 64)
        {
          g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                       "Key template \"%s\": width %s at offset %d must be 1 to 64", text,
                       digits, (int) (w - text));
          return NULL;
        }
      width = (guint) v;
    }
  DyTemplatePart *part = g_new0 (DyTemplatePart, 1);
  part->kind = DY_TEMPLATE_FIELD;
  part->text = g_strndup (start, name_end - start);
  part->width = width;
  return part;
}

DyTemplate *
dy_template_parse (const char *text, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  g_autoptr (DyTemplate) tpl = g_new0 (DyTemplate, 1);
  tpl->source = g_strdup (text);
  tpl->parts = g_ptr_array_new_with_free_func (part_free);
  g_autoptr (GString) lit = g_string_new (NULL);

  for (const char *p = text; *p;)
    {
      if (p[0] == '{' && p[1] == '{')
        {
          g_string_append_c (lit, '{');
          p += 2;
        }
      else if (p[0] == '}' && p[1] == '}')
        {
          g_string_append_c (lit, '}');
          p += 2;
        }
      else if (p[0] == '}')
        {
          g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                       "Key template \"%s\": unmatched '}' at offset %d (write }} for a brace)",
                       text, (int) (p - text));
          return NULL;
        }
      else if (p[0] == '{')
        {
          const char *end = strpbrk (p + 1, "{}");
          if (end == NULL || *end == '{')
            {
              g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX,
                           "Key template \"%s\": '{' at offset %d is not closed (write {{ for "
                           "a brace)", text, (int) (p - text));
              return NULL;
            }
          DyTemplatePart *part = parse_field (text, p + 1, end, error);
          if (part == NULL)
            return NULL;
          flush_literal (tpl, lit);
          g_ptr_array_add (tpl->parts, part);
          p = end + 1;
        }
      else
        {
          g_string_append_c (lit, *p);
          p++;
        }
    }
  flush_literal (tpl, lit);
  return g_steal_pointer (&tpl);
}

static gboolean
all_digits (const char *s)
{
  if (*s == '\0')
    return FALSE;
  for (; *s; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

char *
dy_template_render (const DyTemplate *tpl, GHashTable *inputs, GError **error)
{
  g_autoptr (GString) out = g_string_new (NULL);
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_LITERAL)
        {
          g_string_append (out, part->text);
          continue;
        }
      const char *value = inputs ? g_hash_table_lookup (inputs, part->text) : NULL;
      if (value == NULL)
        {
          g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_MISSING_INPUT,
                       "Key template \"%s\": no value for {%s}", tpl->source, part->text);
          return NULL;
        }
      if (!dy_template_render_field (tpl, part, value, out, error))
        return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

gboolean
dy_template_render_field (const DyTemplate *tpl, const DyTemplatePart *part, const char *value,
                          GString *out, GError **error)
{
  if (part->format)
    {
      g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
      g_autoptr (GDateTime) dt = g_date_time_new_from_iso8601 (value, utc);
      if (dt == NULL)
        {
          /* A bare date ("2026-03-02") is midnight UTC. */
          g_autofree char *midnight = g_strconcat (value, "T00:00:00Z", NULL);
          dt = g_date_time_new_from_iso8601 (midnight, utc);
        }
      if (dt == NULL)
        {
          g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_BAD_VALUE,
                       "Key template \"%s\": {%s:%s} needs an ISO 8601 timestamp, not \"%s\"",
                       tpl->source, part->text, part->format, value);
          return FALSE;
        }
      g_autoptr (GDateTime) in_utc = g_date_time_to_utc (dt);
      g_autofree char *text = g_date_time_format (in_utc, part->format);
      g_string_append (out, text);
      return TRUE;
    }
  if (part->width > 0)
    {
      if (!all_digits (value))
        {
          g_set_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_BAD_VALUE,
                       "Key template \"%s\": {%s:0%u} needs a whole number, not \"%s\"",
                       tpl->source, part->text, part->width, value);
          return FALSE;
        }
      for (gsize n = strlen (value); n < part->width; n++)
        g_string_append_c (out, '0');
    }
  g_string_append (out, value);
  return TRUE;
}

/* The length of FORMAT's output: every conversion it allows has a fixed width. */
static gsize
format_length (const char *format)
{
  gsize n = 0;
  for (const char *p = format; *p; p++)
    {
      if (*p != '%' || p[1] == '\0')
        {
          n++;
          continue;
        }
      p++;
      n += *p == 'Y' ? 4 : *p == 'j' ? 3 : *p == '%' ? 1 : 2;
    }
  return n;
}

char *
dy_template_literal_prefix (const DyTemplate *tpl)
{
  if (tpl->parts->len > 0)
    {
      const DyTemplatePart *first = g_ptr_array_index (tpl->parts, 0);
      if (first->kind == DY_TEMPLATE_LITERAL)
        return g_strdup (first->text);
    }
  return g_strdup ("");
}

guint
dy_template_n_fields (const DyTemplate *tpl)
{
  guint n = 0;
  for (guint i = 0; i < tpl->parts->len; i++)
    if (((DyTemplatePart *) g_ptr_array_index (tpl->parts, i))->kind == DY_TEMPLATE_FIELD)
      n++;
  return n;
}

gboolean
dy_template_fixed_by (const DyTemplate *tpl, GHashTable *inputs)
{
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD
          && (inputs == NULL || !g_hash_table_contains (inputs, part->text)))
        return FALSE;
    }
  return TRUE;
}

gsize
dy_template_max_length (const DyTemplate *tpl, GHashTable *max_lengths, gsize default_length)
{
  gsize total = 0;
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      const DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_LITERAL)
        {
          total += strlen (part->text);
          continue;
        }
      if (part->format)
        {
          total += format_length (part->format);
          continue;
        }
      gpointer v;
      gsize n = default_length;
      if (max_lengths && g_hash_table_lookup_extended (max_lengths, part->text, NULL, &v))
        n = GPOINTER_TO_UINT (v);
      total += MAX (n, part->width);
    }
  return total;
}
