/* worddiff.h: a word-level diff of two texts, for showing how a long string changed: the
 * texts are cut into words and runs of white space, and the longest common subsequence of
 * those tokens is kept while the rest is marked removed or added. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  DDB_WORD_SAME,    /* in both texts */
  DDB_WORD_REMOVED, /* only in the old text */
  DDB_WORD_ADDED,   /* only in the new text */
} DdbWordOp;

typedef struct {
  DdbWordOp op;
  char *text;
} DdbWordSpan;

void ddb_word_span_free (DdbWordSpan *span);

/* The spans (GPtrArray of DdbWordSpan, freeing them) that turn OLD_TEXT into NEW_TEXT (both
 * UTF-8, NULL taken as ""). Concatenating the SAME and REMOVED spans gives OLD_TEXT back, the
 * SAME and ADDED spans NEW_TEXT. Adjacent spans of one kind are merged, white space between
 * two changed words belongs to the change, and within a changed stretch the removed text comes
 * before the added text. Texts too long for the quadratic
 * matching (more than about four million token pairs once the common beginning and end are
 * set aside) give one removed and one added span for the middle part. */
GPtrArray *ddb_word_diff (const char *old_text, const char *new_text);

G_END_DECLS
