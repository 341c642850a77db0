/* prices.c: DynamoDB's throughput prices, their defaults and sources, and their edits.
 *
 * The defaults are us-east-1's (US East, N. Virginia), Standard table class, in USD, as the AWS
 * DynamoDB pricing pages list them since the on-demand price cut of 1 November 2024:
 *   on demand   https://aws.amazon.com/dynamodb/pricing/on-demand/
 *               $0.125 per million read request units, $0.625 per million write request units;
 *   provisioned https://aws.amazon.com/dynamodb/pricing/provisioned/
 *               $0.00013 per RCU-hour, $0.00065 per WCU-hour.
 * "checked" is the date the figures are of: the price list in force since 1 November 2024, as
 * copies of those pages give it (the live pages could not be read where this was written).
 * Prices change and differ by region: every one is shown with its source and can be edited. */
#include "model/prices.h"

#include <math.h>
#include <string.h>

G_DEFINE_QUARK (dy-prices-error-quark, dy_prices_error)

#define ON_DEMAND_PAGE "https://aws.amazon.com/dynamodb/pricing/on-demand/"
#define PROVISIONED_PAGE "https://aws.amazon.com/dynamodb/pricing/provisioned/"
#define CHECKED "2024-11-01"

static const struct {
  const char *name;
  const char *unit;
  double value;
  const char *source;
} defaults[DY_PRICE_N] = {
  [DY_PRICE_ON_DEMAND_READ]
  = { "on-demand-read", "per million read request units", 0.125, ON_DEMAND_PAGE },
  [DY_PRICE_ON_DEMAND_WRITE]
  = { "on-demand-write", "per million write request units", 0.625, ON_DEMAND_PAGE },
  [DY_PRICE_PROVISIONED_READ] = { "provisioned-read", "per RCU-hour", 0.00013, PROVISIONED_PAGE },
  [DY_PRICE_PROVISIONED_WRITE] = { "provisioned-write", "per WCU-hour", 0.00065, PROVISIONED_PAGE },
};

const char *
dy_price_name (DyPriceKind kind)
{
  g_return_val_if_fail (kind < DY_PRICE_N, NULL);
  return defaults[kind].name;
}

const char *
dy_price_unit (DyPriceKind kind)
{
  g_return_val_if_fail (kind < DY_PRICE_N, NULL);
  return defaults[kind].unit;
}

gboolean
dy_price_kind_from_name (const char *name, DyPriceKind *out)
{
  for (guint k = 0; k < DY_PRICE_N; k++)
    if (g_str_equal (name, defaults[k].name))
      {
        *out = k;
        return TRUE;
      }
  return FALSE;
}

static void
price_clear (DyPrice *p)
{
  g_clear_pointer (&p->currency, g_free);
  g_clear_pointer (&p->region, g_free);
  g_clear_pointer (&p->source, g_free);
  g_clear_pointer (&p->checked, g_free);
}

DyPrices *
dy_prices_new_default (void)
{
  DyPrices *prices = g_new0 (DyPrices, 1);
  for (guint k = 0; k < DY_PRICE_N; k++)
    {
      DyPrice *p = &prices->price[k];
      p->value = defaults[k].value;
      p->currency = g_strdup ("USD");
      p->region = g_strdup ("us-east-1");
      p->source = g_strdup (defaults[k].source);
      p->checked = g_strdup (CHECKED);
    }
  return prices;
}

DyPrices *
dy_prices_copy (const DyPrices *prices)
{
  DyPrices *copy = g_new0 (DyPrices, 1);
  for (guint k = 0; k < DY_PRICE_N; k++)
    {
      const DyPrice *p = &prices->price[k];
      DyPrice *c = &copy->price[k];
      *c = *p;
      c->currency = g_strdup (p->currency);
      c->region = g_strdup (p->region);
      c->source = g_strdup (p->source);
      c->checked = g_strdup (p->checked);
    }
  return copy;
}

void
dy_prices_free (DyPrices *prices)
{
  if (prices == NULL)
    return;
  for (guint k = 0; k < DY_PRICE_N; k++)
    price_clear (&prices->price[k]);
  g_free (prices);
}

gboolean
dy_prices_set (DyPrices *prices, DyPriceKind kind, double value, const char *source, GError **error)
{
  g_return_val_if_fail (kind < DY_PRICE_N, FALSE);
  if (!isfinite (value) || value < 0 || value > DY_PRICE_MAX)
    {
      g_set_error (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID,
                   "Price %s must be a number of at least 0 and at most 1e9", defaults[kind].name);
      return FALSE;
    }
  DyPrice *p = &prices->price[kind];
  p->value = value;
  p->edited = TRUE;
  p->bare = FALSE;
  g_free (p->source);
  p->source = g_strdup (source ? source : "edited");
  g_clear_pointer (&p->checked, g_free);
  return TRUE;
}

static gboolean
unknown_name (const char *name, GError **error)
{
  g_set_error (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID,
               "Unknown price “%s” (known: on-demand-read, on-demand-write, provisioned-read, "
               "provisioned-write)",
               name);
  return FALSE;
}

gboolean
dy_prices_parse_assignment (DyPrices *prices, const char *assignment, const char *source,
                            GError **error)
{
  const char *eq = strchr (assignment, '=');
  if (eq == NULL || eq == assignment)
    {
      g_set_error (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID,
                   "A price is NAME=VALUE, not “%s”", assignment);
      return FALSE;
    }
  g_autofree char *name = g_strndup (assignment, eq - assignment);
  DyPriceKind kind;
  if (!dy_price_kind_from_name (name, &kind))
    return unknown_name (name, error);
  char *end = NULL;
  double value = g_ascii_strtod (eq + 1, &end);
  if (end == eq + 1 || *end != '\0')
    {
      g_set_error (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID,
                   "Price %s: “%s” is not a number", name, eq + 1);
      return FALSE;
    }
  return dy_prices_set (prices, kind, value, source, error);
}

static gboolean
invalid_member (GError **error, const char *name, const char *what)
{
  g_set_error (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID, "x-dynoscope.prices.%s: %s", name,
               what);
  return FALSE;
}

static gboolean
optional_string (json_t *obj, const char *member, const char *name, char **out, GError **error)
{
  json_t *v = json_object_get (obj, member);
  if (v == NULL)
    return TRUE;
  if (!json_is_string (v))
    {
      g_autofree char *what = g_strdup_printf ("%s must be a string", member);
      return invalid_member (error, name, what);
    }
  g_free (*out);
  *out = g_strdup (json_string_value (v));
  return TRUE;
}

gboolean
dy_prices_read_json (DyPrices *prices, json_t *obj, GError **error)
{
  if (!json_is_object (obj))
    {
      g_set_error_literal (error, DY_PRICES_ERROR, DY_PRICES_ERROR_INVALID,
                           "x-dynoscope.prices must be an object");
      return FALSE;
    }
  const char *name;
  json_t *v;
  json_object_foreach (obj, name, v)
    {
      DyPriceKind kind;
      if (!dy_price_kind_from_name (name, &kind))
        return unknown_name (name, error);
      json_t *value = json_is_object (v) ? json_object_get (v, "value") : v;
      if (!json_is_number (value))
        return invalid_member (error, name,
                               "must be a number or an object with a number \"value\"");
      if (!dy_prices_set (prices, kind, json_number_value (value), "x-dynoscope.prices", error))
        return FALSE;
      DyPrice *p = &prices->price[kind];
      p->bare = !json_is_object (v);
      if (p->bare)
        continue;
      static const char *const known[] = { "value", "currency", "region", "source", "checked" };
      const char *member;
      json_t *mv;
      json_object_foreach (v, member, mv)
        {
          gboolean ok = FALSE;
          for (guint i = 0; i < G_N_ELEMENTS (known); i++)
            ok = ok || g_str_equal (member, known[i]);
          if (!ok)
            {
              g_autofree char *what = g_strdup_printf ("unknown member %s", member);
              return invalid_member (error, name, what);
            }
        }
      if (!optional_string (v, "currency", name, &p->currency, error)
          || !optional_string (v, "region", name, &p->region, error)
          || !optional_string (v, "source", name, &p->source, error)
          || !optional_string (v, "checked", name, &p->checked, error))
        return FALSE;
    }
  return TRUE;
}

json_t *
dy_json_number (double value)
{
  if (value == floor (value) && fabs (value) < 9007199254740992.0)
    return json_integer ((json_int_t) value);
  return json_real (value);
}

json_t *
dy_prices_write_json (const DyPrices *prices)
{
  json_t *obj = json_object ();
  for (guint k = 0; k < DY_PRICE_N; k++)
    {
      const DyPrice *p = &prices->price[k];
      if (!p->edited)
        continue;
      if (p->bare)
        {
          json_object_set_new (obj, defaults[k].name, dy_json_number (p->value));
          continue;
        }
      json_t *desc = json_object ();
      json_object_set_new (desc, "value", dy_json_number (p->value));
      json_object_set_new (desc, "currency", json_string (p->currency));
      json_object_set_new (desc, "region", json_string (p->region));
      json_object_set_new (desc, "source", json_string (p->source));
      if (p->checked)
        json_object_set_new (desc, "checked", json_string (p->checked));
      json_object_set_new (obj, defaults[k].name, desc);
    }
  return obj;
}
