/* prices.h: what DynamoDB charges for throughput, each price with its currency, region and
 * source (the AWS pricing page and the date its figure was checked), so that an estimate shows
 * where every figure comes from. Defaults are us-east-1's, Standard table class; the user edits
 * any of them (a model file's x-dynoscope.prices, or --price NAME=VALUE). GTK-free. */
#pragma once

#include <glib.h>
#include <jansson.h>

G_BEGIN_DECLS

typedef enum {
  DY_PRICE_ON_DEMAND_READ,    /* per million read request units */
  DY_PRICE_ON_DEMAND_WRITE,   /* per million write request units */
  DY_PRICE_PROVISIONED_READ,  /* per RCU-hour */
  DY_PRICE_PROVISIONED_WRITE, /* per WCU-hour */
  DY_PRICE_N,
} DyPriceKind;

typedef struct {
  double value;
  char *currency;  /* "USD" */
  char *region;    /* "us-east-1" */
  char *source;    /* the pricing page's URL, or what edited it */
  char *checked;   /* the date (YYYY-MM-DD) the figure was read from its source; NULL if unknown */
  gboolean edited; /* not the built-in default */
  gboolean bare;   /* read from the file as a bare number, and written back as one */
} DyPrice;

typedef struct {
  DyPrice price[DY_PRICE_N];
} DyPrices;

#define DY_PRICES_ERROR (dy_prices_error_quark ())

typedef enum {
  DY_PRICES_ERROR_INVALID, /* an unknown price name, or a value that is no price */
} DyPricesErrorCode;

GQuark dy_prices_error_quark (void);

/* The built-in defaults: us-east-1, USD, from the AWS DynamoDB pricing pages. */
DyPrices *dy_prices_new_default (void);
DyPrices *dy_prices_copy (const DyPrices *prices);
void dy_prices_free (DyPrices *prices);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyPrices, dy_prices_free)

/* "on-demand-read", "on-demand-write", "provisioned-read", "provisioned-write". */
const char *dy_price_name (DyPriceKind kind);
/* What one price is for, in English: "per million read request units". */
const char *dy_price_unit (DyPriceKind kind);
gboolean dy_price_kind_from_name (const char *name, DyPriceKind *out);

/* The largest price accepted (so that every cost computed stays finite). */
#define DY_PRICE_MAX 1e9

/* Sets the price KIND to VALUE (0 to DY_PRICE_MAX), marking it edited with SOURCE as its
 * source ("edited" when NULL) and no checked date. */
gboolean dy_prices_set (DyPrices *prices, DyPriceKind kind, double value, const char *source,
                        GError **error);

/* Applies "NAME=VALUE" (as --price takes it): fails naming an unknown name or a bad value. */
gboolean dy_prices_parse_assignment (DyPrices *prices, const char *assignment, const char *source,
                                     GError **error);

/* Applies the object x-dynoscope.prices: NAME -> a number, or an object with "value" and
 * optional "currency", "region", "source", "checked". Fails naming the member at fault. */
gboolean dy_prices_read_json (DyPrices *prices, json_t *obj, GError **error);

/* A number as JSON: an integer when VALUE is whole (so that a file's 50 stays 50), else a real. */
json_t *dy_json_number (double value);

/* The edited prices as that object (a new reference), an empty object when none is. */
json_t *dy_prices_write_json (const DyPrices *prices);

G_END_DECLS
