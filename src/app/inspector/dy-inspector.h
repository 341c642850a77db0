/* dy-inspector.h: the item inspector beside the grid: a typed tree (path, type, value), a
 * DynamoDB JSON editor validated as you type, a read-only plain JSON view and a size meter
 * against DynamoDB's 400 KB. Edits, new items and deletes leave it as a "stage" signal: the
 * inspector never writes to a table, nor knows where staged changes are kept. */
#pragma once

#include <gtk/gtk.h>

#include "app/common/dy-item.h"

G_BEGIN_DECLS

#define DY_TYPE_INSPECTOR (dy_inspector_get_type ())
G_DECLARE_FINAL_TYPE (DyInspector, dy_inspector, DY, INSPECTOR, GtkBox)

typedef enum {
  DY_INSPECTOR_STAGE_UPDATE, /* ORIGINAL -> TARGET, same key */
  DY_INSPECTOR_STAGE_CREATE, /* TARGET, a new item (ORIGINAL NULL) */
  DY_INSPECTOR_STAGE_DELETE, /* ORIGINAL (TARGET NULL) */
} DyInspectorStage;

/* An edit typed in the editor and not staged, kept while another item is shown (see the
 * "draft" signal). The key schema is the table's when it was drafted, so that the draft can be
 * checked and staged without an inspector (dy_inspector_draft_parse). */
typedef struct {
  char *title;        /* the item's title in the inspector */
  char *text;         /* the editor's text */
  DdbValue *key;      /* the item's key attributes; NULL for a new item */
  DdbValue *base;     /* what the editor started from (the item, its staged version, or a new
                       * item's skeleton) */
  DdbValue *original; /* the item as loaded; NULL for a new item */
  int staged_kind;    /* DyInspectorStage of what was staged for the item, or -1 */
  char *pk_name;
  DdbType pk_type;
  char *sk_name;
  DdbType sk_type;
} DyInspectorDraft;

void dy_inspector_draft_free (DyInspectorDraft *draft);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyInspectorDraft, dy_inspector_draft_free)
/* The draft's item, checked as the editor checks it (DynamoDB JSON, size, key attributes), or
 * NULL with the editor's error. */
DdbValue *dy_inspector_draft_parse (const DyInspectorDraft *draft, GError **error);

/* Signal "stage" (gboolean handler (DyInspector *, int kind, gpointer key, gpointer original,
 * gpointer target)): KEY, ORIGINAL and TARGET are const DdbValue * (maps) valid during the
 * emission: KEY the item's key attributes, ORIGINAL the item as loaded, TARGET the edited one.
 * The handler returns TRUE and reports the outcome with dy_inspector_report_staged.
 *
 * Signal "item-changed" (void handler (DyInspector *)): another item (or none, or a new item)
 * is shown; a handler may call dy_inspector_show_staged and dy_inspector_restore_draft for it.
 *
 * Signal "draft" (void handler (DyInspector *, gpointer key, gpointer draft)): the editor is
 * about to leave an item (another is shown, or the inspector goes) or was asked to save
 * (dy_inspector_save_draft). KEY (const DdbValue *, NULL for a new item) is the item's key;
 * DRAFT (const DyInspectorDraft *) holds its unstaged edit, or is NULL when there is none
 * (then any draft kept for the item is obsolete). Both are valid during the emission.
 *
 * Key attributes cannot be edited: an item's key is its identity, so a changed key would be
 * another item. The editor refuses such an edit (naming the attribute) rather than turning it
 * into a create plus a delete behind the user's back; New Item and Delete Item say that
 * explicitly. */

GtkWidget *dy_inspector_new (void);
/* NULL shows the empty state. TITLE names the item (its key). Leaves New Item mode. */
void dy_inspector_set_item (DyInspector *self, DyItem *item, const char *title);
DyItem *dy_inspector_get_item (DyInspector *self);
/* The table's TTL attribute (NULL: none, or TTL is off): its row says when the item expires
 * ("in 3 days", "expired 4 hours ago, awaiting deletion"). */
void dy_inspector_set_ttl_attribute (DyInspector *self, const char *name);
/* The table's key schema (SK_NAME NULL without a sort key), from DescribeTable: the editor
 * checks the key attributes against it and New Item starts from it. Until it is known,
 * nothing can be staged. */
void dy_inspector_set_key_schema (DyInspector *self, const char *pk_name, DdbType pk_type,
                                  const char *sk_name, DdbType sk_type);
gboolean dy_inspector_get_has_key_schema (DyInspector *self);
/* The key schema could not be read: MESSAGE says why (and what to do), in place of "not known
 * yet", when something is to be staged. */
void dy_inspector_set_key_schema_error (DyInspector *self, const char *message);
/* Opens the editor on a new item holding the key attributes (empty values to fill in). */
void dy_inspector_new_item (DyInspector *self);
gboolean dy_inspector_get_creating (DyInspector *self);

/* The tree's rows (GtkTreeListRow of DyNode), for tests and keyboard navigation. */
GListModel *dy_inspector_get_tree_model (DyInspector *self);
/* The DynamoDB JSON in the editor. Newly allocated. */
char *dy_inspector_dup_json_text (DyInspector *self);
/* Replaces the editor's text as typing would (validation follows after a short pause). */
void dy_inspector_set_json_text (DyInspector *self, const char *text);
/* The plain JSON view's text (tagged form of core/plainjson). Newly allocated. */
char *dy_inspector_dup_plain_text (DyInspector *self);

/* Validates the editor's text now instead of after the typing pause. */
void dy_inspector_validate_now (DyInspector *self);
/* The last validation's problem ("message; attribute path: a.b" as core/ddbjson words it), or
 * NULL when the text is a valid item. */
const char *dy_inspector_get_error (DyInspector *self);
/* TRUE when the text is valid, differs from what was loaded or last staged, and can be
 * staged (the "inspector.stage" action is enabled). */
gboolean dy_inspector_get_can_stage (DyInspector *self);
/* The per-path diff (GPtrArray of DdbDiffEntry, new reference) from the item as loaded to the
 * valid edited item; empty when nothing differs or the text is invalid. */
GPtrArray *dy_inspector_get_diff (DyInspector *self);

/* The outcome of a "stage" emission: ERROR NULL on success. The inspector then takes the
 * staged text as its new starting point and says what was staged. */
void dy_inspector_report_staged (DyInspector *self, DyInspectorStage kind, const GError *error);
/* The key attributes of the item shown (a new map), or NULL for none, a new item, or while the
 * key schema is not known. */
DdbValue *dy_inspector_dup_key (DyInspector *self);
/* TRUE when the editor's text differs from what it loaded (typed, not staged). */
gboolean dy_inspector_get_has_draft (DyInspector *self);
/* Emits "draft" for the item shown now (e.g. before the window closes). */
void dy_inspector_save_draft (DyInspector *self);
/* Puts DRAFT's text back into the editor of the item shown now (its key must be the item's, or
 * a new item shown for a new item's draft), validated, marked as a draft. */
void dy_inspector_restore_draft (DyInspector *self, const DyInspectorDraft *draft);

/* Shows what is already staged for the item (KIND as DyInspectorStage, TARGET the staged
 * item for an update or create), or that nothing is (KIND < 0, TARGET NULL: the item as
 * loaded). The editor then shows that item, so edits build on it, unless it holds unsaved
 * edits, which are never replaced. */
void dy_inspector_show_staged (DyInspector *self, int kind, const DdbValue *target);

G_END_DECLS
