/* dy-staging-panel.h: the staging panel beside the tabs (Ctrl+Shift+S): a card per staged
 * change of the current connection (scalars old -> new, long strings as a word diff, nested
 * paths one by one, each with Reject), Discard, Commit one, Commit all in transactions or
 * single writes with progress and Cancel, and the report of the last commit with each
 * conflict openable beside the values it expected. */
#pragma once

#include <gtk/gtk.h>

#include "app/staging/dy-staging.h"

G_BEGIN_DECLS

#define DY_TYPE_STAGING_PANEL (dy_staging_panel_get_type ())
G_DECLARE_FINAL_TYPE (DyStagingPanel, dy_staging_panel, DY, STAGING_PANEL, GtkBox)

/* Actions (on the panel; the cards' buttons use them):
 *   panel.reject (xs)  change id, path: puts that path back to its original value
 *   panel.fanout (xs)  change id, top-level attribute: the fan-out dialog for that change
 *   panel.discard (x), panel.commit-one (x), panel.show-conflict (x), panel.requeue (x)
 *   panel.commit-all, panel.cancel, panel.discard-all, panel.dismiss-report */

/* Shows STAGING (NULL: dy_staging_get_default ()). */
GtkWidget *dy_staging_panel_new (DyStaging *staging);
/* The connection whose changes are shown and committed (the current tab's), or NULL. */
void dy_staging_panel_set_connection (DyStagingPanel *self, DyConnection *connection);
DyConnection *dy_staging_panel_get_connection (DyStagingPanel *self);

void dy_staging_panel_set_mode (DyStagingPanel *self, DdbCommitMode mode);

/* The open changes of the connection ("n-changes" property, notified). */
guint dy_staging_panel_get_n_changes (DyStagingPanel *self);
/* The window moved the panel to another parent (the selected tab's flap). */
void dy_staging_panel_moved (DyStagingPanel *self);

/* For tests. */
guint dy_staging_panel_get_n_cards (DyStagingPanel *self);
/* The text of the card of change ID (its labels, one a line), or NULL when it has none. */
char *dy_staging_panel_dup_card_text (DyStagingPanel *self, gint64 id);
gboolean dy_staging_panel_get_committing (DyStagingPanel *self);
/* The last commit's counts; FALSE when there has been none. */
gboolean dy_staging_panel_get_report (DyStagingPanel *self, guint *committed, guint *conflicts,
                                      guint *failed);
/* The report's text as shown. */
const char *dy_staging_panel_get_report_text (DyStagingPanel *self);
/* The question a commit to a production connection asks first, while it is open, or NULL. */
GtkWidget *dy_staging_panel_get_confirm_dialog (DyStagingPanel *self);
/* Opens the conflict of change ID beside the values it expected (what panel.show-conflict
 * does); returns the dialog, or NULL when the change is not a conflict. */
GtkWidget *dy_staging_panel_show_conflict (DyStagingPanel *self, gint64 id);

G_END_DECLS
