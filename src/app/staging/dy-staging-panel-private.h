/* dy-staging-panel-private.h: what the staging panel (dy-staging-panel.c: commit, conflicts,
 * actions) shares with its change cards (dy-staging-panel-cards.c). */
#pragma once

#include <adwaita.h>

#include "app/staging/dy-staging-panel.h"
#include "staging/changeset.h"

G_BEGIN_DECLS

/* Cards are widgets: past this many (a big fan-out) the rest are counted, not drawn. */
#define MAX_CARDS 200
/* Cards built per main loop iteration: a card costs about 2 ms to build, so a panel of 200 is
 * built over several frames rather than in one stall. */
#define CARDS_PER_STEP 16
/* Paths listed on one card before "and N more". */
#define MAX_ENTRIES 12

struct _DyStagingPanel {
  GtkBox parent_instance;

  GtkLabel *summary_label;
  GtkRevealer *report_revealer;
  GtkBox *report_box;
  GtkImage *report_icon;
  GtkLabel *report_title;
  GtkLabel *report_label;
  GtkStack *list_stack;
  GtkBox *card_box;
  GtkRevealer *progress_revealer;
  GtkProgressBar *progress_bar;
  GtkLabel *progress_label;
  GtkDropDown *mode_dropdown;
  GtkButton *commit_button;

  DyStaging *staging;
  DyConnection *connection;
  GHashTable *cards; /* change id -> card widget (borrowed: children of card_box) */
  guint n_changes;
  guint refresh_id;
  /* Building the cards: a card whose change is the same as before is kept, the others are
   * built a few at a time. Each card owns a copy of its change ("dy-change"): the panel holds
   * no snapshot of the staging area, whose thousands of changes are freed off the main
   * thread. */
  GPtrArray *building;  /* copies of the changes to show (each taken by its card), or NULL */
  guint building_total; /* how many changes there are in all */
  guint build_index;
  GtkWidget *build_prev; /* the card after which the next one goes */
  guint build_id;
  GtkWidget *more_label; /* "and N more changes" */

  GtkWidget *confirm_dialog; /* weak: the production commit's question, while it is open */
  gint64 confirm_change;     /* the change it is about; 0: all */
  GCancellable *cancellable; /* while committing */
  gboolean disposed;         /* a commit may finish after the widgets are gone */
  gint64 commit_started;
  gboolean has_report;
  guint report_counts[3];
  char *report_text;
};

/* ---- Cards (dy-staging-panel-cards.c) ---- */
/* Removes every card (and any build in progress). */
void dy_staging_panel_clear_cards (DyStagingPanel *self);
/* A deep copy of CHANGE, for a card to own. */
DdbChange *dy_staging_panel_copy_change (const DdbChange *change);
/* Tests read the cards: those still to come are built now. */
void dy_staging_panel_finish_cards (DyStagingPanel *self);
/* A start-aligned label with the CSS class CSS (may be NULL). */
GtkWidget *dy_staging_panel_label_new (const char *text, const char *css);
/* Tints CARD as its connection's mark says (production, read-only). */
void dy_staging_panel_tint_card (DyStagingPanel *self, GtkWidget *card);
/* Shows CHANGES (copies of the staged changes, taken): same cards kept, new ones built. */
void dy_staging_panel_show_cards (DyStagingPanel *self, GPtrArray *changes);

G_END_DECLS
