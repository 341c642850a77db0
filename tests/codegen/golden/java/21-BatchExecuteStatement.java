// BatchExecuteStatement on http://127.0.0.1:8000 (profile dev, region eu-west-1)
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
            BatchExecuteStatementRequest request = BatchExecuteStatementRequest.builder()
                .statements(List.of(
                    BatchStatementRequest.builder()
                        .statement("SELECT * FROM \"Codegen\" WHERE pk = ? AND sk = ?")
                        .parameters(List.of(
                            AttributeValue.builder().s("p#1").build(),
                            AttributeValue.builder().n("1").build()
                        ))
                        .consistentRead(true)
                        .build(),
                    BatchStatementRequest.builder()
                        .statement("SELECT v FROM \"Codegen\" WHERE pk = ? AND sk = ?")
                        .parameters(List.of(
                            AttributeValue.builder().s("p#1").build(),
                            AttributeValue.builder()
                                .n("12345678901234567890123456789012345678")
                                .build()
                        ))
                        .build()
                ))
                .build();
            BatchExecuteStatementResponse response = client.batchExecuteStatement(request);
            System.out.println(response);
        }
    }
}
