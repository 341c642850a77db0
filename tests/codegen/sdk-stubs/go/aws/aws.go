// Package aws: the stand-in's part of github.com/aws/aws-sdk-go-v2/aws (see ../README).
package aws

// Config is the configuration LoadDefaultConfig returns.
type Config struct {
	Region string
}

func String(v string) *string { return &v }
func Int32(v int32) *int32    { return &v }
func Int64(v int64) *int64    { return &v }
func Bool(v bool) *bool       { return &v }

func ToString(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
