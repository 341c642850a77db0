/* dy-marks.h: which connections are production or read-only, as the settings keep it: a mark
 * given to the connection itself ("connection-marks": its key, dy_connection_dup_key, to
 * "production", "read-only" or "normal", set from the sidebar or Preferences) first; else glob
 * patterns (GPatternSpec: * and ?) on its profile name and AWS account id
 * ("read-only-patterns", then "production-patterns"). An explicit "normal" overrides the
 * patterns. */
#pragma once

#include <gio/gio.h>

#include "app/connections/dy-connection.h"

G_BEGIN_DECLS

/* "normal", "production", "read-only": the settings' words. */
const char *dy_marks_to_string (DyConnectionMark mark);
gboolean dy_marks_parse (const char *text, DyConnectionMark *mark);

/* Whether one of PATTERNS (NULL-terminated; empty ones ignored) matches one of NAMES (an array
 * of N_NAMES strings, NULL entries skipped). */
gboolean dy_marks_patterns_match (const char *const *patterns, const char *const *names,
                                  guint n_names);
/* The names CONNECTION's patterns are matched against: its profile name and its account id
 * (once STS has said it), each NULL when it has none. */
void dy_marks_connection_names (DyConnection *connection, const char *names[2]);

/* The mark SETTINGS give CONNECTION (saved for it, else by pattern). */
DyConnectionMark dy_marks_resolve (GSettings *settings, DyConnection *connection);
/* Sets CONNECTION's mark to what SETTINGS give it. */
void dy_marks_apply (GSettings *settings, DyConnection *connection);
/* The mark saved for CONNECTION itself (for a profile opened in another region, the one saved
 * for the profile in any region); FALSE when none is: the patterns decide. */
gboolean dy_marks_get_saved (GSettings *settings, DyConnection *connection,
                             DyConnectionMark *mark);
/* Saves MARK for CONNECTION (and applies it). */
void dy_marks_save (GSettings *settings, DyConnection *connection, DyConnectionMark mark);
/* Forgets CONNECTION's own mark: the patterns decide again. */
void dy_marks_forget (GSettings *settings, DyConnection *connection);

/* Patterns as typed in Preferences ("prod-*, 123456789012": commas or spaces between them) to
 * a list, and back. */
GStrv dy_marks_split_patterns (const char *text);
char *dy_marks_join_patterns (const char *const *patterns);

/* Keeps the marks of the connections in CONNECTIONS (a GListModel of DyConnection) as SETTINGS
 * say, as connections come, learn their account, and as the settings change, until CONNECTIONS
 * is finalized. */
void dy_marks_watch (GSettings *settings, GListModel *connections);

G_END_DECLS
