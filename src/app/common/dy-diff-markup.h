/* dy-diff-markup.h: how the app shows a change's values as Pango markup, the one rendering of
 * the staging panel's cards, its conflict dialog and the compare view's side by side: a value
 * in words (strings in quotes, the rest as dy_format_value), old -> new (long strings as a word
 * diff, absent sides said in words), a value beside the one it differs from, and a key as a
 * title. Removed text is struck through and tinted, added text tinted. */
#pragma once

#include <glib.h>

#include "core/value.h"

G_BEGIN_DECLS

/* Strings at least this long (in characters) are shown as a word diff; shorter ones read
 * better whole, old -> new. */
#define DY_DIFF_LONG_STRING 32

/* How a value beside others is marked. */
typedef enum {
  DY_DIFF_SAME, /* as the others: plain */
  DY_DIFF_OLD,  /* what a change replaces: struck through */
  DY_DIFF_NEW,  /* what a change writes: tinted */
} DyDiffMark;

/* A value as text (strings in quotes, the rest as dy_format_value); NULL for none. */
char *dy_diff_value_text (const DdbValue *value);
/* A key as a title: its attributes' values, exact, joined by " · ". */
char *dy_diff_key_title (const DdbValue *key);
/* "old → new" as markup (either may be NULL: absent). */
char *dy_diff_change_markup (const DdbValue *old_value, const DdbValue *new_value);
/* VALUE alone as markup, marked MARK; NULL is "absent" in italics. */
char *dy_diff_value_markup (const DdbValue *value, DyDiffMark mark);
/* VALUE as it differs from REFERENCE (either may be NULL: absent): plain when they are equal,
 * a word diff from REFERENCE for long strings, else VALUE marked new. */
char *dy_diff_side_markup (const DdbValue *reference, const DdbValue *value);
/* Whether A and B (either may be NULL: absent) are the same value. */
gboolean dy_diff_same_value (const DdbValue *a, const DdbValue *b);

G_END_DECLS
