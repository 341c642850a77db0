/* i18n.h: the locale and the message catalogs of every executable (the app, the CLI, serve).
 * Catalogs come from DYNOSCOPE_LOCALEDIR when it is set (the build's po folder, so that a
 * program run from the build folder speaks the language before any install: the demo script
 * sets it), else from the installed locale folder. GTK-free. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* setlocale (LC_ALL, ""), then binds and selects the GETTEXT_PACKAGE domain in UTF-8. When
 * LANGUAGE names a language but the locale is C (no LANG or LC_* set, as on a bare machine),
 * messages use C.UTF-8 so that gettext honours LANGUAGE; numbers and dates stay C's. */
void ddb_i18n_init (void);

/* The folder the catalogs are read from (DYNOSCOPE_LOCALEDIR, or LOCALEDIR). */
const char *ddb_i18n_localedir (void);

G_END_DECLS
