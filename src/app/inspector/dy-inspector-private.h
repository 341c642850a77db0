/* dy-inspector-private.h: what the inspector's files share: the instance struct and the few
 * functions that cross from one file to another.
 *
 *   dy-inspector.c        the class: what it shows, validation, drafts, the stage actions
 *   dy-inspector-tree.c   the typed tree's columns (path, type, value)
 *   dy-inspector-key.c    DynamoDB's checks of an item's key attributes; drafts freed and parsed */
#pragma once

#include <gtksourceview/gtksource.h>

#include "app/inspector/dy-inspector.h"

G_BEGIN_DECLS

typedef enum {
  MESSAGE_NONE,
  MESSAGE_ERROR,
  MESSAGE_CHANGES,
  MESSAGE_STAGED,
} MessageKind;

struct _DyInspector {
  GtkBox parent_instance;

  GtkStack *main_stack;
  GtkLabel *title_label;
  GtkLabel *state_badge;
  GtkLabel *draft_badge;
  GtkLevelBar *size_bar;
  GtkLabel *size_label;
  GtkStack *view_stack;
  GtkColumnView *tree_view;
  GtkSourceView *json_view;
  GtkSourceView *plain_view;
  GtkRevealer *message_revealer;
  GtkBox *message_box;
  GtkImage *message_icon;
  GtkLabel *message_path;
  GtkLabel *message_label;
  GtkWidget *delete_button;
  GtkWidget *revert_button;

  DyItem *item; /* the item as loaded; NULL when creating or empty */
  char *title;
  DdbValue *base;   /* what the editor started from: the item, its staged version, or a
                     * new item's skeleton */
  DdbValue *edited; /* the last valid text's item, or NULL */
  char *error;      /* the last validation's problem */
  gboolean creating;
  int staged_kind; /* DyInspectorStage of what is staged for the item, or -1 */
  guint validate_id;
  gboolean loading;  /* setting the text ourselves */
  char *loaded_text; /* the text load_base set: any other text is a draft */

  char *pk_name;
  DdbType pk_type;
  char *sk_name;
  DdbType sk_type;
  char *schema_error; /* why the key schema could not be read, or NULL */
  char *ttl_attribute; /* the table's TTL attribute, or NULL */

  GtkSingleSelection *selection;
};

/* dy-inspector-tree.c */
/* The tree's selection model and its columns. */
void dy_inspector_tree_init (DyInspector *self);
/* The tree of ITEM's attributes (GtkTreeListRow of DyNode). New reference. */
GtkTreeListModel *dy_inspector_tree_model_new (DyItem *item);

/* dy-inspector-key.c */
/* TEXT (DynamoDB JSON) as an item, checked as PutItem would (size, key attributes): NAMES and
 * TYPES are the table's partition and sort key (the sort key's name NULL without one);
 * ORIGINAL the item as loaded, whose key cannot change unless CREATING; SCHEMA_ERROR why the
 * key schema is not known (when NAMES[0] is NULL). */
DdbValue *dy_inspector_parse_item (const char *const names[2], const DdbType types[2],
                                   const DdbValue *original, gboolean creating,
                                   const char *schema_error, const char *text, GError **error);

G_END_DECLS
