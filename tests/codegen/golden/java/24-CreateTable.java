// CreateTable Codegen.Tables-1 on http://127.0.0.1:8000 (profile dev, region eu-west-1)
// Needs software.amazon.awssdk:dynamodb (the AWS SDK for Java v2) on the class path.
import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.*;

public class DynamoDbRequest {
    public static void main(String[] args) throws InterruptedException {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .region(Region.of("eu-west-1"))
                .credentialsProvider(ProfileCredentialsProvider.create("dev"))
                .endpointOverride(URI.create("http://127.0.0.1:8000"))
                .build()) {
            CreateTableRequest request = CreateTableRequest.builder()
                .tableName("Codegen.Tables-1")
                .attributeDefinitions(List.of(
                    AttributeDefinition.builder().attributeName("pk").attributeType("S").build(),
                    AttributeDefinition.builder().attributeName("sk").attributeType("N").build(),
                    AttributeDefinition.builder().attributeName("owner").attributeType("B").build()
                ))
                .keySchema(List.of(
                    KeySchemaElement.builder().attributeName("pk").keyType("HASH").build(),
                    KeySchemaElement.builder().attributeName("sk").keyType("RANGE").build()
                ))
                .billingMode("PROVISIONED")
                .provisionedThroughput(ProvisionedThroughput.builder()
                    .readCapacityUnits(5L)
                    .writeCapacityUnits(40000L)
                    .build())
                .globalSecondaryIndexes(List.of(
                    GlobalSecondaryIndex.builder()
                        .indexName("byOwner")
                        .keySchema(List.of(
                            KeySchemaElement.builder()
                                .attributeName("owner")
                                .keyType("HASH")
                                .build()
                        ))
                        .projection(Projection.builder()
                            .projectionType("INCLUDE")
                            .nonKeyAttributes(List.of(
                                "title",
                                "q'\"\\ $HOME `id` $(id) ${x} \n\r\t \000 end é 🚀 שלום مرحبا \u202e\u2066 \u2028 {x} %s %% \u007f"
                            ))
                            .build())
                        .provisionedThroughput(ProvisionedThroughput.builder()
                            .readCapacityUnits(1L)
                            .writeCapacityUnits(1L)
                            .build())
                        .build()
                ))
                .localSecondaryIndexes(List.of(
                    LocalSecondaryIndex.builder()
                        .indexName("bySk")
                        .keySchema(List.of(
                            KeySchemaElement.builder().attributeName("pk").keyType("HASH").build(),
                            KeySchemaElement.builder().attributeName("sk").keyType("RANGE").build()
                        ))
                        .projection(Projection.builder().projectionType("KEYS_ONLY").build())
                        .build()
                ))
                .streamSpecification(StreamSpecification.builder()
                    .streamEnabled(true)
                    .streamViewType("NEW_AND_OLD_IMAGES")
                    .build())
                .build();
            CreateTableResponse response = client.createTable(request);
            System.out.println(response);
        }
    }
}
