/* workbench.h: AWS NoSQL Workbench data-model JSON read into a model and written back. Facets
 * are entities; what the format cannot hold (key templates, field lengths, access patterns)
 * travels in the top-level "x-dynoscope" member, which Workbench ignores. A file read and
 * written again is the same JSON, member order aside.
 *
 * For estimates (model/estimate.h), x-dynoscope also holds: patterns[].rate (requests per
 * second), .items (items one Query returns), .consistentRead, .transactional;
 * entities.<Facet>.writeRate, .transactionalWrites, .perCollection (items in the biggest item
 * collection), .itemSize (bytes, without sample items); and prices.<name> (model/prices.h): a
 * number, or {value, currency, region, source, checked}; an edited price is written whole, in
 * the object form unless it was read as a bare number. */
#pragma once

#include "model/model.h"

G_BEGIN_DECLS

#define DY_WORKBENCH_ERROR (dy_workbench_error_quark ())

typedef enum {
  DY_WORKBENCH_ERROR_INVALID, /* not a data model: a member missing or of the wrong type */
} DyWorkbenchErrorCode;

GQuark dy_workbench_error_quark (void);

/* Reads a Workbench model from JSON; fails naming the member at fault. */
DyModel *dy_workbench_read (json_t *json, GError **error);
DyModel *dy_workbench_read_file (const char *path, GError **error);

/* The model as Workbench JSON (a new reference). */
json_t *dy_workbench_write (const DyModel *model);

G_END_DECLS
