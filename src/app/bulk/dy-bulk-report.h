/* dy-bulk-report.h: the dialog that lists the items a bulk staging refused (a copy to another
 * table, a file's items): each item's key, or its file and line, and why; nothing was staged. */
#pragma once

#include <gtk/gtk.h>

#include "staging/copystage.h"

G_BEGIN_DECLS

/* Presents, over PARENT's window, REPORT's refusals (the first thousand; the count says how
 * many there were) under HEADING. */
void dy_bulk_report_show (GtkWidget *parent, const char *heading, const DdbCopyStageReport *report);

/* The text of the refusals, one a line: "KEY: message" or the message alone (it names its file
 * and line); at most MAX lines, then how many more. Newly allocated. */
char *dy_bulk_report_text (const DdbCopyStageReport *report, guint max);

G_END_DECLS
