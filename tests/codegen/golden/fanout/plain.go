// Query Orders once per suffix, :pk = TENANT#bigco#01 … TENANT#bigco#10 (10 Queries) on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// go get github.com/aws/aws-sdk-go-v2/config github.com/aws/aws-sdk-go-v2/service/dynamodb, then: go run .
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func main() {
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx, config.WithSharedConfigProfile("dev"), config.WithRegion("eu-west-1"))
	if err != nil {
		log.Fatal(err)
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String("http://127.0.0.1:8000")
	})
	input := &dynamodb.QueryInput{
		TableName: aws.String("Orders"),
		KeyConditionExpression: aws.String("#pk = :pk"),
		ExpressionAttributeNames: map[string]string{"#pk": "TenantShard"},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: "TENANT#bigco#01"},
		},
	}
	const placeholder = ":pk"
	const prefix = "TENANT#bigco#"
	var suffixes []string
	for n := 1; n <= 10; n++ {
		suffixes = append(suffixes, fmt.Sprintf("%02d", n))
	}
	// The shards' Queries in parallel; their items merged in suffix order, each shard's in the
	// order its Query returns them (by the sort key).
	shards := make([][]map[string]types.AttributeValue, len(suffixes))
	errs := make([]error, len(suffixes))
	var wg sync.WaitGroup
	for i, suffix := range suffixes {
		wg.Add(1)
		go func(i int, suffix string) {
			defer wg.Done()
			shard := *input
			shard.ExpressionAttributeValues = map[string]types.AttributeValue{}
			for k, v := range input.ExpressionAttributeValues {
				shard.ExpressionAttributeValues[k] = v
			}
			shard.ExpressionAttributeValues[placeholder] = &types.AttributeValueMemberS{Value: prefix + suffix}
			// Each call reads at most 1 MB (or Limit items): follow LastEvaluatedKey to the end.
			for {
				out, err := client.Query(ctx, &shard)
				if err != nil {
					errs[i] = err
					return
				}
				shards[i] = append(shards[i], out.Items...)
				if out.LastEvaluatedKey == nil {
					return
				}
				shard.ExclusiveStartKey = out.LastEvaluatedKey
			}
		}(i, suffix)
	}
	wg.Wait()
	for i, items := range shards {
		if errs[i] != nil {
			log.Fatal(errs[i])
		}
		for _, item := range items {
			fmt.Println(show(item))
		}
	}
}

// show is the JSON text of an item, binary in base64 as in DynamoDB JSON.
func show(item map[string]types.AttributeValue) string {
	m := map[string]any{}
	for k, v := range item {
		m[k] = plain(v)
	}
	text, err := json.Marshal(m)
	if err != nil {
		log.Fatal(err)
	}
	return string(text)
}

func plain(v types.AttributeValue) any {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return map[string]any{"S": v.Value}
	case *types.AttributeValueMemberN:
		return map[string]any{"N": v.Value}
	case *types.AttributeValueMemberB:
		return map[string]any{"B": v.Value}
	case *types.AttributeValueMemberBOOL:
		return map[string]any{"BOOL": v.Value}
	case *types.AttributeValueMemberNULL:
		return map[string]any{"NULL": v.Value}
	case *types.AttributeValueMemberM:
		m := map[string]any{}
		for k, e := range v.Value {
			m[k] = plain(e)
		}
		return map[string]any{"M": m}
	case *types.AttributeValueMemberL:
		l := []any{}
		for _, e := range v.Value {
			l = append(l, plain(e))
		}
		return map[string]any{"L": l}
	case *types.AttributeValueMemberSS:
		return map[string]any{"SS": v.Value}
	case *types.AttributeValueMemberNS:
		return map[string]any{"NS": v.Value}
	case *types.AttributeValueMemberBS:
		return map[string]any{"BS": v.Value}
	}
	return nil
}
