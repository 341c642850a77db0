#include <string.h>
/* Key templates: parsing, escapes, rendering with padding and missing inputs, prefixes. */
#include "model/template.h"

static GHashTable *
inputs (const char *first, ...)
{
  GHashTable *h = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  va_list ap;
  va_start (ap, first);
  for (const char *k = first; k; k = va_arg (ap, const char *))
    g_hash_table_insert (h, g_strdup (k), g_strdup (va_arg (ap, const char *)));
  va_end (ap);
  return h;
}

static void
test_parse_parts (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) tpl = dy_template_parse ("PROJ#{createdAt}#{seq:04}", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tpl->parts->len, ==, 4);
  DyTemplatePart *p0 = g_ptr_array_index (tpl->parts, 0);
  DyTemplatePart *p1 = g_ptr_array_index (tpl->parts, 1);
  DyTemplatePart *p3 = g_ptr_array_index (tpl->parts, 3);
  g_assert_cmpint (p0->kind, ==, DY_TEMPLATE_LITERAL);
  g_assert_cmpstr (p0->text, ==, "PROJ#");
  g_assert_cmpint (p1->kind, ==, DY_TEMPLATE_FIELD);
  g_assert_cmpstr (p1->text, ==, "createdAt");
  g_assert_cmpuint (p1->width, ==, 0);
  g_assert_cmpstr (p3->text, ==, "seq");
  g_assert_cmpuint (p3->width, ==, 4);
  g_assert_cmpuint (dy_template_n_fields (tpl), ==, 2);
  g_autofree char *prefix = dy_template_literal_prefix (tpl);
  g_assert_cmpstr (prefix, ==, "PROJ#");
}

static void
test_escapes_and_constants (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) tpl = dy_template_parse ("A{{x}}#{id}", &error);
  g_assert_no_error (error);
  g_autofree char *prefix = dy_template_literal_prefix (tpl);
  g_assert_cmpstr (prefix, ==, "A{x}#");
  g_autoptr (GHashTable) in = inputs ("id", "7", NULL);
  g_autofree char *out = dy_template_render (tpl, in, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "A{x}#7");

  g_autoptr (DyTemplate) meta = dy_template_parse ("META", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (dy_template_n_fields (meta), ==, 0);
  g_assert_true (dy_template_fixed_by (meta, NULL));
  g_autofree char *m = dy_template_render (meta, NULL, &error);
  g_assert_cmpstr (m, ==, "META");

  g_autoptr (DyTemplate) lead = dy_template_parse ("{id}#X", &error);
  g_autofree char *none = dy_template_literal_prefix (lead);
  g_assert_cmpstr (none, ==, "");
}

static void
test_render_padding (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) tpl = dy_template_parse ("S#{seq:04}", &error);
  g_autoptr (GHashTable) in = inputs ("seq", "7", NULL);
  g_autofree char *out = dy_template_render (tpl, in, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "S#0007");

  /* Longer than the width: kept whole, never cut. */
  g_autoptr (GHashTable) big = inputs ("seq", "123456", NULL);
  g_autofree char *out2 = dy_template_render (tpl, big, &error);
  g_assert_cmpstr (out2, ==, "S#123456");

  g_autoptr (GHashTable) bad = inputs ("seq", "7a", NULL);
  g_autofree char *out3 = dy_template_render (tpl, bad, &error);
  g_assert_null (out3);
  g_assert_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_BAD_VALUE);
}

static void
test_render_date (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) tpl = dy_template_parse ("PROJ#{createdAt:%Y}-{seq:04}", &error);
  g_assert_no_error (error);
  DyTemplatePart *date = g_ptr_array_index (tpl->parts, 1);
  g_assert_cmpstr (date->text, ==, "createdAt");
  g_assert_cmpstr (date->format, ==, "%Y");
  /* An offset is read as the instant it names: 23:30 at -02:00 is the next day in UTC. */
  g_autoptr (GHashTable) in = inputs ("createdAt", "2025-12-31T23:30:00-02:00", "seq", "41", NULL);
  g_autofree char *out = dy_template_render (tpl, in, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, "PROJ#2026-0041");

  g_autoptr (DyTemplate) day = dy_template_parse ("D#{at:%Y-%m-%d %%}", &error);
  g_assert_no_error (error);
  g_autoptr (GHashTable) bare = inputs ("at", "2026-03-02", NULL);
  g_autofree char *out2 = dy_template_render (day, bare, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out2, ==, "D#2026-03-02 %");
  g_assert_cmpuint (dy_template_max_length (day, NULL, 100), ==, 2 + 12);

  g_autoptr (GHashTable) bad = inputs ("at", "yesterday", NULL);
  g_autofree char *out3 = dy_template_render (day, bad, &error);
  g_assert_null (out3);
  g_assert_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_BAD_VALUE);
}

static void
test_render_missing (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) tpl = dy_template_parse ("WS#{workspaceId}#{x}", &error);
  g_autoptr (GHashTable) in = inputs ("workspaceId", "acme", NULL);
  g_assert_false (dy_template_fixed_by (tpl, in));
  g_autofree char *out = dy_template_render (tpl, in, &error);
  g_assert_null (out);
  g_assert_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_MISSING_INPUT);
  g_assert_nonnull (strstr (error->message, "{x}"));
}

static void
test_malformed (void)
{
  const char *bad[] = { "A{", "A{}", "A}", "{a{b}}", "{a b}", "{a:4}", "{a:0x}", "{a:}",
                        "{a:00}", "{:04}", "{a:%Q}", "{a:%Y%}" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autoptr (DyTemplate) tpl = dy_template_parse (bad[i], &error);
      if (tpl != NULL)
        g_error ("\"%s\" parsed", bad[i]);
      g_assert_error (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_SYNTAX);
      g_assert_nonnull (strstr (error->message, bad[i]));
    }
}

static void
test_max_length (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (DyTemplate) tpl = dy_template_parse ("WS#{id}#{seq:06}", &error);
  g_autoptr (GHashTable) lens = g_hash_table_new (g_str_hash, g_str_equal);
  g_hash_table_insert (lens, (gpointer) "id", GUINT_TO_POINTER (100));
  /* 3 + 100 + 1 + max(default 2, width 6) */
  g_assert_cmpuint (dy_template_max_length (tpl, lens, 2), ==, 110);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/template/parse-parts", test_parse_parts);
  g_test_add_func ("/template/escapes-and-constants", test_escapes_and_constants);
  g_test_add_func ("/template/render-padding", test_render_padding);
  g_test_add_func ("/template/render-date", test_render_date);
  g_test_add_func ("/template/render-missing", test_render_missing);
  g_test_add_func ("/template/malformed", test_malformed);
  g_test_add_func ("/template/max-length", test_max_length);
  return g_test_run ();
}
