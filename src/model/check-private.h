/* check-private.h: what check.c (template checks) and check-sample.c (the same checks on sample
 * items, for keys without templates) share. */
#pragma once

#include "model/check.h"

G_BEGIN_DECLS

void dy_check_add_flag (DyCheckReport *report, DyFlagKind kind, const char *fmt, ...)
  G_GNUC_PRINTF (3, 4);
/* Records that check KIND could not run; the message says where and what it lacks. */
void dy_check_add_skipped (DyCheckReport *report, DyFlagKind kind, const char *fmt, ...)
  G_GNUC_PRINTF (3, 4);

typedef enum { DY_CASE_NONE, DY_CASE_UPPER, DY_CASE_LOWER, DY_CASE_MIXED } DyCaseStyle;

/* Whether S's letters are all upper case, all lower case, both or none. */
DyCaseStyle dy_check_case_style (const char *s);

/* TRUE when an entity of TABLE has a template for key attribute ATTR. */
gboolean dy_check_has_template (const DyModel *model, const DyModelTable *table, const char *attr);

/* The checks on TABLE's sample items (check-sample.c), for the keys no template describes, and
 * the notes on what could not run. */
void dy_check_samples (const DyModel *model, const DyModelTable *table, DyCheckReport *report);

G_END_DECLS
