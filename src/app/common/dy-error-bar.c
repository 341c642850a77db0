/* dy-error-bar.c: a Retry button in a view's error bar (see dy-error-bar.h). */
#include "app/common/dy-error-bar.h"

GtkWidget *
dy_error_bar_add_button (GtkRevealer *revealer, const char *label, const char *action,
                         const char *tooltip)
{
  GtkWidget *message = gtk_revealer_get_child (revealer);
  GtkWidget *box;
  GtkWidget *button;

  g_return_val_if_fail (GTK_IS_LABEL (message), NULL);
  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  button = gtk_button_new_with_mnemonic (label);
  /* the bar's colours go to the box, around the message and the button */
  g_object_ref (message);
  gtk_revealer_set_child (revealer, NULL);
  gtk_widget_remove_css_class (message, "error-bar");
  gtk_widget_set_hexpand (message, TRUE);
  gtk_box_append (GTK_BOX (box), message);
  g_object_unref (message);
  gtk_widget_add_css_class (box, "error-bar");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_visible (button, FALSE);
  gtk_box_append (GTK_BOX (box), button);
  gtk_revealer_set_child (revealer, box);
  return button;
}
