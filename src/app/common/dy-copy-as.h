/* dy-copy-as.h: "Copy as" for a request: the program codegen writes for a language, targeting
 * the view's connection, put on the clipboard. Shared by Show Request and the expression builder. */
#pragma once

#include <gtk/gtk.h>
#include <jansson.h>

#include "app/connections/dy-connection.h"
#include "codegen/codegen.h"
#include "model/keys.h"

G_BEGIN_DECLS

/* What a program written for CONNECTION targets: a profile's name and region, an endpoint's URL
 * and region; a database file is reached through `dynoscope-cli --db PATH serve` on its default
 * address. Borrowed from CONNECTION. A NULL CONNECTION (a request of no connection, such as a
 * model's): the SDK's default configuration. */
void dy_copy_as_target (DyConnection *connection, DdbCodegenTarget *target);

/* A menu of the languages ("AWS CLI", "Python", ...) whose items activate ACTION (such as
 * "view.copy-as") with the language's name ("python") as its string parameter. */
GMenuModel *dy_copy_as_menu_new (const char *action);

/* The program for LANG_NAME (CONNECTION may be NULL, as for dy_copy_as_target), or NULL with the error (DynamoDB's, for a request it would refuse). */
char *dy_copy_as_program (DyConnection *connection, const char *lang_name, const char *operation,
                          json_t *request, GError **error);

/* The fan-out Query program for LANG_NAME that one shard ADVICE of REPORT needs (CONNECTION as
 * for dy_copy_as_target), or NULL with the error. */
char *dy_copy_as_fanout_program (DyConnection *connection, const char *lang_name,
                                 const DdbKeysReport *report, const DdbKeysShardAdvice *advice,
                                 GError **error);

G_END_DECLS
