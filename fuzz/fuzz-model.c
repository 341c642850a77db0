/* fuzz-model.c: libFuzzer target for key templates and NoSQL Workbench models. A first byte 'T'
 * makes the rest a template: it parses or fails with an error, and renders from inputs of every
 * field. Anything else is a Workbench file: whatever reads writes a model that reads back and
 * writes the same JSON again, and checks and estimates without a crash. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/check.h"
#include "model/estimate.h"
#include "model/workbench.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
fuzz_template (const char *text)
{
  GError *error = NULL;
  DyTemplate *tpl = dy_template_parse (text, &error);
  if (tpl == NULL)
    {
      if (error == NULL)
        abort ();
      g_error_free (error);
      return;
    }
  GHashTable *inputs = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < tpl->parts->len; i++)
    {
      DyTemplatePart *part = g_ptr_array_index (tpl->parts, i);
      if (part->kind == DY_TEMPLATE_FIELD)
        g_hash_table_insert (inputs, part->text, (gpointer) "2026-03-02T10:00:00Z");
    }
  char *out = dy_template_render (tpl, inputs, &error);
  /* A padded field refuses the timestamp; nothing else may fail. */
  if (out == NULL && !g_error_matches (error, DY_TEMPLATE_ERROR, DY_TEMPLATE_ERROR_BAD_VALUE))
    abort ();
  char *prefix = dy_template_literal_prefix (tpl);
  if (out != NULL && !g_str_has_prefix (out, prefix))
    abort ();
  g_free (prefix);
  g_free (out);
  g_clear_error (&error);
  g_hash_table_unref (inputs);
  dy_template_free (tpl);
}

static void
fuzz_workbench (const uint8_t *data, size_t size)
{
  json_t *json = json_loadb ((const char *) data, size, 0, NULL);
  if (json == NULL)
    return;
  GError *error = NULL;
  DyModel *model = dy_workbench_read (json, &error);
  json_decref (json);
  if (model == NULL)
    {
      if (error == NULL)
        abort ();
      g_error_free (error);
      return;
    }
  json_t *out = dy_workbench_write (model);
  DyModel *again = dy_workbench_read (out, &error);
  if (again == NULL)
    abort ();
  json_t *out2 = dy_workbench_write (again);
  if (!json_equal (out, out2))
    abort ();
  dy_check_report_free (dy_model_check (model));
  /* Estimates of whatever reads stay finite (rates and prices are bounded). */
  DyEstimate *est = dy_model_estimate (model);
  if (!isfinite (est->monthly_on_demand) || !isfinite (est->monthly_provisioned))
    abort ();
  dy_estimate_free (est);
  json_decref (out);
  json_decref (out2);
  dy_model_free (again);
  dy_model_free (model);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > 0 && data[0] == 'T')
    {
      char *text = g_strndup ((const char *) data + 1, size - 1);
      fuzz_template (text);
      g_free (text);
      return 0;
    }
  fuzz_workbench (data, size);
  return 0;
}
