/* s3-cmd.h: `dynoscope-cli [--profile P] [--region R] s3 put s3://BUCKET/KEY FILE` and
 * `s3 ls s3://BUCKET[/PREFIX]`: an object written to S3, and a bucket's keys listed, through the
 * S3 client (net/s3.h) with the profile's credentials and the endpoint the AWS CLI would use
 * (--endpoint-url, else AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's). serve runs
 * `s3 put` to write exports into a bucket (cli/serve-s3.h). */
#pragma once

#include "cli/target.h"

/* Exit status: 0 success; 1 when S3 refuses or cannot be reached (the error on standard error
 * as S3 names it, "NoSuchBucket: …"), or on a read-only connection for put; 2 on a usage or
 * configuration error. */
int cli_s3_main (const CliTarget *target, int argc, char **argv);
