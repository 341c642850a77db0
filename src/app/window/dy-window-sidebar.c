/* dy-window-sidebar.c: the main window's sidebar: the connections and, under each, its tables
 * (a GtkTreeListModel), with their state (loading, error, who an AWS connection is signed in
 * as, a Sign In button when its session needs one) and activation. */
#define G_LOG_DOMAIN "dynoscope-window"

#include <glib/gi18n.h>

#include "app/common/dy-describe.h"
#include "app/connections/dy-sign-in.h"
#include "app/window/dy-window-private.h"

static GListModel *
sidebar_children (gpointer item, gpointer user_data)
{
  if (DY_IS_CONNECTION (item))
    return g_object_ref (dy_connection_get_tables (DY_CONNECTION (item)));
  return NULL;
}

/* The connection a connection row shows, or NULL. New reference. */
static DyConnection *
list_item_connection (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GObject *object = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (DY_IS_CONNECTION (object))
    return DY_CONNECTION (object);
  g_clear_object (&object);
  return NULL;
}

static void
sidebar_sign_in_clicked (GtkButton *button, GtkListItem *list_item)
{
  g_autoptr (DyConnection) c = list_item_connection (list_item);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (button));

  if (c != NULL)
    dy_sign_in_present (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, c);
}

/* Right-click on a row: the "Mark As" menu of its connection (selected first: the menu's
 * action marks the sidebar's selection). */
static void
sidebar_pressed (GtkGestureClick *gesture, int n_press, double x, double y,
                 GtkListItem *list_item)
{
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkRoot *root = gtk_widget_get_root (widget);
  DyWindow *window = DY_IS_WINDOW (root) ? DY_WINDOW (root) : NULL;
  const char *table;
  DyConnection *c;

  if (window == NULL || gtk_list_item_get_item (list_item) == NULL)
    return;
  gtk_selection_model_select_item (gtk_list_view_get_model (window->sidebar_list),
                                   gtk_list_item_get_position (list_item), TRUE);
  c = dy_window_sidebar_selection (window, &table);
  if (c != NULL)
    dy_window_marks_popup (window, widget, c, x, y);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* The region menu: the same profile in another of AWS's commercial regions, one click away. */

static DyConnection *
find_in_region (DyWindow *window, DyConnection *base, const char *region)
{
  GListModel *model = dy_window_get_connections (window);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (DyConnection) c = g_list_model_get_item (model, i);

      if (dy_connection_get_kind (c) == DY_CONNECTION_PROFILE
          && dy_connection_get_region_chosen (c)
          && dy_connection_is_environment (c) == dy_connection_is_environment (base)
          && g_strcmp0 (dy_connection_get_profile (c), dy_connection_get_profile (base)) == 0
          && g_strcmp0 (dy_connection_get_region (c), region) == 0)
        return c;
    }
  return NULL;
}

static void
open_region (DyWindow *window, DyConnection *base, const char *region)
{
  DyConnection *c = find_in_region (window, base, region);

  if (c == NULL)
    {
      g_autoptr (DyConnection) fresh = dy_connection_new_in_region (base, region);

      g_list_store_append (window->connections, fresh);
      c = fresh;
    }
  dy_window_expand_connection (window, c);
}

static void
region_activated (GtkListBox *box, GtkListBoxRow *row, GtkListItem *list_item)
{
  g_autoptr (DyConnection) c = list_item_connection (list_item);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (box));
  const char *region = g_object_get_data (G_OBJECT (row), "region");
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (box), GTK_TYPE_POPOVER);

  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
  if (c != NULL && DY_IS_WINDOW (root))
    open_region (DY_WINDOW (root), c, region);
}

/* Built when first opened: most rows never need it. */
static void
region_menu_create (GtkMenuButton *button, gpointer user_data)
{
  GtkListItem *list_item = user_data;
  GtkWidget *popover;
  GtkWidget *scrolled;
  GtkWidget *box;
  GtkWidget *list;
  GtkWidget *heading;
  g_autoptr (DyConnection) c = list_item_connection (list_item);
  const char *current = c != NULL ? dy_connection_get_region (c) : NULL;

  if (gtk_menu_button_get_popover (button) != NULL)
    return;
  list = gtk_list_box_new ();
  gtk_list_box_set_activate_on_single_click (GTK_LIST_BOX (list), TRUE);
  gtk_widget_add_css_class (list, "navigation-sidebar");
  for (const char *const *r = dy_aws_regions (); *r != NULL; r++)
    {
      GtkWidget *label = gtk_label_new (*r);
      GtkWidget *row = gtk_list_box_row_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      if (g_strcmp0 (*r, current) == 0)
        gtk_widget_add_css_class (label, "heading");
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data_full (G_OBJECT (row), "region", g_strdup (*r), g_free);
      gtk_list_box_append (GTK_LIST_BOX (list), row);
    }
  g_signal_connect (list, "row-activated", G_CALLBACK (region_activated), list_item);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), list);
  /* TRANSLATORS: heading of the region menu of an AWS connection in the sidebar */
  heading = gtk_label_new (_("Open in Region"));
  gtk_widget_add_css_class (heading, "heading");
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), scrolled);
  popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  gtk_menu_button_set_popover (button, popover);
}

static void
sidebar_setup (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *title_line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *subtitle = gtk_label_new (NULL);
  GtkWidget *error = gtk_label_new (NULL);
  GtkWidget *identity = gtk_label_new (NULL);
  /* TRANSLATORS: the button under a connection whose AWS session has to sign in again */
  GtkWidget *sign_in = gtk_button_new_with_label (_("Sign In…"));
  GtkWidget *region;
  GtkWidget *mark = gtk_image_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (subtitle, "caption");
  gtk_widget_add_css_class (subtitle, "dim-label");
  /* Errors wrap: the action they suggest must be readable whole. */
  gtk_label_set_xalign (GTK_LABEL (error), 0);
  gtk_label_set_wrap (GTK_LABEL (error), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (error), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (error), 30);
  gtk_label_set_selectable (GTK_LABEL (error), TRUE);
  gtk_widget_add_css_class (error, "caption");
  gtk_widget_add_css_class (error, "error");
  gtk_label_set_xalign (GTK_LABEL (identity), 0);
  /* Wraps: a role's session name and the expiry are both worth reading. */
  gtk_label_set_wrap (GTK_LABEL (identity), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (identity), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (identity), 30);
  gtk_widget_add_css_class (identity, "caption");
  gtk_widget_add_css_class (identity, "dim-label");
  gtk_widget_set_visible (identity, FALSE);
  gtk_widget_set_halign (sign_in, GTK_ALIGN_START);
  gtk_widget_set_margin_top (sign_in, 4);
  gtk_widget_set_margin_bottom (sign_in, 4);
  gtk_widget_add_css_class (sign_in, "suggested-action");
  gtk_widget_add_css_class (sign_in, "pill");
  gtk_widget_set_visible (sign_in, FALSE);
  g_signal_connect (sign_in, "clicked", G_CALLBACK (sidebar_sign_in_clicked), list_item);
  region = gtk_menu_button_new ();
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (region), "mark-location-symbolic");
  gtk_menu_button_set_has_frame (GTK_MENU_BUTTON (region), FALSE);
  /* TRANSLATORS: tooltip of the button that opens an AWS profile in another region */
  gtk_widget_set_tooltip_text (region, _("Open in Another Region"));
  gtk_widget_set_valign (region, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (region, "flat");
  gtk_widget_set_visible (region, FALSE);
  gtk_menu_button_set_create_popup_func (GTK_MENU_BUTTON (region), region_menu_create, list_item,
                                         NULL);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  /* The region button shares the title's line only: the lines under it keep the width. */
  gtk_widget_set_hexpand (label, TRUE);
  /* a production or read-only connection's sign */
  gtk_widget_set_valign (mark, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (mark, 4);
  gtk_widget_add_css_class (mark, "connection-mark");
  gtk_widget_set_visible (mark, FALSE);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (sidebar_pressed), list_item);
  gtk_widget_add_controller (box, GTK_EVENT_CONTROLLER (click));
  gtk_box_append (GTK_BOX (title_line), label);
  gtk_box_append (GTK_BOX (title_line), mark);
  gtk_box_append (GTK_BOX (title_line), region);
  gtk_box_append (GTK_BOX (texts), title_line);
  gtk_box_append (GTK_BOX (texts), subtitle);
  gtk_box_append (GTK_BOX (texts), identity);
  gtk_box_append (GTK_BOX (texts), error);
  gtk_box_append (GTK_BOX (texts), sign_in);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), texts);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  g_object_set_data (G_OBJECT (expander), "icon", icon);
  g_object_set_data (G_OBJECT (expander), "label", label);
  g_object_set_data (G_OBJECT (expander), "subtitle", subtitle);
  g_object_set_data (G_OBJECT (expander), "error", error);
  g_object_set_data (G_OBJECT (expander), "identity", identity);
  g_object_set_data (G_OBJECT (expander), "sign-in", sign_in);
  g_object_set_data (G_OBJECT (expander), "region", region);
  g_object_set_data (G_OBJECT (expander), "mark", mark);
  gtk_list_item_set_child (list_item, expander);
}

static const char *
connection_icon (DyConnection *c)
{
  if (dy_connection_get_error (c) != NULL)
    return "dialog-warning-symbolic";
  switch (dy_connection_get_kind (c))
    {
    case DY_CONNECTION_PROFILE:
      return "network-workgroup-symbolic";
    case DY_CONNECTION_ENDPOINT:
      return "network-server-symbolic";
    case DY_CONNECTION_DATABASE:
    default:
      return "drive-harddisk-symbolic";
    }
}

/* The sidebar says an error's name and what to do; the tooltip has the whole message. */
static char *
sidebar_error_text (const char *error)
{
  const char *colon;
  const char *hint;

  if (error == NULL)
    return NULL;
  colon = strstr (error, ": ");
  hint = strrchr (error, '\n');
  if (colon == NULL || hint == NULL || colon > hint)
    return g_strdup (error);
  return g_strdup_printf ("%.*s\n%s", (int) (colon - error), error, hint + 1);
}

/* The rows of a production connection (its own and its tables') are tinted, a read-only one's
 * marked more quietly; a connection's row shows the sign with a tooltip saying what it does. */
static void
sidebar_tint (GtkListItem *list_item, DyConnection *c, gboolean connection_row)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *row = gtk_widget_get_parent (expander);
  GtkWidget *mark = g_object_get_data (G_OBJECT (expander), "mark");
  DyConnectionMark m = c != NULL ? dy_connection_get_mark (c) : DY_CONNECTION_MARK_NORMAL;
  const char *icon = dy_window_mark_icon (m);
  g_autofree char *tooltip = c != NULL ? dy_window_mark_tooltip (c) : NULL;
  static const char *const classes[] = { NULL, "production-connection", "read-only-connection" };

  for (guint i = 1; i < G_N_ELEMENTS (classes); i++)
    if (row != NULL && i == (guint) m)
      gtk_widget_add_css_class (row, classes[i]);
    else if (row != NULL)
      gtk_widget_remove_css_class (row, classes[i]);
  if (icon != NULL)
    gtk_image_set_from_icon_name (GTK_IMAGE (mark), icon);
  gtk_widget_set_tooltip_text (mark, tooltip);
  gtk_widget_set_visible (mark, connection_row && icon != NULL);
}

/* A connection's row follows its error and loading state. */
static void
sidebar_update_connection (GtkListItem *list_item)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  g_autoptr (DyConnection) c = list_item_connection (list_item);
  GtkWidget *identity_label;
  const char *error;
  const char *identity;
  const char *where;
  g_autofree char *tooltip = NULL;
  g_autofree char *short_error = NULL;
  gboolean sign_in;

  if (c == NULL)
    return;
  error = dy_connection_get_error (c);
  identity = error == NULL ? dy_connection_get_identity (c) : NULL;
  sign_in = dy_connection_get_sign_in (c, NULL) != DDB_AWS_SIGN_IN_NONE;
  identity_label = g_object_get_data (G_OBJECT (expander), "identity");
  gtk_label_set_text (GTK_LABEL (identity_label), identity != NULL ? identity : "");
  gtk_widget_set_tooltip_text (identity_label, dy_connection_get_identity_tooltip (c));
  gtk_widget_set_visible (identity_label, identity != NULL);
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "sign-in"), sign_in);
  short_error = sidebar_error_text (error);
  where = dy_connection_get_path (c) != NULL ? dy_connection_get_path (c)
                                             : dy_connection_get_subtitle (c);
  tooltip = error != NULL ? g_strdup_printf ("%s\n%s", where, error) : g_strdup (where);
  gtk_image_set_from_icon_name (g_object_get_data (G_OBJECT (expander), "icon"),
                                connection_icon (c));
  gtk_label_set_text (g_object_get_data (G_OBJECT (expander), "error"),
                      error != NULL ? short_error : "");
  gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "error"), error != NULL);
  gtk_widget_set_tooltip_text (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)), tooltip);
  sidebar_tint (list_item, c, TRUE);
}

/* The connection a table row belongs to, or NULL. New reference. */
static DyConnection *
list_item_table_connection (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr (GtkTreeListRow) parent = row != NULL ? gtk_tree_list_row_get_parent (row) : NULL;
  GObject *object = parent != NULL ? gtk_tree_list_row_get_item (parent) : NULL;

  if (DY_IS_CONNECTION (object))
    return DY_CONNECTION (object);
  g_clear_object (&object);
  return NULL;
}

/* A table's row: its item count and size (or its status while not ACTIVE) under the name, the
 * whole description in the tooltip, once DescribeTable has answered. */
static void
sidebar_update_table (GtkListItem *list_item)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *subtitle = g_object_get_data (G_OBJECT (expander), "subtitle");
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr (GObject) object = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  g_autoptr (DyConnection) c = list_item_table_connection (list_item);
  const char *failed = NULL;
  json_t *table = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *tooltip = NULL;

  if (c != NULL && GTK_IS_STRING_OBJECT (object))
    table = dy_connection_get_table_description (
        c, gtk_string_object_get_string (GTK_STRING_OBJECT (object)), &failed);
  if (table != NULL)
    {
      g_autoptr (GPtrArray) rows = dy_describe_table_rows (table);

      summary = dy_describe_summary (table);
      tooltip = dy_describe_rows_to_text (rows);
    }
  gtk_label_set_text (GTK_LABEL (subtitle), summary != NULL ? summary : "");
  gtk_widget_set_visible (subtitle, summary != NULL);
  gtk_widget_set_tooltip_text (gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander)),
                               tooltip != NULL ? tooltip : failed);
  sidebar_tint (list_item, c, FALSE);
}

/* Remote connections list their tables when first opened, not at start: an account with many
 * profiles should not be called for each one every time the app starts. */
static void
sidebar_row_expanded (GtkTreeListRow *row)
{
  g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

  if (gtk_tree_list_row_get_expanded (row) && DY_IS_CONNECTION (object))
    dy_connection_ensure_tables (DY_CONNECTION (object));
}

static void
sidebar_bind (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = g_object_get_data (G_OBJECT (expander), "label");
  GtkWidget *subtitle = g_object_get_data (G_OBJECT (expander), "subtitle");
  GtkWidget *error = g_object_get_data (G_OBJECT (expander), "error");
  g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  if (DY_IS_CONNECTION (object))
    {
      DyConnection *c = DY_CONNECTION (object);
      const char *sub = dy_connection_get_subtitle (c);

      gtk_label_set_text (GTK_LABEL (label), dy_connection_get_title (c));
      gtk_widget_add_css_class (label, "heading");
      gtk_label_set_text (GTK_LABEL (subtitle), sub != NULL ? sub : "");
      gtk_widget_set_visible (subtitle, sub != NULL);
      /* A profile's other regions, one click away (not for a connection already moved); the
       * menu is built again for the connection this row now shows. */
      gtk_menu_button_set_popover (g_object_get_data (G_OBJECT (expander), "region"), NULL);
      gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "region"),
                              dy_connection_get_kind (c) == DY_CONNECTION_PROFILE
                                && !dy_connection_get_region_chosen (c));
      g_signal_connect_object (c, "notify::error", G_CALLBACK (sidebar_update_connection),
                               list_item, G_CONNECT_SWAPPED);
      g_signal_connect_object (c, "notify::identity", G_CALLBACK (sidebar_update_connection),
                               list_item, G_CONNECT_SWAPPED);
      g_signal_connect_object (c, "notify::mark", G_CALLBACK (sidebar_update_connection),
                               list_item, G_CONNECT_SWAPPED);
      g_signal_connect (row, "notify::expanded", G_CALLBACK (sidebar_row_expanded), NULL);
      sidebar_update_connection (list_item);
    }
  else
    {
      gtk_image_set_from_icon_name (g_object_get_data (G_OBJECT (expander), "icon"),
                                    "view-grid-symbolic");
      gtk_label_set_text (GTK_LABEL (label),
                          gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
      gtk_widget_remove_css_class (label, "heading");
      gtk_widget_set_visible (error, FALSE);
      gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "identity"), FALSE);
      gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "sign-in"), FALSE);
      gtk_widget_set_visible (g_object_get_data (G_OBJECT (expander), "region"), FALSE);
      {
        g_autoptr (DyConnection) c = list_item_table_connection (list_item);

        if (c != NULL)
          {
            g_signal_connect_object (c, "tables-described", G_CALLBACK (sidebar_update_table),
                                     list_item, G_CONNECT_SWAPPED);
            g_signal_connect_object (c, "notify::mark", G_CALLBACK (sidebar_update_table),
                                     list_item, G_CONNECT_SWAPPED);
          }
      }
      sidebar_update_table (list_item);
    }
}

static void
sidebar_unbind (GtkSignalListItemFactory *factory, GtkListItem *list_item, gpointer user_data)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);
  g_autoptr (GObject) object = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (DY_IS_CONNECTION (object))
    {
      g_signal_handlers_disconnect_by_func (object, sidebar_update_connection, list_item);
      g_signal_handlers_disconnect_by_func (row, sidebar_row_expanded, NULL);
    }
  else
    {
      g_autoptr (DyConnection) c = list_item_table_connection (list_item);

      if (c != NULL)
        g_signal_handlers_disconnect_by_func (c, sidebar_update_table, list_item);
    }
}

void
dy_window_sidebar_activate (DyWindow *self, guint position)
{
  GListModel *model = G_LIST_MODEL (gtk_list_view_get_model (self->sidebar_list));
  g_autoptr (GtkTreeListRow) row = g_list_model_get_item (model, position);
  g_autoptr (GObject) object = gtk_tree_list_row_get_item (row);
  g_autoptr (GtkTreeListRow) parent = NULL;
  g_autoptr (GObject) connection = NULL;

  if (!GTK_IS_STRING_OBJECT (object))
    {
      DyConnection *c = DY_CONNECTION (object);

      /* A connection that failed is retried by clicking it, as its error message says. */
      if (dy_connection_get_error (c) != NULL && !dy_connection_get_loading (c))
        {
          /* The session first resolves again from the files: signing in elsewhere (aws sso
           * login in a terminal) needs no restart. */
          dy_connection_retry (c);
          gtk_tree_list_row_set_expanded (row, TRUE);
        }
      else
        gtk_tree_list_row_set_expanded (row, !gtk_tree_list_row_get_expanded (row));
      return;
    }
  parent = gtk_tree_list_row_get_parent (row);
  connection = gtk_tree_list_row_get_item (parent);
  dy_window_open_table (self, DY_CONNECTION (connection),
                        gtk_string_object_get_string (GTK_STRING_OBJECT (object)));
}

void
dy_window_sidebar_init (DyWindow *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkTreeListModel *tree;
  GtkSingleSelection *selection;
  g_autoptr (DyConnection) environment = dy_connection_new_environment (NULL);

  /* Not autoexpanded: database files open on their tables, remote connections stay closed
   * until asked for (see sidebar_row_expanded). */
  tree = gtk_tree_list_model_new (g_object_ref (G_LIST_MODEL (self->connections)), FALSE, FALSE,
                                  sidebar_children, NULL, NULL);
  selection = gtk_single_selection_new (G_LIST_MODEL (tree));
  gtk_single_selection_set_autoselect (selection, FALSE);
  g_signal_connect (factory, "setup", G_CALLBACK (sidebar_setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (sidebar_bind), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (sidebar_unbind), NULL);
  gtk_list_view_set_factory (self->sidebar_list, factory);
  gtk_list_view_set_model (self->sidebar_list, GTK_SELECTION_MODEL (selection));
  g_object_unref (factory);
  g_object_unref (selection);
  /* Keys in the environment (aws-vault, granted, CI) are a connection of their own, before
   * the profiles (listed later, on a thread). */
  if (environment != NULL)
    g_list_store_append (self->connections, environment);
}

DyConnection *
dy_window_sidebar_selection (DyWindow *self, const char **table)
{
  GtkSingleSelection *sidebar = GTK_SINGLE_SELECTION (gtk_list_view_get_model (self->sidebar_list));
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (sidebar);
  g_autoptr (GObject) item = NULL;
  g_autoptr (GtkTreeListRow) parent = NULL;
  g_autoptr (GObject) owner = NULL;

  *table = NULL;
  if (row == NULL)
    return NULL;
  item = gtk_tree_list_row_get_item (row);
  if (DY_IS_CONNECTION (item))
    return DY_CONNECTION (item);
  parent = gtk_tree_list_row_get_parent (row);
  owner = parent != NULL ? gtk_tree_list_row_get_item (parent) : NULL;
  if (GTK_IS_STRING_OBJECT (item) && DY_IS_CONNECTION (owner))
    {
      *table = gtk_string_object_get_string (GTK_STRING_OBJECT (item));
      return DY_CONNECTION (owner);
    }
  return NULL;
}
