/* dy-application.h: the Dynoscope application: one window, opened on the demo database and on
 * any database files given on the command line. */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define DY_TYPE_APPLICATION (dy_application_get_type ())
G_DECLARE_FINAL_TYPE (DyApplication, dy_application, DY, APPLICATION, AdwApplication)

DyApplication *dy_application_new (void);
/* Settles what must be in the environment before GTK starts; call first thing in main(), while
 * the process has one thread. */
void dy_application_prepare_environment (void);

G_END_DECLS
