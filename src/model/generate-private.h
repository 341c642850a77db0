/* generate-private.h: what generate.c draws its values with (generate-values.c): words, codes,
 * timestamps and a value of each DynamoDB type for an attribute, from a GRand. */
#pragma once

#include <jansson.h>

#include <glib.h>

G_BEGIN_DECLS

gboolean dy_gen_ends_with_ci (const char *s, const char *suffix);
/* Names of timestamps: …At, …date, …time, …timestamp, ts. */
gboolean dy_gen_is_time_name (const char *name);
gboolean dy_gen_all_digits (const char *s);

/* T (seconds since the epoch) as ISO 8601 in UTC, "2025-03-04T05:06:07Z". */
char *dy_gen_iso_time (gint64 t);
/* One part of T as FORMAT ("%Y") gives it, as a number without its padding. */
char *dy_gen_time_part (gint64 t, const char *format);

/* A lower-case company-like word; a two-letter country code. */
const char *dy_gen_word (GRand *rand);
const char *dy_gen_country (GRand *rand);

/* A value of TYPE (S, N, B, BOOL, NULL, SS, NS, BS, L, M; anything else S) for attribute NAME,
 * shaped by its name (…At a timestamp T, …email, …status, …name, …total, qty…); KNOWN, when
 * not NULL, is the value a template field of the same name has and is used for S (and N when
 * it is a number). */
json_t *dy_gen_attr_value (GRand *rand, const char *name, const char *type, const char *known,
                           gint64 t);

G_END_DECLS
