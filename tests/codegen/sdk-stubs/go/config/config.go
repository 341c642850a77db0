// Package config: the stand-in's part of github.com/aws/aws-sdk-go-v2/config (see ../README).
package config

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

type LoadOptions struct {
	Region              string
	SharedConfigProfile string
}

type LoadOptionsFunc func(*LoadOptions) error

func LoadDefaultConfig(ctx context.Context, optFns ...func(*LoadOptions) error) (cfg aws.Config, err error) {
	return aws.Config{}, nil
}

func WithSharedConfigProfile(v string) LoadOptionsFunc {
	return func(o *LoadOptions) error { o.SharedConfigProfile = v; return nil }
}

func WithRegion(v string) LoadOptionsFunc {
	return func(o *LoadOptions) error { o.Region = v; return nil }
}
