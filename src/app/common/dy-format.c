/* dy-format.c: one-line text for DynamoDB values, as cells and tree rows show them. */
#define G_LOG_DOMAIN "dynoscope-format"

#include <glib/gi18n.h>
#include <string.h>

#include "app/common/dy-format.h"
#include "core/base64.h"

static void
append_cut (GString *out, const char *data, gsize len)
{
  /* Control characters would break the one-line layout; show them as the escapes people know. */
  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) data[i];

      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, (char) c);
    }
}

static void
append_binary (GString *out, const DdbBytes *b)
{
  /* Only the start of a long binary is worth encoding for a cell. */
  gsize shown = MIN (b->len, (gsize) 48);

  ddb_base64_append (out, (const guchar *) b->data, shown);
  if (shown < b->len)
    g_string_append (out, "…");
  g_string_append_printf (out, " (%" G_GSIZE_FORMAT " B)", b->len);
}

static void
append_value (GString *out, const DdbValue *value)
{
  switch (value->type)
    {
    case DDB_TYPE_S:
      append_cut (out, value->bytes.data, value->bytes.len);
      break;
    case DDB_TYPE_N:
      ddb_number_append (&value->number, out);
      break;
    case DDB_TYPE_B:
      append_binary (out, &value->bytes);
      break;
    case DDB_TYPE_BOOL:
      g_string_append (out, value->boolean ? "true" : "false");
      break;
    case DDB_TYPE_NULL:
      g_string_append (out, "null");
      break;
    case DDB_TYPE_M:
      {
        guint n = ddb_value_map_size (value);

        g_string_append_c (out, '{');
        for (guint i = 0; i < n && out->len < DY_FORMAT_MAX_CELL; i++)
          {
            if (i > 0)
              g_string_append (out, ", ");
            g_string_append (out, ddb_value_map_nth (value, i)->name);
          }
        g_string_append_printf (out, "} ");
        g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u attribute",
                                                  "%u attributes", n), n);
      }
      break;
    case DDB_TYPE_L:
      {
        guint n = ddb_value_list_size (value);

        g_string_append_printf (out, "[…] ");
        g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u element",
                                                  "%u elements", n), n);
      }
      break;
    case DDB_TYPE_SS:
    case DDB_TYPE_NS:
    case DDB_TYPE_BS:
      {
        guint n = ddb_value_set_size (value);

        g_string_append_c (out, '{');
        for (guint i = 0; i < n; i++)
          {
            const DdbValue *e = value->elems->pdata[i];

            if (out->len >= DY_FORMAT_MAX_CELL)
              {
                g_string_append (out, ", …");
                break;
              }
            if (i > 0)
              g_string_append (out, ", ");
            if (e->type == DDB_TYPE_S)
              {
                g_string_append_c (out, '"');
                append_cut (out, e->bytes.data, e->bytes.len);
                g_string_append_c (out, '"');
              }
            else
              append_value (out, e);
          }
        g_string_append_c (out, '}');
      }
      break;
    default:
      g_assert_not_reached ();
    }
}

char *
dy_format_value (const DdbValue *value)
{
  GString *out = g_string_new (NULL);

  append_value (out, value);
  /* A long string is cut at a character boundary, never inside a number. */
  if (value->type == DDB_TYPE_S && out->len > DY_FORMAT_MAX_CELL)
    {
      const char *end = g_utf8_find_prev_char (out->str, out->str + DY_FORMAT_MAX_CELL);

      g_string_truncate (out, end - out->str);
      g_string_append (out, "…");
    }
  return g_string_free (out, FALSE);
}

char *
dy_format_key (const DdbValue *value)
{
  GString *out = g_string_new (NULL);

  if (value->type == DDB_TYPE_B)
    ddb_base64_append (out, (const guchar *) value->bytes.data, value->bytes.len);
  else
    append_value (out, value);
  return g_string_free (out, FALSE);
}

char *
dy_format_count (guint64 n)
{
  /* ' groups the digits as the locale does */
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, n);
}

char *
dy_format_size (guint64 bytes)
{
  /* DynamoDB's limits are in binary kilobytes (400 KB = 409600 bytes), so the app counts so. */
  if (bytes < 1024)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);

      /* TRANSLATORS: a size in bytes */
      return g_strdup_printf (_("%s B"), n);
    }
  if (bytes < 1024 * 1024)
    return g_strdup_printf (_("%.1f KB"), bytes / 1024.0);
  if (bytes < G_GUINT64_CONSTANT (1024) * 1024 * 1024)
    return g_strdup_printf (_("%.1f MB"), bytes / (1024.0 * 1024.0));
  return g_strdup_printf (_("%.2f GB"), bytes / (1024.0 * 1024.0 * 1024.0));
}

int
dy_format_compare_keys (const DdbValue *a, const DdbValue *b)
{
  if (a->type != b->type)
    return (int) a->type - (int) b->type;
  if (a->type == DDB_TYPE_N)
    return ddb_number_compare (&a->number, &b->number);
  if (a->type == DDB_TYPE_S || a->type == DDB_TYPE_B)
    {
      int c = memcmp (a->bytes.data, b->bytes.data, MIN (a->bytes.len, b->bytes.len));

      if (c != 0)
        return c;
      return a->bytes.len < b->bytes.len ? -1 : a->bytes.len > b->bytes.len;
    }
  return 0;
}

int
dy_format_compare_cells (const DdbValue *a, const DdbValue *b)
{
  if (a == NULL || b == NULL)
    return (a == NULL) - (b == NULL);
  if (a->type != b->type)
    return (int) a->type - (int) b->type;
  switch (a->type)
    {
    case DDB_TYPE_N:
    case DDB_TYPE_S:
    case DDB_TYPE_B:
      return dy_format_compare_keys (a, b);
    case DDB_TYPE_BOOL:
      return (int) a->boolean - (int) b->boolean;
    case DDB_TYPE_NULL:
      return 0;
    default:
      {
        g_autofree char *ta = dy_format_value (a);
        g_autofree char *tb = dy_format_value (b);

        return strcmp (ta, tb);
      }
    }
}
