/* model-estimate-cmd.c: `dynoscope-cli model estimate MODEL.json [--rate PATTERN=N]
 * [--write-rate ENTITY=N] [--price NAME=VALUE] [--json]`: the estimate of src/model/estimate.h
 * printed as tables (reads per access pattern, writes per entity, capacity per table and GSI,
 * item collections, totals) with the prices used and their sources, or as JSON. */
#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/model-cmd.h"
#include "model/estimate.h"
#include "model/workbench.h"

#define PREFIX "dynoscope-cli model estimate: "
#define USAGE \
  N_ ("Usage: dynoscope-cli model estimate MODEL.json [--rate PATTERN=N] " \
      "[--write-rate ENTITY=N] [--price NAME=VALUE] [--json]")

static const char *
price_unit (DyPriceKind kind)
{
  switch (kind)
    {
    case DY_PRICE_ON_DEMAND_READ:
      return _ ("per million read request units");
    case DY_PRICE_ON_DEMAND_WRITE:
      return _ ("per million write request units");
    case DY_PRICE_PROVISIONED_READ:
      return _ ("per RCU-hour");
    case DY_PRICE_PROVISIONED_WRITE:
      return _ ("per WCU-hour");
    case DY_PRICE_N:
      break;
    }
  return "";
}

/* NAME=N, split at the last '=' (pattern names may hold one); N a rate of at least 0. */
static gboolean
parse_rate (const char *arg, char **name, double *rate, GError **error)
{
  const char *eq = strrchr (arg, '=');
  char *end = NULL;
  if (eq == NULL || eq == arg)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("A rate is NAME=N (per second), not “%s”"), arg);
      return FALSE;
    }
  *rate = g_ascii_strtod (eq + 1, &end);
  if (end == eq + 1 || *end != '\0' || !isfinite (*rate) || *rate < 0 || *rate > DY_RATE_MAX)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _ ("The rate in “%s” must be a number of at least 0 and at most 1e9 (per "
                      "second)"),
                   arg);
      return FALSE;
    }
  *name = g_strndup (arg, eq - arg);
  return TRUE;
}

static gboolean
apply_rates (DyModel *model, char **rates, char **write_rates, GError **error)
{
  for (guint i = 0; rates && rates[i]; i++)
    {
      g_autofree char *name = NULL;
      double rate;
      if (!parse_rate (rates[i], &name, &rate, error))
        return FALSE;
      DyModelPattern *found = NULL;
      for (guint k = 0; k < model->patterns->len && !found; k++)
        {
          DyModelPattern *p = g_ptr_array_index (model->patterns, k);
          if (g_str_equal (p->name, name))
            found = p;
        }
      if (found == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("--rate: the model has no access pattern “%s”"), name);
          return FALSE;
        }
      found->rate = rate;
    }
  for (guint i = 0; write_rates && write_rates[i]; i++)
    {
      g_autofree char *name = NULL;
      double rate;
      if (!parse_rate (write_rates[i], &name, &rate, error))
        return FALSE;
      DyModelEntity *e = dy_model_find_entity (model, name);
      if (e == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _ ("--write-rate: the model has no entity “%s”"), name);
          return FALSE;
        }
      e->write_rate = rate;
    }
  return TRUE;
}

static const char *
request_name (const DyPatternEstimate *p)
{
  switch (p->kind)
    {
    case DY_RESOLVED_GET_ITEM:
      return p->transactional ? "TransactGetItems" : "GetItem";
    case DY_RESOLVED_QUERY:
      return "Query";
    case DY_RESOLVED_FLAGGED:
      break;
    }
  return _ ("flagged");
}

static const char *
items_source (DyItemsSource source)
{
  switch (source)
    {
    case DY_ITEMS_ONE:
      return "";
    case DY_ITEMS_GIVEN:
      return _ ("given");
    case DY_ITEMS_PER_COLLECTION:
      return _ ("per collection");
    case DY_ITEMS_SAMPLE:
      return _ ("sample");
    }
  return "";
}

static char *
join (GPtrArray *names)
{
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", (char *) g_ptr_array_index (names, i));
  return g_string_free (out, FALSE);
}

static char *
money (const DyEstimate *est, DyPriceKind kind, double value)
{
  return g_strdup_printf ("%.2f %s", value, est->prices->price[kind].currency);
}

static void
print_text (const DyModel *model, const DyEstimate *est, const char *currency)
{
  printf (_ ("Model “%s”: estimates (a month is %.0f hours; costs rounded to cents for "
             "display)\n"),
          model->name, DY_HOURS_PER_MONTH);

  printf ("\n%s\n", _ ("Item sizes (DynamoDB's size rules, over the sample items):"));
  printf ("  %-24s %8s %10s %10s\n", _ ("ENTITY"), _ ("SAMPLES"), _ ("AVG B"), _ ("MAX B"));
  for (guint i = 0; i < est->entities->len; i++)
    {
      const DyEntityEstimate *e = g_ptr_array_index (est->entities, i);
      if (e->sized)
        printf ("  %-24s %8u %10.1f %10" G_GSIZE_FORMAT "%s\n", e->entity->name, e->n_samples,
                e->avg_size, e->max_size, e->n_samples == 0 ? _ ("  (itemSize given)") : "");
      else
        printf ("  %-24s %8u %10s %10s  %s\n", e->entity->name, e->n_samples, "-", "-",
                _ ("(no sample items, no itemSize)"));
    }

  printf ("\n%s\n", _ ("Reads per access pattern:"));
  printf ("  %-40s %-16s %8s %10s %8s %8s %9s %14s %14s\n", _ ("PATTERN"), _ ("REQUEST"),
          _ ("ITEMS"), _ ("BYTES"), _ ("RCU/REQ"), _ ("RATE/S"), _ ("RCU/S"), _ ("ON-DEMAND/MO"),
          _ ("PROVISIONED/MO"));
  for (guint i = 0; i < est->patterns->len; i++)
    {
      const DyPatternEstimate *p = g_ptr_array_index (est->patterns, i);
      if (!p->estimated)
        {
          printf ("  %-40s %-16s %s\n", p->pattern->name, request_name (p), p->note);
          continue;
        }
      g_autofree char *req = g_strdup_printf ("%s %s", request_name (p),
                                              p->transactional ? _ ("TX")
                                              : p->consistent  ? _ ("strong")
                                                               : _ ("EC"));
      g_autofree char *items = g_strdup_printf ("%.1f", p->items);
      g_autofree char *od = money (est, DY_PRICE_ON_DEMAND_READ, p->monthly_on_demand);
      g_autofree char *pv = money (est, DY_PRICE_PROVISIONED_READ, p->monthly_provisioned);
      printf ("  %-40s %-16s %8s %10.1f %8.1f %8.1f %9.1f %14s %14s\n", p->pattern->name, req,
              items, p->bytes, p->rcu, p->rate, p->rcu_per_second, od, pv);
      if (p->items_from != DY_ITEMS_ONE)
        printf ("  %-40s   %s %s\n", "", _ ("items:"), items_source (p->items_from));
      if (p->pattern->index)
        printf ("  %-40s   %s %s\n", "", _ ("index:"), p->pattern->index);
      if (p->pages > 1)
        printf ("  %-40s   %s %.0f (%s)\n", "", _ ("pages:"), p->pages,
                _ ("a Query returns 1 MB at most; each page is its own request"));
      if (p->note)
        printf ("  %-40s   %s %s\n", "", _ ("note:"), p->note);
    }

  printf ("\n%s\n", _ ("Writes per entity (PutItem of a sample item; each index it projects into "
                       "costs a write too):"));
  printf ("  %-24s %9s %9s %8s %9s %14s %14s  %s\n", _ ("ENTITY"), _ ("WCU TABLE"), _ ("WCU GSIS"),
          _ ("RATE/S"), _ ("WCU/S"), _ ("ON-DEMAND/MO"), _ ("PROVISIONED/MO"), _ ("INDEXES"));
  for (guint i = 0; i < est->entities->len; i++)
    {
      const DyEntityEstimate *e = g_ptr_array_index (est->entities, i);
      if (!e->sized)
        continue;
      g_autofree char *od = money (est, DY_PRICE_ON_DEMAND_WRITE, e->monthly_on_demand);
      g_autofree char *pv = money (est, DY_PRICE_PROVISIONED_WRITE, e->monthly_provisioned);
      g_autofree char *indexes = join (e->indexes);
      printf ("  %-24s %9.1f %9.1f %8.1f %9.1f %14s %14s  %s%s\n", e->entity->name, e->table_wcu,
              e->gsi_wcu, e->rate, e->wcu_per_second, od, pv, indexes,
              e->entity->write_transactional ? _ (" (transactional)") : "");
    }

  printf ("\n%s\n", _ ("Capacity per table and GSI (provisioned in whole units per second):"));
  printf ("  %-32s %9s %9s %6s %6s %14s %14s\n", _ ("TABLE / GSI"), _ ("RCU/S"), _ ("WCU/S"),
          _ ("RCU"), _ ("WCU"), _ ("ON-DEMAND/MO"), _ ("PROVISIONED/MO"));
  for (guint i = 0; i < est->capacities->len; i++)
    {
      const DyCapacityEstimate *c = g_ptr_array_index (est->capacities, i);
      g_autofree char *name
          = c->index ? g_strdup_printf ("%s.%s", c->table, c->index) : g_strdup (c->table);
      g_autofree char *od = g_strdup_printf ("%.2f %s", c->monthly_on_demand, currency);
      g_autofree char *pv = g_strdup_printf ("%.2f %s", c->monthly_provisioned, currency);
      printf ("  %-32s %9.1f %9.1f %6" G_GINT64_FORMAT " %6" G_GINT64_FORMAT " %14s %14s\n", name,
              c->rcu_per_second, c->wcu_per_second, c->rcu, c->wcu, od, pv);
    }
  printf (_ ("  Total per month: %.2f %s on demand, %.2f %s provisioned\n"), est->monthly_on_demand,
          currency, est->monthly_provisioned, currency);

  printf ("\n%s\n", _ ("Biggest item collection per partition key template:"));
  for (guint i = 0; i < est->collections->len; i++)
    {
      const DyCollectionEstimate *c = g_ptr_array_index (est->collections, i);
      g_autofree char *entities = join (c->entities);
      g_autofree char *size
          = g_format_size_full ((guint64) ceil (c->bytes), G_FORMAT_SIZE_IEC_UNITS);
      printf ("  %s %s (%s): %s, %s", c->table, c->partition, entities, size,
              c->from_sample ? _ ("from the sample") : _ ("from perCollection"));
      if (c->over_limit)
        printf ("  %s\n", _ ("OVER the 10 GB item-collection limit of a table with an LSI"));
      else if (c->has_lsi)
        printf ("  %s\n", _ ("(under the 10 GB limit its LSI sets)"));
      else
        printf ("  %s\n", _ ("(no LSI: no size limit)"));
    }

  printf ("\n%s\n", _ ("Prices:"));
  for (guint k = 0; k < DY_PRICE_N; k++)
    {
      const DyPrice *p = &est->prices->price[k];
      printf ("  %-18s %g %s %s, %s; ", dy_price_name (k), p->value, p->currency, price_unit (k),
              p->region);
      if (p->edited)
        printf (_ ("edited, source: %s"), p->source);
      else
        printf (_ ("default, source: %s"), p->source);
      if (p->checked)
        /* TRANSLATORS: the date a price is of */
        printf (_ (" (as of %s)"), p->checked);
      printf ("\n");
    }
  printf ("  %s\n", _ ("Edit a price with --price NAME=VALUE, or in the model's "
                       "x-dynoscope.prices."));
}

static json_t *
print_json (const DyModel *model, const DyEstimate *est)
{
  json_t *out = json_object ();
  json_object_set_new (out, "model", json_string (model->name));
  json_object_set_new (out, "hoursPerMonth", json_real (DY_HOURS_PER_MONTH));
  json_t *prices = json_object ();
  for (guint k = 0; k < DY_PRICE_N; k++)
    {
      const DyPrice *p = &est->prices->price[k];
      json_object_set_new (prices, dy_price_name (k),
                           json_pack ("{s:f, s:s, s:s, s:s, s:s, s:o, s:b}", "value", p->value,
                                      "currency", p->currency, "region", p->region, "unit",
                                      dy_price_unit (k), "source", p->source, "checked",
                                      p->checked ? json_string (p->checked) : json_null (),
                                      "edited", p->edited));
    }
  json_object_set_new (out, "prices", prices);

  json_t *entities = json_array ();
  for (guint i = 0; i < est->entities->len; i++)
    {
      const DyEntityEstimate *e = g_ptr_array_index (est->entities, i);
      json_t *indexes = json_array ();
      for (guint x = 0; x < e->indexes->len; x++)
        json_array_append_new (indexes, json_string (g_ptr_array_index (e->indexes, x)));
      json_array_append_new (
          entities,
          json_pack ("{s:s, s:b, s:i, s:f, s:I, s:f, s:f, s:o, s:f, s:f, s:f, s:f}", "entity",
                     e->entity->name, "sized", e->sized, "samples", (int) e->n_samples, "avgSize",
                     e->avg_size, "maxSize", (json_int_t) e->max_size, "tableWcu", e->table_wcu,
                     "gsiWcu", e->gsi_wcu, "indexes", indexes, "writeRate", e->rate, "wcuPerSecond",
                     e->wcu_per_second, "monthlyOnDemand", e->monthly_on_demand,
                     "monthlyProvisioned", e->monthly_provisioned));
    }
  json_object_set_new (out, "entities", entities);

  json_t *patterns = json_array ();
  for (guint i = 0; i < est->patterns->len; i++)
    {
      const DyPatternEstimate *p = g_ptr_array_index (est->patterns, i);
      json_t *obj
          = json_pack ("{s:s, s:s, s:o, s:b}", "pattern", p->pattern->name, "request",
                       p->kind == DY_RESOLVED_FLAGGED ? "flagged" : request_name (p), "index",
                       p->pattern->index ? json_string (p->pattern->index) : json_null (),
                       "estimated", p->estimated);
      if (p->estimated)
        json_object_update_new (
            obj, json_pack ("{s:f, s:s, s:f, s:f, s:b, s:b, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                            "items", p->items, "itemsFrom", dy_items_source_name (p->items_from),
                            "itemSize", p->item_size, "bytes", p->bytes, "consistent",
                            p->consistent, "transactional", p->transactional, "pages", p->pages,
                            "rcu", p->rcu, "rate", p->rate, "rcuPerSecond", p->rcu_per_second,
                            "monthlyUnits", p->monthly_units, "monthlyOnDemand",
                            p->monthly_on_demand, "monthlyProvisioned", p->monthly_provisioned));
      json_object_set_new (obj, "note", p->note ? json_string (p->note) : json_null ());
      json_array_append_new (patterns, obj);
    }
  json_object_set_new (out, "patterns", patterns);

  json_t *caps = json_array ();
  for (guint i = 0; i < est->capacities->len; i++)
    {
      const DyCapacityEstimate *c = g_ptr_array_index (est->capacities, i);
      json_array_append_new (
          caps, json_pack ("{s:s, s:o, s:f, s:f, s:I, s:I, s:f, s:f}", "table", c->table, "index",
                           c->index ? json_string (c->index) : json_null (), "rcuPerSecond",
                           c->rcu_per_second, "wcuPerSecond", c->wcu_per_second, "rcu",
                           (json_int_t) c->rcu, "wcu", (json_int_t) c->wcu, "monthlyOnDemand",
                           c->monthly_on_demand, "monthlyProvisioned", c->monthly_provisioned));
    }
  json_object_set_new (out, "capacities", caps);

  json_t *colls = json_array ();
  for (guint i = 0; i < est->collections->len; i++)
    {
      const DyCollectionEstimate *c = g_ptr_array_index (est->collections, i);
      json_t *names = json_array ();
      for (guint x = 0; x < c->entities->len; x++)
        json_array_append_new (names, json_string (g_ptr_array_index (c->entities, x)));
      json_array_append_new (
          colls, json_pack ("{s:s, s:s, s:o, s:f, s:b, s:b, s:b}", "table", c->table, "partition",
                            c->partition, "entities", names, "bytes", c->bytes, "hasLsi",
                            c->has_lsi, "overLimit", c->over_limit, "fromSample", c->from_sample));
    }
  json_object_set_new (out, "collections", colls);
  json_object_set_new (out, "totals",
                       json_pack ("{s:f, s:f}", "monthlyOnDemand", est->monthly_on_demand,
                                  "monthlyProvisioned", est->monthly_provisioned));
  return out;
}

int
cli_model_estimate_main (const CliTarget *target, int argc, char **argv)
{
  g_autoptr (GOptionContext) octx = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) rest = NULL, rates = NULL, write_rates = NULL, prices = NULL;
  gboolean as_json = FALSE;
  GOptionEntry entries[] = {
    { "rate", 0, 0, G_OPTION_ARG_STRING_ARRAY, &rates,
      N_ ("Requests per second of an access pattern (repeatable)"), N_ ("PATTERN=N") },
    { "write-rate", 0, 0, G_OPTION_ARG_STRING_ARRAY, &write_rates,
      N_ ("Writes per second of an entity (repeatable)"), N_ ("ENTITY=N") },
    { "price", 0, 0, G_OPTION_ARG_STRING_ARRAY, &prices,
      N_ ("A price instead of the default: on-demand-read, on-demand-write (per million "
          "request units), provisioned-read, provisioned-write (per capacity-unit hour)"),
      N_ ("NAME=VALUE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, N_ ("Print the estimate as JSON"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, N_ ("MODEL.json") },
    { NULL },
  };

  (void) target;
  octx = g_option_context_new (NULL);
  g_option_context_set_translation_domain (octx, GETTEXT_PACKAGE);
  g_option_context_set_summary (
      octx, _ ("Estimate a model's item sizes (from its sample items), its biggest item "
               "collections against the 10 GB limit of a table with an LSI, and the read and "
               "write capacity of each access pattern and entity, per request, per second and "
               "per month for the rates given here or in the model's x-dynoscope member, "
               "priced on demand and provisioned. Each price is shown with its source; the "
               "defaults are us-east-1's from the AWS DynamoDB pricing pages."));
  g_option_context_add_main_entries (octx, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (octx, &argc, &argv, &error))
    {
      fprintf (stderr, PREFIX "%s\n", error->message);
      return 2;
    }
  if (rest == NULL || rest[0] == NULL || rest[1] != NULL)
    {
      fprintf (stderr, "%s\n", _ (USAGE));
      return 2;
    }
  g_autoptr (DyModel) model = dy_workbench_read_file (rest[0], &error);
  if (model == NULL)
    {
      fprintf (stderr, PREFIX "%s\n", error->message);
      return 2;
    }
  if (!apply_rates (model, rates, write_rates, &error))
    {
      fprintf (stderr, PREFIX "%s\n", error->message);
      return 2;
    }
  for (guint i = 0; prices && prices[i]; i++)
    if (!dy_prices_parse_assignment (model->prices, prices[i], "--price", &error))
      {
        fprintf (stderr, PREFIX "%s\n", error->message);
        return 2;
      }
  g_autoptr (DyEstimate) est = dy_model_estimate (model);
  if (as_json)
    {
      json_t *out = print_json (model, est);
      g_autofree char *text = json_dumps (out, JSON_INDENT (2) | JSON_REAL_PRECISION (15));
      printf ("%s\n", text);
      json_decref (out);
    }
  else
    print_text (model, est, model->prices->price[DY_PRICE_ON_DEMAND_READ].currency);
  return 0;
}
