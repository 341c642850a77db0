/* dy-identity.h: who an AWS connection is signed in as: STS GetCallerIdentity's Arn with the
 * session's credentials, their expiration and the provider they came from, and how the
 * sidebar words that ("ReadOnly/alice · until 17:45 · IAM Identity Center"). */
#pragma once

#include <gio/gio.h>

#include "backend/backend.h"

G_BEGIN_DECLS

typedef struct {
  char *arn;         /* NULL: unknown (STS did not answer) */
  char *account;     /* NULL: unknown */
  char *method;      /* the provider, botocore's name ("sso", "env", ...), or NULL */
  gint64 expiration; /* seconds since the epoch; 0: long-term keys */
} DyIdentity;

void dy_identity_free (DyIdentity *identity);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (DyIdentity, dy_identity_free)

/* Fetches the credentials of BACKEND's session (a remote backend) and asks STS who they
 * belong to. Blocks: worker threads only. Fails only when there are no credentials; an STS
 * that does not answer (a local endpoint, no network) leaves ARN NULL. */
DyIdentity *dy_identity_fetch (DdbBackend *backend, GCancellable *cancellable, GError **error);

/* The Arn shortened for the sidebar: an assumed role's "Role/session", a user's name,
 * "root", a federated user's name; else the part after the account. */
char *dy_identity_short_arn (const char *arn);
/* A person's word for the provider METHOD ("IAM Identity Center", "assumed role", ...). */
const char *dy_identity_provider_label (const char *method);
/* The sidebar's line: "as NAME · until HH:MM · PROVIDER" (parts left out when unknown); an
 * unknown Arn reads "identity unknown". */
char *dy_identity_describe (const DyIdentity *identity);

G_END_DECLS
