/* dy-application.c: the application object: actions, accelerators, the window. */
#define G_LOG_DOMAIN "dynoscope-application"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "app/dy-application.h"
#include "app/dy-window.h"
#include "dynoscope-resources.h"

#ifdef DYNOSCOPE_DEVELOPMENT
#define APPLICATION_ID "io.github.dynoscope.Dynoscope.Devel"
#else
#define APPLICATION_ID "io.github.dynoscope.Dynoscope"
#endif

struct _DyApplication {
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (DyApplication, dy_application, ADW_TYPE_APPLICATION)

static DyWindow *
get_window (DyApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    {
      window = GTK_WINDOW (dy_window_new (ADW_APPLICATION (self)));
      /* DYNOSCOPE_NO_DEMO: for people who know the demo and for tests of other databases. */
      if (g_getenv ("DYNOSCOPE_NO_DEMO") == NULL)
        dy_window_open_demo (DY_WINDOW (window));
    }
  return DY_WINDOW (window);
}

static void
dy_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (get_window (DY_APPLICATION (app))));
}

static void
dy_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  DyWindow *window = get_window (DY_APPLICATION (app));

  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);

      if (path != NULL)
        dy_window_open_database (window, path, TRUE);
    }
  gtk_window_present (GTK_WINDOW (window));
}

/* Each window is asked to close as its close button does, so that one holding unstaged edits
 * asks first (and may stay open); the application ends with its last window. */
static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GList *windows = g_list_copy (gtk_application_get_windows (GTK_APPLICATION (user_data)));

  /* closing one may destroy it, and change the application's list */
  for (GList *l = windows; l != NULL; l = l->next)
    g_object_ref (l->data);
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free_full (windows, g_object_unref);
}

static void
about_action (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *developers[] = { "The Dynoscope authors", NULL };

  adw_show_about_window (gtk_application_get_active_window (app),
                         "application-name", _("Dynoscope"),
                         "application-icon", APPLICATION_ID,
                         "version", PACKAGE_VERSION,
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "comments", _("Browse DynamoDB tables and their item collections"),
                         "developers", developers,
                         NULL);
}

static const GActionEntry app_actions[] = {
  { .name = "quit", .activate = quit_action },
  { .name = "about", .activate = about_action },
};

static void
dy_application_startup (GApplication *app)
{
  static const char *quit_accels[] = { "<Control>q", NULL };

  G_APPLICATION_CLASS (dy_application_parent_class)->startup (app);
  gtk_source_init ();
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions),
                                   app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
}

static void
dy_application_class_init (DyApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->activate = dy_application_activate;
  app_class->open = dy_application_open;
  app_class->startup = dy_application_startup;
  dynoscope_register_resource ();
}

static void
dy_application_init (DyApplication *self)
{
}

void
dy_application_prepare_environment (void)
{
  /* With the cairo renderer (chosen for remote X, or where GL is broken) GTK never draws with
   * GL, but GDK still loads the whole GL stack at start to pick visuals: with Mesa's software
   * driver that is libLLVM, some 45 MB and a good part of the start time. */
  if (g_strcmp0 (g_getenv ("GSK_RENDERER"), "cairo") == 0 && g_getenv ("GDK_DEBUG") == NULL)
    g_setenv ("GDK_DEBUG", "gl-disable", TRUE);
}

DyApplication *
dy_application_new (void)
{
  return g_object_new (DY_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       /* The Devel build shares the resources of the released one. */
                       "resource-base-path", "/io/github/dynoscope/Dynoscope",
                       NULL);
}
